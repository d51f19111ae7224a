// JSON in and out without ever passing a number through a double.
// Request bodies are parsed with lossless-json: every number stays a JsonNumber that keeps its
// literal text, so the validator can tell 7 from 7.0 and 2^63 from 2^63-1. Replies may hold
// bigint values, which lossless-json's stringify writes as exact JSON integers.
import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

// Required, not imported: its module build is ten files, each a round trip to the TypeScript
// loader's thread on Node 20 when the reference starts in Playwright's runner; the CommonJS
// build is one. The probes use this same copy (variants/probe.ts).
export const losslessJson = createRequire(import.meta.url)('lossless-json') as typeof LosslessJson;
const { parse, stringify } = losslessJson;

/** A JSON number exactly as it was written in the request body. */
export class JsonNumber {
  constructor(readonly literal: string) {}
  toString(): string {
    return this.literal;
  }
}

const toJsonNumber = (literal: string): JsonNumber => new JsonNumber(literal);

/**
 * Parses JSON text; numbers become JsonNumber. Throws (SyntaxError, or RangeError for absurd
 * nesting) on anything that is not exactly one JSON value; duplicate keys with different values
 * are refused too, since which of them wins would be a guess.
 */
export function parseJson(text: string): unknown {
  return parse(text, null, toJsonNumber);
}

/** Serializes a reply value; bigint values are written as exact JSON integers. */
export function serializeJson(value: unknown): string {
  return stringify(value) ?? 'null';
}

// fatal: malformed UTF-8 must be refused, not silently replaced with U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes UTF-8 bytes; undefined when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** True for a plain JSON object (not null, not an array, not a number). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof JsonNumber)
  );
}
