/**
 * The diagnosis: which requirement a deviation is charged to, decided in one place, by one ordered
 * table (`diagnosisTable`). The principle: a deviation is charged to the most general rule whose
 * control request reproduces it. Change one thing (the filter, the limit, the value, the key) and
 * see whether the deviation stays: if it does, that thing is not its cause, and the diagnosis goes
 * on with the control's own answer; if it goes, that thing is the cause, and its rule is charged.
 *
 * The matchers (matchers.ts) call it, and only when a check has failed: a conformant target never
 * pays for a control request, and a new check, a generated input or a swept hostile one gets the
 * right charge without diagnosis code of its own. Spec files never call it.
 *
 * Each row reads one kind of deviation, in order: the first row that concludes decides. A row
 * concludes with a charge (the requirement and why), with `allowed` (the control shows the answer
 * is one the document allows after all: a refusal of an invalid value), or with `instead` (the
 * deviation stays under the control request: the control's answer is diagnosed in its place).
 * The prose of every row (when, control, implies) is what CONTRIBUTING.md and docs/verdicts.md show
 * (`npm run generate` writes it there; selftest/generated.test.ts holds them to it).
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';
import {
  type ApiResponse,
  type NewPet,
  type Operation,
  type Pet,
  type PetStatus,
  type PetStoreClient,
  petStatuses,
} from '../http/client.ts';
import type { SentPet } from './attribution.ts';
import { beyondDoubleRange, idsIn, isSizeRefusal, petIn, petsIn } from './attribution.ts';
import {
  type ListQuery,
  listQueryOf,
  openQueryPart,
  readLimit,
  readNewPetBody,
  readPetId,
  readStatusFilter,
} from './inputs.ts';
import { isContested, knownPets } from './known-pets.ts';
import { isOwnName, nameMayBeRefused, ownName, ownNameBytes } from './names.ts';
import { together } from './together.ts';
import { petNamePrefix } from '../setup/settings.ts';
import { block, notRun } from './verdicts.ts';
import { getPetMayBeGone } from './versioning.ts';

/** What a row concludes. */
export type Conclusion =
  | { charge: RequirementId; why: string }
  | { allowed: string; unjudged?: true }
  | { instead: ApiResponse; why: string }
  /**
   * The answer cannot be judged (the target went away under it): the check is blocked; with
   * `leftOut`, a requirement no check can decide on this target, reported not run with why.
   */
  | { blocked: string; leftOut?: RequirementId };

/** A pet a list should show: its id and, when known, the status it was created with. */
export interface WantedPet {
  id: bigint;
  status?: string;
}

/** The deviations the table reads, each with what the check that met it knows. */
export interface Deviations {
  /** An answer whose status is not the one the check expected (a 5xx where none was due included). */
  status: {
    answer: ApiResponse;
    expected: string;
    own: RequirementId;
    newPet?: SentPet;
    known?: WantedPet;
  };
  /** A 200 list holding another number of pets than its limit allows. */
  count: { answer: ApiResponse; query: ListQuery; count: number; expected: number; more: boolean };
  /** A list shorter than its limit that leaves out pets it should show. */
  short: { answer: ApiResponse; query: ListQuery; missing: WantedPet[] };
  /** A create whose body asked for an id, answered with that very id. */
  'chosen-id': { answer: ApiResponse; asked: bigint };
  /** getPet of an id no pet is known to have, answered 200 with another pet (`shown`). */
  'other-pet': { answer: ApiResponse; asked: bigint; shown: bigint };
  /** A store grown to hold `expected` pets whose list (limit=100) holds fewer. */
  store: { answer: ApiResponse; created: readonly Pet[]; expected: number };
}
export type DeviationKind = keyof Deviations;

/** One row of the table: its prose (for the docs) and, for rows with a control, its logic. */
export interface Row<K extends DeviationKind | 'answer' | 'preflight' = DeviationKind> {
  id: string;
  /**
   * The deviation it reads; `answer`: what an answer shows by itself, decided where `appliedIn`
   * says; `preflight`: the preflight's request, before any test (setup/preflight-check.ts).
   */
  reads: K;
  /** When the row applies. */
  when: string;
  /** The control request: what is sent, with one thing changed; none when the answer decides. */
  control?: string;
  /** What the control's answer (or the answer itself) implies: the requirement charged. */
  implies: string;
  /** The requirements it may charge (typed: a misspelt one does not compile). */
  charges: readonly RequirementId[];
  /** Rows that read a deviation: what they conclude. */
  conclude?: K extends DeviationKind
    ? (
        deviation: Deviations[K],
        ask: Ask,
      ) => Conclusion | undefined | Promise<Conclusion | undefined>
    : never;
  /** Rows the answer decides: where the rule is applied. */
  appliedIn?: string;
}

/** The running test's client and its ordinary values: the controls go through them. */
export interface ControlContext {
  api: PetStoreClient;
  /** An ordinary categoryId of the target (1, or one it declared). */
  categoryId: () => bigint;
  /**
   * A pet that exists, for the controls of getPet (one of the run's, created once if need be);
   * undefined when none could be had: the control cannot be asked.
   */
  existing: () => Promise<Pet | undefined>;
  /** The categoryIds the target declared (CONFORMANCE_CATEGORY_IDS), if it did. */
  categoryIds?: readonly bigint[];
}

let context: ControlContext | undefined;

/** Makes the controls of the running test go through `next` (fixtures.ts); returns the undo. */
export function useControls(next: ControlContext): () => void {
  const before = context;
  context = next;
  return () => {
    context = before;
  };
}

/**
 * The control requests of one diagnosis: each asked once, however many rows read its answer. They
 * go through the test's client (counted, in its exchanges, creates against the write budget).
 */
export class Ask {
  private readonly asked = new Map<string, Promise<ApiResponse>>();
  constructor(readonly controls: ControlContext) {}

  private once(key: string, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    let answer = this.asked.get(key);
    if (!answer) this.asked.set(key, (answer = send()));
    return answer;
  }

  list(query: { limit?: number | string; status?: string }): Promise<ApiResponse> {
    return this.once(`list ${query.status ?? ''} ${query.limit ?? ''}`, () =>
      this.controls.api.listPets(query),
    );
  }

  get(id: bigint): Promise<ApiResponse> {
    return this.once(`get ${id}`, () => this.controls.api.getPet(id));
  }

  /** A create is never memoized: each is a new pet, counted against the write budget. */
  create(
    body: NewPet & { id?: bigint },
    credentials: 'key' | 'none' = 'key',
    contentType?: string,
  ): Promise<ApiResponse> {
    const headers = contentType ? { headers: { 'content-type': contentType } } : {};
    return this.controls.api.createPet({ json: body }, { credentials, ...headers });
  }

  /** A create with a body of malformed JSON (`{`), with the key: what the target does when parsing fails. */
  malformed(): Promise<ApiResponse> {
    return this.once('malformed', () => this.controls.api.createPet({ raw: '{' }));
  }

  /** The request that got `answer`, once more, exactly: as sent, or with the key or without. */
  again(answer: ApiResponse, credentials?: 'key' | 'none'): Promise<ApiResponse> {
    return this.controls.api.again(answer, credentials);
  }
}

/** The input of a request that the document refuses, and its requirement; none when it has none. */
function invalidInput(
  answer: ApiResponse,
): { requirement: RequirementId; why: string } | undefined {
  const readings =
    answer.operation === 'getPet'
      ? [readPetId(answer.request)]
      : answer.operation === 'listPets'
        ? [
            readLimit(listQueryOf(answer.request).limit),
            readStatusFilter(listQueryOf(answer.request).status),
          ]
        : answer.operation === 'createPet'
          ? [readNewPetBody(answer.request)]
          : [];
  for (const reading of readings) if (reading.kind === 'invalid') return reading;
  return undefined;
}

// ---- What answers show ----

const usable = (answer: ApiResponse) => answer.failure === undefined;
const isList = (answer: ApiResponse) =>
  usable(answer) && answer.status === 200 && answer.body.ok && Array.isArray(answer.body.value);
/** The number of items of a 200 list, or undefined when the answer is no list. */
export const countOf = (answer: ApiResponse): number | undefined =>
  isList(answer) ? (answer.body.ok ? (answer.body.value as unknown[]).length : 0) : undefined;
const is5xx = (answer: ApiResponse) => usable(answer) && answer.status >= 500;
const is4xx = (answer: ApiResponse) =>
  usable(answer) && answer.status >= 400 && answer.status < 500;
const keyless = (answer: ApiResponse) => answer.request.auth === 'none';
/** Sent with the key (under any spelling of the header's name). */
const withKey = (answer: ApiResponse) => answer.request.auth === 'Bearer <API_KEY>';
const limitOf = (query: ListQuery) => (query.limit === undefined ? 20 : Number(query.limit));
const describeQuery = (query: ListQuery) =>
  [
    query.status !== undefined && `status=${query.status}`,
    query.limit !== undefined && `limit=${query.limit}`,
  ]
    .filter(Boolean)
    .join('&') || 'no parameters';
/** The requirement of a limit that must be followed: the bounds have their own. */
const limitRule = (limit: number): RequirementId =>
  limit === 1 ? 'LIST-LIMIT-MIN' : limit === 100 ? 'LIST-LIMIT-MAX' : 'LIST-LIMIT-EXACT';

/**
 * The operation of `answer` in its ordinary form, with the key: a list of one pet, getPet of a pet
 * that exists, an ordinary NewPet (counted against the write budget); undefined when none can be
 * sent (no pet to read).
 */
async function ordinaryForm(answer: ApiResponse, ask: Ask): Promise<ApiResponse | undefined> {
  switch (answer.operation) {
    case 'getPet': {
      const pet = await ask.controls.existing();
      return pet ? ask.get(pet.id) : undefined;
    }
    case 'createPet':
      return ask.create({ name: ownName('ordinary'), categoryId: ask.controls.categoryId() });
    default:
      return ask.list({ limit: 1 });
  }
}

/**
 * The smallest page a store is taken to cap its lists at: a list of fewer pets that stops there
 * is more likely a store that shows only some of its pets (a stale snapshot), LIST-COMPLETE's.
 */
const smallestCap = 10;

/**
 * A page capped below its limit (row short-page-capped). A list of C pets holds C again at
 * limit=C+1, and so does the list without a filter, while more than C pets are listed: without a
 * filter, a pet of a status it shows pets of, listed under that status, is left out; with one, the
 * lists of the statuses hold more than C pets together. The list without a filter at C+1, asked
 * once more after those lists, still holds C: no pet another client added explains it.
 */
async function pageCapped(
  answer: ApiResponse,
  query: ListQuery,
  ask: Ask,
): Promise<Conclusion | undefined> {
  const count = countOf(answer) ?? 0;
  if (count < smallestCap || count + 1 >= Math.min(limitOf(query), 100)) return;
  const above = { limit: count + 1 };
  if (countOf(await ask.list({ status: query.status, ...above })) !== count) return;
  if (query.status !== undefined && countOf(await ask.list(above)) !== count) return;
  const lists = await together(petStatuses.map((status) => ask.list({ status, limit: 100 })));
  const listed = new Map(lists.flatMap((list) => petsIn(list)).map((pet) => [pet.id, pet]));
  let beyond: string | undefined;
  if (query.status === undefined) {
    const shown = idsIn(answer);
    const shownStatuses = new Set(petsIn(answer).map((pet) => pet.status));
    const left = [...listed.values()].find(
      (pet) => !shown.has(pet.id) && shownStatuses.has(pet.status) && !isContested(pet.id),
    );
    if (!left) return;
    beyond = `pet ${left.id} (status=${left.status}), listed under its status, is left out`;
  } else if (listed.size > count) {
    beyond = `the lists of the statuses hold ${listed.size} pets together, and the list without a filter at limit=${count + 1} holds ${count} too`;
  } else return;
  // Asked again, after the pets were listed: pets another client added in between are no cap.
  if (countOf(await ask.controls.api.listPets(above)) !== count) return;
  return {
    charge: 'LIST-LIMIT-EXACT',
    why: `the list holds ${count} pets at ${describeQuery(query)}, and ${count} at limit=${count + 1}, though ${beyond}: no page holds more than ${count} pets, whatever the limit`,
  };
}

// ---- The table ----

/** What an answer shows by itself: no control request, the rule applied where it is named. */
const answerRows: readonly Row<'answer'>[] = [
  {
    id: 'media-type',
    reads: 'answer',
    when: 'a body is not sent as application/json (a charset parameter is fine)',
    implies: 'MEDIA-JSON, whatever the check was after',
    charges: ['MEDIA-JSON'],
    appliedIn: 'attribution.ts, mediaProblems',
  },
  {
    id: 'encoded-slash-refused',
    reads: 'answer',
    when: 'a request whose path holds an encoded slash (%2F) was answered 400 or 404 with a body that is not application/json, with the key or without',
    implies:
      'allowed, its body unjudged: %2F is data inside a segment (RFC 3986 §2.2), yet servers and gateways refuse it before any service sees it, with a page of their own (Apache’s AllowEncodedSlashes Off: 404; Tomcat: 400); an answer in JSON is the service’s, and any other answer is judged as the check expects',
    charges: [],
    appliedIn: 'matchers.ts, statusOf',
  },
  {
    id: 'not-json',
    reads: 'answer',
    when: 'a body is no JSON at all (an HTML page, plain text)',
    implies:
      'MEDIA-JSON alone, which blocks the check: the shape it needed cannot be judged (an empty body, or one nested too deep to read, is the shape’s: PET-SHAPE, ERROR-SHAPE, LIST-200-PETS)',
    charges: ['MEDIA-JSON', 'PET-SHAPE', 'ERROR-SHAPE', 'LIST-200-PETS'],
    appliedIn: 'attribution.ts, parsed',
  },
  {
    id: 'garbled-json',
    reads: 'answer',
    when: 'a body is not JSON but holds the interface’s JSON, garbled: behind a byte order mark, after a warning printed before it, before text after it',
    implies:
      'MEDIA-JSON alone: the checks go on judging the JSON found (its shape, its counts); a body with no JSON in it (an HTML page) is not-json’s',
    charges: ['MEDIA-JSON'],
    appliedIn: 'http/garbled.ts; attribution.ts, mediaProblems and parsed',
  },
  {
    id: 'outcome-unknown',
    reads: 'answer',
    when: 'a create’s kept-alive connection closed after the request was written, before any answer (the target may have applied it)',
    implies:
      'nothing charged, and the create not sent again: its test is blocked, undecided (a conformant target may close a kept-alive connection at any time); the same on a new connection is no-answer’s',
    charges: [],
    appliedIn: 'http/resend.ts; http/client.ts',
  },
  {
    id: 'error-body',
    reads: 'answer',
    when: 'an error answer has no Error body (code and message strings, an integer status), or its status field is not the HTTP status',
    implies: 'ERROR-SHAPE; ERROR-STATUS-FIELD',
    charges: ['ERROR-SHAPE', 'ERROR-STATUS-FIELD'],
    appliedIn: 'attribution.ts, errorBodyProblems',
  },
  {
    id: 'pet-fields',
    reads: 'answer',
    when: 'a Pet (in any answer) is no object, or a field of it is missing or not as the schema says',
    implies:
      'its id PET-ID-INT64, its categoryId NEWPET-CATEGORYID-INT64, its status PETSTATUS-ENUM, anything else PET-SHAPE (a body that is no Pet blocks the check); a name that is no string on a pet the run created, the body carrying its id: that name not kept (CREATE-ECHO in the 201 answer, CREATE-PERSIST when read back)',
    charges: [
      'PET-SHAPE',
      'PET-ID-INT64',
      'NEWPET-CATEGORYID-INT64',
      'PETSTATUS-ENUM',
      'CREATE-ECHO',
      'CREATE-PERSIST',
    ],
    appliedIn: 'attribution.ts, petBodyProblems and listBodyProblems',
  },
  {
    id: 'list-not-array',
    reads: 'answer',
    when: 'a 200 list body is no array (`{"pets": […]}`)',
    implies: 'LIST-200-PETS, which blocks the check',
    charges: ['LIST-200-PETS'],
    appliedIn: 'attribution.ts, listBodyProblems',
  },
  {
    id: 'others-pets',
    reads: 'answer',
    when: 'a list shows a pet another worker of the run created, or one the target added from a body it should have refused',
    implies:
      'nothing here: its creator’s checks hold it to what it was created with; an invalid body added is charged once, by the check that met the 201',
    charges: [],
    appliedIn: 'matchers.ts, listedKeeper',
  },
  {
    id: 'echo',
    reads: 'answer',
    when: 'the 201 answer’s name or status is not as sent, or its categoryId',
    implies: 'CREATE-ECHO; a categoryId not as sent, anywhere: NEWPET-CATEGORYID-INT64',
    charges: ['CREATE-ECHO', 'NEWPET-CATEGORYID-INT64'],
    appliedIn: 'attribution.ts, echoProblems',
  },
  {
    id: 'read-back',
    reads: 'answer',
    when: 'a pet the run created reads back (getPet, any list) otherwise than created',
    implies:
      'its name or status: CREATE-PERSIST (unless the 201 answer showed the same: CREATE-ECHO’s); its categoryId: NEWPET-CATEGORYID-INT64; created without status, another status than an earlier read showed: NEWPET-STATUS-OPTIONAL; another pet of the run altogether under its id: PET-ID-UNIQUE (beyond 2^53, any other pet: PET-ID-INT64); an id two creates were answered with: held to neither',
    charges: [
      'CREATE-PERSIST',
      'NEWPET-CATEGORYID-INT64',
      'NEWPET-STATUS-OPTIONAL',
      'PET-ID-UNIQUE',
      'PET-ID-INT64',
    ],
    appliedIn: 'attribution.ts, storedProblems',
  },
  {
    id: 'ids-apart',
    reads: 'answer',
    when: 'one id stands for two pets: creates answered with one id, an id a pet already has, a list showing different pets under one id',
    implies:
      'PET-ID-UNIQUE; beyond 2^53, where a double merges neighbouring ids, PET-ID-INT64; a create given the id its body asked for: PET-ID-ASSIGNED',
    charges: ['PET-ID-UNIQUE', 'PET-ID-INT64', 'PET-ID-ASSIGNED'],
    appliedIn: 'matchers.ts, listedProblems, toGetDistinctIds, toGetANewId, toGetAnIdOtherThan',
  },
  {
    id: 'listed-twice',
    reads: 'answer',
    when: 'one pet (the same fields) is listed twice',
    implies:
      'LIST-NO-DUPLICATES, unless two creates of the run were answered with its id (PET-ID-UNIQUE) or, beyond 2^53, the list shows other ids naming different pets (PET-ID-INT64)',
    charges: ['LIST-NO-DUPLICATES', 'PET-ID-UNIQUE', 'PET-ID-INT64'],
    appliedIn: 'matchers.ts, listedProblems',
  },
  {
    id: 'filter-shows-other-status',
    reads: 'answer',
    when: 'a list filtered by status shows a pet under another PetStatus',
    implies:
      'LIST-STATUS-FILTER (a pet shown without status, or under a value that is no PetStatus, is not the filter’s: PETSTATUS-ENUM judges the latter, the row pet-under-two-statuses the former)',
    charges: ['LIST-STATUS-FILTER'],
    appliedIn: 'matchers.ts, listProblems',
  },
  {
    id: 'answer-not-utf8',
    reads: 'answer',
    when: 'an answer’s body is not UTF-8 (a Latin-1 page, a lone surrogate encoded)',
    implies:
      'MEDIA-JSON (JSON between systems is UTF-8, RFC 8259 §8.1); the names it shows cannot be read as sent, and none is compared (no CREATE-ECHO, CREATE-PERSIST or PET-ID-UNIQUE from it)',
    charges: ['MEDIA-JSON'],
    appliedIn: 'http/client.ts; attribution.ts, mediaProblems; verdicts.ts, settle',
  },
  {
    id: 'pet-under-two-statuses',
    reads: 'answer',
    when: 'lists of two statuses, read together, both hold a pet shown without a status',
    implies:
      'LIST-STATUS-FILTER (a pet has one status, whatever is stored when none is sent: under two filters it is under one wrongly)',
    charges: ['LIST-STATUS-FILTER'],
    appliedIn: 'matchers.ts, toListEachPetUnderOneStatus',
  },
  {
    id: 'header-name-case',
    reads: 'answer',
    when: 'the key is refused under one spelling of the header’s name and accepted under another',
    implies: 'AUTH-BEARER (header names are case-insensitive, RFC 9110 §5.1)',
    charges: ['AUTH-BEARER'],
    appliedIn: 'matchers.ts, toAcceptKey',
  },
  {
    id: 'refused-create-listed',
    reads: 'answer',
    when: 'a list read after creates that were refused with a 4xx shows a pet of one of them (each sent with a label of its own in its name; a create whose keyless twin was added is left aside)',
    implies:
      'CREATE-REFUSED-NO-EFFECT; a full list (100), or no refused create, decides nothing: inconclusive',
    charges: ['CREATE-REFUSED-NO-EFFECT'],
    appliedIn: 'matchers.ts, toLeaveOutRefusedCreates',
  },
  {
    id: 'get-5xx-not-again',
    reads: 'answer',
    when: 'a GET was answered with a 5xx (not 503, a refusal for load)',
    control: 'the same GET once more, at once (a GET changes nothing: http/client.ts sends it)',
    implies:
      'no 5xx this time: NO-5XX, and the check judges the second answer; the same 5xx: judged as the answer it is',
    charges: ['NO-5XX'],
    appliedIn: 'http/client.ts, exchange; fixtures.ts, api',
  },
];

/**
 * The preflight's request (GET /pets?limit=1, before any test: setup/preflight-check.ts, which
 * may not import this folder): its rules, as it applies them. A run stops only where nothing
 * could be checked; elsewhere the requirement is charged and the run goes on.
 */
const preflightRows: readonly Row<'preflight'>[] = [
  {
    id: 'preflight-header-name',
    reads: 'preflight',
    when: 'the key is refused (401, 403) under the header name Authorization',
    control: 'the same request with the name in lower case, authorization',
    implies:
      'accepted: AUTH-BEARER (names are case-insensitive), and the run goes on under that spelling; refused too: the key is wrong, and the run stops, nothing charged',
    charges: ['AUTH-BEARER'],
    appliedIn: 'setup/preflight-check.ts, preflight',
  },
  {
    id: 'preflight-5xx-not-again',
    reads: 'preflight',
    when: 'the preflight’s request is answered with a 5xx (not 503)',
    control: 'the same request once more, at once',
    implies:
      'no 5xx this time: NO-5XX, and the run goes on; the same 5xx: the run stops, the list failing',
    charges: ['NO-5XX'],
    appliedIn: 'setup/preflight-check.ts, preflight',
  },
  {
    id: 'preflight-limit-refused',
    reads: 'preflight',
    when: 'limit=1 is refused with a 400 Error',
    control: 'the same list without limit',
    implies:
      'answered: LIST-LIMIT-MIN, and the run goes on; refused too: LIST-200-PETS, and the run stops (no check can be made without the list)',
    charges: ['LIST-LIMIT-MIN', 'LIST-200-PETS'],
    appliedIn: 'setup/preflight-check.ts, preflight',
  },
  {
    id: 'preflight-garbled',
    reads: 'preflight',
    when: 'the answer is not JSON',
    control:
      'the JSON inside it (garbled-json); else the same request once more, then without a key',
    implies:
      'the list, or a 401 with an Error: the interface answers there, MEDIA-JSON, and the run goes on; nothing like the interface: another service at that address, the run stops, nothing charged',
    charges: ['MEDIA-JSON'],
    appliedIn: 'setup/preflight-check.ts, preflight',
  },
  {
    id: 'preflight-not-found',
    reads: 'preflight',
    when: 'the answer is a 404',
    implies:
      'with an Error body: the interface, not at paths relative to this base address, BASE-V1; without one: a wrong address, nothing charged; the run stops either way',
    charges: ['BASE-V1'],
    appliedIn: 'setup/preflight-check.ts, judge',
  },
  {
    id: 'preflight-not-a-list',
    reads: 'preflight',
    when: 'the answer is JSON, but no array',
    control: 'the same request without a key',
    implies:
      'LIST-200-PETS, and the run stops: at the right address when the control is answered 401 with an Error, else not this interface',
    charges: ['LIST-200-PETS'],
    appliedIn: 'setup/preflight-check.ts, judge',
  },
];

export const diagnosisTable: readonly Row<DeviationKind | 'answer' | 'preflight'>[] = [
  ...preflightRows,
  ...answerRows,
  // What a status not the one expected is charged to.
  row({
    id: 'no-answer',
    reads: 'status',
    when: 'a request got no usable answer (refused, reset, timed out, too large)',
    control:
      'left hanging: the operation in its ordinary form, with the key (a list of one pet, getPet of a pet that exists, an ordinary NewPet)',
    implies:
      "never sent (nothing listens any more, or the operation was left unanswered twice in a row): nothing, the check is blocked on it unless another of its answers failed; an answer that ran past its framing (more bytes than its Content-Length: its body as framed is not JSON): MEDIA-JSON, whatever the operation; a connection dropped, or left hanging while the ordinary form is answered, on an input the document refuses (a petId, limit or status that is no such value, a body that is no valid NewPet, with the key): that input's requirement, whichever check sent it; left hanging while the ordinary form is answered: the check's own (the input is the cause); else the operation's requirement: LIST-200-PETS, CREATE-201-PET or GET-200-PET (else the check's own)",
    charges: [
      'MEDIA-JSON',
      'LIST-200-PETS',
      'CREATE-201-PET',
      'GET-200-PET',
      'GET-PETID-INVALID',
      'LIST-LIMIT-INVALID',
      'LIST-STATUS-INVALID',
      'CREATE-400-BODY',
    ],
    conclude: async ({ answer, own }, ask) => {
      if (usable(answer)) return undefined;
      // Never sent: nothing to judge; settle (verdicts.ts) blocks the check on it, unless
      // another of its answers failed.
      if (answer.notSent !== undefined) return { allowed: answer.notSent, unjudged: true };
      // An answer whose framing is wrong (more bytes than its Content-Length): its body, as framed,
      // is not the JSON it holds, whatever the operation.
      if (answer.failure?.startsWith('the answer ran past its framing')) {
        return { charge: 'MEDIA-JSON', why: `no usable answer: ${answer.failure}` };
      }
      // A connection dropped on an input the document refuses (a panic, a crash) is that input's.
      const dropped = !/^no answer within/.test(answer.failure ?? '');
      const refused = withKey(answer) ? invalidInput(answer) : undefined;
      const operation = answer.operation ? operationRequirement[answer.operation] : own;
      const why = (input?: { why: string }) =>
        `no usable answer${answer.operation ? ` (${answer.operation})` : ''}${input ? ` to ${input.why}` : ''}: ${answer.failure}`;
      if (dropped) {
        // Dropped, and nothing listens any more: the target stopped (crashed) with this request
        // in flight. One the document refuses is taken for the cause; any other cannot be judged.
        if (!refused && (await ask.list({ limit: 1 })).notSent !== undefined) {
          return {
            blocked: `the target stopped listening while this request was in flight (did another request crash it?): its answer cannot be judged (${answer.request.method} ${answer.request.url}: ${answer.failure})`,
          };
        }
        return { charge: refused?.requirement ?? operation, why: why(refused) };
      }
      // Left hanging: the operation's when its ordinary form hangs too; when that is answered,
      // the request's input is the cause (a parser that loops on it, a lock it never frees).
      const ordinary = await ordinaryForm(answer, ask);
      if (ordinary === undefined || !usable(ordinary)) return { charge: operation, why: why() };
      return {
        charge: refused?.requirement ?? own,
        why: `${why(refused)}; the operation in its ordinary form (${ordinary.request.method} ${ordinary.request.path}) was answered ${ordinary.status} at once: this input is what is left unanswered`,
      };
    },
  }),
  row({
    id: 'create-in-pieces',
    reads: 'status',
    when: 'a valid NewPet whose request was written in pieces, apart in time (the hostile class segments), was not added',
    control:
      'the same NewPet, its request written whole (the suite’s own name under a new label: another pet, marked and counted)',
    implies:
      'added: the service takes a request as its first read brings it, CREATE-201-PET; else the next rows read the request',
    charges: ['CREATE-201-PET'],
    conclude: async ({ answer }, ask) => {
      if (answer.operation !== 'createPet' || !answer.request.segments || !withKey(answer)) return;
      const body = readNewPetBody(answer.request);
      if (body.kind !== 'valid' || !isOwnName(body.value.name)) return;
      const whole = await ask.create({
        ...body.value,
        name: ownName(`${body.value.name.slice(petNamePrefix.length)}-whole`),
      });
      if (!usable(whole) || whole.status !== 201) return;
      return {
        charge: 'CREATE-201-PET',
        why: `status ${answer.status} to a valid NewPet whose request was ${answer.request.segments}, and 201 to the same NewPet written whole: the service takes a request as its first read brings it, where TCP may deliver one in any number of pieces`,
      };
    },
  }),
  row({
    id: 'field-control-rejected',
    reads: 'status',
    when: 'a request with a control character in a header value (RFC 9110 §5.5: NUL, VT, ESC...) was answered 400',
    implies:
      'allowed: a recipient may reject such a message, with whatever body its HTTP layer or a gateway writes; the token it carries is not the key either way',
    charges: [],
    conclude: ({ answer }) =>
      answer.request.fieldControls && usable(answer) && answer.status === 400
        ? {
            allowed:
              'a header value holding a control character, rejected as a message (400, RFC 9110 §5.5)',
            unjudged: true,
          }
        : undefined,
  }),
  row({
    id: 'after-unwritable-name',
    reads: 'status',
    when: 'a list or getPet answered a 5xx, once a create of a name holding a lone surrogate was answered with a 5xx in the run',
    implies:
      'NO-5XX: the store may hold that pet and fail on every answer that shows it (one deviation)',
    charges: ['NO-5XX'],
    conclude: ({ answer }) =>
      answer.afterUnwritableName
        ? {
            charge: 'NO-5XX',
            why: `status ${answer.status}, after a create of a name holding a lone surrogate was answered with a 5xx: the target may hold that pet and fail on every answer that shows it`,
          }
        : undefined,
  }),
  row({
    id: 'write-5xx-not-again',
    reads: 'status',
    when: 'a request other than a GET (a createPet) was answered with a 5xx',
    control:
      'the same request once more, with the same credentials (a NewPet of the suite’s own name under a new label: another pet, marked and counted)',
    implies:
      'no 5xx this time: a 5xx that does not come back is NO-5XX’s, whatever the request; else the next rows read the request',
    charges: ['NO-5XX'],
    conclude: async ({ answer }, ask) => {
      if (!is5xx(answer) || answer.request.method === 'GET') return;
      const body = answer.operation === 'createPet' ? readNewPetBody(answer.request) : undefined;
      const again =
        body?.kind === 'valid' && isOwnName(body.value.name) && withKey(answer)
          ? await ask.create({
              ...body.value,
              name: ownName(`${body.value.name.slice(petNamePrefix.length)}-again`),
            })
          : await ask.again(answer);
      if (!usable(again) || is5xx(again)) return;
      return {
        charge: 'NO-5XX',
        why: `status ${answer.status}; the same request sent once more was answered ${again.status}: a 5xx that does not come back (the target fails now and then)`,
      };
    },
  }),
  row({
    id: 'keyless-5xx',
    reads: 'status',
    when: 'a request without the key, or with a wrong one, was answered with a 5xx',
    control: 'the same request with the key',
    implies:
      'a 5xx too: the key is not its cause, and the control’s answer is diagnosed instead; else the next rows',
    charges: [],
    conclude: async ({ answer }, ask) => {
      if (!is5xx(answer) || withKey(answer) || !answer.operation) return;
      const keyed = await ask.again(answer, 'key');
      return is5xx(keyed)
        ? {
            instead: keyed,
            why: `status ${answer.status} without the key, and ${keyed.status} with it`,
          }
        : undefined;
    },
  }),
  row({
    id: 'wrong-key-accepted',
    reads: 'status',
    when: 'a request with a wrong key or scheme was answered other than 401',
    control: 'the same request without any Authorization header',
    implies:
      "not answered 401 without a key either: the missing key is not refused, AUTH-401-MISSING's (the more general rule); else the check's own (AUTH-401-INVALID)",
    charges: ['AUTH-401-MISSING', 'AUTH-401-INVALID'],
    conclude: async ({ answer, expected }, ask) => {
      if (expected !== '401' || keyless(answer) || answer.request.auth === 'Bearer <API_KEY>')
        return;
      const bare = await ask.again(answer, 'none');
      if (!usable(bare) || bare.status === 401) return;
      return {
        charge: 'AUTH-401-MISSING',
        why: `status ${answer.status} to a wrong key, and ${bare.status} to the same request without any key: the operation authenticates nothing`,
      };
    },
  }),
  row({
    id: 'keyless-not-refused',
    reads: 'status',
    when: 'a request without a key was answered other than 401',
    control:
      'the same operation without a key, with ordinary input (listPets without parameters, a valid NewPet, getPet of a pet that exists)',
    implies:
      "not answered 401 either: the missing key is not refused, AUTH-401-MISSING's (the more general rule); else the check's own (the order: AUTH-BEFORE-VALIDATION, AUTH-BEFORE-EXISTENCE)",
    charges: ['AUTH-401-MISSING', 'AUTH-BEFORE-VALIDATION', 'AUTH-BEFORE-EXISTENCE'],
    conclude: async ({ answer, expected }, ask) => {
      if (expected !== '401' || !keyless(answer) || !answer.operation) return;
      const ordinary = await ordinaryKeyless(answer.operation, ask);
      if (!ordinary || !usable(ordinary) || ordinary.status === 401) return;
      return {
        charge: 'AUTH-401-MISSING',
        why: `status ${answer.status} without a key; ${answer.operation} with ordinary input and no key was answered ${ordinary.status} too: the operation authenticates nothing`,
      };
    },
  }),
  row({
    id: 'list-query-open',
    reads: 'status',
    when: 'a list whose query names a parameter twice, or one the document does not name (status[]=sold), was answered with a 4xx or a 5xx',
    control: 'for a 5xx, the list without any parameter (GET /pets)',
    implies:
      'a 4xx is allowed: the document says nothing of such a query, and a target may refuse it; a 5xx: refused alike without parameters, not the query’s, and the control’s answer is diagnosed instead; else NO-5XX',
    charges: ['NO-5XX'],
    conclude: async ({ answer }, ask) => {
      if (answer.operation !== 'listPets' || !withKey(answer) || !usable(answer)) return;
      const open = openQueryPart(answer.request);
      if (open === undefined) return;
      if (is4xx(answer)) return { allowed: `${open}: the document leaves such a query open` };
      if (answer.status < 500) return;
      const control = await ask.list({});
      if (!isList(control))
        return { instead: control, why: 'without any parameter it is refused too' };
      return {
        charge: 'NO-5XX',
        why: `status ${answer.status} for a query with ${open}; GET /pets without parameters is answered 200`,
      };
    },
  }),
  row({
    id: 'list-refused-for-its-filter',
    reads: 'status',
    when: 'a list with a status filter was answered other than a 200 list where one was due, or with a 5xx',
    control: 'the same list without the filter (the same limit)',
    implies:
      "refused alike: not the filter's, and the control's answer is diagnosed instead; a 200 list: the filter's: LIST-STATUS-FILTER for a PetStatus, and for a value that is none a 4xx is allowed and a 5xx LIST-STATUS-INVALID's",
    charges: ['LIST-STATUS-FILTER', 'LIST-STATUS-INVALID'],
    conclude: async ({ answer }, ask) => {
      if (answer.operation !== 'listPets' || !withKey(answer)) return;
      const query = listQueryOf(answer.request);
      if (query.status === undefined) return;
      const control = await ask.list({ limit: query.limit });
      if (!isList(control))
        return { instead: control, why: `without status=${query.status} it is refused too` };
      const value = readStatusFilter(query.status);
      if (value.kind !== 'valid') {
        return is4xx(answer)
          ? { allowed: `${value.why}: a target may refuse it` }
          : {
              charge: 'LIST-STATUS-INVALID',
              why: `status ${answer.status} for ${value.why}; the same list without it is answered 200`,
            };
      }
      return {
        charge: 'LIST-STATUS-FILTER',
        why: `status ${answer.status} for status=${query.status}, and the same list without the filter is answered 200: the filter is refused`,
      };
    },
  }),
  row({
    id: 'list-refused-for-its-limit',
    reads: 'status',
    when: 'a list with a limit was answered other than a 200 list where one was due, or with a 5xx',
    control: 'the same list without limit',
    implies:
      "refused alike: not the limit's, and the control's answer is diagnosed instead; a 200 list: the limit's: LIST-LIMIT-MIN at 1, LIST-LIMIT-MAX at 100, LIST-LIMIT-EXACT between; for a limit outside 1..100 a 4xx is allowed and a 5xx LIST-LIMIT-INVALID's",
    charges: ['LIST-LIMIT-MIN', 'LIST-LIMIT-MAX', 'LIST-LIMIT-EXACT', 'LIST-LIMIT-INVALID'],
    conclude: async ({ answer }, ask) => {
      if (answer.operation !== 'listPets' || !withKey(answer)) return;
      const query = listQueryOf(answer.request);
      if (query.limit === undefined) return;
      const control = await ask.list({ status: query.status });
      if (!isList(control))
        return { instead: control, why: `without limit=${query.limit} it is refused too` };
      const value = readLimit(query.limit);
      if (value.kind !== 'valid' || value.value === undefined) {
        return is4xx(answer)
          ? { allowed: `limit=${query.limit} is no integer from 1 to 100: a target may refuse it` }
          : {
              charge: 'LIST-LIMIT-INVALID',
              why: `status ${answer.status} for limit=${query.limit}; the same list without it is answered 200`,
            };
      }
      return {
        charge: limitRule(value.value),
        why: `status ${answer.status} for limit=${query.limit}, and the same list without limit is answered 200: a limit from 1 to 100 is refused`,
      };
    },
  }),
  row({
    id: 'list-refused',
    reads: 'status',
    when: 'a list without parameters was answered other than a 200 list',
    implies: 'LIST-200-PETS: the list itself fails',
    charges: ['LIST-200-PETS'],
    conclude: ({ answer }) =>
      answer.operation === 'listPets' && withKey(answer)
        ? { charge: 'LIST-200-PETS', why: `status ${answer.status}, not 200: GET /pets fails` }
        : undefined,
  }),
  row({
    id: 'create-size-limit',
    reads: 'status',
    when: 'a createPet body larger than any the suite makes for itself (a name longer than the suite’s own) was refused with 413, where a 201 or a 400 was due',
    implies: 'allowed: a size limit of bodies, which the document leaves open (section 8)',
    charges: [],
    conclude: ({ answer, expected }) =>
      (expected === '201' || expected === '400') && isSizeRefusal(answer)
        ? {
            allowed: 'a body larger than the suite’s own, refused for its size (413)',
            unjudged: true,
          }
        : undefined,
  }),
  row({
    id: 'create-body-rule',
    reads: 'status',
    when: 'a createPet body that is not a valid NewPet was answered with a 5xx or added, or one the document leaves open was answered with a 5xx',
    control:
      'for a 5xx to a body the document leaves open: the same operation with a body of malformed JSON ({)',
    implies:
      'the requirement of the rule the body breaks (CREATE-400-BODY, -REQUIRED, -NAME-TYPE, -CATEGORYID-TYPE, -CATEGORYID-RANGE, -STATUS); a body the document leaves open (another media type, a byte order mark, a key given twice): a 5xx to malformed JSON too, the parsing fails whatever the body holds, CREATE-400-BODY; else NO-5XX',
    charges: [
      'CREATE-400-BODY',
      'CREATE-400-REQUIRED',
      'CREATE-400-NAME-TYPE',
      'CREATE-400-CATEGORYID-TYPE',
      'CREATE-400-CATEGORYID-RANGE',
      'CREATE-400-STATUS',
      'NO-5XX',
    ],
    conclude: async ({ answer, expected }, ask) => {
      if (answer.operation !== 'createPet' || !withKey(answer) || expected === '201') return;
      const body = readNewPetBody(answer.request);
      if (body.kind === 'invalid') {
        return {
          charge: body.requirement,
          why: `status ${answer.status} to ${body.why}, which is refused with 400`,
        };
      }
      if (body.kind === 'open' && is5xx(answer)) {
        const malformed = await ask.malformed();
        if (usable(malformed) && is5xx(malformed)) {
          return {
            charge: 'CREATE-400-BODY',
            why: `status ${answer.status} to ${body.why}, and ${malformed.status} to a body of malformed JSON too: the body's parsing fails, whatever it holds`,
          };
        }
        return {
          charge: 'NO-5XX',
          why: `status ${answer.status} to ${body.why}: no 5xx, to any request`,
        };
      }
      return;
    },
  }),
  row({
    id: 'create-open-body-refused',
    reads: 'status',
    when: 'a createPet body the document leaves open (another media type, a byte order mark, an integral categoryId written 7.0) was refused with a 4xx other than 401',
    implies:
      "allowed: taking it or refusing it is the target's choice (its Error body is still judged)",
    charges: [],
    conclude: ({ answer }) =>
      answer.operation === 'createPet' &&
      withKey(answer) &&
      is4xx(answer) &&
      answer.status !== 401 &&
      readNewPetBody(answer.request).kind === 'open'
        ? { allowed: 'a body the document leaves open, refused' }
        : undefined,
  }),
  row({
    id: 'create-name-refused',
    reads: 'status',
    when: 'a valid NewPet whose name is not one of the suite’s own was answered 400 (what makes a name invalid is the service’s: a size, characters, a minimum length)',
    implies: "allowed: the name is the target's to refuse (its Error body is still judged)",
    charges: [],
    conclude: (deviation) => {
      const newPet = newPetOf(deviation);
      return newPet && deviation.answer.status === 400 && nameMayBeRefused(newPet.name)
        ? { allowed: 'a name the document lets a target refuse, refused with 400' }
        : undefined;
    },
  }),
  row({
    id: 'create-value-made-ordinary',
    reads: 'status',
    when: 'a valid NewPet was refused (a 4xx but 401, 408 and 429; or a 5xx)',
    control:
      'the same NewPet with one unusual value made ordinary at a time (the categoryId → 1,987,654,321, then 1 or a listed pet’s; a declared one, or 1 for a 5xx; one of the suite’s own names → the shortest it makes; the name → one of the suite’s own; no status → available, a status → available), until one is added',
    implies:
      'the value that made the difference: its categoryId NEWPET-CATEGORYID-INT64 when 1,987,654,321 (or a declared one) is added, blocked when only 1 or a listed pet’s is (the target takes only its own categories, which the document allows: CONFORMANCE_CATEGORY_IDS); a shorter own name, blocked (the target’s names are shorter than the suite’s, which the document allows: CONFORMANCE_NAME_MAX_BYTES); its status PETSTATUS-ENUM, no status NEWPET-STATUS-OPTIONAL, its name CREATE-201-PET (refused otherwise than with 400: a name the service’s own rules refuse is refused with 400) or, for a 5xx, NO-5XX; none alone: CREATE-201-PET',
    charges: [
      'NEWPET-CATEGORYID-INT64',
      'PETSTATUS-ENUM',
      'NEWPET-STATUS-OPTIONAL',
      'CREATE-201-PET',
      'NO-5XX',
    ],
    conclude: async (deviation, ask) => {
      const { answer } = deviation;
      const newPet = newPetOf(deviation);
      if (!newPet || answer.operation !== 'createPet' || !withKey(answer) || !isRefusal(answer))
        return;
      return (
        (await valueThatMadeTheDifference(answer, newPet, ask)) ?? {
          charge: 'CREATE-201-PET',
          why: `status ${answer.status}, not 201: a valid NewPet was refused${ask.controls.categoryIds ? '' : ' (if the target accepts only the categoryIds of its own categories, list them in CONFORMANCE_CATEGORY_IDS)'}; every target must take the suite’s own names, its marker and a plain label in at most ${ownNameBytes} UTF-8 bytes (if the target’s names are shorter, set CONFORMANCE_NAME_MAX_BYTES; docs/verdicts.md, Names)`,
        }
      );
    },
  }),
  row({
    id: 'getpet-petid-rule',
    reads: 'status',
    when: 'getPet of a petId that is not a decimal int64 was answered 200 or with a 5xx',
    implies: 'GET-PETID-INVALID',
    charges: ['GET-PETID-INVALID'],
    conclude: ({ answer }) => {
      if (answer.operation !== 'getPet' || !withKey(answer)) return;
      const petId = readPetId(answer.request);
      return petId.kind === 'invalid' && (answer.status === 200 || is5xx(answer))
        ? { charge: 'GET-PETID-INVALID', why: `status ${answer.status} to ${petId.why}` }
        : undefined;
    },
  }),
  row({
    id: 'getpet-created-pet',
    reads: 'status',
    when: 'getPet of a pet the run created (answered 201) was answered other than 200',
    control:
      '404: the list of the status it was created with (limit=100); created without one, the list of each status and the list without a filter; the pet not shown, getPet of a pet they show',
    implies:
      '410: GETPET-DEPRECATED-KEPT; an id two creates were answered with: PET-ID-UNIQUE (beyond 2^53 PET-ID-INT64); 404 beyond 2^53: PET-ID-INT64; 404 and the list of its status (created without one: of each status, or without a filter) shows it, or getPet does not find a pet the lists show either: GET-200-PET (getPet does not find a pet that exists); 404 otherwise: CREATE-PERSIST (not kept); any other status: GET-200-PET',
    charges: [
      'GETPET-DEPRECATED-KEPT',
      'PET-ID-INT64',
      'GET-200-PET',
      'CREATE-PERSIST',
      'PET-ID-UNIQUE',
    ],
    conclude: async ({ answer, known }, ask) => {
      if (!known || answer.operation !== 'getPet') return;
      if (isContested(known.id)) {
        // Two creates were answered with this id: which pet it names is no longer known.
        return {
          charge: beyondDoubleRange(known.id) ? 'PET-ID-INT64' : 'PET-ID-UNIQUE',
          why: `status ${answer.status}, not 200: two creates were answered with id ${known.id}`,
        };
      }
      if (answer.status === 410)
        return {
          charge: 'GETPET-DEPRECATED-KEPT',
          why: `status 410, not 200: getPet is gone before its announced removal`,
        };
      if (answer.status !== 404)
        return { charge: 'GET-200-PET', why: `status ${answer.status}, not 200` };
      if (beyondDoubleRange(known.id)) {
        return {
          charge: 'PET-ID-INT64',
          why: `status 404, not 200: pet ${known.id}, created with 201, is not found by its id (beyond 2^53: read through a double?)`,
        };
      }
      // Created without a status, the pet may be stored under any, or none: each status's list
      // is asked, and the list without a filter.
      const queries: { status?: string; limit: number }[] =
        known.status !== undefined
          ? [{ status: known.status, limit: 100 }]
          : [...petStatuses.map((status) => ({ status, limit: 100 })), { limit: 100 }];
      const lists = await together(queries.map((query) => ask.list(query)));
      const shownIn = queries.find((_, index) => idsIn(lists[index]!).has(known.id));
      if (shownIn !== undefined) {
        return {
          charge: 'GET-200-PET',
          why: `status 404, not 200: pet ${known.id} is listed (${shownIn.status === undefined ? 'no filter' : `status=${shownIn.status}`}), and getPet does not find it`,
        };
      }
      // Not on the lists' first pages (a store of more pets): getPet of a pet they do show.
      const listed = lists.flatMap((list) => [...idsIn(list)]).find((id) => !isContested(id));
      if (listed !== undefined && (await ask.get(listed)).status === 404) {
        return {
          charge: 'GET-200-PET',
          why: `status 404, not 200: getPet does not find pet ${listed} either, which a list shows`,
        };
      }
      return {
        charge: 'CREATE-PERSIST',
        why: `status 404, not 200: pet ${known.id}, created with 201, is not found`,
      };
    },
  }),

  row({
    id: 'getpet-gone',
    reads: 'status',
    when: 'getPet was answered 410 (Gone) where another status was due (an id no pet has, a petId that is no int64)',
    control: 'getPet of a pet that exists (one of the run’s)',
    implies:
      'that answered 410 too: getPet is gone before its announced removal, GETPET-DEPRECATED-KEPT; else the next rows read it',
    charges: ['GETPET-DEPRECATED-KEPT'],
    conclude: async ({ answer }, ask) => {
      if (answer.operation !== 'getPet' || !usable(answer) || answer.status !== 410) return;
      const existing = await ask.controls.existing();
      const read = existing ? await ask.get(existing.id) : undefined;
      if (!read || !usable(read) || read.status !== 410) return;
      return {
        charge: 'GETPET-DEPRECATED-KEPT',
        why: `status 410, and getPet of pet ${existing!.id}, which exists, is answered 410 too: getPet is gone before its announced removal`,
      };
    },
  }),

  // What a 200 list holding the wrong number of pets is charged to.
  row({
    id: 'count-ids-given-twice',
    reads: 'count',
    when: 'a list holds fewer pets than its limit expects, and creates of the run were answered with ids other creates had',
    implies:
      'no more pets missing than creates given a taken id: the store may hold fewer pets than were created (two pets under one id, one kept), PET-ID-UNIQUE’s (charged where the ids were given); the count cannot be judged, and the check is blocked',
    charges: [],
    conclude: ({ count, expected, more }, ask) => {
      if (more) return;
      const twice = ask.controls.api.options.state.idsGivenAgain();
      if (twice === 0 || expected - count > twice) return;
      return {
        blocked: `${count} pets listed, not ${expected}, and ${twice} create(s) of the run were answered with an id another create had: the store may hold fewer pets than were created (PET-ID-UNIQUE's), so the count cannot be judged`,
      };
    },
  }),
  row({
    id: 'count-default-filtered',
    reads: 'count',
    when: 'a list with a status filter and no limit holds another number of pets than the default allows',
    control: 'the same list with limit=20',
    implies:
      'as many as limit=20 allows there: the filter and the limit are read, the default is not, LIST-LIMIT-DEFAULT; else the next rows read it',
    charges: ['LIST-LIMIT-DEFAULT'],
    conclude: async ({ query, expected, count }, ask) => {
      if (query.status === undefined || query.limit !== undefined) return;
      const twenty = countOf(await ask.list({ status: query.status, limit: 20 }));
      return twenty === expected && twenty !== count
        ? {
            charge: 'LIST-LIMIT-DEFAULT',
            why: `the same list with limit=20 holds ${twenty} pets: the default limit is not applied to a filtered list`,
          }
        : undefined;
    },
  }),
  row({
    id: 'count-shared-unfiltered',
    reads: 'count',
    when: 'a list with a status filter holds more (or fewer) pets than its limit allows',
    control: 'the same list without the filter',
    implies:
      "as far off the same way (more, or fewer, than the limit allows): the count follows the limit, not the filter, and the control is diagnosed instead; otherwise the filter's, LIST-STATUS-FILTER",
    charges: ['LIST-STATUS-FILTER'],
    conclude: async ({ query, expected, more }, ask) => {
      if (query.status === undefined) return;
      const control = await ask.list({ limit: query.limit });
      const other = countOf(control);
      const stays = other !== undefined && (more ? other > expected : other < expected);
      return stays
        ? {
            instead: control,
            why: `the same list without status holds ${other} pets, ${more ? 'more' : 'fewer'} than ${expected} too: the count follows the limit, not the filter`,
          }
        : {
            charge: 'LIST-STATUS-FILTER',
            why: `the same list without status holds ${other ?? 'no list of'} pets`,
          };
    },
  }),
  row({
    id: 'count-over-maximum',
    reads: 'count',
    when: 'a list holds more than 100 pets for a limit that is no integer from 1 to 100',
    control: 'the same list without limit',
    implies:
      'as many: the default’s, and the control is diagnosed instead; fewer: LIST-LIMIT-MAX (no answer may hold more than 100 pets)',
    charges: ['LIST-LIMIT-MAX'],
    conclude: async ({ query, count }, ask) => {
      if (query.limit === undefined || readLimit(query.limit).kind === 'valid' || count <= 100)
        return;
      const control = await ask.list({ status: query.status });
      return (countOf(control) ?? 0) > 100
        ? { instead: control, why: `without limit it holds ${countOf(control)} pets too` }
        : {
            charge: 'LIST-LIMIT-MAX',
            why: `no answer may hold more than 100 pets, the maximum limit`,
          };
    },
  }),
  row({
    id: 'count-default',
    reads: 'count',
    when: 'a list without limit holds another number of pets than 20 (the store holding more)',
    control: 'the same list with limit=20',
    implies:
      'as many pets there: the default is 20, and the count rule is broken, LIST-LIMIT-EXACT; another number: LIST-LIMIT-DEFAULT',
    charges: ['LIST-LIMIT-EXACT', 'LIST-LIMIT-DEFAULT'],
    conclude: async ({ query, count }, ask) => {
      if (query.limit !== undefined) return;
      const twenty = countOf(await ask.list({ status: query.status, limit: 20 }));
      return twenty === count
        ? {
            charge: 'LIST-LIMIT-EXACT',
            why: `limit=20 lists ${count} pets too: the default is 20, and the count at limit=20 is wrong`,
          }
        : {
            charge: 'LIST-LIMIT-DEFAULT',
            why: `limit=20 lists ${twenty ?? 'no list of'} pets: the default is not 20`,
          };
    },
  }),
  row({
    id: 'count-at-a-bound',
    reads: 'count',
    when: 'a list at limit=1 or limit=100 holds another number of pets (the store holding more)',
    control: 'the same list at the neighbouring limit (2, 99)',
    implies:
      'wrong there too (off by as many, the same count, or any other wrong count): the count is off away from the bound, LIST-LIMIT-EXACT; else the bound’s, LIST-LIMIT-MIN or LIST-LIMIT-MAX',
    charges: ['LIST-LIMIT-EXACT', 'LIST-LIMIT-MIN', 'LIST-LIMIT-MAX'],
    conclude: async ({ query, count }, ask) => {
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      if (limit !== 1 && limit !== 100) return;
      const neighbour = limit === 1 ? 2 : 99;
      const near = countOf(await ask.list({ status: query.status, limit: neighbour }));
      const off = (n: number) => `${n > 0 ? '+' : ''}${n}`;
      if (near !== undefined && near - neighbour === count - limit) {
        return {
          charge: 'LIST-LIMIT-EXACT',
          why: `limit=${neighbour} lists ${near} pets, ${off(near - neighbour)} as well: the count is off at every limit, not at the bound alone`,
        };
      }
      if (near === count && near !== neighbour) {
        return {
          charge: 'LIST-LIMIT-EXACT',
          why: `limit=${neighbour} lists ${near} pets too: the count does not follow the limit at all, not at the bound alone`,
        };
      }
      // Wrong there as well, by another count: the deviation stays away from the bound.
      if (near !== undefined && near !== neighbour) {
        return {
          charge: 'LIST-LIMIT-EXACT',
          why: `limit=${neighbour} lists ${near} pets, not ${neighbour}, too: the count is wrong away from the bound as well`,
        };
      }
      return {
        charge: limitRule(limit),
        why: `limit=${neighbour} lists ${near ?? 'no list of'} pets: the count is wrong at the bound ${limit}`,
      };
    },
  }),
  row({
    id: 'count-rule',
    reads: 'count',
    when: 'a list at any other limit from 1 to 100 holds another number of pets',
    implies: 'LIST-LIMIT-EXACT',
    charges: ['LIST-LIMIT-EXACT'],
    conclude: ({ query }) =>
      query.limit !== undefined && readLimit(query.limit).kind === 'valid'
        ? { charge: 'LIST-LIMIT-EXACT', why: 'the count does not follow the limit' }
        : undefined,
  }),

  // What a create given the id its body asked for is charged to.
  row({
    id: 'chosen-id-given-anyway',
    reads: 'chosen-id',
    when: 'a create whose body carries an id was answered 201 with that id',
    control:
      'the id another pet of the run had already: an ordinary NewPet asking for an id no pet has; then an ordinary NewPet, without an id',
    implies:
      'the id another pet had, and the fresh id asked for not given: the body chooses nothing, ids collide, PET-ID-UNIQUE; given the same id without one: ids are not unique, PET-ID-UNIQUE (beyond 2^53 PET-ID-INT64); else the client chose its id, PET-ID-ASSIGNED (beyond 2^53, where a double may round to it, PET-ID-INT64)',
    charges: ['PET-ID-UNIQUE', 'PET-ID-INT64', 'PET-ID-ASSIGNED'],
    conclude: async ({ asked }, ask) => {
      const beyond = beyondDoubleRange(asked);
      // The id asked for was another pet's of the run already: ids collided (a race) or the body
      // chose it; a NewPet asking for an id no pet has tells which.
      if (isContested(asked)) {
        const fresh = asked > 0n ? asked - 1_000_003n : asked + 1_000_003n;
        const asking = {
          name: ownName('fresh-id'),
          categoryId: ask.controls.categoryId(),
          id: fresh,
        };
        const chosen = await ask.create(asking);
        if (usable(chosen) && chosen.status === 201 && petIn(chosen)?.id !== fresh) {
          return {
            charge: beyond ? 'PET-ID-INT64' : 'PET-ID-UNIQUE',
            why: `id ${asked}, another pet's of the run, was given again, and a NewPet asking for id ${fresh} did not get it: the body chooses no id, the service gives one id to several pets`,
          };
        }
      }
      const plain = await ask.create({
        name: ownName('no-id'),
        categoryId: ask.controls.categoryId(),
      });
      if (petIn(plain)?.id === asked) {
        return {
          charge: beyond ? 'PET-ID-INT64' : 'PET-ID-UNIQUE',
          why: `a NewPet without an id was answered with id ${asked} too: the service gives one id to several pets`,
        };
      }
      return {
        charge: beyond ? 'PET-ID-INT64' : 'PET-ID-ASSIGNED',
        why: `the body asked for id ${asked}, and the pet got it: the client chose its id`,
      };
    },
  }),

  // What getPet answering another pet for an id no pet has is charged to.
  row({
    id: 'unknown-id-other-pet',
    reads: 'other-pet',
    when: 'getPet of an id no pet is known to have was answered 200 with another pet',
    control: 'getPet of a pet that exists (one of the run’s)',
    implies:
      'beyond 2^53, the same id as a double: PET-ID-INT64; that pet read back as itself: getPet finds existing pets, and answers one for an id no pet has (a petId read into 32 bits), GET-404-UNKNOWN; else getPet answers the wrong pet whatever it is asked, GET-200-PET',
    charges: ['PET-ID-INT64', 'GET-404-UNKNOWN', 'GET-200-PET'],
    conclude: async ({ asked, shown }, ask) => {
      if (beyondDoubleRange(asked) && Number(shown) === Number(asked)) {
        return {
          charge: 'PET-ID-INT64',
          why: `getPet of ${asked} answered pet ${shown}: the same id as a double`,
        };
      }
      const existing = await ask.controls.existing();
      const read = existing ? await ask.get(existing.id) : undefined;
      if (read && usable(read) && read.status === 200 && petIn(read)?.id === existing?.id) {
        return {
          charge: 'GET-404-UNKNOWN',
          why: `getPet of ${asked}, an id no pet has, answered pet ${shown}, while getPet of pet ${existing!.id} answers that very pet`,
        };
      }
      return {
        charge: 'GET-200-PET',
        why: `getPet of ${asked} answered pet ${shown}${existing ? `, and getPet of pet ${existing.id} did not answer that pet either` : ''}`,
      };
    },
  }),

  // What a store that lists fewer pets than it was made to hold is charged to.
  row({
    id: 'store-lost-pets',
    reads: 'store',
    when: 'a store grown to hold N pets lists fewer (limit=100), though the pets just created are listed',
    control:
      'getPet of the oldest pets the run created (any worker) that the list does not show, up to 5',
    implies:
      'one not found: CREATE-PERSIST, and the checks that count are blocked (no count can be judged on a store that loses pets); all found: nothing here, the counts judge',
    charges: ['CREATE-PERSIST'],
    conclude: async ({ answer, created, expected }, ask) => {
      const shown = idsIn(answer);
      if (getPetMayBeGone || !created.some((pet) => shown.has(pet.id))) return;
      const oldest = ask.controls.api.options.state
        .createdIds()
        .filter((id) => !shown.has(id))
        .slice(0, 5);
      const reads = await together(oldest.map((id) => ask.get(id)));
      const gone = oldest.find((_, index) => usable(reads[index]!) && reads[index]!.status === 404);
      return gone === undefined
        ? undefined
        : {
            charge: 'CREATE-PERSIST',
            why: `the list holds ${countOf(answer)} pets after ${created.length} were created to make the store hold at least ${expected}, and getPet no longer finds pet ${gone}, created by this run (201): pets were not kept`,
          };
    },
  }),
  row({
    id: 'store-new-pets-unlisted',
    reads: 'store',
    when: 'a store grown to hold N pets lists none of the pets just created, and fewer than N',
    control:
      'getPet of the first of them; when it is found, the controls of the row short-page-capped, then the list at limit=1',
    implies:
      'not found: CREATE-PERSIST (they were not kept); found, and a page capped below its limit (row short-page-capped): LIST-LIMIT-EXACT; found, and limit=1 lists one pet: LIST-COMPLETE (the list leaves them out); otherwise nothing here, the counts judge (a list one short at every limit, or a limit not read)',
    charges: ['CREATE-PERSIST', 'LIST-LIMIT-EXACT', 'LIST-COMPLETE'],
    conclude: async ({ answer, created, expected }, ask) => {
      const shown = idsIn(answer);
      const [first] = created;
      if (!first || created.some((pet) => shown.has(pet.id))) return;
      const found = getPetMayBeGone ? undefined : await ask.get(first.id);
      if (found && usable(found) && found.status === 404) {
        return {
          charge: 'CREATE-PERSIST',
          why: `none of the ${created.length} pets just created (201) is listed, and getPet does not find pet ${first.id}: they were not kept`,
        };
      }
      const capped = await pageCapped(answer, listQueryOf(answer.request), ask);
      if (capped) return capped;
      const one = await ask.list({ limit: 1 });
      if (countOf(one) !== 1) return;
      return {
        charge: 'LIST-COMPLETE',
        why: `none of the ${created.length} pets just created (201) is listed, though the list holds ${countOf(answer)} of at least ${expected}`,
      };
    },
  }),

  // What a short list leaving out pets is charged to.
  row({
    id: 'short-pet-gone',
    reads: 'short',
    when: 'a list shorter than its limit leaves out pets it should show (of this worker, or named by the check)',
    control:
      'getPet of each pet left out, up to 100 (from getPet’s removal on 2030-12-05: the list of its status)',
    implies:
      'a pet not found: CREATE-PERSIST, for that pet (the store lost it); a pet found under another status than it was created with: allowed here (a list of its created status rightly leaves it out; the reads charge the status not kept); the pets found go on to the next rows',
    charges: ['CREATE-PERSIST'],
    // Concluded pet by pet in `diagnoseShort`, which asks this row's control first.
    conclude: () => undefined,
  }),
  row({
    id: 'short-filter-after-limit',
    reads: 'short',
    when: 'a filtered list leaves out a pet of its status that exists',
    control: 'the same limit without the filter, and the filtered list again, side by side',
    implies:
      'a full page whose pets of that status are exactly the filtered list, as it was or as it is again beside the page (another client’s create between the list and the control moves the page): the filter is applied after the limit, LIST-STATUS-FILTER',
    charges: ['LIST-STATUS-FILTER'],
    conclude: async ({ answer, query, missing }, ask) => {
      if (query.status === undefined || missing.length === 0) return;
      const [page, again] = (await together([
        ask.list({ limit: query.limit }),
        ask.list({ status: query.status, limit: query.limit }),
      ])) as [ApiResponse, ApiResponse];
      const firsts = isList(page) ? petsIn(page) : [];
      const ofStatus = firsts.filter((pet) => pet.status === query.status);
      const isOfStatus = (shown: Set<bigint>) =>
        ofStatus.length === shown.size && ofStatus.every((pet) => shown.has(pet.id));
      // Again, short, and still without the pet: a correct filter lists every pet of a short list.
      const shownAgain = isList(again) ? idsIn(again) : undefined;
      const againAlike =
        shownAgain !== undefined &&
        shownAgain.size < limitOf(query) &&
        !shownAgain.has(missing[0]!.id) &&
        isOfStatus(shownAgain);
      if (firsts.length === limitOf(query) && (isOfStatus(idsIn(answer)) || againAlike)) {
        return {
          charge: 'LIST-STATUS-FILTER',
          why: `status=${query.status} lists exactly the ${query.status} pets among the first ${limitOf(query)} of the unfiltered list, though pet ${missing[0]!.id} of that status exists: the filter is not applied before the limit`,
        };
      }
      return;
    },
  }),
  row({
    id: 'short-limit-unread',
    reads: 'short',
    when: 'a list at a limit above 2 leaves out pets that exist',
    control: 'the same list at limit=1',
    implies: 'more than one pet: the count does not follow the limit, LIST-LIMIT-EXACT',
    charges: ['LIST-LIMIT-EXACT'],
    conclude: async ({ query }, ask) => {
      if (limitOf(query) <= 2) return;
      const one = countOf(await ask.list({ status: query.status, limit: 1 }));
      return one !== undefined && one > 1
        ? {
            charge: 'LIST-LIMIT-EXACT',
            why: `the same list with limit=1 holds ${one} pets: the count does not follow the limit`,
          }
        : undefined;
    },
  }),
  row({
    id: 'short-page-capped',
    reads: 'short',
    when: 'a list holds C pets (10 or more), at a limit above C + 1, leaving out pets that exist',
    control:
      'the same list at limit=C+1 (with a filter, the list without one too); when that holds C, the list of each status (limit=100), then the list without a filter at limit=C+1 once more',
    implies:
      'more than C pets listed (without a filter: a pet of a status the short list shows pets of, left out of it; with one: more than C pets in the lists of the statuses together), and the list at C+1 holding C again after they were listed: the page stops at C whatever the limit, LIST-LIMIT-EXACT (a list that leaves out a whole status, or pets no list shows, is not a cap: the next rows read it)',
    charges: ['LIST-LIMIT-EXACT'],
    conclude: ({ answer, query }, ask) => pageCapped(answer, query, ask),
  }),
  row({
    id: 'short-count-off',
    reads: 'short',
    when: 'a list leaves out pets that exist',
    control:
      'the same list at a limit one less (2 for limit=1; 19 without limit), and, when that holds more, the short list again',
    implies:
      'another count than min(limit−1, count): the count does not follow the limit, LIST-LIMIT-EXACT (without limit: LIST-LIMIT-DEFAULT unless limit=20 holds as many); not when pets other writers added in between explain it (the short list asked again holds as many, is still short and still leaves the pet out), nor for a filtered list whose unfiltered list at the limit is full',
    charges: ['LIST-LIMIT-EXACT', 'LIST-LIMIT-DEFAULT'],
    conclude: async ({ answer, query, missing }, ask) => {
      const limit = limitOf(query);
      const count = countOf(answer) ?? 0;
      const other = limit > 1 ? limit - 1 : 2;
      const counted = countOf(await ask.list({ status: query.status, limit: other }));
      if (counted === undefined || counted === Math.min(other, count)) return;
      if (query.status !== undefined) {
        const page = await ask.list({ limit: query.limit });
        if (countOf(page) === limit) return;
      }
      if (counted > count && (await stillLeavesOut(query, counted, missing, ask))) return;
      let charge: RequirementId = 'LIST-LIMIT-EXACT';
      if (query.limit === undefined) {
        const twenty = countOf(await ask.list({ status: query.status, limit: 20 }));
        if (twenty !== count) charge = 'LIST-LIMIT-DEFAULT';
      }
      return {
        charge,
        why: `the same list with limit=${other} holds ${counted} pets, not ${Math.min(other, count)}: the count does not follow the limit`,
      };
    },
  }),
  row({
    id: 'short-filter-hides-status',
    reads: 'short',
    when: 'a filtered list leaves out a pet of its status that exists',
    control:
      'every status at limit=1, and the list without filter at limit=1, side by side (getPet of a pet of each other status this worker knows)',
    implies:
      'none for a status of which a pet exists, while the list without filter shows pets: LIST-STATUS-FILTER (a target that filters after the limit finds at most the status at the head of its list); the list without filter empty too: not the filter’s',
    charges: ['LIST-STATUS-FILTER'],
    conclude: async ({ query, missing }, ask) => {
      if (query.status === undefined || missing.length === 0) return;
      const known = [...knownPets().values()];
      const others = getPetMayBeGone
        ? []
        : petStatuses.flatMap((status) => {
            const pet =
              status === query.status ? undefined : known.find((each) => each.status === status);
            return pet ? [{ status, id: pet.id }] : [];
          });
      const [unfiltered, one, ...rest] = await together([
        ask.list({ limit: 1 }),
        ask.list({ status: query.status, limit: 1 }),
        ...others.map(({ status }) => ask.list({ status, limit: 1 })),
        ...others.map(({ id }) => ask.get(id)),
      ]);
      if (!countOf(unfiltered!)) return;
      const none = (list: ApiResponse) => countOf(list) === 0;
      const empty = none(one!)
        ? { status: query.status, id: missing[0]!.id }
        : others.find((each, index) => {
            const read = rest[others.length + index]!;
            return (
              none(rest[index]!) &&
              usable(read) &&
              read.status === 200 &&
              petIn(read)?.status === each.status
            );
          });
      return empty
        ? {
            charge: 'LIST-STATUS-FILTER',
            why: `status=${empty.status}&limit=1 finds no pet, though pet ${empty.id} of that status exists and the list without filter shows pets: the filter is not applied before the limit`,
          }
        : undefined;
    },
  }),
  row({
    id: 'short-left-out',
    reads: 'short',
    when: 'a list shorter than its limit leaves out a pet that exists, and no row above explains it',
    implies: 'LIST-COMPLETE',
    charges: ['LIST-COMPLETE'],
    conclude: ({ query }) => ({
      charge: 'LIST-COMPLETE',
      why: `the list (${describeQuery(query)}) holds all the target shows, and leaves out pets that exist`,
    }),
  }),
];

function row<K extends DeviationKind>(definition: Row<K>): Row<DeviationKind> {
  return definition as unknown as Row<DeviationKind>;
}

/** What an operation that fails to answer at all breaks. */
export const operationRequirement: Record<Operation, RequirementId> = {
  listPets: 'LIST-200-PETS',
  createPet: 'CREATE-201-PET',
  getPet: 'GET-200-PET',
};

/**
 * A valid NewPet's answer that refuses it (a 4xx other than 401, 408 and 429, which refuse no
 * value; or a 5xx, an exception on one), where the value that made the difference is worth finding.
 */
export function isRefusal(answer: ApiResponse): boolean {
  if (!usable(answer)) return false;
  const { status } = answer;
  return status >= 500 || (status >= 400 && status < 500 && ![401, 408, 429].includes(status));
}

/** The valid NewPet a create sent: as the check gave it, or read from the body it sent. */
function newPetOf({ answer, newPet }: Deviations['status']): SentPet | undefined {
  if (newPet) return newPet;
  if (answer.operation !== 'createPet') return undefined;
  const body = readNewPetBody(answer.request);
  return body.kind === 'valid' ? body.value : undefined;
}

/** The operation without a key and with ordinary input: the control of an order rule. */
async function ordinaryKeyless(operation: Operation, ask: Ask): Promise<ApiResponse | undefined> {
  if (operation === 'listPets') return ask.controls.api.listPets({}, { credentials: 'none' });
  if (operation === 'createPet') {
    return ask.create(
      { name: ownName('unauthenticated'), categoryId: ask.controls.categoryId() },
      'none',
    );
  }
  const pet = await ask.controls.existing();
  return pet && ask.controls.api.getPet(pet.id, { credentials: 'none' });
}

/**
 * The same NewPet with one unusual value made ordinary at a time (the categoryId, the name, the
 * status), until one is added: that value made the difference.
 */
async function valueThatMadeTheDifference(
  answer: ApiResponse,
  newPet: SentPet,
  ask: Ask,
): Promise<Conclusion | undefined> {
  const server = is5xx(answer);
  const trials: [NewPet, () => Conclusion][] = [];
  const base: NewPet = { name: newPet.name, categoryId: newPet.categoryId };
  if (newPet.status !== undefined) base.status = newPet.status as PetStatus;
  const byCategory = await categoryThatMadeTheDifference(answer, newPet, base, ask);
  if (byCategory) return byCategory;
  // One of the suite's own names refused: a name as short as the suite makes one, to tell a size
  // rule of the target's (the document leaves name sizes open) from a refusal of the NewPet.
  // The shortest unique one, then the run's marker alone.
  const bytes = (name: string) => Buffer.byteLength(name);
  for (const shorter of [ownName(''), petNamePrefix]) {
    if (!isOwnName(newPet.name) || server || bytes(shorter) >= bytes(newPet.name)) break;
    trials.push([
      { ...base, name: shorter },
      () => ({
        blocked: `status ${answer.status} to a name of ${bytes(newPet.name)} bytes, and the same NewPet named ${JSON.stringify(shorter)} (${bytes(shorter)} bytes) was added: the target's names are shorter than the suite's own, which the document allows (section 8: size limits of the name field are not shown). Set CONFORMANCE_NAME_MAX_BYTES to the longest it takes, and a shorter CONFORMANCE_RUN_ID if that leaves no room for the marker, so that every check can name its pets`,
      }),
    ]);
  }
  if (!isOwnName(newPet.name)) {
    const name = ownName('ordinary');
    trials.push([
      { ...base, name },
      () =>
        server
          ? {
              charge: 'NO-5XX',
              why: `status ${answer.status} for its name, which a target may refuse with 400, never with a 5xx: the same NewPet named ${JSON.stringify(name)} was added`,
            }
          : {
              charge: 'CREATE-201-PET',
              why: `status ${answer.status}, refused for its name: the same NewPet named ${JSON.stringify(name)} was added (a service may refuse a name under rules of its own, with a 400 Error)`,
            },
    ]);
  }
  if (newPet.status !== 'available') {
    trials.push([
      { ...base, status: 'available' },
      () =>
        newPet.status === undefined
          ? {
              charge: 'NEWPET-STATUS-OPTIONAL',
              why: `status ${answer.status}, refused for want of a status, which is optional: the same NewPet with status available was added`,
            }
          : {
              charge: 'PETSTATUS-ENUM',
              why: `status ${answer.status}, refused for its status ${newPet.status}: the same NewPet with status available was added`,
            },
    ]);
  }
  // One thing changed at a time: the media type the NewPet was sent with is kept.
  for (const [ordinary, conclusion] of trials) {
    if (await added(ordinary, answer, ask)) return conclusion();
  }
  return undefined;
}

/** Whether the NewPet is added, sent as the refused one was (its media type kept). */
async function added(newPet: NewPet, refused: ApiResponse, ask: Ask): Promise<boolean> {
  const answer = await ask.create(newPet, 'key', refused.request.contentType);
  return usable(answer) && answer.status === 201;
}

/**
 * A categoryId in int32's range that no list of a target's own categories is likely to hold:
 * taken, a refused categoryId was refused for its number (int32, a safe-integer cap, a sign).
 */
export const unlikelyCategoryId = 1_987_654_321n;

/**
 * Whether a valid NewPet was refused for its categoryId. The document leaves which categories
 * exist to the target (a target's own data rules), so a refusal of one is either a rule on the
 * number, which breaks int64, or a category the target does not have, which is its right. Made
 * ordinary one way, then the other: `unlikelyCategoryId` taken, the number was the difference;
 * refused too, while 1 (or a categoryId of a pet the store lists) is taken, the target takes
 * only its own categories, and the checks that need others are blocked, naming the setting that
 * declares them. A declared categoryId refused is a failure, as is a 5xx (a category a target
 * does not have is refused with 400).
 */
async function categoryThatMadeTheDifference(
  answer: ApiResponse,
  newPet: SentPet,
  base: NewPet,
  ask: Ask,
): Promise<Conclusion | undefined> {
  const refusedFor = `status ${answer.status}, refused for its categoryId ${newPet.categoryId}`;
  const declared = ask.controls.categoryIds !== undefined;
  if (declared || is5xx(answer)) {
    const categoryId = ask.controls.categoryId();
    const hint = declared
      ? ''
      : ' (if the target accepts only the categoryIds of its own categories, list them in CONFORMANCE_CATEGORY_IDS)';
    if (newPet.categoryId === categoryId || !(await added({ ...base, categoryId }, answer, ask)))
      return undefined;
    return {
      charge: 'NEWPET-CATEGORYID-INT64',
      why: `${refusedFor}: the same NewPet with categoryId ${categoryId} was added${hint}`,
    };
  }
  if (newPet.categoryId === unlikelyCategoryId) return undefined;
  if (await added({ ...base, categoryId: unlikelyCategoryId }, answer, ask)) {
    return {
      charge: 'NEWPET-CATEGORYID-INT64',
      why: `${refusedFor}: the same NewPet with categoryId ${unlikelyCategoryId}, which no short list of categories is likely to hold, was added: the number was refused, not a category`,
    };
  }
  for (const own of await ownCategoryCandidates(ask, [newPet.categoryId, unlikelyCategoryId])) {
    if (await added({ ...base, categoryId: own }, answer, ask)) {
      // As with the categories declared: the int64 range cannot be checked on such a target.
      return {
        blocked: `${refusedFor}, and for categoryId ${unlikelyCategoryId} too, and the same NewPet with categoryId ${own} was added: the target takes only some categoryIds, its own categories, which the document leaves to it. Set CONFORMANCE_CATEGORY_IDS to the ones it takes (${own} among them), so that every check makes its pets with them (NEWPET-CATEGORYID-INT64's range cannot be checked on such a target: not run)`,
        leftOut: 'NEWPET-CATEGORYID-INT64',
      };
    }
  }
  return undefined;
}

/** categoryIds a target with categories of its own may take: 1, then those of a listed pet. */
async function ownCategoryCandidates(ask: Ask, tried: bigint[]): Promise<bigint[]> {
  const candidates = [1n];
  const listed = await ask.controls.api.listPets({ limit: 100 });
  if (isList(listed)) {
    for (const pet of petsIn(listed)) {
      if (typeof pet.categoryId === 'bigint') candidates.push(pet.categoryId);
    }
  }
  return [...new Set(candidates)].filter((id) => !tried.includes(id)).slice(0, 3);
}

/**
 * Whether a short list, asked again after the same list at a smaller limit held `counted` pets
 * (more than it did), now holds at least as many (up to its limit), is still short, and still
 * leaves out one of the `missing` pets, which existed before it was first sent. Then the count
 * follows the limit: a store only grows, so the other list saw pets added in between, and the pets
 * left out are left out whatever the count.
 */
async function stillLeavesOut(
  query: ListQuery,
  counted: number,
  missing: readonly WantedPet[],
  ask: Ask,
): Promise<boolean> {
  const limit = limitOf(query);
  const now = await ask.controls.api.listPets({ status: query.status, limit: query.limit });
  if (!isList(now)) return false;
  const count = countOf(now) ?? 0;
  const shown = idsIn(now);
  return (
    count >= Math.min(counted, limit) && count < limit && missing.some(({ id }) => !shown.has(id))
  );
}

// ---- Running the table ----

/** A problem charged by the diagnosis, as matchers record it (attribution.ts's Problem). */
export interface Charged {
  requirement: RequirementId;
  text: string;
}

function blockedBy(conclusion: { blocked: string; leftOut?: RequirementId }): never {
  if (conclusion.leftOut) notRun(conclusion.leftOut, conclusion.blocked);
  return block(conclusion.blocked);
}

function controlsOf(): ControlContext {
  if (!context)
    throw new Error('The diagnosis ran outside a test of the suite (no controls in use)');
  return context;
}

/** Walks the rows that read `kind`, from the first, until one concludes. */
async function walk<K extends DeviationKind>(
  kind: K,
  deviation: Deviations[K],
  ask: Ask,
  from = 0,
): Promise<{ conclusion: Conclusion; row: Row } | undefined> {
  const rows = diagnosisTable.filter((each) => each.reads === kind) as unknown as Row<K>[];
  for (const each of rows.slice(from)) {
    const conclusion = await each.conclude?.(deviation as never, ask);
    if (conclusion) return { conclusion, row: each as unknown as Row };
  }
  return undefined;
}

/** The document allows the answer after all; `judged`: its Error body is still judged. */
export interface Allowed {
  allowed: string;
  judged: boolean;
}

/**
 * A status not the one the check expected: charged to the rule the table finds, or to `own` when
 * none concludes; `allowed` when the document allows the answer after all.
 */
export async function diagnoseStatus(deviation: Deviations['status']): Promise<Charged | Allowed> {
  const ask = new Ask(controlsOf());
  const notes: string[] = [];
  let current = deviation;
  // A control refused alike is diagnosed in its place; each `instead` drops one parameter more.
  for (let hop = 0; hop < 4; hop++) {
    const found = await walk('status', current, ask);
    if (!found) break;
    const { conclusion } = found;
    if ('allowed' in conclusion)
      return { allowed: conclusion.allowed, judged: !conclusion.unjudged };
    if ('blocked' in conclusion) blockedBy(conclusion);
    if ('charge' in conclusion) {
      return { requirement: conclusion.charge, text: [...notes, conclusion.why].join('; ') };
    }
    notes.push(conclusion.why);
    current = { ...current, answer: conclusion.instead, expected: '200' };
  }
  const text = `status ${deviation.answer.status}, not ${deviation.expected}`;
  return { requirement: deviation.own, text: [text, ...notes].join('; ') };
}

/** A 200 list with another number of pets than its limit allows: the rule the table finds. */
export async function diagnoseCount(
  deviation: Deviations['count'],
  own: RequirementId,
): Promise<Charged> {
  const ask = new Ask(controlsOf());
  const notes: string[] = [];
  let current = deviation;
  for (let hop = 0; hop < 3; hop++) {
    const found = await walk('count', current, ask);
    if (!found) break;
    const { conclusion } = found;
    if ('charge' in conclusion)
      return { requirement: conclusion.charge, text: [...notes, conclusion.why].join('; ') };
    if ('allowed' in conclusion) break;
    if ('blocked' in conclusion) blockedBy(conclusion);
    notes.push(conclusion.why);
    const query = listQueryOf(conclusion.instead.request);
    current = {
      ...current,
      answer: conclusion.instead,
      query,
      count: countOf(conclusion.instead) ?? 0,
    };
  }
  return { requirement: own, text: notes.join('; ') || 'the count does not follow the limit' };
}

/** What a short list's missing pets are, as the target answered. */
export interface ShortVerdict {
  /** Pets the target no longer has: CREATE-PERSIST's. */
  lost: Set<bigint>;
  /** Pets the target holds under another status than the list's: rightly left out. */
  elsewhere: Set<bigint>;
  /** The rule the pets left out (that exist) are charged to, and why; none when no pet is. */
  leftOut?: Charged;
}

/**
 * At most this many missing pets are looked for, one getPet each: as many as one list shows. With
 * other writers a store that loses pets loses many between two lists.
 */
const lookedFor = 100;

/** A list shorter than its limit that leaves out `wanted` pets: what each is, as the target says. */
export async function diagnoseShort(
  answer: ApiResponse,
  query: ListQuery,
  wanted: readonly WantedPet[],
): Promise<ShortVerdict> {
  const verdict: ShortVerdict = { lost: new Set(), elsewhere: new Set() };
  const shown = idsIn(answer);
  // An id two creates were answered with names no pet known: held to neither (PET-ID-UNIQUE's).
  const missing = wanted
    .filter((pet) => !shown.has(pet.id) && !isContested(pet.id))
    .slice(0, lookedFor);
  if (missing.length === 0) return verdict;
  const ask = new Ask(controlsOf());
  const found: WantedPet[] = [];
  if (getPetMayBeGone) {
    // getPet may be gone: the list of each missing pet's status says whether it exists.
    const statuses = [...new Set(missing.flatMap((pet) => (pet.status ? [pet.status] : [])))];
    const lists = await together(statuses.map((status) => ask.list({ status, limit: 100 })));
    const seen = new Set(lists.flatMap((list) => [...idsIn(list)]));
    found.push(...missing.filter((pet) => seen.has(pet.id)));
  } else {
    const reads = await together(missing.map((pet) => ask.get(pet.id)));
    missing.forEach((pet, index) => {
      const read = reads[index]!;
      if (!usable(read)) return;
      if (read.status === 404) verdict.lost.add(pet.id);
      if (read.status !== 200) return;
      const status = petIn(read)?.status;
      const other = query.status !== undefined && status !== undefined && status !== query.status;
      if (pet.status !== undefined && status !== undefined && status !== pet.status && other) {
        verdict.elsewhere.add(pet.id);
      } else found.push(pet);
    });
  }
  if (found.length === 0) return verdict;
  const result = await walk('short', { answer, query, missing: found }, ask, 1);
  if (result && 'charge' in result.conclusion) {
    verdict.leftOut = { requirement: result.conclusion.charge, text: result.conclusion.why };
  }
  return verdict;
}

/**
 * A store grown to hold `expected` pets (the pets just `created`) whose list holds fewer: what the
 * target's answers show, or undefined when nothing but the counts can judge it.
 */
export async function diagnoseStore(deviation: Deviations['store']): Promise<Charged | undefined> {
  const found = await walk('store', deviation, new Ask(controlsOf()));
  return found && 'charge' in found.conclusion
    ? { requirement: found.conclusion.charge, text: found.conclusion.why }
    : undefined;
}

/**
 * A GET answered with a 5xx, and otherwise when sent again at once (http/client.ts, exchange): the
 * row `get-5xx-not-again`'s charge, recorded as a finding of the test that met it (fixtures.ts).
 */
export function passing5xxCharge(first: ApiResponse, again: ApiResponse): Charged {
  return {
    requirement: 'NO-5XX',
    text: `status ${first.status}; the same request sent again at once was answered ${again.status}: a 5xx that does not come back (the target fails now and then)`,
  };
}

/** The charge the table finds for a deviation of `kind`, or `otherwise` when no row concludes one. */
async function chargeOf<K extends DeviationKind>(
  kind: K,
  deviation: Deviations[K],
  otherwise: Charged,
): Promise<Charged> {
  const found = await walk(kind, deviation, new Ask(controlsOf()));
  return found && 'charge' in found.conclusion
    ? { requirement: found.conclusion.charge, text: found.conclusion.why }
    : otherwise;
}

/** getPet of an id no pet has, answered with another pet: the rule the table finds. */
export function diagnoseOtherPet(deviation: Deviations['other-pet']): Promise<Charged> {
  return chargeOf('other-pet', deviation, {
    requirement: 'GET-200-PET',
    text: `getPet of ${deviation.asked} answered pet ${deviation.shown}`,
  });
}

/** A create whose body asked for an id and got it: the rule the table finds. */
export function diagnoseChosenId(deviation: Deviations['chosen-id']): Promise<Charged> {
  return chargeOf('chosen-id', deviation, {
    requirement: 'PET-ID-ASSIGNED',
    text: `the pet got id ${deviation.asked}, which its body asked for`,
  });
}
