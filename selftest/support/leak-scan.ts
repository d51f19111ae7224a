/**
 * Looks for a secret in everything a run leaves behind: every file under some folders, inside
 * zip archives (traces, attachments), inside the zip Playwright's HTML report embeds as base64,
 * inside gzip files (the release bundle), and in captured console output. A key is looked for
 * as any run of 8 of its consecutive characters in any letter case (which covers every near
 * miss the suite sends, echoed by a gateway), and, with each of its near misses, URL-encoded and
 * base64-encoded at any byte alignment (Basic auth encodes it; Playwright's JSON results embed
 * attachments as base64).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { nearMisses } from '../../tests/support/reporting/near-misses.ts';

/** What betrays a secret: texts found as they are, and texts found in any letter case. */
export interface Needles {
  exact: string[];
  /** Lower case; looked for in the text's lower case. */
  anyCase: string[];
}

/** The shortest run of a key's characters that betrays it. */
const RUN = 8;

/** The texts that betray a key: any run of 8 of it, and the encoded forms of it and its near misses. */
export function leakForms(secret: string): Needles {
  const exact = new Set(
    [secret, ...nearMisses(secret).map(({ token }) => token)].flatMap(encodedForms),
  );
  const anyCase = new Set<string>();
  for (let start = 0; start + RUN <= secret.length; start++) {
    anyCase.add(secret.slice(start, start + RUN).toLowerCase());
  }
  // A key shorter than a run is looked for whole.
  if (secret.length < RUN) exact.add(secret);
  return { exact: [...exact].filter((form) => form.length >= RUN), anyCase: [...anyCase] };
}

/** A value as written, URL-encoded, and base64-encoded at every byte alignment. */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms = new Set([secret, encodeURIComponent(secret)]);
  for (const alphabet of ['base64', 'base64url'] as const) {
    // Preceded by 0, 1 or 2 other bytes, the secret's own base64 characters differ: keep, for
    // each alignment, the characters that depend on the secret's bytes alone.
    for (let offset = 0; offset < 3; offset++) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
      const start = Math.ceil(offset / 3) * 4;
      const end = Math.floor((offset + bytes.length) / 3) * 4;
      forms.add(encoded.slice(start, end));
    }
  }
  return [...forms];
}

export interface Leak {
  where: string;
  form: string;
}

/** Entries of a zip archive (stored or deflated), read through its central directory. */
export function unzip(zip: Buffer): { name: string; data: Buffer }[] {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a zip archive: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: { name: string; data: Buffer }[] = [];
  for (let index = 0; index < count; index++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + size);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : raw });
    at += 46 + skip;
  }
  return entries;
}

const embeddedZip = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/g;

/**
 * Every place under `where` (a file's bytes, and what they contain) that holds a needle: a key's
 * (leakForms), or plain texts looked for as they are.
 */
export function scanBytes(data: Buffer, where: string, needles: Needles | string[]): Leak[] {
  const { exact, anyCase } = Array.isArray(needles) ? { exact: needles, anyCase: [] } : needles;
  const forms = needles;
  const leaks: Leak[] = [];
  const text = data.toString('latin1');
  for (const form of exact) {
    if (text.includes(Buffer.from(form).toString('latin1'))) leaks.push({ where, form });
  }
  const lower = anyCase.length > 0 ? text.toLowerCase() : '';
  for (const form of anyCase) {
    if (lower.includes(Buffer.from(form).toString('latin1'))) leaks.push({ where, form });
  }
  if (data.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) {
    for (const entry of unzip(data)) {
      leaks.push(...scanBytes(entry.data, `${where} › ${entry.name}`, forms));
    }
  }
  if (data[0] === 0x1f && data[1] === 0x8b) {
    leaks.push(...scanBytes(gunzipSync(data), `${where} › (gunzipped)`, forms));
  }
  for (const match of text.matchAll(embeddedZip)) {
    leaks.push(...scanBytes(Buffer.from(match[1]!, 'base64'), `${where} › (embedded zip)`, forms));
  }
  return leaks;
}

/** Every file under a folder, recursively. */
export function filesUnder(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

export function scanFolder(folder: string, forms: Needles | string[]): Leak[] {
  return filesUnder(folder).flatMap((file) => scanBytes(readFileSync(file), file, forms));
}
