/**
 * The hostile-input sweep: the cases of the catalogue (requirements/hostile-inputs.json, expanded
 * by requirements/hostile-inputs.ts) sent to the target, side by side, and each answer held to its
 * slot's rule, which comes from the document and not from any check:
 * - no other key, no other pet: a token that is not the exact key is refused with 401
 *   (AUTH-401-INVALID), the key under another header name too (AUTH-401-MISSING), a petId that is
 *   not a decimal int64 gets a 4xx, never a pet (GET-PETID-INVALID);
 * - what the document leaves open stays open: an invalid limit or status may be refused with a
 *   4xx Error or tolerated with a list within bounds, a name a service may refuse may be refused,
 *   a UTF-8 byte order mark may be ignored;
 * - no 5xx: a 5xx is the input's own requirement's (LIST-LIMIT-INVALID, LIST-STATUS-INVALID,
 *   GET-PETID-INVALID, CREATE-400-*), a name's NO-5XX's, and a list read after the creates that
 *   answers with a 5xx NO-5XX's (a stored pet that crashes later reads);
 * - auth first: each operation's first case refused with a 4xx is sent again without a key, and
 *   must get 401 (AUTH-BEFORE-VALIDATION). Only when it does not, a control request asks whether
 *   the operation authenticates at all (the same operation, no key, ordinary input): if that is
 *   not refused either, the deviation is AUTH-401-MISSING's, and the order is not judged;
 * - no effect: a refused create (its name the run's marker and its case's label, its status sold)
 *   is not among the sold pets listed after it (CREATE-REFUSED-NO-EFFECT); a full list decides
 *   nothing, and says so (inconclusive).
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
import type { ApiResponse, Credentials, PetStoreClient } from '../http/client.ts';
import { checksLeft } from '../reporting/progress.ts';
import { notes } from '../reporting/summary.ts';
import { petNamePrefix, settings } from '../setup/settings.ts';
import {
  type Problem,
  type RefusalCause,
  isRefusal,
  isSizeRefusal,
  petsIn,
} from './attribution.ts';
import { nameMayBeRefused } from './generators.ts';
import { type Withstanding, expect } from './matchers.ts';
import type { Pets } from './pets.ts';
import { req } from './tags.ts';
import { together } from './together.ts';
import { block, inconclusive } from './verdicts.ts';

/** The rules, when the cases a store may keep are left out (CONFORMANCE_SHARED_STORE). */
export const storedLeftOut =
  'CONFORMANCE_SHARED_STORE=1: the hostile inputs a store may keep and then fail on for every reader (names holding NUL, control characters or half a character, bodies a lenient decoder turns into them) were left out, so as not to break the lists of the store’s other clients';

/** The status of every create of the sweep: the refused ones are looked for in its list. */
const sweepStatus = 'sold';

/** More pets than this in a list of one status is the maximum's deviation (LIST-LIMIT-MAX). */
const beyondMaximum = {
  requirement: 'LIST-LIMIT-MAX' as RequirementId,
  why: 'no answer may hold more than 100 pets, the maximum limit',
};

/** A refused answer: a 4xx other than 401, or a 413 (a size limit, whose twin proves nothing). */
const refusedWith4xx = (answer: ApiResponse) =>
  answer.failure === undefined &&
  answer.status >= 400 &&
  answer.status < 500 &&
  answer.status !== 401 &&
  !isSizeRefusal(answer);

/** A request of the sweep sent without a key: refused with the key, it must be refused with 401. */
interface Twin {
  request: HostileRequest;
  /** What it carries, for a reader. */
  description: string;
  /** The requirement a 5xx to it is: its input's own. */
  rule: RequirementId;
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
  const petIds = refused.filter((each) => each.request.operation === 'getPet');
  if (petIds.length > 0) {
    twins.push({
      request: {
        operation: 'getPet',
        segment: petIds.map((each) => (each.request as { segment: string }).segment).join(''),
      },
      description: `petIds ${petIds.map((each) => each.label).join('+')}, one after another`,
      rule: petIds[0]!.rule,
      refusedWith: petIds.map(statusOf),
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
      rule: queries[0]!.rule,
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
      rule: create.rule,
      refusedWith: [statusOf(create)],
    });
  }
  return twins;
}

/** A sweep of some slots on one target, as one test sends it. */
export class HostileSweep {
  /** The id of a pet that exists: the petIds' ordinary value, and getPet's control. */
  private petId = 0n;

  constructor(
    private readonly api: PetStoreClient,
    private readonly pets: Pets,
  ) {}

  /** Sends the cases of these slots (the main sweep's, or those a store may keep) and judges them. */
  async run(slots: readonly SlotId[], options: { stored?: boolean } = {}): Promise<void> {
    const stored = options.stored ?? false;
    if (slots.includes('petId')) this.petId = (await this.pets.existing()).id;
    const cases = casesOf(
      {
        key: this.api.options.apiKey,
        petId: this.petId,
        marker: petNamePrefix,
        categoryId: this.pets.categoryId(),
        seed: settings.fcSeed,
      },
      { slots, stored, prefix: stored ? 's' : 'h' },
    );
    const answers = await test.step(`send ${cases.length} hostile inputs, each with the key`, () =>
      together(
        cases.map((each) =>
          this.send(
            each.request,
            'key',
            `<API_KEY>, its ${each.slot} changed: ${each.description}`,
          ),
        ),
      ));
    const refusals = await together(
      cases.map((each, index) => this.refusalOf(each, answers[index]!)),
    );

    // Auth first: the refused inputs sent again without a key; and the store after the creates.
    const twins = twinsOf(cases, answers);
    const creates = cases.some((each) => each.request.operation === 'createPet');
    const [list, ...twinsAnswered] =
      await test.step('send the refused inputs again without a key; list the pets of the sweep’s status', () =>
        together([
          creates ? this.api.listPets({ status: sweepStatus, limit: 100 }) : undefined,
          ...twins.map((twin) => this.send(twin.request, 'none')),
        ]));

    const twinAnswers = twinsAnswered as ApiResponse[];

    // A twin not refused with 401: does the operation authenticate at all? Asked only then.
    const failed = twins.filter((_, index) => {
      const answer = twinAnswers[index]!;
      return answer.failure === undefined && answer.status !== 401 && answer.status < 500;
    });
    const controls = await together(failed.map((twin) => this.control(twin.request.operation)));

    const rules = new Map<ApiResponse, Withstanding>();
    cases.forEach((each, index) => rules.set(answers[index]!, this.ruleOf(each, refusals[index])));
    twins.forEach((twin, index) => {
      const control = controls[failed.indexOf(twin)];
      if (control && control.failure === undefined && control.status !== 401) {
        // The operation authenticates nothing: AUTH-401-MISSING's, which explains the twin too.
        rules.set(control, {
          refused: 401,
          finding: true,
          as: 'AUTH-401-MISSING',
          expected: '401: the same operation without a key, with ordinary input',
        });
        return;
      }
      rules.set(twinAnswers[index]!, {
        refused: 401,
        as: 'AUTH-BEFORE-VALIDATION',
        serverError: twin.rule,
        expected: `401 with an Error: without a key, input refused with ${twin.refusedWith.join(', ')} with it (${twin.description}) is refused for the missing key first`,
      });
    });
    if (list) rules.set(list, this.listRule(list, cases, answers, twins, twinAnswers, stored));
    expect([...rules.keys()]).toWithstand(rules);
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
    const options = { credentials };
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

  /** Why a name that a service may not refuse was refused: the value that made the difference. */
  private async refusalOf(
    each: HostileCase,
    answer: ApiResponse,
  ): Promise<RefusalCause | undefined> {
    const request = each.request;
    if (each.slot !== 'name' || request.operation !== 'createPet' || !request.sent)
      return undefined;
    if (!isRefusal(answer) || nameMayBeRefused(request.sent.name) || isSizeRefusal(answer)) {
      return undefined;
    }
    const { name, categoryId } = request.sent;
    return this.pets.refusalOf({ name, categoryId, status: sweepStatus }, answer);
  }

  /** The same operation, without a key, with ordinary input. */
  private control(operation: HostileRequest['operation']): Promise<ApiResponse> {
    const none = { credentials: 'none' as const };
    switch (operation) {
      case 'listPets':
        return this.api.listPets({}, none);
      case 'getPet':
        return this.api.getPet(this.petId, none);
      case 'createPet':
        return this.api.createPet({ json: this.pets.newPet('hostile-control') }, none);
    }
  }

  /** What the answer to a case must be: its slot's rule. */
  private ruleOf(each: HostileCase, refusal: RefusalCause | undefined): Withstanding {
    const slot = slotById(each.slot);
    const request = each.request;
    const expected = slot.expected;
    switch (each.slot) {
      case 'token':
      case 'scheme':
      case 'header-name':
        return { refused: 401, as: each.rule, expected };
      case 'petId':
        return { refused: 'client-error', as: each.rule, serverError: each.rule, expected };
      case 'limit':
        return {
          listed: { atMost: 100, miscount: beyondMaximum },
          orRefused: true,
          as: each.rule,
          serverError: each.rule,
          expected,
        };
      case 'status':
        return {
          listed: { atMost: 20 },
          orRefused: true,
          as: each.rule,
          serverError: each.rule,
          expected,
        };
      default: {
        const sent = request.operation === 'createPet' ? request.sent : undefined;
        if (each.slot === 'name' && sent) {
          const mayRefuse = nameMayBeRefused(sent.name);
          return {
            created: sent,
            orRefused: mayRefuse,
            ...(refusal ? { refusal } : {}),
            as: each.rule,
            ...(mayRefuse ? { serverError: 'NO-5XX' as const } : {}),
            expected,
          };
        }
        if (each.allowed && sent) {
          return {
            created: sent,
            orRefused: true,
            as: each.rule,
            serverError: each.rule,
            expected: `${expected}; ${each.allowed}`,
          };
        }
        return { refused: 400, as: each.rule, serverError: each.rule, expected };
      }
    }
  }

  /**
   * The list of the sweep's status, read after its creates: never a 5xx (a pet a create stored
   * may crash every read of it), and without any pet of a refused create in it while it is not
   * full (CREATE-REFUSED-NO-EFFECT).
   */
  private listRule(
    list: ApiResponse,
    cases: readonly HostileCase[],
    answers: readonly ApiResponse[],
    twins: readonly Twin[],
    twinAnswers: readonly ApiResponse[],
    stored: boolean,
  ): Withstanding {
    const added = (answer: ApiResponse) => answer.status >= 200 && answer.status < 300;
    // A create added without a key made its pet: the twin's (AUTH-401-MISSING's), no refusal's.
    const addedTwice = (each: HostileCase) =>
      twins.some((twin, index) => twin.request === each.request && added(twinAnswers[index]!));
    const refused = cases.filter(
      (each, index) =>
        each.request.operation === 'createPet' && !added(answers[index]!) && !addedTwice(each),
    );
    const also: Problem[] = [];
    const pets = petsIn(list);
    if (list.status === 200 && refused.length === 0) {
      inconclusive(
        'CREATE-REFUSED-NO-EFFECT',
        'no create of the sweep was refused: nothing to look for',
      );
    } else if (list.status === 200 && pets.length >= 100) {
      inconclusive(
        'CREATE-REFUSED-NO-EFFECT',
        `the list of ${sweepStatus} pets came back full (100): the store holds too many to tell whether a refused create added one`,
      );
    } else {
      for (const each of refused) {
        const found = pets.find((pet) => pet.name.startsWith(`${petNamePrefix}${each.label}`));
        if (!found) continue;
        const answer = answers[cases.indexOf(each)]!;
        also.push({
          requirement: 'CREATE-REFUSED-NO-EFFECT',
          text: `pet ${found.id} (${JSON.stringify(found.name).slice(0, 80)}) is listed, though its create (${each.description}) was refused with ${answer.failure === undefined ? answer.status : 'no answer'}`,
        });
      }
    }
    return {
      listed: { status: sweepStatus, atMost: 100 },
      as: 'LIST-200-PETS',
      serverError: 'NO-5XX',
      also,
      expected: stored
        ? `200 with the ${sweepStatus} pets, after creates of names a store may keep: a 5xx is NO-5XX's (a kept pet that crashes every read)`
        : `200 with the ${sweepStatus} pets: none of a create that was refused`,
    };
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
