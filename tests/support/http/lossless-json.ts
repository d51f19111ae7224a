/**
 * Lossless JSON: response text is parsed without losing a digit.
 *
 * `JSON.parse` (and so Playwright's `response.json()`) rounds integers above 2^53 without a word,
 * which would let a target that corrupts large ids pass. Here every number keeps its literal text
 * (a LosslessNumber); exact integers are read from that text as BigInt.
 */
import { createRequire } from 'node:module';
import type * as LosslessJson from 'lossless-json';

// Required, not imported: its module build is ten files, each a round trip to Node 20's loader
// thread in the runner and in every worker; the CommonJS build is one (vocabulary/fast-check.ts).
const { isLosslessNumber, parse, stringify } = createRequire(import.meta.url)(
  'lossless-json',
) as typeof LosslessJson;
type LosslessNumber = LosslessJson.LosslessNumber;

export type JsonValue =
  null | boolean | string | LosslessNumber | JsonValue[] | { [key: string]: JsonValue };

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/**
 * Arrays and objects nested deeper are not parsed: the parser recurses, and a body of 200,000
 * brackets would overflow the stack (and every walk of the tree after it). No body of the
 * interface nests more than a few levels.
 */
export const MAX_NESTING = 1000;

/** Thrown for a body nested deeper than MAX_NESTING: it is not parsed. */
export class NestingTooDeep extends Error {
  constructor() {
    super(`arrays and objects deeper than ${MAX_NESTING} levels; the suite does not parse them`);
  }
}

/**
 * Walks the brackets of JSON text from `start`, strings aside, in one pass (no recursion): `stop`
 * is given the depth after each bracket, opening or closing. Returns the index of the bracket it
 * stopped at, or -1.
 */
export function walkBrackets(
  text: string,
  start: number,
  stop: (depth: number) => boolean,
): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c)
        index++; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      if (stop(++depth)) return index;
    } else if (code === 0x5d || code === 0x7d) {
      if (stop(--depth)) return index;
    }
  }
  return -1;
}

/** Whether the text nests arrays and objects deeper than `limit`. */
function nestsDeeperThan(text: string, limit: number): boolean {
  return walkBrackets(text, 0, (depth) => depth > limit) >= 0;
}

/**
 * Parses JSON text, keeping numbers as literals. Duplicate keys: the last wins, as in JSON.parse.
 * Throws NestingTooDeep for a body nested beyond MAX_NESTING.
 */
export function parseLossless(text: string): JsonValue {
  if (nestsDeeperThan(text, MAX_NESTING)) throw new NestingTooDeep();
  return parse(text, null, {
    onDuplicateKey: ({ newValue }) => newValue,
  }) as JsonValue;
}

/**
 * Parses JSON text as parseLossless does, and names the first key given twice with two different
 * values (a body whose meaning depends on which one a parser keeps); undefined when it is not JSON.
 */
export function parseNamingRepeats(
  text: string,
): { value: JsonValue; repeated?: string } | undefined {
  let repeated: string | undefined;
  try {
    if (nestsDeeperThan(text, MAX_NESTING)) return undefined;
    const value = parse(text, null, {
      onDuplicateKey: ({ key, oldValue, newValue }) => {
        if (stringify(oldValue) !== stringify(newValue)) repeated ??= key;
        return newValue;
      },
    }) as JsonValue;
    return repeated === undefined ? { value } : { value, repeated };
  } catch {
    return undefined;
  }
}

export function isJsonNumber(value: unknown): value is LosslessNumber {
  return isLosslessNumber(value);
}

const NUMBER_LITERAL = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** An integer written without fraction or exponent, short enough to stay below 10^40. */
const PLAIN_INTEGER = /^-?(?:0|[1-9]\d{0,39})$/;

/**
 * The exact integer a JSON number literal denotes, or undefined when it has a fractional part.
 * `7.0`, `70e-1` and `7e0` are the integer 7, as JSON Schema counts them. Magnitudes beyond
 * 10^40 are returned as ±10^40: far outside int64, and cheap even for `1e999999`.
 */
export function exactInteger(literal: string): bigint | undefined {
  // Most literals of a run (every id and categoryId of every list) are plain integers.
  if (PLAIN_INTEGER.test(literal)) return BigInt(literal);
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return 0n;
  let shift = Number(exponentText) - fraction.length;
  if (shift < 0) {
    const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
    if (trailingZeros < -shift) return undefined;
    digits = digits.slice(0, digits.length + shift);
    shift = 0;
  }
  const magnitude = digits.length + shift > 40 ? 10n ** 40n : BigInt(digits) * 10n ** BigInt(shift);
  return sign === '-' ? -magnitude : magnitude;
}

/** The exact value of an int64 JSON number, or undefined when it is not an integer in int64. */
export function int64Of(value: unknown): bigint | undefined {
  if (!isJsonNumber(value)) return undefined;
  const integer = exactInteger(value.value);
  return integer !== undefined && integer >= INT64_MIN && integer <= INT64_MAX
    ? integer
    : undefined;
}

/**
 * The same tree with plain JS numbers, for ajv: types and enums are checked there, while int64
 * fields are checked exactly against the literal (see schema.ts).
 */
export function toPlain(value: JsonValue): unknown {
  if (isJsonNumber(value)) return Number(value.value);
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]));
  }
  return value;
}

/** Serializes a request body; BigInt values are written as exact JSON integers. */
export function stringifyExact(value: unknown): string {
  return stringify(value, (_key, item) => item) ?? 'null';
}
