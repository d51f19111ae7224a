/**
 * JSON found inside a body that is not JSON: the interface's answer, garbled on its way out. A PHP
 * file saved with a byte order mark sends one before every body; a warning printed by PHP (plain,
 * or its HTML `<br />\n<b>Warning</b>: …`) comes before the JSON, a notice after it. Such a body
 * breaks MEDIA-JSON, and the JSON inside is still what the target meant: the checks judge it, so
 * that one deviation does not block every check that meets it.
 *
 * Found only where a garbled answer puts it, and never in a page that merely holds JSON:
 * - the JSON is an object or an array (every body of the interface is one);
 * - it starts the body (after a byte order mark and whitespace) and other text follows it, or it
 *   ends the body (whitespace aside) and other text comes before it; JSON with text on both sides
 *   (an HTML page with a script in it) is not found, nor is JSON without anything around it (a
 *   body that is invalid JSON is only that).
 * Bounded whatever a target sends: at most four places where the JSON may start are tried (the
 * start, the first bracket, the first two lines that start with one), each with one pass over the
 * text to find where it ends, and parsed only when it fits the rules above.
 */
import { type JsonValue, parseLossless, walkBrackets } from './lossless-json.ts';

const byteOrderMark = '\uFEFF';
/** Places tried where the JSON may start: the time spent stays linear in the body's length. */
const maxStarts = 4;
/** Of the text around the JSON, what a problem quotes. */
const quoted = 60;

/** The JSON found, and the text around it, described for a problem's message. */
export interface FoundJson {
  value: JsonValue;
  /** `JSON after a byte order mark …`, `JSON after 118 characters of other text ("…")`. */
  around: string;
}

/** The JSON inside a body that failed to parse as JSON, when it is a garbled answer's; else undefined. */
export function jsonInside(text: string): FoundJson | undefined {
  for (const start of startsOf(text)) {
    const end = endOf(text, start);
    if (end < 0) continue;
    const before = text.slice(0, start);
    const after = text.slice(end);
    const mark = before.startsWith(byteOrderMark);
    const leading = /\S/.test(mark ? before.slice(1) : before);
    const trailing = /\S/.test(after);
    if (leading && trailing) continue;
    if (!mark && !leading && !trailing) continue;
    let value: JsonValue;
    try {
      value = parseLossless(text.slice(start, end));
    } catch {
      continue;
    }
    return { value, around: describe(mark, leading ? before : '', trailing ? after : '') };
  }
  return undefined;
}

/** Where the JSON may start: the body's start, its first bracket, lines that start with one. */
function startsOf(text: string): number[] {
  const starts = new Set<number>();
  const first = /^\uFEFF?\s*/.exec(text)![0].length;
  if (text[first] === '{' || text[first] === '[') starts.add(first);
  const brackets = [text.indexOf('{'), text.indexOf('[')].filter((index) => index >= 0);
  if (brackets.length > 0) starts.add(Math.min(...brackets));
  const lines = /\n[ \t]*[{[]/g;
  for (let match = lines.exec(text); match && starts.size < maxStarts; match = lines.exec(text)) {
    starts.add(match.index + match[0].length - 1);
  }
  return [...starts].sort((a, b) => a - b).slice(0, maxStarts);
}

/** The index just after the bracket that closes the one at `start`, strings aside; -1 if none. */
function endOf(text: string, start: number): number {
  const closing = walkBrackets(text, start, (depth) => depth === 0);
  return closing < 0 ? -1 : closing + 1;
}

function describe(mark: boolean, before: string, after: string): string {
  const parts: string[] = [];
  if (mark) {
    parts.push(
      'after a byte order mark (EF BB BF), which JSON sent over a network must not carry (RFC 8259 §8.1)',
    );
  }
  const text = mark ? before.slice(1) : before;
  if (text !== '') parts.push(`after ${text.length} characters of other text (${excerpt(text)})`);
  if (after !== '')
    parts.push(`followed by ${after.length} characters of other text (${excerpt(after)})`);
  return `JSON ${parts.join(', ')}`;
}

function excerpt(text: string): string {
  const trimmed = text.trim();
  return JSON.stringify(trimmed.length > quoted ? `${trimmed.slice(0, quoted)}…` : trimmed);
}
