// Lenient JSON readers, as other ecosystems' defaults behave: used by the fault variants only (the
// clean service parses strictly, json.ts). Each turns text a lenient parser accepts into the strict
// JSON it reads it as, which the clean parser then takes.

const WHITESPACE = /\s/;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*/;
const TOP_LEVEL_SCALAR = /^\s*(?:-?[0-9][0-9.eE+-]*|true|false|null)/;

/**
 * The text of the first JSON value only, what follows dropped: Go's json.Decoder reads one value
 * from the stream and leaves the rest unread. Strings and nesting are followed; anything the
 * scanner does not recognise is left to the strict parser to refuse.
 */
export function firstValue(text: string): string {
  const start = text.search(/\S/);
  if (start < 0) return text;
  const opening = text[start];
  if (opening !== '{' && opening !== '[' && opening !== '"') {
    return TOP_LEVEL_SCALAR.exec(text)?.[0] ?? text;
  }
  let depth = 0;
  let inString = false;
  for (let at = start; at < text.length; at++) {
    const char = text[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') {
        inString = false;
        if (depth === 0) return text.slice(0, at + 1);
      }
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) return text.slice(0, at + 1);
  }
  return text;
}

/** The index after the comment starting at `at` (`//` to the line's end, or `/* … *\/`). */
function afterComment(text: string, at: number): number {
  if (text[at + 1] === '/') {
    const end = text.indexOf('\n', at);
    return end < 0 ? text.length : end;
  }
  const end = text.indexOf('*/', at + 2);
  return end < 0 ? text.length : end + 2;
}

/** The index of the next character that is neither whitespace nor a comment. */
function nextSignificant(text: string, from: number): number {
  let at = from;
  while (at < text.length) {
    if (WHITESPACE.test(text[at]!)) at++;
    else if (text[at] === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) {
      at = afterComment(text, at);
    } else break;
  }
  return at;
}

/** The index after the double-quoted string starting at `at` (its escapes followed). */
function afterString(text: string, at: number): number {
  let end = at + 1;
  while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
  return end + 1;
}

/**
 * JSON5 read as JSON: comments dropped, trailing commas dropped, single-quoted strings and
 * unquoted keys quoted, NaN and ±Infinity read as null (what JSON.stringify then stores for
 * them). What JSON5 itself refuses may come out of here as strict JSON still invalid.
 */
export function json5AsJson(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      // A double-quoted string, copied as it is.
      const end = afterString(text, at);
      out += text.slice(at, end);
      at = end;
    } else if (char === "'") {
      let value = '';
      let end = at + 1;
      while (end < text.length && text[end] !== "'") {
        if (text[end] === '\\' && text[end + 1] === "'") {
          value += "'";
          end += 2;
        } else if (text[end] === '\\') {
          value += text.slice(end, end + 2);
          end += 2;
        } else {
          value += text[end] === '"' ? '\\"' : text[end];
          end++;
        }
      }
      out += `"${value}"`;
      at = end + 1;
    } else if (char === '/' && (text[at + 1] === '/' || text[at + 1] === '*')) {
      at = afterComment(text, at);
    } else if (char === ',' && '}]'.includes(text[nextSignificant(text, at + 1)] ?? '')) {
      at++;
    } else if (/[A-Za-z_$+-]/.test(char)) {
      const sign = char === '+' || char === '-' ? char : '';
      const word = IDENTIFIER.exec(text.slice(at + sign.length))?.[0];
      if (word === 'NaN' || word === 'Infinity') {
        out += 'null';
        at += sign.length + word.length;
      } else if (word && !sign && text[nextSignificant(text, at + word.length)] === ':') {
        out += `"${word}"`;
        at += word.length;
      } else {
        out += sign + (word ?? '');
        at += sign.length + (word?.length ?? 0);
        if (!sign && !word) at++;
      }
    } else {
      out += char;
      at++;
    }
  }
  return out;
}

// Not fatal: malformed UTF-8 becomes U+FFFD, as most decoders do by default.
const replacingUtf8 = new TextDecoder('utf-8');

/** The bytes as a replacing decoder reads them, written back as (now valid) UTF-8. */
export function withReplacementCharacters(bytes: Uint8Array): Buffer {
  return Buffer.from(replacingUtf8.decode(bytes), 'utf8');
}

/** A number as lenient readers take it: a sign, then digits, hex, binary or octal, underscores. */
const LENIENT_NUMBER =
  /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|[0-9][0-9_]*)(?![0-9A-Za-z_.])/;

/**
 * Integer literals as JSON5 and Jackson's leniencies read them (ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS,
 * ALLOW_LEADING_ZEROS_FOR_NUMBERS, hexadecimal), with binary, octal and digit separators as
 * Python's int(x, 0) reads them, written back as plain decimal JSON. Strings are copied as they are.
 */
export function lenientNumbers(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '"') {
      const end = afterString(text, at);
      out += text.slice(at, end);
      at = end;
      continue;
    }
    const number = /[+\-0-9]/.test(char) ? LENIENT_NUMBER.exec(text.slice(at)) : null;
    if (number) {
      const [whole, sign = '', digits = ''] = number;
      const value = BigInt(digits.replace(/_/g, ''));
      out += `${sign === '-' ? '-' : ''}${value}`;
      at += whole.length;
      continue;
    }
    out += char;
    at++;
  }
  return out;
}

// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u001f]/g;

/**
 * Control characters written raw inside strings escaped, as a loose parser takes them (Perl's
 * JSON::PP->loose, Python's json.loads(strict=False), Jackson's ALLOW_UNQUOTED_CONTROL_CHARS);
 * the whitespace between values is left as it is.
 */
export function rawControlsEscaped(text: string): string {
  let out = '';
  let at = 0;
  while (at < text.length) {
    if (text[at] !== '"') {
      out += text[at++];
      continue;
    }
    const end = afterString(text, at);
    out += text
      .slice(at, end)
      .replace(RAW_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    at = end;
  }
  return out;
}

/**
 * The body as a decoder that detects a UTF-16 byte order mark reads it (Perl's Encode::Guess,
 * Jackson): after FF FE little-endian, after FE FF big-endian UTF-16; undefined without the mark.
 */
export function utf16AfterMark(bytes: Uint8Array): string | undefined {
  const body = Buffer.from(bytes);
  if (body[0] === 0xff && body[1] === 0xfe) return body.subarray(2).toString('utf16le');
  if (body[0] === 0xfe && body[1] === 0xff) {
    const swapped = Buffer.from(body.subarray(2));
    return swapped
      .subarray(0, swapped.length - (swapped.length % 2))
      .swap16()
      .toString('utf16le');
  }
  return undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * UTF-8 decoded as Perl's lax utf8 layer and WTF-8 decode it: a surrogate encoded in three bytes
 * (ED A0 80 to ED BF BF) is taken as that half of a character; every other malformed sequence is
 * still refused (undefined).
 */
export function utf8WithSurrogates(bytes: Uint8Array): string | undefined {
  let text = '';
  let start = 0;
  try {
    for (let at = 0; at + 2 < bytes.length; at++) {
      if (bytes[at] !== 0xed || bytes[at + 1]! < 0xa0 || (bytes[at + 2]! & 0xc0) !== 0x80) continue;
      text += strictUtf8.decode(bytes.subarray(start, at));
      text += String.fromCharCode(
        0xd000 | ((bytes[at + 1]! & 0x3f) << 6) | (bytes[at + 2]! & 0x3f),
      );
      start = at + 3;
      at += 2;
    }
    return text + strictUtf8.decode(bytes.subarray(start));
  } catch {
    return undefined;
  }
}
