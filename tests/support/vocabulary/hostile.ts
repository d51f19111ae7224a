/**
 * The hostile-input sweep: the cases of the catalogue (requirements/hostile-inputs.json, expanded
 * by requirements/hostile-inputs.ts) sent to the target, side by side, and each answer held to its
 * slot's rule, which comes from the document and not from any check:
 * - no other key, no other pet: a token that is not the exact key is refused with 401, the key
 *   under another header name too, a petId that is not a decimal int64 gets a 4xx, never a pet;
 * - what the document leaves open stays open: an invalid limit or status may be refused with a
 *   4xx Error or tolerated with a list within bounds, a name a service may refuse may be refused,
 *   a UTF-8 byte order mark may be ignored;
 * - auth first: each operation's input refused with a 4xx is sent again without a key, and must
 *   get 401 (AUTH-BEFORE-VALIDATION);
 * - no effect: a refused create (its name the run's marker and its case's label, its status sold)
 *   is not among the sold pets listed after it (CREATE-REFUSED-NO-EFFECT).
 * Which requirement a deviation is charged to is not decided here: the matchers ask the diagnosis
 * table (diagnosis.ts), which reads each request by what it is, as it does every other check's (a
 * 5xx to an invalid input is that input's rule's; a keyless request not refused is asked whether
 * the operation authenticates at all).
 * The cases a store may keep (`stored`) are sent by tests/stored-hostile-inputs.spec.ts, after
 * every other check of the target in the run (afterEveryOtherCheck), unless
 * CONFORMANCE_SHARED_STORE leaves them out.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from '@playwright/test';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import {
  type HostileCase,
  type HostileRequest,
  type SlotId,
  casesOf,
  slotById,
} from '../../../requirements/hostile-inputs.ts';
import type { ApiResponse, Credentials, Pet, PetStoreClient } from '../http/client.ts';
import { checksLeft } from '../reporting/progress.ts';
import { notes } from '../reporting/summary.ts';
import { petNamePrefix, settings } from '../setup/settings.ts';
import { isSizeRefusal } from './attribution.ts';
import { listQueryOf, readNewPetBody, readPetId, readStatusFilter } from './inputs.ts';
import { type RefusedCreate, expect } from './matchers.ts';
import type { Pets } from './pets.ts';
import { req } from './tags.ts';
import { atMost, together } from './together.ts';
import { block } from './verdicts.ts';

/** The rules, when the cases a store may keep are left out (CONFORMANCE_SHARED_STORE). */
export const storedLeftOut =
  'CONFORMANCE_SHARED_STORE=1: the hostile inputs a store may keep and then fail on for every reader (names holding NUL, control characters or half a character, bodies a lenient decoder turns into them) were left out, so as not to break the lists of the store’s other clients';

/** The status of every create of the sweep: the refused ones are looked for in its list. */
const sweepStatus = 'sold';
/**
 * Requests of a sweep in flight at once, on as many connections: the GET slots send about 160,
 * which all at once kept a server of 100 connections (WEBrick's default) from answering in time.
 */
const sweepInFlight = 32;

/** An answer that is a 4xx. */
const isClientError = (answer: ApiResponse) =>
  answer.failure === undefined && answer.status >= 400 && answer.status < 500;

/** A refused answer: a 4xx other than 401, or a 413 (a size limit, whose twin proves nothing). */
const refusedWith4xx = (answer: ApiResponse) =>
  isClientError(answer) && answer.status !== 401 && !isSizeRefusal(answer);

/** A request of the sweep sent without a key: refused with the key, it must be refused with 401. */
interface Twin {
  request: HostileRequest;
  /** What it carries, for a reader. */
  description: string;
  /** The statuses the inputs it carries got with the key. */
  refusedWith: number[];
}

/**
 * The requests that ask whether each operation authenticates before it refuses the input: for
 * getPet, the refused petIds one after another in one segment (a route or a check that refuses one
 * of them refuses the whole); for listPets, the first refused limit and status in one query; for
 * createPet, the refused create the target meets earliest (its bytes decoded, then parsed, then
 * its values checked): one each, only for an operation that refused some input.
 */
function twinsOf(cases: readonly HostileCase[], answers: readonly ApiResponse[]): Twin[] {
  const refused = cases.filter(
    (each, index) => slotById(each.slot).authFirst && refusedWith4xx(answers[index]!),
  );
  const statusOf = (each: HostileCase) => answers[cases.indexOf(each)]!.status;
  const twins: Twin[] = [];
  const segmentOf = (each: HostileCase) => (each.request as { segment: string }).segment;
  // An encoded slash goes in a twin of its own: a front that refuses any path holding one (the
  // diagnosis row encoded-slash-refused) would otherwise answer for every other petId with it.
  const petIds = refused.filter((each) => each.request.operation === 'getPet');
  const slashed = (each: HostileCase) => /%2f/i.test(segmentOf(each));
  for (const group of [petIds.filter((each) => !slashed(each)), petIds.filter(slashed)]) {
    if (group.length === 0) continue;
    twins.push({
      request: { operation: 'getPet', segment: group.map(segmentOf).join('') },
      description: `petIds ${group.map((each) => each.label).join('+')}, one after another`,
      refusedWith: group.map(statusOf),
    });
  }
  const queries = (['limit', 'status'] as const)
    .map((slot) => refused.find((each) => each.slot === slot))
    .filter((each): each is HostileCase => each !== undefined);
  if (queries.length > 0) {
    twins.push({
      request: {
        operation: 'listPets',
        query: queries.map((each) => (each.request as { query: string }).query).join('&'),
      },
      description: queries.map((each) => `${each.slot} of ${each.label}`).join(' and '),
      refusedWith: queries.map(statusOf),
    });
  }
  const stage = (each: HostileCase) =>
    each.placement === 'encode' || each.placement === 'inside' ? 0 : each.slot === 'body' ? 1 : 2;
  const [create] = refused
    .filter((each) => each.request.operation === 'createPet')
    .sort((a, b) => stage(a) - stage(b));
  if (create) {
    twins.push({
      request: create.request,
      description: `${create.label}: ${create.description}`,
      refusedWith: [statusOf(create)],
    });
  }
  return twins;
}

/** A sweep of some slots on one target, as one test sends it. */
export class HostileSweep {
  /** A pet that exists: its id is the petIds' ordinary value. */
  private existing?: Pet;

  constructor(
    private readonly api: PetStoreClient,
    private readonly pets: Pets,
  ) {}

  /**
   * Sends the cases of these slots (the main sweep's, or those a store may keep), then each
   * operation's refused input without a key and the list of the sweep's status, and holds every
   * answer to its slot's rule: one expectation each, all settled before a failure ends the test.
   */
  async run(slots: readonly SlotId[], options: { stored?: boolean } = {}): Promise<void> {
    const stored = options.stored ?? false;
    if (slots.includes('petId')) this.existing = await this.pets.existing();
    const cases = casesOf(
      {
        key: this.api.options.apiKey,
        petId: this.existing?.id ?? 0n,
        marker: petNamePrefix,
        categoryId: this.pets.categoryId(),
        seed: settings.fcSeed,
      },
      { slots, stored, prefix: stored ? 's' : 'h' },
    );
    const answers = await test.step(`send ${cases.length} hostile inputs, each with the key`, () =>
      together(
        atMost(
          sweepInFlight,
          cases.map(
            (each) => () =>
              this.send(
                each.request,
                'key',
                `<API_KEY>, its ${each.slot} changed: ${each.description}`,
              ),
          ),
        ),
      ));

    // Auth first: the refused inputs sent again without a key; and the store after the creates.
    const twins = twinsOf(cases, answers);
    const creates = cases.some((each) => each.request.operation === 'createPet');
    const [list, ...twinAnswers] =
      await test.step('send the refused inputs again without a key; list the pets of the sweep’s status', () =>
        together([
          creates ? this.api.listPets({ status: sweepStatus, limit: 100 }) : undefined,
          ...atMost(
            sweepInFlight,
            twins.map((twin) => () => this.send(twin.request, 'none')),
          ),
        ]));

    // What a refused create left: its pet, found by the label in its name. Only a 4xx is a
    // refusal: a create with no answer may have been applied, and a 5xx is charged as the 5xx it
    // is. A pet whose keyless twin was added is the twin's, whose 2xx is charged where it is judged.
    const added = (answer: ApiResponse) =>
      answer.failure === undefined && answer.status >= 200 && answer.status < 300;
    const refused: RefusedCreate[] = cases.flatMap((each, index) => {
      const answer = answers[index]!;
      const twin = twins.findIndex((one) => one.request === each.request);
      if (each.request.operation !== 'createPet' || !isClientError(answer)) return [];
      if (twin >= 0 && added(twinAnswers[twin]!)) return [];
      return [{ answer, name: `${petNamePrefix}${each.label}`, description: each.description }];
    });

    await together([
      ...cases.map((each, index) => judge(each, answers[index]!, this.existing)),
      ...twins.map((twin, index) =>
        expect(twinAnswers[index]!).toAnswerError(401, {
          as: 'AUTH-BEFORE-VALIDATION',
          because: `without a key, input refused with ${twin.refusedWith.join(', ')} with it (${twin.description}) is refused for the missing key first`,
        }),
      ),
      ...(list
        ? [
            expect(list).toListPets({ status: sweepStatus, atMost: 100, as: 'LIST-200-PETS' }),
            expect(list).toLeaveOutRefusedCreates(refused),
          ]
        : []),
    ]);
  }

  /** A request of the sweep, with the key (or the hostile credentials it carries) or without any. */
  private send(request: HostileRequest, with_: 'key' | 'none', label = ''): Promise<ApiResponse> {
    // The Authorization header under the name this run sends it (the preflight may have found a
    // target that reads only another spelling): only the header-name slot changes the name.
    const own = (given: { name: string; authorization: string }) =>
      given.name === 'Authorization'
        ? { authorization: given.authorization, label }
        : { ...given, label };
    const credentials: Credentials =
      with_ === 'none' ? 'none' : 'credentials' in request ? own(request.credentials) : 'key';
    const segments = 'segments' in request ? request.segments : undefined;
    const options = { credentials, hostile: true as const, ...(segments ? { segments } : {}) };
    switch (request.operation) {
      case 'listPets':
        return 'query' in request
          ? this.api.send('GET', `/pets?${request.query}`, options, undefined, 'listPets')
          : this.api.listPets({}, options);
      case 'getPet':
        return this.api.getPet({ raw: request.segment }, options);
      case 'createPet':
        return this.api.createPet({ raw: request.body }, options);
    }
  }
}

/**
 * A case's answer held to its slot's rule, with the key. What a deviation is charged to is the
 * matchers' and the diagnosis table's (diagnosis.ts), which read each request by what it is: the
 * sweep only says what the document expects of the slot.
 */
function judge(each: HostileCase, answer: ApiResponse, existing?: Pet): Promise<void> {
  const as = each.rule;
  const sent = each.request.operation === 'createPet' ? each.request.sent : undefined;
  // A body the document leaves open (one that begins with a byte order mark, whichever member put
  // it there: U+FEFF before the JSON is one) may be taken as if the mark were not there.
  const body = sent ? readNewPetBody(answer.request) : undefined;
  const leftOpen =
    each.allowed ??
    (body?.kind === 'open' ? `${body.why}: the document leaves it open` : undefined);
  const because = leftOpen ? { because: leftOpen } : {};
  switch (each.slot) {
    case 'token':
    case 'scheme':
    case 'header-name':
      return expect(answer).toAnswerError(401, { as });
    case 'petId': {
      const id = readPetId(answer.request);
      // A valid petId: an existing pet's, percent-encoded (that pet), or one moved by 2^32 (an
      // id no pet is known to have: 404, or that very pet). Any other is refused.
      if (id.kind !== 'valid') return expect(answer).toAnswerError('client-error', { as });
      return as === 'GET-200-PET' && existing?.id === id.value
        ? expect(answer).toAnswerPet(existing)
        : expect(answer).toAnswerUnknownId(id.value, { as });
    }
    // An invalid limit or status may be refused with a 4xx Error, or tolerated with a list within
    // the bounds (the maximum, or the default limit); a valid status (percent-encoded) filters.
    case 'limit':
    case 'status': {
      const status = readStatusFilter(listQueryOf(answer.request).status);
      if (each.slot === 'status' && status.kind === 'valid' && status.value !== undefined) {
        return expect(answer).toListPets({ status: status.value, atMost: 20, as });
      }
      return answer.status === 200
        ? expect(answer).toListPets({ atMost: each.slot === 'limit' ? 100 : 20, as })
        : expect(answer).toAnswerError('client-error', { as });
    }
    default:
      // A NewPet to take (a name kept exactly, unless it is one a service may refuse; the ordinary
      // one, in pieces), or a body the document leaves open (a byte order mark): created as sent,
      // or refused as allowed.
      if (sent && (each.slot === 'name' || as === 'CREATE-201-PET' || leftOpen)) {
        return expect(answer).toCreatePet(sent, because);
      }
      return expect(answer).toAnswerError(400, { as });
  }
}

/**
 * How long the check that comes after every other one waits for them: each other worker's last
 * test group (at most the three checks of a store of more than 100 pets, in order), ended.
 */
export const lastCheckWaitMs = settings.testTimeoutMs * 3;

/**
 * Waits until every other check of the target in this run has ended, as the conformance reporter
 * records them (reporting/progress.ts); blocks the check when they have not after lastCheckWaitMs.
 */
export async function afterEveryOtherCheck(target: string): Promise<void> {
  const started = Date.now();
  for (;;) {
    const left = checksLeft(settings.progressKey, target);
    if (left === undefined || left === 0) return;
    if (Date.now() - started > lastCheckWaitMs) {
      block(
        `${left} other check(s) of the target still running after ${lastCheckWaitMs / 1000} s: what must come after every other check was not sent`,
      );
    }
    await sleep(100);
  }
}

/** The sweep of these slots on the test's target (tests/hostile-inputs.spec.ts). */
export const hostileSweep = (api: PetStoreClient, pets: Pets) => new HostileSweep(api, pets);

/**
 * The details of the test of the inputs a store may keep: its requirements, and, when
 * CONFORMANCE_SHARED_STORE leaves those inputs out, a note for each that it was not run, and why,
 * given as the test is declared (a test skipped so costs no worker).
 */
export function storedInputsChecking(...ids: [RequirementId, ...RequirementId[]]) {
  const details = req(...ids);
  if (!settings.sharedStore) return details;
  const leftOut = ids.map((id) => ({ type: notes.notRun, description: `${id}: ${storedLeftOut}` }));
  return { ...details, annotation: [...details.annotation, ...leftOut] };
}
