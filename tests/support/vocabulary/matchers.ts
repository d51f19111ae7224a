/**
 * Custom matchers: each check of the interface document in one place. attribution.ts finds the
 * problems an answer shows by itself; a deviation whose cause a control request must tell (a
 * status, a count, a list that leaves pets out) goes to the diagnosis (diagnosis.ts), and only
 * when the check has failed; verdicts.ts fails the test for its own requirements and records the
 * others as findings. Messages name the requirement, the request, what was expected and what came
 * back (layout: reporting/failure-text.ts).
 *
 * Every matcher is asynchronous (`await expect(answer).toListPets(…)`): a diagnosis may send
 * control requests. Matchers that take answers take one or an array: an array is judged whole,
 * answer after answer, so that one answer without a usable reply does not hide another one's
 * failure, and the control requests go out in the same order every run (a replay shows them).
 */
import { expect as baseExpect } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { type ApiResponse, type Pet, askedId, petStatuses } from '../http/client.ts';
import { type JsonValue, int64Of } from '../http/lossless-json.ts';
import {
  type ExpectedStatus,
  type KnownPet,
  type Problem,
  type SentPet,
  asPet,
  beyondDoubleRange,
  idsIn,
  petIn,
  describeStatus,
  echoProblems,
  errorBodyProblems,
  listBodyProblems,
  mediaProblems,
  type NameKeeper,
  petBodyProblems,
  petsIn,
  statusMatches,
  storedProblems,
} from './attribution.ts';
import {
  type WantedPet,
  diagnoseChosenId,
  diagnoseOtherPet,
  diagnoseCount,
  diagnoseShort,
  diagnoseStatus,
  diagnoseStore,
} from './diagnosis.ts';
import { listQueryOf, readLimit, readNewPetBody } from './inputs.ts';
import {
  createsInFlight,
  isAcceptedInvalid,
  isChosenByBody,
  isContested,
  isRunCreated,
  knownPets,
  remember,
  rememberAccepted,
} from './known-pets.ts';
import type { StoreFloor } from './pets.ts';
import { type MatcherResult, inconclusive, primaryRequirement, settle } from './verdicts.ts';

export type { ExpectedStatus } from './attribution.ts';

type Answers = ApiResponse | readonly ApiResponse[];
const each = (answers: Answers): readonly ApiResponse[] =>
  Array.isArray(answers) ? answers : [answers as ApiResponse];

/** Judges each answer alike, one after another: one expectation, the problems `problemsOf` finds. */
async function judgeEach(
  name: string,
  received: Answers,
  expected: string,
  problemsOf: (response: ApiResponse) => Problem[] | Promise<Problem[]>,
): Promise<MatcherResult> {
  const judged = [];
  for (const response of each(received)) {
    judged.push({ exchange: response, expected, problems: await problemsOf(response) });
  }
  return settle(name, judged);
}

/** A create refused with a 4xx, and the name its pet would be listed under. */
export interface RefusedCreate {
  answer: ApiResponse;
  /** The name it was sent with, up to its label (what follows may be hostile). */
  name: string;
  /** What it carried, for a reader. */
  description: string;
}

/**
 * The creates among `answers` that were refused with a 4xx, each sent with a valid NewPet: none
 * may have added its pet (toLeaveOutRefusedCreates), found in a list by its name.
 */
export function refusedCreatesAmong(answers: readonly ApiResponse[]): RefusedCreate[] {
  return answers.flatMap((answer) => {
    const body = answer.operation === 'createPet' ? readNewPetBody(answer.request) : undefined;
    const refused = answer.failure === undefined && answer.status >= 400 && answer.status < 500;
    return body?.kind === 'valid' && refused
      ? [
          {
            answer,
            name: body.value.name,
            description: `a valid NewPet sent with ${answer.request.auth}`,
          },
        ]
      : [];
  });
}

/** Options every matcher takes: the requirement its own check (status, count…) is charged to. */
export interface CheckOptions {
  as?: RequirementId;
  /** What the expectation rests on, shown after what was expected (the failure's reader asks). */
  because?: string;
}

/** What was expected, and why when the check says. */
const expecting = (text: string, options: CheckOptions) =>
  options.because ? `${text}: ${options.because}` : text;

const blocked = (problems: Problem[]) => problems.some((problem) => problem.blocks);

/** What the status of an answer leaves to judge. */
interface StatusOutcome {
  /** The charge of a status not the one expected (it blocks: the body is not judged further). */
  problems: Problem[];
  /**
   * The status is not the one expected, and the document allows it all the same: `judged`, a
   * refusal whose Error body is judged; `unjudged`, an answer whose body says nothing (a gateway's
   * 413 to a body over a size limit).
   */
  allowed?: 'judged' | 'unjudged';
}

/**
 * The answer's status against the one expected. Another status goes to the diagnosis, which
 * charges the rule a control request shows (or `own` when none does), or finds the answer is one
 * the document allows after all (a refusal of a value a target may refuse).
 */
async function statusOf(
  response: ApiResponse,
  expected: ExpectedStatus,
  own: RequirementId,
  about: { newPet?: SentPet; known?: WantedPet } = {},
): Promise<StatusOutcome> {
  // A path with an encoded slash refused before the service (diagnosis row encoded-slash-refused).
  if (refusedEncodedSlash(response)) return { problems: [], allowed: 'unjudged' };
  if (response.failure === undefined && statusMatches(expected, response.status)) {
    return { problems: [] };
  }
  const charged = await diagnoseStatus({
    answer: response,
    expected: describeStatus(expected),
    own,
    ...about,
  });
  return 'allowed' in charged
    ? { problems: [], allowed: charged.judged ? 'judged' : 'unjudged' }
    : { problems: [{ ...charged, blocks: true }] };
}

/**
 * A request whose path holds an encoded slash (%2F), answered 400 or 404 with a page that is no
 * JSON: RFC 3986 makes %2F data inside a segment, yet servers and gateways refuse it before any
 * service sees it (Apache's AllowEncodedSlashes Off: 404; Tomcat: 400), key or none, with a page
 * of their own. An answer in JSON is the service's, and judged as any other.
 */
function refusedEncodedSlash(response: ApiResponse): boolean {
  const path = new URL(response.request.url).pathname;
  return (
    response.failure === undefined &&
    (response.status === 400 || response.status === 404) &&
    !response.isJson &&
    /%2f/i.test(path)
  );
}

/** An error answer's media type and Error body: never blocking, the status decided without them. */
const errorBody = (response: ApiResponse): Problem[] =>
  [...mediaProblems(response), ...errorBodyProblems(response)].map(({ requirement, text }) => ({
    requirement,
    text,
  }));

/** The status, then the Error body of an error answer. */
async function errorProblems(response: ApiResponse, status: ExpectedStatus, own: RequirementId) {
  const outcome = await statusOf(response, status, own);
  if (blocked(outcome.problems)) return outcome.problems;
  // A refusal the document allows whose body is not judged (a 413 to a large body: a gateway's).
  if (outcome.allowed === 'unjudged') return [];
  // An invalid body the target added: its pet is that acceptance's, charged here once.
  if (response.operation === 'createPet' && response.status === 201) {
    const id = int64Of(
      (response.body.ok ? (response.body.value as Record<string, JsonValue>) : null)?.id,
    );
    if (id !== undefined) rememberAccepted(id);
  }
  return errorBody(response);
}

/**
 * How long a read that shows another pet under a known pet's id waits before it asks the run's
 * record again: another worker's create answered with the same id may be on its way to it (the
 * target stored that pet before its 201 reached the worker that sent it).
 */
const recordLagMs = 250;

/**
 * Reads of pets this worker created, each held to it (storedProblems); not when two creates of
 * the run, in any worker, were answered with its id: which pet the id names is no longer known,
 * and the two creates are PET-ID-UNIQUE's or PET-ID-ASSIGNED's business. A read that shows
 * something else asks the run's record once more, a moment later (recordLagMs), so that four
 * workers charge as one would.
 */
async function readProblems(
  reads: readonly { known: KnownPet; read: Pet; where: string }[],
): Promise<Problem[]> {
  const found = reads.flatMap(({ known, read, where }) =>
    isContested(known.id)
      ? []
      : storedProblems(known, read, where).map((problem) => ({ known, problem })),
  );
  if (found.length === 0) return [];
  await sleep(recordLagMs);
  return found.filter(({ known }) => !isContested(known.id)).map(({ problem }) => problem);
}

/**
 * Each id listed once, and a listed pet this run created against what it was created with. An id
 * listed more than once is judged over the whole list: under one id, different pets are ids not
 * unique (PET-ID-UNIQUE; beyond 2^53 not exact, PET-ID-INT64), and then a pet among them shown
 * twice is part of that mix-up, not a duplicate listing; pets alike only are one pet listed twice
 * (LIST-NO-DUPLICATES), unless two creates were answered with that id (known-pets.ts), or the id
 * lies beyond 2^53 and the list shows other such ids naming different pets: ids a double merged.
 */
async function listedProblems(items: readonly unknown[]): Promise<Problem[]> {
  const contents = new Map<bigint, string[]>();
  const reads: { known: KnownPet; read: Pet; where: string }[] = [];
  for (const item of items) {
    const pet = asPet(item as never);
    if (!pet) continue;
    const content = JSON.stringify([pet.name, String(pet.categoryId), pet.status]);
    contents.set(pet.id, [...(contents.get(pet.id) ?? []), content]);
    const known = knownPets().get(pet.id);
    if (known) reads.push({ known, read: pet, where: 'in the list' });
  }
  const problems = await readProblems(reads);
  const mixed = (shown: string[]) => new Set(shown).size > 1;
  const merging = [...contents].some(([id, shown]) => beyondDoubleRange(id) && mixed(shown));
  for (const [id, shown] of contents) {
    if (shown.length < 2) continue;
    const beyond = beyondDoubleRange(id);
    const mixUp: RequirementId = beyond ? 'PET-ID-INT64' : 'PET-ID-UNIQUE';
    // An id a create's body asked for and got: the client chose it, and the pet that had it
    // already shares it, the consequence of that one deviation (PET-ID-ASSIGNED).
    if (mixed(shown) && !beyond && isChosenByBody(id)) {
      problems.push({
        requirement: 'PET-ID-ASSIGNED',
        text: `two different pets are listed with id ${id}, which a create's body asked for and was given: the client chose its id`,
      });
    } else if (mixed(shown)) {
      problems.push({ requirement: mixUp, text: `two different pets are listed with id ${id}` });
    } else if (isContested(id)) {
      problems.push({
        requirement: mixUp,
        text: `two pets created alike were both answered with id ${id}, and both are listed`,
      });
    } else if (beyond && merging) {
      problems.push({
        requirement: 'PET-ID-INT64',
        text: `two pets alike are listed with id ${id}, beyond 2^53, where this list shows other ids naming different pets: ids not kept exact`,
      });
    } else {
      problems.push({
        requirement: 'LIST-NO-DUPLICATES',
        text: `pet ${id} is listed more than once`,
      });
    }
  }
  return problems;
}

export interface ListExpectation extends CheckOptions {
  /** Exactly this many pets (the store holds more). */
  exactly?: number;
  /** At most this many pets. */
  atMost?: number;
  /** Only pets of this status (LIST-STATUS-FILTER). */
  status?: string;
  /**
   * These pets must be listed while the list is shorter than its limit (LIST-COMPLETE); without
   * it, a list short of `exactly` is asked about the pets this worker created that match it.
   */
  including?: readonly WantedPet[];
}

const idList = (ids: Iterable<bigint>) => [...ids].join(', ');

/**
 * Who answers for a listed pet's fields: a pet this worker created is held to its name
 * (CREATE-PERSIST; its other fields to their requirements); one another worker created, to that
 * worker's checks, and one added from a body that should have been refused, to the check that met
 * it (null: nothing is charged here); any other pet is the schema's.
 */
function listedKeeper(id: bigint): NameKeeper {
  if (isAcceptedInvalid(id)) return null;
  const known = knownPets().get(id);
  if (known && !isContested(id)) {
    return { requirement: 'CREATE-PERSIST', sent: known.name, where: `in the list: pet ${id}` };
  }
  return isRunCreated(id) ? null : undefined;
}

/** How long a listed pet of unknown origin waits for the run's record of creates to catch up. */
const recordCatchUpMs = 1000;

/**
 * The list body's problems, each listed pet held to who answers for it (listedKeeper). A pet with
 * a wrong field that no create of the run is yet known to have made may be another worker's,
 * stored by the target before that worker read its 201: while creates of the run are in flight,
 * the run's record is read again, a second later. Only a list with such a problem waits.
 */
async function listBodySettled(response: ApiResponse) {
  // Read first: a create settled after this was noted before it settled, and is read below.
  const inFlight = createsInFlight();
  let unknownOrigin = false;
  const body = listBodyProblems(response, (id) => {
    const keeper = listedKeeper(id);
    if (keeper === undefined) unknownOrigin = true;
    return keeper;
  });
  if (!unknownOrigin) return body;
  if (inFlight > 0) await sleep(recordCatchUpMs);
  return listBodyProblems(response, listedKeeper);
}

/** The pets a list with this query should show, of those this worker created: its filter's. */
function knownMatching(status: string | undefined): WantedPet[] {
  return [...knownPets().values()].filter((pet) => status === undefined || pet.status === status);
}

const countRules: readonly RequirementId[] = ['LIST-LIMIT-EXACT', 'LIST-LIMIT-DEFAULT'];

async function listProblems(response: ApiResponse, expected: ListExpectation, own: RequirementId) {
  const outcome = await statusOf(response, 200, own);
  if (blocked(outcome.problems)) return outcome.problems;
  if (outcome.allowed) return outcome.allowed === 'judged' ? errorBody(response) : [];
  const problems: Problem[] = [...mediaProblems(response)];
  const body = await listBodySettled(response);
  problems.push(...body.problems);
  const items = body.items;
  if (!items) return problems;
  const query = listQueryOf(response.request);
  const limitValue = readLimit(query.limit);
  const limit = limitValue.kind === 'valid' ? (limitValue.value ?? 20) : Number.POSITIVE_INFINITY;
  const count = items.length;
  // A short list leaves out pets it should show: the target is asked what they are first.
  const wanted =
    expected.including ??
    (expected.exactly !== undefined && count < expected.exactly
      ? knownMatching(expected.status)
      : []);
  const short =
    count < limit && wanted.length > 0 ? await diagnoseShort(response, query, wanted) : undefined;
  const listed = idsIn(response);
  const gone = [...(short?.lost ?? [])].filter((id) => !listed.has(id));
  if (expected.exactly !== undefined && count !== expected.exactly) {
    const text = `${count} pets listed, not exactly ${expected.exactly}`;
    const leftOut = short?.leftOut;
    if (count < expected.exactly && gone.length > 0) {
      problems.push({
        requirement: 'CREATE-PERSIST',
        text: `${text}: getPet no longer finds pet ${idList(gone)}, answered 201 before: the store holds fewer pets than the count needs`,
        blocks: true,
      });
    } else if (count < expected.exactly && leftOut && !countRules.includes(leftOut.requirement)) {
      problems.push({
        requirement: leftOut.requirement,
        text: `${text}, leaving out pets that exist: ${leftOut.text}`,
        blocks: true,
      });
    } else if (count < expected.exactly && leftOut) {
      problems.push({ requirement: leftOut.requirement, text: `${text}: ${leftOut.text}` });
    } else if (!(count < expected.exactly && short && short.elsewhere.size > 0)) {
      const charged = await diagnoseCount(
        {
          answer: response,
          query,
          count,
          expected: expected.exactly,
          more: count > expected.exactly,
        },
        own,
      );
      problems.push({ requirement: charged.requirement, text: `${text}: ${charged.text}` });
    }
  }
  if (expected.atMost !== undefined && count > expected.atMost) {
    const charged = await diagnoseCount(
      { answer: response, query, count, expected: expected.atMost, more: true },
      own,
    );
    problems.push({
      requirement: charged.requirement,
      text: `${count} pets listed, more than ${expected.atMost}: ${charged.text}`,
    });
  }
  if (expected.status !== undefined) {
    // A pet shown without status says nothing of the status the store holds (a Pet's status is
    // optional; protobuf's JSON mapping leaves out a field at its zero value), and a status that
    // is no PetStatus is PETSTATUS-ENUM's (the schema's): the filter is charged for pets shown
    // under another PetStatus.
    const wrong = items.filter((item) => {
      const status = (item as Record<string, unknown> | null)?.status;
      return (petStatuses as readonly unknown[]).includes(status) && status !== expected.status;
    });
    for (const item of wrong.slice(0, 5)) {
      const pet = asPet(item as never);
      const status = (item as Record<string, unknown> | null)?.status;
      problems.push({
        requirement: 'LIST-STATUS-FILTER',
        text: `${pet ? `pet ${pet.id}` : 'a pet'} has status ${JSON.stringify(status)}, not ${expected.status}`,
      });
    }
  }
  if (expected.including?.length && count < limit) {
    // Listed is listed, whatever else of the pet is wrong (its fields are charged to their own
    // requirements): a categoryId written outside int64 leaves the pet there all the same.
    for (const pet of expected.including) {
      if (listed.has(pet.id) || short?.elsewhere.has(pet.id) || isContested(pet.id)) continue;
      problems.push(
        short?.lost.has(pet.id)
          ? {
              requirement: 'CREATE-PERSIST',
              text: `pet ${pet.id} (answered 201 or listed before) is neither listed nor found by getPet: it was not kept`,
            }
          : {
              requirement: short?.leftOut?.requirement ?? 'LIST-COMPLETE',
              text: `pet ${pet.id} is missing, though the list holds fewer than ${limit} pets${short?.leftOut ? `: ${short.leftOut.text}` : ''}`,
            },
      );
    }
  }
  problems.push(...(await listedProblems(items)));
  return problems;
}

/**
 * A getPet answer for a pet that exists: status, shape, that very pet, and, for one this worker
 * created (`known`), the same pet as created. `created`: the pet as its create was answered, when
 * the run made it, for the diagnosis of another status (an id two creates were given, say), also
 * when the worker no longer holds it to a name (`known` undefined).
 */
async function readBackProblems(
  response: ApiResponse,
  id: bigint,
  known: KnownPet | undefined,
  created: KnownPet | undefined = known,
): Promise<Problem[]> {
  const outcome = await statusOf(response, 200, 'GET-200-PET', created ? { known: created } : {});
  if (blocked(outcome.problems) || outcome.allowed) return outcome.problems;
  const problems = mediaProblems(response);
  // Held to the pet's name only when the body is that pet (it carries its id): a body that is no
  // Pet at all (the pet wrapped in an object) is the shape's.
  const value = response.body.ok ? response.body.value : undefined;
  const carriesId = int64Of((value as Record<string, JsonValue> | null | undefined)?.id) === id;
  const body = petBodyProblems(
    response,
    !known || isContested(id) || !carriesId
      ? undefined
      : { requirement: 'CREATE-PERSIST', sent: known.name, where: `getPet: pet ${id}` },
  );
  problems.push(...body.problems);
  const pet = body.pet;
  if (!pet) return problems;
  if (pet.id !== id) {
    const rounded = BigInt(Number(id)) !== id || Number(pet.id) === Number(id);
    problems.push({
      requirement: rounded && beyondDoubleRange(id) ? 'PET-ID-INT64' : 'GET-200-PET',
      text: `getPet of ${id} answered pet ${pet.id}`,
    });
    return problems;
  }
  return known
    ? [...problems, ...(await readProblems([{ known, read: pet, where: 'getPet' }]))]
    : problems;
}

/** A 201 answer for a NewPet: status, shape, what was sent. */
async function createdProblems(response: ApiResponse, sent: SentPet, own: RequirementId) {
  const outcome = await statusOf(response, 201, own, { newPet: sent });
  if (blocked(outcome.problems)) return { problems: outcome.problems };
  // A refusal the document allows (a name a target may refuse): an Error answer all the same.
  if (outcome.allowed) return { problems: outcome.allowed === 'judged' ? errorBody(response) : [] };
  const problems = mediaProblems(response);
  const body = petBodyProblems(response, { requirement: 'CREATE-ECHO', sent: sent.name });
  problems.push(...body.problems);
  if (body.pet) problems.push(...echoProblems(sent, body.pet));
  return { problems, pet: body.pet };
}

const describePet = (pet: Partial<Pet>) =>
  `name ${JSON.stringify(pet.name)}, categoryId ${pet.categoryId}, ${pet.status === undefined ? 'status omitted' : `status ${pet.status}`}`;

const matchers = {
  /** The status expected; any body sent as application/json. */
  async toAnswer(
    received: Answers,
    status: ExpectedStatus,
    options: CheckOptions = {},
  ): Promise<MatcherResult> {
    const own = options.as ?? primaryRequirement();
    return judgeEach('toAnswer', received, describeStatus(status), async (response) => {
      const outcome = await statusOf(response, status, own);
      return blocked(outcome.problems) ? outcome.problems : mediaProblems(response);
    });
  },

  /** An error answer: the status (or any 4xx but 401), with an Error body whose status matches. */
  async toAnswerError(
    received: Answers,
    status: ExpectedStatus,
    options: CheckOptions = {},
  ): Promise<MatcherResult> {
    const own = options.as ?? primaryRequirement();
    return judgeEach(
      'toAnswerError',
      received,
      expecting(`${describeStatus(status)} with an Error body`, options),
      (response) => errorProblems(response, status, own),
    );
  },

  /**
   * Any answer but a 5xx (the document allows several answers here, none a 5xx). A 5xx is charged
   * by what the input is (diagnosis.ts): an invalid limit, status, petId or body to its own
   * requirement, a 5xx that does not come back and any input no rule covers to NO-5XX.
   */
  async toAnswerWithout5xx(received: Answers, options: CheckOptions = {}): Promise<MatcherResult> {
    const own = options.as ?? primaryRequirement();
    return judgeEach('toAnswerWithout5xx', received, 'any status below 500', async (response) =>
      response.failure !== undefined || response.status >= 500
        ? (await statusOf(response, 'below-500', own)).problems
        : [],
    );
  },

  /**
   * The key was accepted: no 401 (or 403). Any other failure of the operation is that
   * operation's own requirement's, not the key's. A refusal under one spelling of the header's
   * name that another answer of the same operation accepted under another says so: the target
   * reads header names case-sensitively.
   */
  async toAcceptKey(received: Answers, options: CheckOptions = {}): Promise<MatcherResult> {
    const own = options.as ?? primaryRequirement();
    const refused = (response: ApiResponse) => response.status === 401 || response.status === 403;
    const nameOf = (response: ApiResponse) => response.request.authName ?? 'Authorization';
    return judgeEach(
      'toAcceptKey',
      received,
      'the key accepted: no 401 or 403',
      async (response) => {
        if (response.failure !== undefined) return (await statusOf(response, 200, own)).problems;
        if (!refused(response)) return [];
        const name = nameOf(response);
        const acceptedUnder = each(received).find(
          (other) =>
            other.operation === response.operation &&
            other.failure === undefined &&
            !refused(other) &&
            nameOf(other) !== name,
        );
        const text = acceptedUnder
          ? `status ${response.status}: the key was refused under the header name "${name}", and ` +
            `accepted under "${nameOf(acceptedUnder)}": the target reads header names ` +
            'case-sensitively, and they are case-insensitive (RFC 9110 §5.1)'
          : `status ${response.status}: the key was refused`;
        return [{ requirement: own, text }];
      },
    );
  },

  /** Each error answer (4xx, 5xx) carries an Error body whose status is the HTTP status. */
  async toCarryErrorBodies(received: Answers): Promise<MatcherResult> {
    return judgeEach(
      'toCarryErrorBodies',
      received,
      'an Error body, if the answer is an error',
      async (response) =>
        response.failure !== undefined
          ? (await statusOf(response, 400, 'ERROR-SHAPE')).problems
          : response.status >= 400
            ? errorBody(response)
            : [],
    );
  },

  /** Every body sent as application/json (a charset parameter is fine), whatever the status. */
  async toBeJsonMedia(received: Answers): Promise<MatcherResult> {
    return judgeEach('toBeJsonMedia', received, 'a body in application/json', async (response) =>
      response.failure !== undefined
        ? (await statusOf(response, 200, 'MEDIA-JSON')).problems
        : mediaProblems(response),
    );
  },

  /**
   * A createPet answer for a valid NewPet: 201 with a Pet carrying exactly what was sent (the
   * name, the status when sent, the categoryId). The pet is remembered, so every later read of it
   * is checked too. A refusal is asked which value made the difference (diagnosis.ts); a refusal
   * the document allows (a name a target may refuse) is judged as the Error answer it is.
   */
  async toCreatePet(
    received: ApiResponse,
    sent: SentPet,
    options: CheckOptions = {},
  ): Promise<MatcherResult> {
    const own = options.as ?? 'CREATE-201-PET';
    const { problems, pet } = await createdProblems(received, sent, own);
    if (pet && received.status === 201) remember(sent, pet);
    return settle('toCreatePet', [
      {
        exchange: received,
        expected: expecting(`201 with a Pet: ${describePet(sent)}`, options),
        problems,
      },
    ]);
  },

  /**
   * The 201 answers of creates sent at once each carry an id of its own: two alike are ids not
   * unique (PET-ID-UNIQUE), or beyond 2^53, where a double merges neighbouring ids, not exact
   * (PET-ID-INT64).
   */
  async toGetDistinctIds(received: readonly ApiResponse[]): Promise<MatcherResult> {
    const ids = received.flatMap((answer) => {
      const pet = answer.status === 201 ? petIn(answer) : undefined;
      return pet ? [pet.id] : [];
    });
    const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
    // An id the bodies asked for (a NewPet with an id among its other fields): the client chose
    // it, which is PET-ID-ASSIGNED's, and two bodies asking for one id get it twice.
    const asked = new Set(received.flatMap((answer) => askedId(answer.request.body) ?? []));
    const chosen = twice.some((id) => asked.has(id));
    const problems: Problem[] = twice.length
      ? [
          {
            requirement: twice.some(beyondDoubleRange)
              ? 'PET-ID-INT64'
              : chosen
                ? 'PET-ID-ASSIGNED'
                : 'PET-ID-UNIQUE',
            text: `ids given to ${received.length} creates at once: ${ids.join(', ')}; ${twice.join(', ')} twice${chosen ? ', the id their bodies asked for: the client chose it' : ''}`,
          },
        ]
      : [];
    return settle('toGetDistinctIds', [
      { exchange: received.at(-1)!, expected: `${received.length} different ids`, problems },
    ]);
  },

  /**
   * A create whose body asked for an id got one of the service's: the id is assigned by the
   * service (PET-ID-ASSIGNED), and beyond 2^53 an id equal to the one asked may be a double's
   * rounding (PET-ID-INT64).
   */
  async toGetAnIdOtherThan(received: ApiResponse, asked: bigint): Promise<MatcherResult> {
    const id = received.status === 201 ? petIn(received)?.id : undefined;
    const problems: Problem[] =
      id === asked ? [await diagnoseChosenId({ answer: received, asked })] : [];
    return settle('toGetAnIdOtherThan', [
      { exchange: received, expected: `201 with an id other than ${asked}`, problems },
    ]);
  },

  /**
   * A 201 answer whose id no pet already known has (`taken`): another pet's id given again is an
   * id not unique (PET-ID-UNIQUE), and beyond 2^53, where a double cannot tell neighbouring ids
   * apart, an id not kept exact (PET-ID-INT64).
   */
  async toGetANewId(received: ApiResponse, taken: readonly bigint[]): Promise<MatcherResult> {
    const id = received.status === 201 ? petIn(received)?.id : undefined;
    const problems: Problem[] =
      id !== undefined && taken.includes(id)
        ? [
            {
              requirement: beyondDoubleRange(id) ? 'PET-ID-INT64' : 'PET-ID-UNIQUE',
              text: `createPet answered 201 with id ${id}, which a pet already has`,
            },
          ]
        : [];
    return settle('toGetANewId', [{ exchange: received, expected: '201 with a new id', problems }]);
  },

  /**
   * getPet of an id no pet is known to have: 404 with an Error, or (on a shared store, where
   * another client's pet may hold any id) 200 with that very pet. A 200 without a Pet answers an
   * id no pet has; a 200 with another pet is charged by the diagnosis (row unknown-id-other-pet).
   */
  async toAnswerUnknownId(
    received: ApiResponse,
    id: bigint,
    options: CheckOptions = {},
  ): Promise<MatcherResult> {
    const own = options.as ?? primaryRequirement();
    const problems: Problem[] = [];
    if (received.failure !== undefined || received.status !== 200) {
      problems.push(...(await errorProblems(received, 404, own)));
    } else {
      const shown = petIn(received)?.id;
      if (shown === undefined) {
        problems.push({ requirement: own, text: `status 200 without a Pet, not 404` });
      } else if (shown !== id) {
        problems.push(await diagnoseOtherPet({ answer: received, asked: id, shown }));
      }
    }
    return settle('toAnswerUnknownId', [
      { exchange: received, expected: `404 with an Error, or that very pet`, problems },
    ]);
  },

  /**
   * getPet of an id a pet has (`existing`, one the run found or made): 200 with that very pet,
   * held to what it was created with when this worker created it.
   */
  async toAnswerPet(received: ApiResponse, existing: Pet): Promise<MatcherResult> {
    const id = existing.id;
    const known = knownPets().get(id);
    // Made by the run but no longer held to a name here (an id two creates were given, say).
    const created = known ?? (isRunCreated(id) ? { ...existing, id, echoed: existing } : undefined);
    return settle('toAnswerPet', [
      {
        exchange: received,
        expected: `200 with pet ${id}`,
        problems: await readBackProblems(received, id, known, created),
      },
    ]);
  },

  /** A getPet answer for a pet this run created: 200 with the same pet, as created. */
  async toReadBack(received: ApiResponse, known: KnownPet): Promise<MatcherResult> {
    return settle('toReadBack', [
      {
        exchange: received,
        expected: `200 with pet ${known.id}: ${describePet(known)}`,
        problems: await readBackProblems(received, known.id, known),
      },
    ]);
  },

  /**
   * A list (limit=100) of a store just grown to hold `expected` pets by creating `created`: when it
   * holds fewer, the target is asked why (diagnosis.ts); a store that lost or leaves out the pets
   * blocks every later check that needs it (`floor.fillFailed`), its cause charged once.
   */
  async toHoldCreated(
    received: ApiResponse,
    created: readonly Pet[],
    expected: number,
    floor: StoreFloor,
  ): Promise<MatcherResult> {
    await expect(received).toListPets({ as: 'LIST-200-PETS' });
    const count =
      received.body.ok && Array.isArray(received.body.value) ? received.body.value.length : 0;
    const charged =
      count < expected ? await diagnoseStore({ answer: received, created, expected }) : undefined;
    if (charged) floor.fillFailed = `${charged.requirement} failed: ${charged.text}`;
    return settle('toHoldCreated', [
      {
        exchange: received,
        expected: `a list showing the ${created.length} pets just created, at least ${expected} in all`,
        problems: charged ? [{ ...charged, blocks: true }] : [],
      },
    ]);
  },

  /**
   * No pet of a create that was refused is in this list, read after it (CREATE-REFUSED-NO-EFFECT),
   * found by the name it was sent with (the run's marker and a label of its own). A full list
   * (100) or no refused create decides nothing, and says so; a list that is no 200 list of Pets is
   * judged where it is (toListPets).
   */
  async toLeaveOutRefusedCreates(
    received: ApiResponse,
    refused: readonly RefusedCreate[],
  ): Promise<MatcherResult> {
    const requirement = 'CREATE-REFUSED-NO-EFFECT';
    const pets = received.status === 200 ? petsIn(received) : [];
    const problems: Problem[] = [];
    if (received.status !== 200) {
      inconclusive(
        requirement,
        `the list read after the refused creates answered ${received.status}`,
      );
    } else if (refused.length === 0) {
      inconclusive(requirement, 'no create was refused: nothing to look for');
    } else if (pets.length >= 100) {
      inconclusive(
        requirement,
        'the list came back full (100): the store holds too many to tell whether a refused create added one',
      );
    } else {
      for (const { answer, name, description } of refused) {
        const found = pets.find((pet) => pet.name.startsWith(name));
        if (!found) continue;
        problems.push({
          requirement,
          text: `pet ${found.id} (${JSON.stringify(found.name).slice(0, 80)}) is listed, though its create (${description}) was refused with ${answer.status}`,
        });
      }
    }
    return settle('toLeaveOutRefusedCreates', [
      {
        exchange: received,
        expected: `none of the pets of ${refused.length} refused creates`,
        problems,
      },
    ]);
  },

  /**
   * Lists of each status in `statuses`, read together: no pet shown without a status is in two of
   * them. A pet has one status (§1) and a filter restricts a list to it; a list alone cannot tell
   * a pet shown without one from a pet of its status (what is stored is left open), but the same
   * pet under two filters is under one of them wrongly (an SQL `status = ? OR status IS NULL`).
   */
  async toListEachPetUnderOneStatus(
    received: readonly ApiResponse[],
    statuses: readonly string[],
  ): Promise<MatcherResult> {
    const requirement = 'LIST-STATUS-FILTER';
    const underStatus = new Map<bigint, string>();
    const judged = received.map((response, index) => {
      const status = statuses[index]!;
      const problems: Problem[] = [];
      for (const pet of response.status === 200 ? petsIn(response) : []) {
        if (pet.status !== undefined) continue;
        const other = underStatus.get(pet.id);
        if (other === undefined) underStatus.set(pet.id, status);
        else if (other !== status) {
          problems.push({
            requirement,
            text: `pet ${pet.id}, shown without a status, is listed under status=${other} and under status=${status} too: a pet has one status`,
          });
        }
      }
      return {
        exchange: response,
        expected: `200 with Pets: no pet shown without a status that another status's list holds`,
        problems,
      };
    });
    return settle('toListEachPetUnderOneStatus', judged);
  },

  /**
   * A 200 list of Pets: exactly or at most so many, only of the status asked for, the given pets
   * among them while the list is shorter than its limit, each pet once, and every pet this run
   * created exactly as created.
   */
  async toListPets(received: Answers, expected: ListExpectation = {}): Promise<MatcherResult> {
    const own = expected.as ?? primaryRequirement();
    const parts = [
      expected.exactly !== undefined ? `exactly ${expected.exactly}` : '',
      expected.atMost !== undefined ? `at most ${expected.atMost}` : '',
      expected.status ? `all with status ${expected.status}` : '',
      expected.including?.length
        ? `including ${expected.including.map((pet) => pet.id).join(', ')} unless full`
        : '',
    ].filter(Boolean);
    return judgeEach(
      'toListPets',
      received,
      `200 with Pets: ${parts.join(', ') || 'any'}`,
      (response) => listProblems(response, expected, own),
    );
  },
};

export const expect = baseExpect.extend(matchers);

/** A failed check outside `expect`: its message is the matcher's, charges and all. */
export class CheckFailed extends Error {}

type Matchers = typeof matchers;
/** Each matcher, without the answers: what `verify(answers)` offers. */
export type Checks = {
  [K in keyof Matchers]: Matchers[K] extends (
    received: never,
    ...args: infer A
  ) => Promise<MatcherResult>
    ? (...args: A) => Promise<void>
    : never;
};

/**
 * The same checks as `await expect(answers).toX(…)`, without a step in the report each: for the
 * runs of a property (property.ts), dozens of them, where a step per run costs time (Playwright
 * reports each to the runner) and only the counterexample matters. A failure throws CheckFailed
 * with the matcher's message; findings are recorded as always.
 */
export function verify(received: Answers): Checks {
  const checks: Record<string, (...args: unknown[]) => Promise<void>> = {};
  for (const [name, matcher] of Object.entries(matchers)) {
    checks[name] = async (...args) => {
      const result = await (matcher as (...all: unknown[]) => Promise<MatcherResult>)(
        received,
        ...args,
      );
      if (!result.pass) throw new CheckFailed(result.message());
    };
  }
  return checks as Checks;
}

/** A message for a plain assertion: `[ID] detail`, charged to `as` or the test's first requirement. */
export function because(detail: string, as?: RequirementId): string {
  return `[${as ?? primaryRequirement()}] ${detail}`;
}

/** Whether an answer is exactly an error of that status with a valid Error body (for advisories). */
export function isErrorAnswer(response: ApiResponse, status: number): boolean {
  return (
    response.failure === undefined && response.status === status && errorBody(response).length === 0
  );
}
