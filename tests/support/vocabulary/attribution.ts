/**
 * Attribution: the problems an answer shows by itself, each charged to the requirement it breaks,
 * so that one deviation fails its own requirement and not every check that met it. Pure functions
 * over answers: the media type (MEDIA-JSON, also for a body garbled around the interface's JSON,
 * which the checks then judge: http/garbled.ts), an Error body's shape and status field, a Pet's shape
 * and each of its fields' requirements, a list that is no array, what a create sent against its
 * 201 answer and later reads. Every rule, with the rows a control request decides, is a row of the
 * diagnosis table (diagnosis.ts); the matchers (matchers.ts) apply both, and verdicts.ts records
 * what they charge.
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { type ApiResponse, type Pet, petStatuses } from '../http/client.ts';
import {
  type JsonValue,
  exactInteger,
  int64Of,
  isJsonNumber,
  stringifyExact,
} from '../http/lossless-json.ts';
import { type SchemaName, type Violation, validateBody } from '../http/schema.ts';
import { petNamePrefix } from '../setup/settings.ts';
import { ownNameBytes } from './names.ts';

/** A problem found in an answer, charged to one requirement. */
export interface Problem {
  requirement: RequirementId;
  text: string;
  /** The check that found it cannot go on: the answer it needed is not there. */
  blocks?: boolean;
  /**
   * It compares text the answer carried (a name) with what was sent: in a body that is not UTF-8
   * that text cannot be read, and MEDIA-JSON answers for it (verdicts.ts, settle).
   */
  readsText?: true;
}

/**
 * What a check expects of a status: one status, any 4xx but 401 (the suite is authenticated) where
 * the document leaves it open, or anything but a 5xx.
 */
export type ExpectedStatus = number | 'client-error' | 'below-500';

export function statusMatches(expected: ExpectedStatus, actual: number): boolean {
  if (expected === 'below-500') return actual < 500;
  return expected === 'client-error'
    ? actual >= 400 && actual < 500 && actual !== 401
    : actual === expected;
}

export function describeStatus(expected: ExpectedStatus): string {
  return expected === 'client-error'
    ? 'a 4xx other than 401'
    : expected === 'below-500'
      ? 'any status below 500'
      : String(expected);
}

/**
 * Where an answer breaks the media type: a body not sent as application/json, or not JSON (garbled
 * or not: the JSON found inside is the shape checks' to judge).
 */
export function mediaProblems(response: ApiResponse): Problem[] {
  // An empty body carries no media type; whether one was due is the shape's question.
  if (response.failure !== undefined || response.text === '') return [];
  const problems: Problem[] = [];
  if (response.notUtf8) {
    problems.push({
      requirement: 'MEDIA-JSON',
      text: 'the body is not UTF-8: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1), and its text cannot be read as sent (each byte that is not shows as U+FFFD)',
    });
  }
  if (!response.isJson) {
    const type = response.contentType || 'no Content-Type';
    problems.push({
      requirement: 'MEDIA-JSON',
      text: `Content-Type is "${type}", not application/json`,
    });
  }
  // A body too deep to parse may be JSON all the same.
  const body = response.body;
  if (!body.ok && !body.unread) problems.push({ requirement: 'MEDIA-JSON', text: body.problem });
  return problems;
}

/** The requirement of a Pet's field: its id, categoryId and status have requirements of their own. */
export function petFieldRequirement(violation: Violation): RequirementId {
  if (violation.text.includes('must have required property')) return 'PET-SHAPE';
  if (violation.field === 'id') return 'PET-ID-INT64';
  if (violation.field === 'categoryId') return 'NEWPET-CATEGORYID-INT64';
  if (violation.field === 'status') return 'PETSTATUS-ENUM';
  return 'PET-SHAPE';
}

/** Each violation once: ajv reports a non-object twice, once per part of Pet's allOf. */
function unique(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    const key = `${problem.requirement} ${problem.text}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The body parsed, or the problems of a body that is not JSON (MEDIA-JSON, and the shape's). A
 * garbled body that holds the interface's JSON (http/garbled.ts) is MEDIA-JSON's (`garbled`), and
 * judged on the JSON found.
 */
function parsed(
  response: ApiResponse,
  schema: SchemaName,
  shape: RequirementId,
): { value: JsonValue; garbled: Problem[] } | { problems: Problem[] } {
  const body = response.body;
  if (body.ok) return { value: body.value, garbled: [] };
  if (body.salvaged !== undefined) {
    return { value: body.salvaged, garbled: [{ requirement: 'MEDIA-JSON', text: body.problem }] };
  }
  // A body that is no JSON at all (an HTML page) breaks the media type, the most general rule:
  // what shape it should have had cannot be judged, and the check is blocked. An empty body, or
  // one too deep to parse (JSON all the same, maybe), is the shape's.
  if (response.text !== '' && !body.unread) {
    return { problems: [{ requirement: 'MEDIA-JSON', text: body.problem, blocks: true }] };
  }
  return {
    problems: [{ requirement: shape, text: `no ${schema} body: ${body.problem}`, blocks: true }],
  };
}

/** An Error body: its shape (ERROR-SHAPE) and its status field (ERROR-STATUS-FIELD). */
export function errorBodyProblems(response: ApiResponse): Problem[] {
  const body = parsed(response, 'Error', 'ERROR-SHAPE');
  if ('problems' in body) return body.problems;
  const problems: Problem[] = [
    ...body.garbled,
    ...validateBody('Error', body.value).map((violation) => ({
      requirement: 'ERROR-SHAPE' as const,
      text: `Error: ${violation.text}`,
    })),
  ];
  // Compared as numbers, exactly: 401.0 is the integer 401 to JSON Schema. A status that is no
  // integer at all is the shape's problem, reported above.
  const field = (body.value as Record<string, JsonValue> | null)?.status;
  const value = isJsonNumber(field) ? exactInteger(field.value) : undefined;
  if (value !== undefined && value !== BigInt(response.status)) {
    problems.push({
      requirement: 'ERROR-STATUS-FIELD',
      text: `Error.status is ${isJsonNumber(field) ? field.value : ''}, not the HTTP status ${response.status}`,
    });
  }
  return unique(problems);
}

/**
 * Who answers for a Pet's name that is no string (null, absent): PET-SHAPE, unless the pet is one
 * the run created, with a string name. Then it is a name not kept: `requirement` (CREATE-ECHO in
 * the 201 answer, CREATE-PERSIST when read back `where`), against the name `sent`; null: a pet of
 * another worker, whose own checks hold it to what it was created with, or one added from a body
 * that should have been refused (a list that shows it charges nothing, for any of its fields).
 */
export type NameKeeper =
  { requirement: RequirementId; sent: string; where?: string } | null | undefined;

/** A name violation of a pet the run created, as its keeper answers for it; undefined otherwise. */
function nameNotKept(
  violation: Violation,
  pet: JsonValue | undefined,
  keeper: NameKeeper,
): Problem | null | undefined {
  if (violation.field !== 'name' || keeper === undefined) return undefined;
  if (keeper === null) return null;
  const value = (pet as Record<string, JsonValue> | null)?.name;
  const name = value === undefined ? '(absent)' : short(value);
  const sent = JSON.stringify(keeper.sent);
  return {
    requirement: keeper.requirement,
    text: keeper.where
      ? `${keeper.where} has name ${name}, not ${sent} as created`
      : `name is ${name}, not ${sent} as sent`,
  };
}

/**
 * A Pet body: each violation charged to its field's requirement; the pet when it is one. `keeper`:
 * the body is a pet the run created (nameNotKept).
 */
export function petBodyProblems(
  response: ApiResponse,
  keeper?: NameKeeper,
): { problems: Problem[]; pet?: Pet } {
  const body = parsed(response, 'Pet', 'PET-SHAPE');
  if ('problems' in body) return { problems: body.problems };
  const problems = unique(
    validateBody('Pet', body.value).map(
      (violation) =>
        nameNotKept(violation, body.value, keeper) ?? {
          requirement: petFieldRequirement(violation),
          text: `Pet: ${violation.text}`,
        },
    ),
  );
  const pet = asPet(body.value);
  if (pet) return { problems: [...body.garbled, ...problems], pet };
  // No pet to compare: the violations already say why, and stop the check there.
  if (problems.length > 0) {
    return {
      problems: [...body.garbled, ...problems.map((problem) => ({ ...problem, blocks: true }))],
    };
  }
  return { problems: [...body.garbled, ...notAPet(body.value)] };
}

/** A Pet as far as it can be read (exact int64 id and categoryId, a string name), or undefined. */
export function asPet(value: JsonValue | undefined): Pet | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, JsonValue>;
  const id = int64Of(record.id);
  const categoryId = int64Of(record.categoryId);
  if (id === undefined || categoryId === undefined || typeof record.name !== 'string') {
    return undefined;
  }
  const pet: Pet = { id, name: record.name, categoryId };
  if (record.status !== undefined) pet.status = String(record.status);
  return pet;
}

function notAPet(value: JsonValue): Problem[] {
  return [{ requirement: 'PET-SHAPE', text: `no Pet to compare: ${short(value)}`, blocks: true }];
}

function short(value: JsonValue): string {
  // Numbers as sent: exact, and not quoted.
  const text = stringifyExact(value);
  return text.length > 120 ? `${text.slice(0, 120)}…` : text;
}

/**
 * A list body: an array (LIST-200-PETS) of Pets (each field charged to its requirement).
 * `keeperOf`: who answers for a listed pet's name that is no string, by its id (nameNotKept).
 */
export function listBodyProblems(
  response: ApiResponse,
  keeperOf?: (id: bigint) => NameKeeper,
): {
  problems: Problem[];
  items?: JsonValue[];
} {
  const body = parsed(response, 'Pets', 'LIST-200-PETS');
  if ('problems' in body) return { problems: body.problems };
  if (!Array.isArray(body.value)) {
    return {
      problems: [
        ...body.garbled,
        {
          requirement: 'LIST-200-PETS',
          text: `the body is not an array of Pets but ${short(body.value)}`,
          blocks: true,
        },
      ],
    };
  }
  const items = body.value;
  const problems = validateBody('Pets', items).flatMap((violation): Problem[] => {
    const index = /^\/(\d+)(?:\/[^/]+)?$/.exec(violation.path)?.[1];
    const item = index === undefined ? undefined : items[Number(index)];
    const id = int64Of((item as Record<string, JsonValue> | null | undefined)?.id);
    const keeper = id === undefined ? undefined : keeperOf?.(id);
    // A pet another worker created, or one added from a body that should have been refused: its
    // fields are its creator's checks' to judge, or that acceptance's consequence.
    if (keeper === null) return [];
    const notKept = nameNotKept(violation, item, keeper);
    return [
      notKept ?? {
        requirement: petFieldRequirement(violation),
        text: `listed Pet ${violation.text}`,
      },
    ];
  });
  return { problems: [...body.garbled, ...unique(problems).slice(0, 8)], items };
}

/**
 * The largest createPet body the suite's own NewPets make: a name of the suite's longest
 * (ownNameBytes), the longest int64 and status. A target must take such a NewPet (CREATE-201-PET).
 */
export const ordinaryBodyBytes = Buffer.byteLength(
  stringifyExact({
    name: 'n'.repeat(ownNameBytes),
    categoryId: -(2n ** 63n),
    status: 'available',
  }),
);

/**
 * A 413 (Content Too Large, RFC 9110 §15.5.14) to a body larger than any the suite's own NewPets
 * make: a size limit of bodies, which the document leaves open (section 8: "size limits of bodies
 * and of the name field: not shown"; section 7: other status codes "not shown"), as a 400 for a
 * long name is a size limit of names. Where the suite sends a valid NewPet that large (a long
 * name), such a refusal is the target's right, and decides nothing: the check goes on without
 * that pet. Its body is not judged: it is a gateway's as often as the service's (an HTML page,
 * nothing at all). A 413 to a body no larger than the suite's ordinary NewPet (a short name) is
 * no size limit a client could keep to: the document's 201 for a valid NewPet holds, and it is
 * judged as any refusal is (diagnosis.ts: the value that made the difference). So a 413 never passes a check that
 * a small NewPet would fail.
 */
export function isSizeRefusal(response: ApiResponse): boolean {
  return (
    response.failure === undefined &&
    response.status === 413 &&
    Buffer.byteLength(response.request.body ?? '') > ordinaryBodyBytes
  );
}

/** What a create sent, and what the service is expected to keep of it. */
export interface SentPet {
  name: string;
  categoryId: bigint;
  /** Absent: omitted, and the stored status is the service's choice. */
  status?: string;
}

/**
 * Where two names first differ, by code point: names that normalisation, a no-break space or an
 * invisible character changed look the same when printed.
 */
export function whereNamesDiffer(shown: string, sent: string): string {
  const [a, b] = [[...shown], [...sent]];
  let at = 0;
  while (at < a.length && at < b.length && a[at] === b[at]) at++;
  const codes = (chars: string[]) =>
    chars
      .slice(at, at + 3)
      .map((char) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`)
      .join(' ') || 'its end';
  return ` (from character ${at + 1}: ${codes(a)}, not ${codes(b)})`;
}

/** The 201 answer against what was sent: name and status (CREATE-ECHO), categoryId. */
export function echoProblems(sent: SentPet, pet: Pet): Problem[] {
  const problems: Problem[] = [];
  if (pet.name !== sent.name) {
    problems.push({
      requirement: 'CREATE-ECHO',
      text: `name is ${JSON.stringify(pet.name)}, not ${JSON.stringify(sent.name)} as sent${whereNamesDiffer(pet.name, sent.name)}`,
      readsText: true,
    });
  }
  // A status that is no PetStatus at all is PETSTATUS-ENUM's (the schema's), not the echo's.
  if (sent.status !== undefined && pet.status !== sent.status && !foreignStatus(pet)) {
    problems.push({
      requirement: 'CREATE-ECHO',
      text: `status is ${pet.status ?? '(absent)'}, not ${sent.status} as sent`,
    });
  }
  if (pet.categoryId !== sent.categoryId) {
    problems.push({
      requirement: 'NEWPET-CATEGORYID-INT64',
      text: `categoryId is ${pet.categoryId}, not ${sent.categoryId} as sent`,
    });
  }
  return problems;
}

/** A pet created in this run: what was sent, what the 201 answer said, what reads have shown. */
export interface KnownPet extends SentPet {
  id: bigint;
  /** The 201 answer's pet. */
  echoed: Pet;
  /** Status omitted: the first status a read showed (a default may appear later, once). */
  readStatus?: string | null;
}

/**
 * A pet read back (through getPet or a list) against the one created: name and status as sent
 * (CREATE-PERSIST, unless the 201 answer already showed the same deviation, which is
 * CREATE-ECHO's), categoryId as sent (NEWPET-CATEGORYID-INT64). Status omitted: any PetStatus or
 * none, but the same in every read; a default may appear once, later.
 */
export function storedProblems(known: KnownPet, read: Pet, where: string): Problem[] {
  const problems: Problem[] = [];
  if (beyondDoubleRange(known.id)) {
    // Beyond 2^53 a double cannot tell neighbouring ids apart: a read that shows another pet
    // under this id is an id that was not kept exact.
    const same =
      read.name === known.name &&
      read.categoryId === known.categoryId &&
      (known.status === undefined || read.status === known.status);
    return same
      ? []
      : [
          {
            requirement: 'PET-ID-INT64',
            text: `${where}: pet ${known.id} (beyond 2^53) shows ${JSON.stringify(read.name)}, categoryId ${read.categoryId}: another pet than the one created under that id`,
          },
        ];
  }
  // Another pet of this run altogether (another of the run's names, another categoryId) under
  // this id: two pets under one id, PET-ID-UNIQUE's, not a pet whose fields were not kept.
  if (
    read.name !== known.name &&
    read.name !== known.echoed.name &&
    read.name.includes(petNamePrefix) &&
    read.categoryId !== known.categoryId &&
    read.categoryId !== known.echoed.categoryId
  ) {
    return [
      {
        requirement: 'PET-ID-UNIQUE',
        text: `${where}: pet ${known.id} shows ${JSON.stringify(read.name)}, categoryId ${read.categoryId}: another pet of this run under its id, not ${JSON.stringify(known.name)} as created`,
        readsText: true,
      },
    ];
  }
  if (read.name !== known.name && read.name !== known.echoed.name) {
    problems.push({
      requirement: 'CREATE-PERSIST',
      text: `${where}: pet ${known.id} has name ${JSON.stringify(read.name)}, not ${JSON.stringify(known.name)} as created${whereNamesDiffer(read.name, known.name)}`,
      readsText: true,
    });
  }
  if (read.categoryId !== known.categoryId && read.categoryId !== known.echoed.categoryId) {
    problems.push({
      requirement: 'NEWPET-CATEGORYID-INT64',
      text: `${where}: pet ${known.id} has categoryId ${read.categoryId}, not ${known.categoryId} as created`,
    });
  }
  if (foreignStatus(read)) {
    // A status that is no PetStatus at all is PETSTATUS-ENUM's (the schema's), not the read's.
  } else if (known.status !== undefined) {
    if (read.status !== known.status && read.status !== known.echoed.status) {
      problems.push({
        requirement: 'CREATE-PERSIST',
        text: `${where}: pet ${known.id} has status ${read.status ?? '(absent)'}, not ${known.status} as created`,
      });
    }
  } else {
    const now = read.status ?? null;
    const before = known.readStatus;
    if (before === undefined || (before === null && now !== null)) known.readStatus = now;
    else if (before !== now) {
      problems.push({
        requirement: 'NEWPET-STATUS-OPTIONAL',
        text: `${where}: pet ${known.id}, created without status, shows status ${now ?? '(absent)'} after ${before ?? '(absent)'} before`,
      });
    }
  }
  return problems;
}

/** A status shown that is no PetStatus (null, another case, a number): the schema's to judge. */
function foreignStatus(pet: Pet): boolean {
  return pet.status !== undefined && !(petStatuses as readonly string[]).includes(pet.status);
}

/** Ids beyond ±2^53, where a double no longer holds every integer: their mix-ups are PET-ID-INT64's. */
export function beyondDoubleRange(value: bigint): boolean {
  return value > 2n ** 53n || value < -(2n ** 53n);
}

/** The pet an answer carries, read as far as it can be (undefined when it carries none). */
export function petIn(response: ApiResponse): Pet | undefined {
  return asPet(response.bodyValue);
}

/**
 * The ids a list answer shows, read leniently (an int64 number, or a decimal int64 written as a
 * string): listed is listed, whatever else of a pet is wrong, its fields being charged to their own
 * requirements. Empty when the answer is no array.
 */
export function idsIn(response: ApiResponse): Set<bigint> {
  const value = response.bodyValue;
  const ids = new Set<bigint>();
  if (!Array.isArray(value)) return ids;
  for (const item of value) {
    const id = (item as Record<string, JsonValue> | null)?.id;
    const exact =
      typeof id === 'string' && /^-?(?:0|[1-9][0-9]{0,18})$/.test(id) ? BigInt(id) : int64Of(id);
    if (exact !== undefined) ids.add(exact);
  }
  return ids;
}

/** The pets a list answer carries, those that can be read (none when it is no array). */
export function petsIn(response: ApiResponse): Pet[] {
  const value = response.bodyValue;
  return Array.isArray(value)
    ? value.map(asPet).filter((pet): pet is Pet => pet !== undefined)
    : [];
}
