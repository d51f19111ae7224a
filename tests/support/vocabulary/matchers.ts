/**
 * Custom matchers: each check of the interface document in one place. attribution.ts charges each
 * problem an answer shows to its requirement; verdicts.ts fails the test for its own requirements
 * and records the others as findings. Messages name the requirement, the request, what was
 * expected and what came back (layout: reporting/failure-text.ts).
 *
 * Matchers that take answers take one or an array: an array is judged whole, so that one answer
 * without a usable reply does not hide another one's failure.
 */
import { expect as baseExpect } from '@playwright/test';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import type { ApiResponse, Pet } from '../http/client.ts';
import { int64Of } from '../http/lossless-json.ts';
import {
  type ExpectedStatus,
  type KnownPet,
  type Problem,
  type RefusalCause as Refusal,
  type SentPet,
  asPet,
  beyondDoubleRange,
  describeStatus,
  echoProblems,
  errorBodyProblems,
  isSizeRefusal,
  listBodyProblems,
  mediaProblems,
  type NameKeeper,
  petBodyProblems,
  statusProblems,
  storedProblems,
} from './attribution.ts';
import { isContested, isRunCreated, knownPets, remember } from './known-pets.ts';
import type { Miscount, Shortfall } from './pets.ts';
import { type MatcherResult, primaryRequirement, settle } from './verdicts.ts';

export type { ExpectedStatus } from './attribution.ts';

type Answers = ApiResponse | readonly ApiResponse[];
const each = (answers: Answers): readonly ApiResponse[] =>
  Array.isArray(answers) ? answers : [answers as ApiResponse];

/** Judges each answer alike: one expectation, and the problems `problemsOf` finds in it. */
function judgeEach(
  name: string,
  received: Answers,
  expected: string,
  problemsOf: (response: ApiResponse) => Problem[],
): MatcherResult {
  return settle(
    name,
    each(received).map((response) => ({
      exchange: response,
      expected,
      problems: problemsOf(response),
    })),
  );
}

/** Options every matcher takes: the requirement its own check (status, count…) is charged to. */
export interface CheckOptions {
  as?: RequirementId;
}

const blocked = (problems: Problem[]) => problems.some((problem) => problem.blocks);

/**
 * The status, then the Error body of an error answer. The body's problems never block: the check's
 * own concern, the status, is decided without it.
 */
function errorProblems(response: ApiResponse, status: ExpectedStatus, own: RequirementId) {
  const problems = statusProblems(response, status, own);
  if (blocked(problems)) return problems;
  return [...mediaProblems(response), ...errorBodyProblems(response)].map(
    ({ requirement, text }) => ({ requirement, text }),
  );
}

/**
 * Each id listed once, and a listed pet this run created against what it was created with. An id
 * listed more than once is judged over the whole list: under one id, different pets are ids not
 * unique (PET-ID-UNIQUE; beyond 2^53 not exact, PET-ID-INT64), and then a pet among them shown
 * twice is part of that mix-up, not a duplicate listing; pets alike only are one pet listed twice
 * (LIST-NO-DUPLICATES), unless two creates were answered with that id (known-pets.ts), or the id
 * lies beyond 2^53 and the list shows other such ids naming different pets: ids a double merged.
 */
/**
 * A read of a pet this worker created, held to it (storedProblems); not when two creates of the
 * run, in any worker, were answered with its id: which pet the id names is no longer known, and
 * the two creates are PET-ID-UNIQUE's or PET-ID-ASSIGNED's business.
 */
function readProblems(known: KnownPet, read: Pet, where: string): Problem[] {
  const problems = storedProblems(known, read, where);
  return problems.length > 0 && isContested(known.id) ? [] : problems;
}

function listedProblems(items: readonly unknown[]): Problem[] {
  const problems: Problem[] = [];
  const contents = new Map<bigint, string[]>();
  for (const item of items) {
    const pet = asPet(item as never);
    if (!pet) continue;
    const content = JSON.stringify([pet.name, String(pet.categoryId), pet.status]);
    contents.set(pet.id, [...(contents.get(pet.id) ?? []), content]);
    const known = knownPets().get(pet.id);
    if (known) problems.push(...readProblems(known, pet, 'in the list'));
  }
  const mixed = (shown: string[]) => new Set(shown).size > 1;
  const merging = [...contents].some(([id, shown]) => beyondDoubleRange(id) && mixed(shown));
  for (const [id, shown] of contents) {
    if (shown.length < 2) continue;
    const beyond = beyondDoubleRange(id);
    const mixUp: RequirementId = beyond ? 'PET-ID-INT64' : 'PET-ID-UNIQUE';
    if (mixed(shown)) {
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

export interface CreateOptions extends CheckOptions {
  /** A refusal's cause (`pets.refusalOf`): the refusal is charged to it rather than to `as`. */
  refusal?: Refusal;
}

export interface ListExpectation extends CheckOptions {
  /** Exactly this many pets (the store holds more). */
  exactly?: number;
  /** At most this many pets. */
  atMost?: number;
  /** Only pets of this status (LIST-STATUS-FILTER). */
  status?: string;
  /** These pets must be listed while the list is shorter than `limit` (LIST-COMPLETE). */
  including?: readonly { id: bigint }[];
  /** The limit asked for: a list this long may leave pets out. */
  limit?: number;
  /** Of `including`, those getPet cannot find either: not kept (CREATE-PERSIST), not left out. */
  lost?: ReadonlySet<bigint>;
  /**
   * Of `including`, those getPet finds under another status than the list's: the store holds
   * them elsewhere, so the list rightly leaves them out (the status not kept is the echo's and
   * read-back checks').
   */
  elsewhere?: ReadonlySet<bigint>;
  /**
   * Why a short list leaves pets out, as the target answered (pets.shortfall): pets it lost are
   * CREATE-PERSIST's, pets it leaves out its cause's; a count short only of pets that exist and
   * that the target lists is the check's own.
   */
  shortfall?: Shortfall;
  /**
   * Which limit rule a wrong count breaks, as the target answered (pets.miscount): the count
   * problems (`exactly`, `atMost`) are charged to it rather than to the check's own requirement.
   */
  miscount?: Miscount;
}

const idList = (ids: ReadonlySet<bigint>) => [...ids].join(', ');

/** A wrong count, charged to the limit rule it breaks when the target was asked (miscount). */
const countProblem = (text: string, miscount: Miscount | undefined, own: RequirementId): Problem =>
  miscount
    ? { requirement: miscount.requirement, text: `${text}: ${miscount.why}` }
    : { requirement: own, text };

/** A list with fewer pets than `exactly`: its own failure, unless the pets it lacks are gone or left out. */
function countProblems(count: number, expected: ListExpectation, own: RequirementId): Problem[] {
  const text = `${count} pets listed, not exactly ${expected.exactly}`;
  const short = count < expected.exactly! ? expected.shortfall : undefined;
  if (short && short.lost.size > 0) {
    return [
      {
        requirement: 'CREATE-PERSIST',
        text: `${text}: getPet no longer finds pet ${idList(short.lost)}, answered 201 before: the store holds fewer pets than the count needs`,
        blocks: true,
      },
    ];
  }
  if (short && short.cause !== 'count' && short.found.size > 0) {
    return [
      {
        requirement: short.leftOut,
        text: `${text}, leaving out pet ${idList(short.found)}, which exists: ${short.why}`,
        blocks: true,
      },
    ];
  }
  return [countProblem(text, expected.miscount, own)];
}

/**
 * Who answers for a listed pet's name that is no string: a pet this worker created is held to its
 * name (CREATE-PERSIST); one another worker created, to that worker's checks; any other pet is
 * PET-SHAPE's.
 */
function listedNameKeeper(id: bigint): NameKeeper {
  const known = knownPets().get(id);
  if (known && !isContested(id)) {
    return { requirement: 'CREATE-PERSIST', sent: known.name, where: `in the list: pet ${id}` };
  }
  return isRunCreated(id) ? null : undefined;
}

/**
 * A list refused with a 4xx although its limit is the documented minimum (1) or maximum (100):
 * that refusal breaks the limit's own requirement, whatever the check was after.
 */
function limitRefused(response: ApiResponse): RequirementId | undefined {
  if (response.failure !== undefined || response.status < 400 || response.status >= 500) return;
  if (response.status === 401) return;
  const limit = /[?&]limit=([^&]*)/.exec(response.request.path)?.[1];
  return limit === '1' ? 'LIST-LIMIT-MIN' : limit === '100' ? 'LIST-LIMIT-MAX' : undefined;
}

function listProblems(response: ApiResponse, expected: ListExpectation, own: RequirementId) {
  const problems = statusProblems(response, 200, limitRefused(response) ?? own);
  if (blocked(problems)) return problems;
  problems.push(...mediaProblems(response));
  const body = listBodyProblems(response, listedNameKeeper);
  problems.push(...body.problems);
  const items = body.items;
  if (!items) return problems;
  if (expected.exactly !== undefined && items.length !== expected.exactly) {
    problems.push(...countProblems(items.length, expected, own));
  }
  if (expected.atMost !== undefined && items.length > expected.atMost) {
    problems.push(
      countProblem(
        `${items.length} pets listed, more than ${expected.atMost}`,
        expected.miscount,
        own,
      ),
    );
  }
  if (expected.status !== undefined) {
    // A pet shown without status says nothing of the status the store holds (a Pet's status is
    // optional; protobuf's JSON mapping leaves out a field at its zero value, say): the filter is
    // charged for pets shown under another status. A missing status of a pet the run created is
    // the echo's and the read-back's (CREATE-ECHO, CREATE-PERSIST).
    const wrong = items.filter((item) => {
      const status = (item as Record<string, unknown> | null)?.status;
      return status !== undefined && status !== expected.status;
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
  if (expected.including?.length) {
    const limit = expected.limit ?? Number.POSITIVE_INFINITY;
    if (items.length < limit) {
      // Listed is listed, whatever else of the pet is wrong (its fields are charged to their own
      // requirements): a categoryId written outside int64 leaves the pet there all the same.
      const listed = new Set(
        items.map((item) => int64Of((item as Record<string, unknown> | null)?.id)),
      );
      for (const wanted of expected.including) {
        if (listed.has(wanted.id) || expected.elsewhere?.has(wanted.id)) continue;
        const short = expected.shortfall;
        problems.push(
          expected.lost?.has(wanted.id) || short?.lost.has(wanted.id)
            ? {
                requirement: 'CREATE-PERSIST',
                text: `pet ${wanted.id} (answered 201 or listed before) is neither listed nor found by getPet: it was not kept`,
              }
            : {
                requirement: short?.leftOut ?? 'LIST-COMPLETE',
                text: `pet ${wanted.id} is missing, though the list holds fewer than ${limit} pets${short ? `: ${short.why}` : ''}`,
              },
        );
      }
    }
  }
  problems.push(...listedProblems(items));
  return problems;
}

/** A getPet answer for a pet this run created: status, shape, the same pet as created. */
function readBackProblems(response: ApiResponse, known: KnownPet): Problem[] {
  if (response.failure !== undefined || response.status !== 200) {
    if (response.failure !== undefined) return statusProblems(response, 200, 'GET-200-PET');
    const beyond = beyondDoubleRange(known.id);
    const requirement: RequirementId =
      response.status === 404
        ? beyond
          ? 'PET-ID-INT64'
          : 'CREATE-PERSIST'
        : response.status === 410
          ? 'GETPET-DEPRECATED-KEPT'
          : 'GET-200-PET';
    const why =
      response.status === 404
        ? beyond
          ? `: pet ${known.id}, created with 201, is not found by its id (beyond 2^53: read through a double?)`
          : `: pet ${known.id}, created with 201, is not found`
        : '';
    return [{ requirement, text: `status ${response.status}, not 200${why}`, blocks: true }];
  }
  const problems = mediaProblems(response);
  const body = petBodyProblems(
    response,
    isContested(known.id)
      ? undefined
      : { requirement: 'CREATE-PERSIST', sent: known.name, where: `getPet: pet ${known.id}` },
  );
  problems.push(...body.problems);
  const pet = body.pet;
  if (!pet) return problems;
  if (pet.id !== known.id) {
    const rounded = BigInt(Number(known.id)) !== known.id || Number(pet.id) === Number(known.id);
    problems.push({
      requirement: rounded && beyondDoubleRange(known.id) ? 'PET-ID-INT64' : 'GET-200-PET',
      text: `getPet of ${known.id} answered pet ${pet.id}`,
    });
    return problems;
  }
  return [...problems, ...readProblems(known, pet, 'getPet')];
}

/** A 201 answer for a NewPet: status, shape, what was sent. */
function createdProblems(response: ApiResponse, sent: SentPet, own: RequirementId, why?: Refusal) {
  // A refusal is charged to the value that made the difference, when one was found.
  const problems = statusProblems(response, 201, why?.requirement ?? own);
  if (blocked(problems)) {
    if (why) problems[0]!.text += `: ${why.text}`;
    else if (response.status === 400 && !process.env.CONFORMANCE_CATEGORY_IDS) {
      problems[0]!.text +=
        ': a valid NewPet was refused. If the target accepts only the categoryIds of its own ' +
        'categories, list them in CONFORMANCE_CATEGORY_IDS';
    }
    return { problems };
  }
  problems.push(...mediaProblems(response));
  const body = petBodyProblems(response, { requirement: 'CREATE-ECHO', sent: sent.name });
  problems.push(...body.problems);
  if (body.pet) problems.push(...echoProblems(sent, body.pet));
  return { problems, pet: body.pet };
}

/**
 * What a swept hostile input's answer must be (vocabulary/hostile.ts): refused with that status
 * and an Error; a list (or, `orRefused`, a 4xx Error); a Pet as sent (or, `orRefused`, a 400
 * Error). `as` takes the check's own problems, `serverError` a 5xx (the input's own requirement,
 * or NO-5XX), `also` what was found about the answer beside it (a refused create listed). A body
 * larger than the suite's own refused with 413 is a size limit of bodies: nobody's. `finding`:
 * the problems are recorded, but block nothing (a control request, whose deviation explains
 * another answer's).
 */
export type Withstanding = {
  as: RequirementId;
  serverError?: RequirementId;
  also?: Problem[];
  expected: string;
} & (
  | { refused: ExpectedStatus; finding?: boolean }
  | { listed: Omit<ListExpectation, 'as'>; orRefused?: boolean }
  | { created: SentPet; orRefused?: boolean; refusal?: Refusal }
);

const isClientError = (response: ApiResponse) =>
  response.failure === undefined && response.status >= 400 && response.status < 500;

function withstandingProblems(response: ApiResponse, rule: Withstanding): Problem[] {
  const also = rule.also ?? [];
  if (isSizeRefusal(response)) return also;
  if (rule.serverError && response.failure === undefined && response.status >= 500) {
    const text = `status ${response.status}: a server error, to an input the document makes a client's error at most`;
    return [{ requirement: rule.serverError, text }, ...also];
  }
  if ('refused' in rule) {
    const problems = errorProblems(response, rule.refused, rule.as);
    return rule.finding
      ? problems.map(({ requirement, text }) => ({ requirement, text }))
      : problems;
  }
  if ('listed' in rule) {
    if (rule.orRefused && isClientError(response) && response.status !== 401) {
      return [...errorProblems(response, 'client-error', rule.as), ...also];
    }
    return [...listProblems(response, rule.listed, rule.as), ...also];
  }
  if (rule.orRefused && response.status === 400)
    return [...errorProblems(response, 400, rule.as), ...also];
  const { problems, pet } = createdProblems(response, rule.created, 'CREATE-201-PET', rule.refusal);
  if (pet && response.status === 201) remember(rule.created, pet);
  return [...problems, ...also];
}

const describePet = (pet: Partial<Pet>) =>
  `name ${JSON.stringify(pet.name)}, categoryId ${pet.categoryId}, ${pet.status === undefined ? 'status omitted' : `status ${pet.status}`}`;

const matchers = {
  /** The status expected; any body sent as application/json. */
  toAnswer(received: Answers, status: ExpectedStatus, options: CheckOptions = {}): MatcherResult {
    const own = options.as ?? primaryRequirement();
    return judgeEach('toAnswer', received, describeStatus(status), (response) => {
      const problems = statusProblems(response, status, own);
      return blocked(problems) ? problems : mediaProblems(response);
    });
  },

  /** An error answer: the status (or any 4xx but 401), with an Error body whose status matches. */
  toAnswerError(
    received: Answers,
    status: ExpectedStatus,
    options: CheckOptions = {},
  ): MatcherResult {
    const own = options.as ?? primaryRequirement();
    return judgeEach(
      'toAnswerError',
      received,
      `${describeStatus(status)} with an Error body`,
      (response) => errorProblems(response, status, own),
    );
  },

  /** Any answer but a 5xx (the document allows several answers here, none a 5xx). */
  toAnswerWithout5xx(
    received: Answers,
    options: CheckOptions & {
      /**
       * The answers whose input a requirement of its own covers (an invalid limit, status or
       * petId, a malformed body): a 5xx there is that requirement's alone, one deviation charged
       * once. A request that got no answer at all stays this check's.
       */
      coveredBy?: ReadonlyMap<ApiResponse, RequirementId>;
    } = {},
  ): MatcherResult {
    const own = options.as ?? primaryRequirement();
    return judgeEach('toAnswerWithout5xx', received, 'any status below 500', (response) =>
      response.failure !== undefined
        ? statusProblems(response, 200, own)
        : response.status >= 500
          ? [
              {
                requirement: options.coveredBy?.get(response) ?? own,
                text: `status ${response.status}: a server error`,
              },
            ]
          : [],
    );
  },

  /**
   * The key was accepted: no 401 (or 403). Any other failure of the operation is that
   * operation's own requirement's, not the key's. A refusal under one spelling of the header's
   * name that another answer of the same operation accepted under another says so: the target
   * reads header names case-sensitively.
   */
  toAcceptKey(received: Answers, options: CheckOptions = {}): MatcherResult {
    const own = options.as ?? primaryRequirement();
    const refused = (response: ApiResponse) => response.status === 401 || response.status === 403;
    const nameOf = (response: ApiResponse) => response.request.authName ?? 'Authorization';
    return judgeEach('toAcceptKey', received, 'the key accepted: no 401 or 403', (response) => {
      if (response.failure !== undefined) return statusProblems(response, 200, own);
      if (refused(response)) {
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
      }
      // Any other answer accepted the key; whether the operation then did its job is judged by
      // the operation's own checks.
      return [];
    });
  },

  /** Each error answer (4xx, 5xx) carries an Error body whose status is the HTTP status. */
  toCarryErrorBodies(received: Answers): MatcherResult {
    return judgeEach(
      'toCarryErrorBodies',
      received,
      'an Error body, if the answer is an error',
      (response) =>
        response.failure !== undefined
          ? statusProblems(response, 400, 'ERROR-SHAPE')
          : response.status >= 400
            ? [...mediaProblems(response), ...errorBodyProblems(response)].map(
                ({ requirement, text }) => ({ requirement, text }),
              )
            : [],
    );
  },

  /** Every body sent as application/json (a charset parameter is fine), whatever the status. */
  toBeJsonMedia(received: Answers): MatcherResult {
    return judgeEach('toBeJsonMedia', received, 'a body in application/json', (response) =>
      response.failure !== undefined
        ? statusProblems(response, 200, 'MEDIA-JSON')
        : mediaProblems(response),
    );
  },

  /**
   * A createPet answer: 201 with a Pet carrying exactly what was sent (the name, the status when
   * sent, the categoryId). The pet is remembered, so every later read of it is checked too. A
   * refusal is charged to `refusal`, the value that made the difference (`pets.refusalOf`).
   */
  toCreatePet(received: ApiResponse, sent: SentPet, options: CreateOptions = {}): MatcherResult {
    const own = options.as ?? 'CREATE-201-PET';
    const { problems, pet } = createdProblems(received, sent, own, options.refusal);
    if (pet && received.status === 201) remember(sent, pet);
    return settle('toCreatePet', [
      { exchange: received, expected: `201 with a Pet: ${describePet(sent)}`, problems },
    ]);
  },

  /** A getPet answer for a pet this run created: 200 with the same pet, as created. */
  toReadBack(received: ApiResponse, known: KnownPet): MatcherResult {
    return settle('toReadBack', [
      {
        exchange: received,
        expected: `200 with pet ${known.id}: ${describePet(known)}`,
        problems: readBackProblems(received, known),
      },
    ]);
  },

  /**
   * Each answer to a hostile input held to its rule (vocabulary/hostile.ts): refused, listed or
   * created as the document allows, never a 5xx; all judged at once, so that one slot's failure
   * does not hide another's.
   */
  toWithstand(received: Answers, rules: ReadonlyMap<ApiResponse, Withstanding>): MatcherResult {
    return settle(
      'toWithstand',
      each(received).map((response) => {
        const rule = rules.get(response);
        return rule
          ? {
              exchange: response,
              expected: rule.expected,
              problems: withstandingProblems(response, rule),
            }
          : { exchange: response, expected: 'any answer', problems: [] };
      }),
    );
  },

  /**
   * A 200 list of Pets: exactly or at most so many, only of the status asked for, the given pets
   * among them while the list is shorter than its limit, each pet once, and every pet this run
   * created exactly as created.
   */
  toListPets(received: Answers, expected: ListExpectation = {}): MatcherResult {
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
  [K in keyof Matchers]: Matchers[K] extends (received: never, ...args: infer A) => MatcherResult
    ? (...args: A) => void
    : never;
};

/**
 * The same checks as `expect(answers).toX(…)`, without a step in the report each: for the runs of
 * a property (property.ts), dozens of them, where a step per run costs time (Playwright reports
 * each to the runner) and only the counterexample matters. A failure throws CheckFailed with the
 * matcher's message; findings are recorded as always.
 */
export function verify(received: Answers): Checks {
  const checks: Record<string, (...args: unknown[]) => void> = {};
  for (const [name, matcher] of Object.entries(matchers)) {
    checks[name] = (...args) => {
      const result = (matcher as (...all: unknown[]) => MatcherResult)(received, ...args);
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
  return errorProblems(response, status, 'ERROR-SHAPE').length === 0;
}
