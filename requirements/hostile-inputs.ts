/**
 * The hostile-input catalogue (hostile-inputs.json beside this file), typed and checked as it
 * loads, and what the suite sends for it: `casesOf` expands each cell of a class and a slot into
 * the requests that carry its members, with the exact bytes (a header's Latin-1, a URL's
 * percent-encoding, a body's UTF-8 or another encoding). Pure: no Playwright, no target. The sweep
 * (tests/support/vocabulary/hostile.ts) sends the cases, the near misses
 * (tests/support/reporting/near-misses.ts) redact the tokens they derive from the key, and
 * scripts/generated.ts writes docs/hostile-inputs.md from them.
 *
 * Which members a cell sends each run: the class's first member that applies to the slot (its
 * exemplar, every run) and `rotate` more of the others, chosen by the run's seed (so a replay with
 * FC_SEED sends the same), or every member (`"all"`: a slot read by GET, where a case costs a
 * request and no write, and a member's fault would otherwise show only on the seeds that pick
 * it); besides, each class sends one more member in one of its cells, the cell
 * and the member turning with the seed, so that over runs every member meets every cell. A cell
 * marked `combine` sends all of them in one value, and a slot with `combine` sends its cells that
 * append to the value in one request. A member marked
 * `stored`, in a createPet slot, goes to the cases sent after every other check.
 *
 * May import: node built-ins and catalogue.ts.
 */
import { readFileSync } from 'node:fs';
import { type RequirementId, isRequirementId } from './catalogue.ts';

export const slotIds = [
  'token',
  'scheme',
  'header-name',
  'petId',
  'limit',
  'status',
  'body',
  'name',
  'categoryId',
  'pet-status',
] as const;
export type SlotId = (typeof slotIds)[number];

export const placements = [
  'after',
  'before',
  'separator',
  'spelled',
  'replace',
  'instead',
  'fill',
  'encode',
  'inside',
  'nest',
  'form',
  'wire',
  'segments',
] as const;
export type Placement = (typeof placements)[number];

const wholeEncodings = ['utf-8', 'utf-16le', 'utf-16be', 'utf-32le', 'utf-32be'] as const;
export type WholeEncoding = (typeof wholeEncodings)[number];

/** One member of a class: what it is (one of text, bytes, a script, a notation, a length...). */
export interface Member {
  id: string;
  why: string;
  /** Characters (the file writes them as JSON escapes). */
  text?: string;
  /** Bytes, as hex pairs: "ED A0 80". */
  bytes?: string;
  /** A script's digit zero (its other digits follow it). */
  zero?: string;
  /** With `zero`: every printable ASCII character has a form in it (fullwidth). */
  fullwidth?: boolean;
  /**
   * A notation of a number: {n} decimal, {hex}, {bin}, {oct}, {n_} with an underscore; or, alone,
   * {n+2^32} (or -, any power): another int64, the ordinary one moved by that power of two.
   */
  template?: string;
  /** A length, in characters. */
  length?: number;
  /** The whole NewPet in this encoding. */
  encoding?: WholeEncoding;
  /** With `encoding`: after its byte order mark. */
  bom?: boolean;
  /** The value's own first character, percent-encoded. */
  encodeFirst?: boolean;
  /** Arrays nested this deep around the value. */
  depth?: number;
  /** The parameter in another form of query: {name} and {value} in a template. */
  form?: string;
  /** The ordinary value with every byte percent-encoded in the URL, in this case of hex digits. */
  wire?: 'upper' | 'lower';
  /** The ordinary request written to the target in pieces, apart in time (TCP segments). */
  segments?: Segments;
  /** A store that keeps it can break other clients' reads: why. Sent after every other check. */
  stored?: string;
  /** The document allows a target to take it as if it were not there: why (a 201 as sent passes). */
  allowed?: string;
}

/**
 * A request written in pieces: its head cut into `head` pieces and its body into `body`, each
 * written `gapMs` after the one before (the response guard writes them: http/response-guard.ts).
 */
export interface Segments {
  head: number;
  body: number;
  gapMs: number;
  /** The body cut once, inside its first character of more than one byte (the name holds é). */
  inChar?: boolean;
}

/** How a class's members go into one slot. */
export interface Cell {
  place: Placement | Placement[];
  /** Only these members (in this order), for the reason in `only`. */
  members?: string[];
  only?: string;
  /** All its members in one value, every run. */
  combine?: boolean;
  /** With the slot's `combine`: sent in a value of its own, for this reason. */
  alone?: string;
  /** The rule of this cell, when it is not the slot's. */
  rule?: RequirementId;
  /** Members sent beyond the exemplar each run, when not the slot's `rotate`. */
  rotate?: Rotate;
  /** A store that takes any of its cases keeps a value that can break other clients' reads: why. */
  stored?: string;
}

export interface HostileClass {
  id: string;
  title: string;
  why: string;
  /**
   * The faults of the bundled reference that some real parser makes with this class: each must be
   * caught under the requirement it breaks (selftest/mutation.test.ts runs them all).
   */
  provedBy: string[];
  members: Member[];
  /** Each slot: a cell, or "n/a: why". */
  slots: Record<SlotId, Cell | string>;
}

export interface Slot {
  id: SlotId;
  title: string;
  operation: 'listPets' | 'getPet' | 'createPet';
  /** The ordinary value the members change. */
  value: string;
  rule: RequirementId;
  expected: string;
  /** A case refused with a 4xx is sent again without a key: it must get 401. */
  authFirst?: boolean;
  /** A refused create is looked for among the pets of its status: it must not be there. */
  noEffect?: boolean;
  /** Members sent beyond the exemplar, per cell and run. */
  rotate: Rotate;
  /** Its cells that append to the value go in one request: why that hides no fault. */
  combine?: string;
}

/** Members sent beyond the exemplar, per cell and run: a number of them, or all. */
export type Rotate = number | 'all';

/** How many members beyond the exemplar a cell sends each run (all: Infinity). */
export function rotation(cell: Pick<Cell, 'rotate'>, slot: Pick<Slot, 'rotate'>): number {
  const rotate = cell.rotate ?? slot.rotate;
  return rotate === 'all' ? Infinity : rotate;
}

const validRotate = (rotate: unknown) =>
  rotate === 'all' || (Number.isInteger(rotate) && (rotate as number) >= 0);

export interface HostileCatalogue {
  about: string;
  placements: Record<Placement, string>;
  slots: Slot[];
  classes: HostileClass[];
}

export const hostileInputsFile = new URL('./hostile-inputs.json', import.meta.url);

/** What is wrong with the catalogue's shape: every name known, every cell placed or said n/a. */
export function catalogueProblems(data: HostileCatalogue): string[] {
  const problems: string[] = [];
  const slotsGiven = data.slots.map((slot) => slot.id);
  if (slotsGiven.join() !== slotIds.join()) {
    problems.push(
      `slots must be ${slotIds.join(', ')} in that order (got ${slotsGiven.join(', ')})`,
    );
  }
  for (const slot of data.slots) {
    if (!isRequirementId(slot.rule)) problems.push(`slot ${slot.id}: rule ${slot.rule} unknown`);
    if (!validRotate(slot.rotate)) {
      problems.push(`slot ${slot.id}: rotate must be an integer >= 0, or "all"`);
    }
  }
  for (const placement of placements) {
    if (!data.placements[placement]) problems.push(`placement ${placement} is not described`);
  }
  const classIds = new Set<string>();
  for (const item of data.classes) {
    if (classIds.has(item.id)) problems.push(`class ${item.id} is given twice`);
    classIds.add(item.id);
    if (!item.why || !item.title) problems.push(`class ${item.id}: title and why are required`);
    if (!Array.isArray(item.provedBy) || item.provedBy.length === 0)
      problems.push(`class ${item.id}: provedBy names at least one fault of the reference`);
    const memberIds = new Set<string>();
    for (const member of item.members) {
      if (memberIds.has(member.id)) problems.push(`${item.id}: member ${member.id} given twice`);
      memberIds.add(member.id);
      if (!member.why) problems.push(`${item.id}/${member.id}: why is required`);
      const kinds = memberKinds(member);
      if (kinds.length !== 1) {
        problems.push(
          `${item.id}/${member.id}: give exactly one of text, bytes, zero, template, length, encoding, encodeFirst, depth, form, wire, segments`,
        );
      }
      if (member.encoding !== undefined && !wholeEncodings.includes(member.encoding)) {
        problems.push(`${item.id}/${member.id}: encoding is one of ${wholeEncodings.join(', ')}`);
      }
      const pieces = member.segments;
      if (
        pieces &&
        ![pieces.head, pieces.body, pieces.gapMs].every((n) => Number.isInteger(n) && n >= 1)
      ) {
        problems.push(`${item.id}/${member.id}: segments are whole numbers of 1 or more`);
      }
      if (member.bytes !== undefined && !/^[0-9A-F]{2}( [0-9A-F]{2})*$/.test(member.bytes)) {
        problems.push(`${item.id}/${member.id}: bytes are hex pairs, e.g. "ED A0 80"`);
      }
    }
    for (const slot of slotIds) {
      const cell = item.slots[slot];
      if (cell === undefined) {
        problems.push(`${item.id}: slot ${slot} is neither placed nor said n/a`);
        continue;
      }
      if (typeof cell === 'string') {
        if (!/^n\/a: \S/.test(cell)) problems.push(`${item.id}/${slot}: say "n/a: why"`);
        continue;
      }
      for (const place of [cell.place].flat()) {
        if (!slotPlacements[slot].includes(place)) {
          problems.push(`${item.id}/${slot}: slot ${slot} takes no ${place} placement`);
        }
      }
      for (const id of cell.members ?? []) {
        if (!memberIds.has(id)) problems.push(`${item.id}/${slot}: no member ${id}`);
      }
      if (cell.members && !cell.only) problems.push(`${item.id}/${slot}: members needs only (why)`);
      if (cell.rule !== undefined && !isRequirementId(cell.rule)) {
        problems.push(`${item.id}/${slot}: rule ${cell.rule} unknown`);
      }
      const applicable = [cell.place]
        .flat()
        .flatMap((place) => cellMembers(item, cell, slot, place).members);
      if (applicable.length === 0) {
        problems.push(`${item.id}/${slot}: no member of the class goes into it (say n/a: why)`);
      }
    }
  }
  return problems;
}

function loadCatalogue(): HostileCatalogue {
  const data = JSON.parse(readFileSync(hostileInputsFile, 'utf8')) as HostileCatalogue;
  const problems = catalogueProblems(data);
  if (problems.length > 0) {
    throw new Error(`requirements/hostile-inputs.json: ${problems.join('; ')}`);
  }
  return data;
}

/* ----------------------------------------------------------------------------------------------
 * Values as parts: text (UTF-16, as JavaScript holds it) and raw bytes side by side, encoded for
 * the slot's carrier only when the request is made.
 */

type Part = { text: string } | { bytes: Buffer };

const text = (value: string): Part => ({ text: value });

/** UTF-8, with a lone surrogate written as its three bytes (WTF-8), as a lenient encoder does. */
export function utf8Bytes(value: string): Buffer {
  const out: number[] = [];
  for (let index = 0; index < value.length; index++) {
    let code = value.charCodeAt(index);
    const next = value.charCodeAt(index + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
      index++;
    }
    if (code < 0x80) out.push(code);
    else if (code < 0x800) out.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) {
      out.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      out.push(
        0xf0 | (code >> 18),
        0x80 | ((code >> 12) & 0x3f),
        0x80 | ((code >> 6) & 0x3f),
        0x80 | (code & 0x3f),
      );
    }
  }
  return Buffer.from(out);
}

const partBytes = (part: Part) => ('bytes' in part ? part.bytes : utf8Bytes(part.text));
const bytesOf = (parts: readonly Part[]) => Buffer.concat(parts.map(partBytes));
const textOf = (parts: readonly Part[]) =>
  parts.map((part) => ('text' in part ? part.text : '')).join('');
const hasBytes = (parts: readonly Part[]) => parts.some((part) => 'bytes' in part);

/**
 * A header's value as sent: each character of U+00FF or below as that one byte (Latin-1, as Node
 * writes headers), characters above as their UTF-8 bytes, raw bytes as they are. A control
 * character no field value may carry (RFC 9110 §5.5) is written by the response guard, which
 * Node's client would refuse; undefined for CR and LF, which would end the field.
 */
function headerValue(parts: readonly Part[]): string | undefined {
  let value = '';
  for (const part of parts) {
    if ('bytes' in part) value += part.bytes.toString('latin1');
    else {
      for (const char of part.text) {
        const code = char.codePointAt(0)!;
        value += code <= 0xff ? char : utf8Bytes(char).toString('latin1');
      }
    }
  }
  return /[\r\n]/.test(value) ? undefined : value;
}

const tchar = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Whether a value ends in NUL: at the end of a field value an HTTP layer may replace it with a
 * space (RFC 9110 §5.5) and then strip it as whitespace, leaving the key; followed by a character
 * of its own it stays in the token, where no reading makes the key. The other control characters
 * a recipient may keep or refuse the message for, never strip: at the end they stay, and a
 * target that strips them (Ruby's strip, PHP's trim(), Java's HttpServer, Ruby's WEBrick) takes
 * another token for the key.
 */
function endsInNul(parts: readonly Part[]): boolean {
  const last = parts.at(-1);
  const text = last === undefined ? '' : 'text' in last ? last.text : last.bytes.toString('latin1');
  return text.endsWith('\u0000');
}

/** A URL component: every byte but the unreserved ones percent-encoded (RFC 3986 §2.3). */
function urlComponent(parts: readonly Part[]): string {
  let out = '';
  for (const byte of bytesOf(parts)) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9._~-]/.test(char)
      ? char
      : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A URL component with every byte percent-encoded, unreserved ones too: the same value decoded. */
function wireComponent(parts: readonly Part[], hex: 'upper' | 'lower'): string {
  const encoded = [...bytesOf(parts)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`);
  return hex === 'upper' ? encoded.join('').toUpperCase() : encoded.join('');
}

/** A JSON string literal of the text (controls and lone surrogates escaped, as JSON.stringify does). */
const jsonString = (value: string) => JSON.stringify(value);

/** Longer than this, a value would meet a server's or gateway's own URL or header limit. */
const carrierLimit = 8000;

/* ----------------------------------------------------------------------------------------------
 * Slots: each with the carrier its value goes in, its ordinary value (a head, which placements
 * change, and a tail that follows), and the placements it takes.
 */

/** What a run's cases are made from: the key, a pet that exists, the run's marker... */
export interface Bases {
  key: string;
  /** The id of a pet that exists (petId). */
  petId: bigint;
  /** The run's marker, which every name carries. */
  marker: string;
  /** An ordinary categoryId the target takes. */
  categoryId: bigint;
  /** The run's seed: which members rotate in. */
  seed: number;
}

type Carrier = 'header' | 'header-name' | 'url' | 'json-string' | 'json-raw' | 'body';

const carriers: Record<SlotId, Carrier> = {
  token: 'header',
  scheme: 'header',
  'header-name': 'header-name',
  petId: 'url',
  limit: 'url',
  status: 'url',
  body: 'body',
  name: 'json-string',
  categoryId: 'json-raw',
  'pet-status': 'json-string',
};

const slotPlacements: Record<SlotId, readonly Placement[]> = {
  token: ['after', 'spelled', 'instead', 'fill'],
  scheme: ['after', 'separator', 'spelled', 'instead'],
  'header-name': ['after', 'fill'],
  petId: ['after', 'spelled', 'replace', 'instead', 'fill', 'wire'],
  limit: ['after', 'spelled', 'replace', 'instead', 'fill', 'form', 'wire'],
  status: ['after', 'spelled', 'instead', 'fill', 'form', 'wire'],
  body: ['before', 'after', 'encode', 'inside', 'nest', 'segments'],
  name: ['after', 'fill'],
  categoryId: ['replace', 'fill'],
  'pet-status': ['after', 'spelled', 'instead', 'fill'],
};

/** The number a notation writes, for the slots that hold one. */
function numberOf(slot: SlotId, bases: Bases): bigint {
  return slot === 'petId' ? bases.petId : slot === 'limit' ? 5n : bases.categoryId;
}

/** The ordinary value of a slot: its head (what placements change) and tail. */
function headOf(slot: SlotId, bases: Bases, label: string): Part[] {
  switch (slot) {
    case 'token':
      return [text(bases.key)];
    case 'scheme':
      return [text('Bearer')];
    case 'header-name':
      return [text('Authorization')];
    case 'petId':
      return [text(String(bases.petId))];
    case 'limit':
      return [text('5')];
    case 'status':
    case 'pet-status':
      return [text('sold')];
    case 'name':
    case 'body':
      return [text(`${bases.marker}${label}`)];
    case 'categoryId':
      return [text(String(bases.categoryId))];
  }
}

/** How `fill` makes a value that long: the head padded with this, or this repeated. */
const fillers: Record<SlotId, { pad: string } | { repeat: string }> = {
  token: { pad: 'x' },
  scheme: { pad: 'x' },
  'header-name': { pad: 'x' },
  petId: { repeat: '9' },
  limit: { repeat: '9' },
  status: { repeat: 's' },
  body: { pad: 'n' },
  name: { pad: 'n' },
  categoryId: { repeat: '9' },
  'pet-status': { repeat: 's' },
};

/* ----------------------------------------------------------------------------------------------
 * Members in placements.
 */

type MemberKind =
  | 'text'
  | 'bytes'
  | 'script'
  | 'template'
  | 'length'
  | 'encoding'
  | 'encodeFirst'
  | 'depth'
  | 'form'
  | 'wire'
  | 'segments';

function memberKinds(member: Member): MemberKind[] {
  const kinds: MemberKind[] = [];
  if (member.text !== undefined) kinds.push('text');
  if (member.bytes !== undefined) kinds.push('bytes');
  if (member.zero !== undefined) kinds.push('script');
  if (member.template !== undefined) kinds.push('template');
  if (member.length !== undefined) kinds.push('length');
  if (member.encoding !== undefined) kinds.push('encoding');
  if (member.encodeFirst) kinds.push('encodeFirst');
  if (member.depth !== undefined) kinds.push('depth');
  if (member.form !== undefined) kinds.push('form');
  if (member.wire !== undefined) kinds.push('wire');
  if (member.segments !== undefined) kinds.push('segments');
  return kinds;
}

const memberKind = (member: Member): MemberKind => memberKinds(member)[0]!;

/** The kinds of member each placement takes. */
const placementTakes: Record<Placement, readonly MemberKind[]> = {
  after: ['text', 'bytes', 'script', 'encodeFirst'],
  before: ['text', 'bytes'],
  separator: ['text', 'bytes'],
  spelled: ['script'],
  replace: ['template'],
  instead: ['text'],
  fill: ['length'],
  encode: ['encoding'],
  inside: ['bytes'],
  nest: ['depth'],
  form: ['form'],
  wire: ['wire'],
  segments: ['segments'],
};

/** A script's character for an ASCII one; undefined when the script has none for it. */
function inScript(member: Member, char: string): string | undefined {
  const code = char.charCodeAt(0);
  if (member.fullwidth && code >= 0x21 && code <= 0x7e) return String.fromCodePoint(code + 0xfee0);
  if (code >= 0x30 && code <= 0x39) {
    return String.fromCodePoint(member.zero!.codePointAt(0)! + (code - 0x30));
  }
  return undefined;
}

const spell = (member: Member, value: string) =>
  [...value].map((char) => inScript(member, char) ?? char).join('');

const wrap = /^\{n([+-])2\^(\d+)\}$/;

/** A notation's text for the number: the template of its magnitude, after its sign. */
function notation(template: string, number: bigint): string {
  // {n+2^32}: another number, the ordinary one moved by a power of two (undefined beyond int64).
  const moved = wrap.exec(template);
  if (moved) {
    const value = number + (moved[1] === '+' ? 1n : -1n) * 2n ** BigInt(moved[2]!);
    return value === BigInt.asIntN(64, value) ? String(value) : '';
  }
  const magnitude = number < 0n ? -number : number;
  const digits = magnitude.toString();
  const grouped = digits.length > 1 ? `${digits[0]}_${digits.slice(1)}` : `0_${digits}`;
  const written = template
    .replace('{n_}', grouped)
    .replace('{n}', digits)
    .replace('{hex}', magnitude.toString(16))
    .replace('{bin}', magnitude.toString(2))
    .replace('{oct}', magnitude.toString(8));
  return number < 0n ? `-${written}` : written;
}

/** What a member adds `after` a value: its text or bytes, a script's digit one. */
function addition(member: Member): Part {
  if (member.bytes !== undefined) {
    return { bytes: Buffer.from(member.bytes.split(' ').map((pair) => parseInt(pair, 16))) };
  }
  if (member.zero !== undefined) return text(spell(member, '1'));
  return text(member.text!);
}

const percentEncodeFirst = (value: string) => {
  const [first = '', ...rest] = [...value];
  const encoded = [...utf8Bytes(first)]
    .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
    .join('');
  return `${encoded}${rest.join('')}`;
};

/**
 * The members placed in a value: the value's head changed by each member in turn (appended,
 * prepended, spelled, encoded...). Undefined when the placement cannot change this value (a
 * script with no form for any of its characters).
 */
function placed(
  slot: SlotId,
  head: Part[],
  place: Placement,
  members: readonly Member[],
  bases: Bases,
): Part[] | undefined {
  switch (place) {
    case 'after':
    case 'inside':
    case 'separator': {
      let value = head;
      for (const member of members) {
        value = member.encodeFirst
          ? [text(percentEncodeFirst(textOf(value))), ...value.filter((part) => 'bytes' in part)]
          : [...value, addition(member)];
      }
      return value;
    }
    case 'before':
      return [...members.map(addition), ...head];
    case 'spelled': {
      const spellings = members.map((member) => spell(member, textOf(head)));
      if (spellings.every((spelling) => spelling === textOf(head))) return undefined;
      return [text(spellings.join(''))];
    }
    case 'replace': {
      const written = members.map((member) => notation(member.template!, numberOf(slot, bases)));
      // A number moved past int64 is no such number: nothing to send.
      return written.includes('') ? undefined : [text(written.join(''))];
    }
    case 'instead':
      return [text(members.map((member) => member.text!).join(''))];
    case 'fill': {
      const length = members[0]!.length!;
      const filler = fillers[slot];
      if ('repeat' in filler) return [text(filler.repeat.repeat(length))];
      const start = textOf(head);
      // Already that long: padding would leave the ordinary value itself.
      if (start.length >= length) return undefined;
      return [text(start + filler.pad.repeat(length - start.length))];
    }
    case 'encode':
    case 'nest':
    case 'form':
    case 'wire':
    case 'segments':
      return head;
  }
}

/** Why a member cannot go into a slot in a placement; undefined when it can. */
function memberNotApplicable(slot: SlotId, place: Placement, member: Member): string | undefined {
  const kind = memberKind(member);
  if (!placementTakes[place].includes(kind)) return `a ${kind} member takes no ${place} placement`;
  const carrier = carriers[slot];
  if (kind === 'bytes' && (carrier === 'json-string' || carrier === 'json-raw')) {
    return 'bytes that are not UTF-8 break the body, not the field';
  }
  if (kind === 'text' && carrier === 'header') {
    if (headerValue([text(member.text!)]) === undefined) return 'it would end the header field';
    if (/[\ud800-\udfff]/.test(member.text!)) return 'a header carries bytes, not half a character';
  }
  if (kind === 'text' && carrier === 'header-name' && !tchar.test(member.text!)) {
    return 'a field name holds only a token’s characters';
  }
  if (kind === 'bytes' && carrier === 'header-name') return 'a field name is ASCII';
  if (kind === 'text' && carrier === 'url' && /[\ud800-\udfff]/.test(member.text!)) {
    return 'in a URL half a character is its encoded bytes: the surrogate member';
  }
  if (
    kind === 'length' &&
    (carrier === 'header' || carrier === 'header-name' || carrier === 'url')
  ) {
    if (member.length! > carrierLimit) return 'too long for a URL or a header';
  }
  if (kind === 'encodeFirst' && slot === 'scheme') return 'the scheme is compared, not decoded';
  if (kind === 'wire' && carrier !== 'url') return 'only a URL is percent-decoded';
  return undefined;
}

/** The members of a class that go into a slot in a placement, in the class's (or cell's) order. */
function cellMembers(
  item: HostileClass,
  cell: Cell,
  slot: SlotId,
  place: Placement,
): { members: Member[]; notApplicable: { member: Member; why: string }[] } {
  const ordered = cell.members
    ? cell.members.map((id) => item.members.find((member) => member.id === id)!)
    : item.members;
  const members: Member[] = [];
  const notApplicable: { member: Member; why: string }[] = [];
  for (const member of ordered) {
    if (!member) continue;
    const why = memberNotApplicable(slot, place, member);
    if (why === undefined) members.push(member);
    else if (placementTakes[place].includes(memberKind(member)))
      notApplicable.push({ member, why });
  }
  return { members, notApplicable };
}

/* ----------------------------------------------------------------------------------------------
 * Cases: the requests a run sends.
 */

/** What a case carries of one cell. */
export interface Carried {
  class: string;
  members: string[];
}

/** How a case is sent: an operation, and the one thing of it the members changed. */
export type HostileRequest =
  | {
      operation: 'listPets';
      /** An Authorization header, name and value as sent (a Latin-1 string of the bytes). */
      credentials: { name: string; authorization: string; label: string };
    }
  | { operation: 'listPets'; query: string }
  | { operation: 'getPet'; segment: string }
  | {
      operation: 'createPet';
      body: Buffer;
      /** The NewPet the body says, when it is one: what a 201 must carry. */
      sent?: { name: string; categoryId: bigint; status: string };
      /** Written in pieces, apart in time. */
      segments?: Segments;
    };

export interface HostileCase {
  slot: SlotId;
  placement: Placement;
  carried: Carried[];
  /** Unique in the run's cases: it is in the name of every create, to find a refused one. */
  label: string;
  rule: RequirementId;
  /** Sent after every other check: a store that keeps it can break other clients' reads. */
  stored: boolean;
  /** The document allows the target to take it (a 201 with the NewPet as sent): why. */
  allowed?: string;
  /** Which cells it carries, for a reader: "whitespace nbsp, digits fullwidth". */
  description: string;
  request: HostileRequest;
}

/** The members a cell sends this run: the exemplar, then `rotate` others chosen by the seed. */
function chosen(members: Member[], rotate: number, seed: number, cellIndex: number): Member[] {
  if (members.length <= 1 + rotate) return members;
  const [exemplar, ...rest] = members;
  const picked = new Set<Member>();
  for (let step = 0; picked.size < rotate && step < rest.length; step++) {
    const index = (((seed + cellIndex + step) % rest.length) + rest.length) % rest.length;
    picked.add(rest[index]!);
  }
  return [exemplar!, ...rest.filter((member) => picked.has(member))];
}

/** A cell's members this run, in one placement: one group per request. */
interface Planned {
  item: HostileClass;
  cell: Cell;
  place: Placement;
  members: Member[];
  /** May go into a value the slot's other cells share (the slot's `combine`). */
  combinable: boolean;
  /** Holds a member a store may keep, where a store keeps it: sent after every other check. */
  stored: boolean;
  /** A member rotated in beyond the cell's exemplar. */
  extra: boolean;
}

/** Whether what a placement puts in a slot is kept by a store that takes it: a name, a status. */
const storedIn = (slot: SlotId, place: Placement) =>
  slot === 'name' || slot === 'pet-status' || (slot === 'body' && place === 'inside');

/**
 * The cell of a class that sends one more member this run: each run every class rotates one of
 * its members into one of its cells that send the exemplar alone (chosen by the seed), so that
 * over runs every member reaches every such cell, for one request a class.
 */
function rotatingCell(
  item: HostileClass,
  classIndex: number,
  seed: number,
): { cell: string; turn: number } | undefined {
  const cells = slotIds.flatMap((slotId) => {
    const cell = item.slots[slotId];
    if (typeof cell === 'string' || cell.combine) return [];
    if (rotation(cell, slotById(slotId)) > 0) return [];
    return [cell.place]
      .flat()
      .filter((place) => cellMembers(item, cell, slotId, place).members.length > 1)
      .map((place) => `${slotId} ${place}`);
  });
  if (cells.length === 0) return undefined;
  const at = seed + classIndex;
  // Which member turns with which cell apart: the cell by the seed's remainder, the member by its
  // quotient, so that over runs each member meets each cell.
  return {
    cell: cells[((at % cells.length) + cells.length) % cells.length]!,
    turn: Math.floor(at / cells.length),
  };
}

function plannedGroups(slot: Slot, seed: number): Planned[][] {
  const groups: Planned[][] = [];
  const shared: Planned[] = [];
  hostileInputs.classes.forEach((item, classIndex) => {
    const cell = item.slots[slot.id];
    if (typeof cell === 'string') return;
    const cellIndex = classIndex * slotIds.length + slotIds.indexOf(slot.id);
    for (const place of [cell.place].flat()) {
      const { members } = cellMembers(item, cell, slot.id, place);
      if (members.length === 0) continue;
      // Only what ends up in a stored value (a name, a status) is a store's to keep.
      const keeps = storedIn(slot.id, place);
      const isStored = (member: Member) =>
        cell.stored !== undefined || (member.stored !== undefined && keeps);
      const turning = rotatingCell(item, classIndex, seed);
      const rotates = turning?.cell === `${slot.id} ${place}`;
      const picked = cell.combine
        ? members
        : rotates
          ? chosen(members, 1, turning!.turn, 0)
          : chosen(members, rotation(cell, slot), seed, cellIndex + placements.indexOf(place));
      // Members a store may keep go last, apart; each of the others goes alone, or with all.
      const sets = cell.combine
        ? [picked.filter((member) => !isStored(member)), picked.filter(isStored)]
        : picked.map((member) => [member]);
      for (const set of sets.filter((each) => each.length > 0)) {
        const extra = !cell.combine && set[0] !== picked[0];
        const planned: Planned = {
          item,
          cell,
          place,
          members: set,
          stored: set.some(isStored),
          extra,
          combinable:
            slot.combine !== undefined &&
            cell.alone === undefined &&
            !set.some(isStored) &&
            ['after', 'spelled'].includes(place),
        };
        if (planned.combinable) shared.push(planned);
        else groups.push([planned]);
      }
    }
  });
  // A spelling changes the ordinary value itself: it comes first, what is appended after it. The
  // exemplars go in one value, the members rotated in beside them in another.
  shared.sort((a, b) => Number(b.place === 'spelled') - Number(a.place === 'spelled'));
  const together = [shared.filter((each) => !each.extra), shared.filter((each) => each.extra)];
  groups.unshift(...together.filter((group) => group.length > 0));
  return groups;
}

/**
 * The name slot's cases fit in 40 UTF-8 bytes, which most name columns take (the suite's own names
 * are shorter, 32: a target with a name column that small may refuse these, unproved on it).
 */
export const nameBytesLimit = 40;

function describe(group: readonly Planned[]): string {
  return group
    .map(
      ({ item, members, place }) => `${item.id} ${members.map((m) => m.id).join('+')} (${place})`,
    )
    .join(', ');
}

/** One case of a slot: the group's members placed in the slot's value, carried as the slot is. */
function caseOf(
  slot: Slot,
  group: readonly Planned[],
  bases: Bases,
  label: string,
): HostileCase | undefined {
  let value: Part[] | undefined = headOf(slot.id, bases, label);
  for (const planned of group) {
    value = value && placed(slot.id, value, planned.place, planned.members, bases);
  }
  if (!value) return undefined;
  const carried = group.map(({ item, members }) => ({
    class: item.id,
    members: members.map((member) => member.id),
  }));
  const members = group.flatMap((planned) => planned.members);
  const first = group[0]!;
  const base: Omit<HostileCase, 'request'> = {
    slot: slot.id,
    placement: first.place,
    carried,
    label,
    rule: first.cell.rule ?? slot.rule,
    stored: group.some((planned) => planned.stored),
    description: describe(group),
  };
  const allowed = members.find((member) => member.allowed)?.allowed;
  if (allowed) base.allowed = allowed;
  const request = requestOf(slot.id, value, first, bases, label);
  return request ? { ...base, request } : undefined;
}

/** The NewPet body around a name, categoryId and status, each as its JSON text. */
const newPetJson = (name: string, categoryId: string, status: string) =>
  `{"name":${name},"categoryId":${categoryId},"status":${status}}`;

/** A value in the URL: its reserved bytes percent-encoded, or every byte for a `wire` member. */
function component(value: Part[], planned: Planned): string {
  const wire = planned.place === 'wire' ? planned.members[0]!.wire : undefined;
  return wire ? wireComponent(value, wire) : urlComponent(value);
}

function requestOf(
  slot: SlotId,
  value: Part[],
  planned: Planned,
  bases: Bases,
  label: string,
): HostileRequest | undefined {
  const ordinaryName = `${bases.marker}${label}`;
  const categoryId = String(bases.categoryId);
  const sold = '"sold"';
  switch (slot) {
    case 'token':
    case 'scheme': {
      const authorization =
        slot === 'token'
          ? headerValue([text('Bearer '), ...value, ...(endsInNul(value) ? [text('x')] : [])])
          : planned.place === 'separator'
            ? headerValue([text('Bearer'), ...value.slice(1), text(bases.key)])
            : headerValue([...value, text(` ${bases.key}`)]);
      // A case that would send the key itself as it is is no hostile token.
      if (authorization === undefined || authorization === `Bearer ${bases.key}`) return undefined;
      return {
        operation: 'listPets',
        credentials: { name: 'Authorization', authorization, label: `(${slot}: ${label})` },
      };
    }
    case 'header-name': {
      const name = textOf(value);
      if (!tchar.test(name) || hasBytes(value)) return undefined;
      return {
        operation: 'listPets',
        credentials: {
          name,
          authorization: `Bearer ${bases.key}`,
          label: `Bearer <API_KEY> (${label})`,
        },
      };
    }
    case 'petId':
      return { operation: 'getPet', segment: component(value, planned) };
    case 'limit':
    case 'status': {
      const form = planned.place === 'form' ? planned.members[0]!.form! : '{name}={value}';
      const query = form
        .replaceAll('{name}', slot)
        .replaceAll('{value}', component(value, planned));
      return { operation: 'listPets', query };
    }
    case 'name': {
      const name = textOf(value);
      return {
        operation: 'createPet',
        body: Buffer.from(newPetJson(jsonString(name), categoryId, sold)),
        sent: { name, categoryId: bases.categoryId, status: 'sold' },
      };
    }
    case 'categoryId':
      return {
        operation: 'createPet',
        body: Buffer.from(newPetJson(jsonString(ordinaryName), textOf(value), sold)),
      };
    case 'pet-status':
      return {
        operation: 'createPet',
        body: Buffer.from(
          newPetJson(jsonString(ordinaryName), categoryId, jsonString(textOf(value))),
        ),
      };
    case 'body':
      return bodyRequest(value, planned, bases, ordinaryName);
  }
}

function bodyRequest(
  value: Part[],
  planned: Planned,
  bases: Bases,
  ordinaryName: string,
): HostileRequest {
  const categoryId = String(bases.categoryId);
  const sent = { name: ordinaryName, categoryId: bases.categoryId, status: 'sold' };
  const json = newPetJson(jsonString(ordinaryName), categoryId, '"sold"');
  const additions = planned.members.map(addition);
  switch (planned.place) {
    case 'before':
      return {
        operation: 'createPet',
        body: Buffer.concat([bytesOf(additions), Buffer.from(json)]),
        sent,
      };
    case 'after':
      return {
        operation: 'createPet',
        body: Buffer.concat([Buffer.from(json), bytesOf(additions)]),
      };
    case 'inside': {
      // The name's JSON string with the bytes after the marker and label, before its closing quote.
      const name = jsonString(ordinaryName).slice(0, -1);
      const body = Buffer.concat([
        Buffer.from(`{"name":${name}`),
        bytesOf(value.slice(1)),
        Buffer.from(`","categoryId":${categoryId},"status":"sold"}`),
      ]);
      return { operation: 'createPet', body };
    }
    case 'segments': {
      // The ordinary NewPet, its request written in pieces: a NewPet to add, however it arrives;
      // to be cut inside a character, its name ends in one of two bytes.
      const segments = planned.members[0]!.segments!;
      if (!segments.inChar)
        return { operation: 'createPet', body: Buffer.from(json), sent, segments };
      const name = `${ordinaryName}\u00e9`;
      return {
        operation: 'createPet',
        body: Buffer.from(newPetJson(jsonString(name), categoryId, '"sold"')),
        sent: { ...sent, name },
        segments,
      };
    }
    case 'nest': {
      // The whole NewPet inside arrays: a JSON text, and no object (CREATE-400-BODY).
      const depth = planned.members[0]!.depth!;
      return {
        operation: 'createPet',
        body: Buffer.from(`${'['.repeat(depth)}${json}${']'.repeat(depth)}`),
      };
    }
    default: {
      const member = planned.members[0]!;
      return { operation: 'createPet', body: encoded(json, member), sent };
    }
  }
}

/** A text in a whole encoding, after its byte order mark when the member says so. */
export function encoded(value: string, member: Pick<Member, 'encoding' | 'bom'>): Buffer {
  const withMark = member.bom ? `\ufeff${value}` : value;
  switch (member.encoding) {
    case 'utf-16le':
      return Buffer.from(withMark, 'utf16le');
    case 'utf-16be':
      return Buffer.from(withMark, 'utf16le').swap16();
    case 'utf-32le':
    case 'utf-32be': {
      const points = [...withMark].map((char) => char.codePointAt(0)!);
      const out = Buffer.alloc(points.length * 4);
      points.forEach((point, index) =>
        member.encoding === 'utf-32le'
          ? out.writeUInt32LE(point, index * 4)
          : out.writeUInt32BE(point, index * 4),
      );
      return out;
    }
    default:
      return Buffer.from(withMark, 'utf8');
  }
}

/**
 * Cuts the name's combined case to what fits in 40 bytes: the rotated extras go first, from a
 * class the seed chooses on (so that each fits on some runs), then whole exemplars, last first.
 */
function fitName(group: Planned[], bases: Bases, label: string): Planned[] {
  const bytes = (planned: Planned[]) => {
    let value: Part[] | undefined = headOf('name', bases, label);
    for (const each of planned) {
      value = value && placed('name', value, each.place, each.members, bases);
    }
    return value ? bytesOf(value).length : 0;
  };
  let fitted = [...group];
  const start = ((bases.seed % group.length) + group.length) % group.length;
  const order = group.map((_, step) => group[(start + step) % group.length]!);
  for (const planned of [...order.filter((each) => each.extra), ...group.slice().reverse()]) {
    if (fitted.length === 1 || bytes(fitted) <= nameBytesLimit) return fitted;
    fitted = fitted.filter((each) => each !== planned);
  }
  return fitted;
}

/**
 * The cases a run sends for these slots: those of the main sweep (stored false) or those a store
 * may keep, sent after every other check (stored true). Labels are unique among them and start
 * with `prefix`, so that two phases' creates are told apart.
 */
export function casesOf(
  bases: Bases,
  options: { slots: readonly SlotId[]; stored: boolean; prefix: string },
): HostileCase[] {
  const cases: HostileCase[] = [];
  let counter = 0;
  for (const slot of hostileInputs.slots) {
    if (!options.slots.includes(slot.id)) continue;
    for (const group of plannedGroups(slot, bases.seed)) {
      const label = `${options.prefix}${(counter++).toString(36).padStart(2, '0')}`;
      const fitted = slot.id === 'name' && group.length > 1 ? fitName(group, bases, label) : group;
      const made = caseOf(slot, fitted, bases, label);
      if (made && made.stored === options.stored) cases.push(made);
    }
  }
  return cases;
}

/** Every case of every slot, both phases (docs, redaction, the self-test). */
export function allCases(bases: Bases): HostileCase[] {
  return [
    ...casesOf(bases, { slots: slotIds, stored: false, prefix: 'h' }),
    ...casesOf(bases, { slots: slotIds, stored: true, prefix: 's' }),
  ];
}

/**
 * The tokens the token and scheme slots derive from the key, every member of every cell (not
 * only those a run's seed chooses): what redaction must know of them.
 */
export function derivedTokens(key: string): { token: string; label: string }[] {
  const tokens: { token: string; label: string }[] = [];
  for (const item of hostileInputs.classes) {
    for (const slot of ['token', 'scheme'] as const) {
      const cell = item.slots[slot];
      if (typeof cell === 'string') continue;
      for (const place of [cell.place].flat()) {
        // A token sent instead of the key is the member's own word: nothing of the key is in it.
        if (slot === 'token' && place === 'instead') continue;
        for (const member of cellMembers(item, cell, slot, place).members) {
          const bases: Bases = { key, petId: 1n, marker: '', categoryId: 1n, seed: 0 };
          const planned: Planned = {
            item,
            cell,
            place,
            members: [member],
            combinable: false,
            stored: false,
            extra: false,
          };
          const made = caseOf(slotById(slot), [planned], bases, 'x');
          if (made?.request.operation !== 'listPets' || !('credentials' in made.request)) continue;
          const authorization = made.request.credentials.authorization;
          tokens.push({
            token: slot === 'token' ? authorization.slice('Bearer '.length) : authorization,
            label: `<API_KEY> as the ${slot} slot's ${item.id} ${member.id} sends it`,
          });
        }
      }
    }
  }
  return tokens;
}

/** For the docs: every cell, with the members that go into it and those that cannot. */
export interface CellView {
  slot: Slot;
  item: HostileClass;
  /** "n/a: why", when the class cannot go into the slot. */
  notApplicable?: string;
  cell?: Cell;
  placements: {
    place: Placement;
    members: Member[];
    skipped: { member: Member; why: string }[];
  }[];
}

export function cellViews(): CellView[] {
  const views: CellView[] = [];
  for (const item of hostileInputs.classes) {
    for (const slot of hostileInputs.slots) {
      const cell = item.slots[slot.id];
      if (typeof cell === 'string') {
        views.push({ slot, item, notApplicable: cell, placements: [] });
        continue;
      }
      views.push({
        slot,
        item,
        cell,
        placements: [cell.place].flat().map((place) => {
          const { members, notApplicable } = cellMembers(item, cell, slot.id, place);
          return { place, members, skipped: notApplicable };
        }),
      });
    }
  }
  return views;
}

/** The catalogue, loaded and checked once (after the tables its check reads are made). */
export const hostileInputs: HostileCatalogue = loadCatalogue();

export const slotById = (id: SlotId): Slot => hostileInputs.slots.find((slot) => slot.id === id)!;

/** The case of one cell's members in a placement (for the docs: every member, not a run's few). */
export function cellCase(
  item: HostileClass,
  slotId: SlotId,
  place: Placement,
  members: Member[],
  bases: Bases,
): HostileCase | undefined {
  const cell = item.slots[slotId];
  if (typeof cell === 'string') return undefined;
  const planned: Planned = {
    item,
    cell,
    place,
    members,
    combinable: false,
    extra: false,
    stored:
      cell.stored !== undefined ||
      (members.some((member) => member.stored !== undefined) && storedIn(slotId, place)),
  };
  return caseOf(slotById(slotId), [planned], bases, 'h00');
}

/** Bytes as a reader sees them: printable ASCII as it is, any other byte as \xHH. */
function shown(bytes: Buffer, limit: number): string {
  let out = '';
  for (const byte of bytes.subarray(0, limit)) {
    out +=
      byte >= 0x20 && byte < 0x7f && byte !== 0x5c
        ? String.fromCharCode(byte)
        : `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return bytes.length > limit ? `${out}… (${bytes.length} bytes)` : out;
}

/** What a case sends, as a line a reader can check byte by byte. */
export function wireText(made: HostileCase, limit = 72): string {
  const request = made.request;
  switch (request.operation) {
    case 'listPets':
      return 'credentials' in request
        ? `GET /pets, ${shown(Buffer.from(request.credentials.name, 'latin1'), limit)}: ${shown(Buffer.from(request.credentials.authorization, 'latin1'), limit)}`
        : `GET /pets?${shown(Buffer.from(request.query), limit)}`;
    case 'getPet':
      return `GET /pets/${shown(Buffer.from(request.segment), limit)}`;
    case 'createPet':
      return `POST /pets, body ${shown(request.body, limit)}`;
  }
}
