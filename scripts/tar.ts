/**
 * A minimal tar writer (POSIX ustar, with a PAX header for paths longer than ustar allows):
 * enough to bundle a report folder with Node's own zlib, without a dependency.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface TarEntry {
  /** Path inside the archive, '/'-separated; directories end without a slash. */
  path: string;
  type: 'file' | 'directory';
  body?: Buffer;
  mtime: Date;
}

const block = 512;

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** ustar stores a path as prefix (155 bytes) + '/' + name (100 bytes), split at a slash. */
function splitPath(path: string): { name: string; prefix: string } | undefined {
  if (Buffer.byteLength(path) <= 100) return { name: path, prefix: '' };
  for (let cut = path.indexOf('/'); cut !== -1; cut = path.indexOf('/', cut + 1)) {
    const prefix = path.slice(0, cut);
    const name = path.slice(cut + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { name, prefix };
  }
  return undefined;
}

function header(
  path: string,
  type: '0' | '5' | 'x',
  size: number,
  mtime: Date,
  prefix = '',
): Buffer {
  const buffer = Buffer.alloc(block);
  const put = (text: string, offset: number, width: number) =>
    buffer.write(text, offset, width, 'utf8');
  put(path, 0, 100);
  put(octal(type === '5' ? 0o755 : 0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put(' '.repeat(8), 148, 8); // the checksum is computed with its own field as spaces
  put(type, 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(prefix, 345, 155);
  const checksum = buffer.reduce((sum, byte) => sum + byte, 0);
  put(`${checksum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return buffer;
}

const padding = (size: number) => Buffer.alloc((block - (size % block)) % block);

/** A PAX extended header carrying a path too long for ustar. */
function paxPath(path: string, mtime: Date): Buffer[] {
  const field = ` path=${path}\n`;
  let length = Buffer.byteLength(field);
  length += String(length + String(length).length).length;
  const record = Buffer.from(`${length}${field}`);
  return [header('PaxHeader', 'x', record.length, mtime), record, padding(record.length)];
}

export function tar(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    const path = entry.type === 'directory' ? `${entry.path}/` : entry.path;
    const body = entry.body ?? Buffer.alloc(0);
    const split = splitPath(path);
    if (!split) parts.push(...paxPath(path, entry.mtime));
    const { name, prefix } = split ?? { name: path.slice(0, 100), prefix: '' };
    const type = entry.type === 'directory' ? '5' : '0';
    parts.push(header(name, type, body.length, entry.mtime, prefix), body, padding(body.length));
  }
  parts.push(Buffer.alloc(block * 2)); // end of archive: two empty blocks
  return Buffer.concat(parts);
}

/** A folder's entries, itself included, under `as` inside the archive, in a stable order. */
export function folderEntries(folder: string, as: string): TarEntry[] {
  const entries: TarEntry[] = [{ path: as, type: 'directory', mtime: statSync(folder).mtime }];
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    const stats = statSync(path);
    if (stats.isDirectory()) entries.push(...folderEntries(path, posix.join(as, name)));
    else entries.push(fileEntry(path, posix.join(as, name)));
  }
  return entries;
}

export function fileEntry(file: string, as: string): TarEntry {
  return { path: as, type: 'file', body: readFileSync(file), mtime: statSync(file).mtime };
}
