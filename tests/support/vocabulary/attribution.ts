/**
 * Attribution: which requirement each problem an answer shows is charged to, so that one deviation
 * fails its own requirement and not every check that met it. Pure functions over answers; the
 * matchers (matchers.ts) record what they return (verdicts.ts).
 *
 * The rules, in one place:
 * - no usable answer at all (refused, reset, timed out, too large): the operation's own
 *   requirement (listPets: LIST-200-PETS, createPet: CREATE-201-PET, getPet: GET-200-PET);
 * - the status code, a count, a filter, completeness: the check's own requirement; but a 5xx to a
 *   list or getPet that should succeed, once a create of a name holding a lone surrogate was
 *   answered with a 5xx in the run (it may be stored, and fail every answer showing it): NO-5XX;
 * - a 5xx (not 503) that the same request, sent again at once, is not answered with (http/client.ts,
 *   exchange): NO-5XX alone, as a finding; the check judges the second answer;
 * - a pet shown under another status in a list filtered by status: LIST-STATUS-FILTER (one shown
 *   without status: nothing here; a pet the run created, its echo's and read-back's);
 * - a body that is not sent as application/json, or is not JSON: MEDIA-JSON; a body that is not
 *   JSON but holds the interface's JSON, garbled (a byte order mark, a warning printed before it:
 *   http/garbled.ts), is MEDIA-JSON's alone, and the check goes on judging the JSON found;
 * - an Error body's shape: ERROR-SHAPE; its status field not the HTTP status: ERROR-STATUS-FIELD;
 * - a Pet's shape: PET-SHAPE, but its id PET-ID-INT64, its categoryId NEWPET-CATEGORYID-INT64,
 *   its status PETSTATUS-ENUM; a list that is not an array: LIST-200-PETS; one id listed for
 *   different pets: PET-ID-UNIQUE (beyond 2^53 PET-ID-INT64), one pet listed twice:
 *   LIST-NO-DUPLICATES (matchers.ts, listedProblems, tells them apart);
 * - a created pet's name or status not as sent: CREATE-ECHO in the 201 answer, CREATE-PERSIST
 *   when read back (unless the 201 answer showed the same already); a categoryId not as sent,
 *   anywhere: NEWPET-CATEGORYID-INT64; under its id, another pet of the run altogether (another
 *   of its names, another categoryId): PET-ID-UNIQUE (beyond 2^53, any other pet: PET-ID-INT64);
 * - a valid NewPet larger than the suite's own refused with 413: a size limit of bodies, nobody's
 *   (isSizeRefusal); a smaller one: a refusal like any other;
 * - a valid NewPet refused: the requirement of the one value that makes the difference (the same
 *   NewPet with that value made ordinary is added, `refusalOf` in pets.ts): its categoryId
 *   NEWPET-CATEGORYID-INT64, its name CREATE-201-PET, its status PETSTATUS-ENUM, no status
 *   NEWPET-STATUS-OPTIONAL; none alone: CREATE-201-PET;
 * - a list shorter than its limit that leaves out a pet it should show, once the target was asked
 *   why (pets.ts, shortfall, whereHeld): CREATE-PERSIST when the pet is gone, nothing when getPet
 *   shows it under another status than created (the echo's or the read-back's), LIST-LIMIT-EXACT
 *   when the same list at limit=1 holds more than one, the limit rule when the same list at
 *   limit-1 holds another count (not for a filtered list whose unfiltered list at the limit is
 *   full, nor when the list asked again holds as many, is still short and still leaves the pet
 *   out: other writers added pets in between), LIST-STATUS-FILTER when status=X&limit=1 finds
 *   none, or status=S&limit=1 for another status S of which a pet is known to exist, else
 *   LIST-COMPLETE; a limit check short only of pets gone or left out is blocked,
 *   not failed;
 * - a list holding another number of pets than its limit allows, once the target was asked which
 *   rule (pets.ts, miscount): the limit's, not the filter's, when the unfiltered list holds the
 *   same count; without limit, LIST-LIMIT-EXACT when limit=20 holds as many (the default is 20),
 *   else LIST-LIMIT-DEFAULT; at limit 1 or 100, LIST-LIMIT-EXACT when limit 2 or 99 is off by as
 *   many or holds the same count (a count off everywhere, a limit not read), else LIST-LIMIT-MIN
 *   or LIST-LIMIT-MAX; more than 100 pets for a limit outside 1..100: LIST-LIMIT-MAX. A short
 *   list whose same list at limit=1 holds more than one was cut by the count: LIST-LIMIT-EXACT.
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';
import type { ApiResponse, Operation, Pet } from '../http/client.ts';
import {
  type JsonValue,
  exactInteger,
  int64Of,
  isJsonNumber,
  stringifyExact,
} from '../http/lossless-json.ts';
import { type SchemaName, type Violation, validateBody } from '../http/schema.ts';
import { petNamePrefix } from '../setup/settings.ts';
import { ordinaryNameBytes } from './generators.ts';

/** A problem found in an answer, charged to one requirement. */
export interface Problem {
  requirement: RequirementId;
  text: string;
  /** The check that found it cannot go on: the answer it needed is not there. */
  blocks?: boolean;
}

/** What an operation that fails to answer at all breaks. */
export const operationRequirement: Record<Operation, RequirementId> = {
  listPets: 'LIST-200-PETS',
  createPet: 'CREATE-201-PET',
  getPet: 'GET-200-PET',
};

/** `client-error`: any 4xx but 401 (the suite is authenticated), where the document leaves it open. */
export type ExpectedStatus = number | 'client-error';

export function statusMatches(expected: ExpectedStatus, actual: number): boolean {
  return expected === 'client-error'
    ? actual >= 400 && actual < 500 && actual !== 401
    : actual === expected;
}

export function describeStatus(expected: ExpectedStatus): string {
  return expected === 'client-error' ? 'a 4xx other than 401' : String(expected);
}

/**
 * The answer's status against the one expected, charged to `own`. A request without a usable
 * answer is charged to its operation instead (or to `own` when it is no operation of the
 * interface). Both block: a wrong status is reported alone, its body is not judged further.
 */
export function statusProblems(
  response: ApiResponse,
  expected: ExpectedStatus,
  own: RequirementId,
): Problem[] {
  if (response.failure !== undefined) {
    const requirement = response.operation ? operationRequirement[response.operation] : own;
    const operation = response.operation ? ` (${response.operation})` : '';
    return [
      { requirement, text: `no usable answer${operation}: ${response.failure}`, blocks: true },
    ];
  }
  if (statusMatches(expected, response.status)) return [];
  if (response.afterUnwritableName && expected === 200) {
    // The store may hold the pet whose create failed on half a character, and fail on every
    // answer that shows it: one deviation, charged where the name was sent (NO-5XX).
    return [
      {
        requirement: 'NO-5XX',
        text:
          `status ${response.status}, not 200, after a create of a name holding a lone surrogate ` +
          'was answered with a 5xx: the target may hold that pet and fail on every answer that shows it',
        blocks: true,
      },
    ];
  }
  const text =
    expected === 'client-error'
      ? `status ${response.status} is not a 4xx other than 401`
      : `status ${response.status}, not ${expected}`;
  return [{ requirement: own, text, blocks: true }];
}

/**
 * Where an answer breaks the media type: a body not sent as application/json, or not JSON (garbled
 * or not: the JSON found inside is the shape checks' to judge).
 */
export function mediaProblems(response: ApiResponse): Problem[] {
  // An empty body carries no media type; whether one was due is the shape's question.
  if (response.failure !== undefined || response.text === '') return [];
  const problems: Problem[] = [];
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
  const problems: Problem[] = [];
  // A body too deep to parse may be JSON all the same: only its shape is charged.
  if (response.text !== '' && !body.unread) {
    problems.push({ requirement: 'MEDIA-JSON', text: body.problem });
  }
  problems.push({ requirement: shape, text: `no ${schema} body: ${body.problem}`, blocks: true });
  return { problems };
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
 * another worker, whose own checks hold it to its name (a list that shows it charges nothing).
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
  const text = JSON.stringify(value, (_key, item) =>
    isJsonNumber(item) ? `${(item as { value: string }).value}` : item,
  );
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
    const index = /^\/(\d+)(?:\/name)?$/.exec(violation.path)?.[1];
    const item = index === undefined ? undefined : items[Number(index)];
    const id = int64Of((item as Record<string, JsonValue> | null | undefined)?.id);
    const keeper = id === undefined ? undefined : keeperOf?.(id);
    const notKept = nameNotKept(violation, item, keeper);
    if (notKept === null) return [];
    return [
      notKept ?? {
        requirement: petFieldRequirement(violation),
        text: `listed Pet ${violation.text}`,
      },
    ];
  });
  return { problems: [...body.garbled, ...unique(problems).slice(0, 8)], items };
}

/** Why a valid NewPet was refused: the requirement of the value that made the difference. */
export interface RefusalCause {
  requirement: RequirementId;
  /** Which value, and the NewPet that was added without it. */
  text: string;
}

/**
 * A valid NewPet's answer that refuses it (a 4xx other than 401, 408 and 429, which refuse no
 * value; or a 500, an exception on one), where the value that made the difference is worth finding.
 */
export function isRefusal(response: ApiResponse): boolean {
  if (response.failure !== undefined) return false;
  const { status } = response;
  return status === 500 || (status >= 400 && status < 500 && ![401, 408, 429].includes(status));
}

/**
 * The largest createPet body the suite's own NewPets make: a name of the suite's longest (40 UTF-8
 * bytes), the longest int64 and status. A target must take such a NewPet (CREATE-201-PET).
 */
export const ordinaryBodyBytes = Buffer.byteLength(
  stringifyExact({
    name: 'n'.repeat(ordinaryNameBytes),
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
 * judged as any refusal is (pets.refusalOf, CREATE-201-PET). So a 413 never passes a check that
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

/** The 201 answer against what was sent: name and status (CREATE-ECHO), categoryId. */
export function echoProblems(sent: SentPet, pet: Pet): Problem[] {
  const problems: Problem[] = [];
  if (pet.name !== sent.name) {
    problems.push({
      requirement: 'CREATE-ECHO',
      text: `name is ${JSON.stringify(pet.name)}, not ${JSON.stringify(sent.name)} as sent`,
    });
  }
  if (sent.status !== undefined && pet.status !== sent.status) {
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
      },
    ];
  }
  if (read.name !== known.name && read.name !== known.echoed.name) {
    problems.push({
      requirement: 'CREATE-PERSIST',
      text: `${where}: pet ${known.id} has name ${JSON.stringify(read.name)}, not ${JSON.stringify(known.name)} as created`,
    });
  }
  if (read.categoryId !== known.categoryId && read.categoryId !== known.echoed.categoryId) {
    problems.push({
      requirement: 'NEWPET-CATEGORYID-INT64',
      text: `${where}: pet ${known.id} has categoryId ${read.categoryId}, not ${known.categoryId} as created`,
    });
  }
  if (known.status !== undefined) {
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

/** Ids beyond ±2^53, where a double no longer holds every integer: their mix-ups are PET-ID-INT64's. */
export function beyondDoubleRange(value: bigint): boolean {
  return value > 2n ** 53n || value < -(2n ** 53n);
}

/** The pet an answer carries, read as far as it can be (undefined when it carries none). */
export function petIn(response: ApiResponse): Pet | undefined {
  return asPet(response.bodyValue);
}

/** The pets a list answer carries, those that can be read (none when it is no array). */
export function petsIn(response: ApiResponse): Pet[] {
  const value = response.bodyValue;
  return Array.isArray(value)
    ? value.map(asPet).filter((pet): pet is Pet => pet !== undefined)
    : [];
}
