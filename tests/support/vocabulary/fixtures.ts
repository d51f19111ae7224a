/**
 * The suite's fixtures: `target`, the target of the running project; `request`, the test's
 * request context (the worker's, kept from test to test while no test leaves anything in it for
 * the next: http/request-context.ts); `api`, a pet store client on it; `pets`, which creates
 * labelled pets and grows the store to the size a check needs (pets.ts); `advise`, which
 * records advisories (advisory.ts); and, on every test, `baselinedFailure`, which marks a failure
 * of requirements the baseline tolerates expected, so that Playwright keeps the worker
 * (baselined.ts).
 *
 * Every test reports what it did to the target (requests, pets created, answers that asked to
 * wait and the pause they caused) as annotations the reporter sums, and a failing test gets the
 * whole exchange attached, with curl commands to repeat it.
 */
import { test as playwrightTest } from '@playwright/test';
import type {
  APIRequestContext,
  PlaywrightTestOptions,
  PlaywrightWorkerArgs,
  TestType,
} from '@playwright/test';
import { idsAmong } from '../../../requirements/catalogue.ts';
import { PetStoreClient } from '../http/client.ts';
import { WorkerRequestContext } from '../http/request-context.ts';
import { startResponseGuard } from '../http/response-guard.ts';
import { RunState, WriteBudgetExceeded } from '../http/run-state.ts';
import { checkFailure, exchangesLog } from '../reporting/failure-text.ts';
import { notes } from '../reporting/summary.ts';
import {
  authorizationNameOf,
  preflightFailureOf,
  preflightNotesOf,
} from '../setup/preflight-results.ts';
import { petNamePrefix, settings } from '../setup/settings.ts';
import type { Target } from '../setup/targets.ts';
import { Advisor } from './advisory.ts';
import { baselinedFailureOf } from './baselined.ts';
import { passing5xxCharge, useControls } from './diagnosis.ts';
import { followRunCreates } from './known-pets.ts';
import { expect } from './matchers.ts';
import { Pets, type StoreFloor } from './pets.ts';

/** The fixtures a test of this suite takes from Playwright: no browser, no page. */
type ApiTest = TestType<{ request: APIRequestContext }, Pick<PlaywrightWorkerArgs, 'playwright'>>;

/**
 * The browser-context options of Playwright's `test` (viewport, locale, geolocation…): each is a
 * fixture of every test, set up and torn down as a step with a captured stack, only to be filled
 * into the request context's options, which the suite sets itself. Each is set here to nothing,
 * boxed whole (no step): the request context gets none of them, and a test costs some 50 steps
 * fewer (about 7 ms of CPU on this machine). They stay options: a `use` of the configuration
 * still sets one.
 */
const browserContextOptions = [
  'acceptDownloads',
  'baseURL',
  'bypassCSP',
  'clientCertificates',
  'colorScheme',
  'contrast',
  'deviceScaleFactor',
  'extraHTTPHeaders',
  'forcedColors',
  'geolocation',
  'hasTouch',
  'httpCredentials',
  'ignoreHTTPSErrors',
  'isMobile',
  'javaScriptEnabled',
  'locale',
  'offline',
  'permissions',
  'proxy',
  'reducedMotion',
  'screen',
  'serviceWorkers',
  'storageState',
  'timezoneId',
  'userAgent',
  'viewport',
] as const satisfies readonly (keyof PlaywrightTestOptions)[];

// Playwright requires the object pattern even when a fixture uses no other fixture.
// eslint-disable-next-line no-empty-pattern
const none = async ({}, use: (value: undefined) => Promise<void>) => use(undefined);

/** The suite's base: Playwright's public `test`, of which the suite uses `request` only. */
const base = playwrightTest.extend(
  Object.fromEntries(browserContextOptions.map((name) => [name, [none, { box: 'self' }]])),
) as unknown as ApiTest;

/** This shard's part of the write budget: N shards together create at most CONFORMANCE_MAX_PETS. */
function budgetShare(): number {
  const { current, total } = settings.shard;
  const base = Math.floor(settings.maxPets / total);
  return base + (current <= settings.maxPets % total ? 1 : 0);
}

/** What a worker knows of one target, kept from test to test. */
interface TargetState {
  /** What the run's workers share about the target (write budget, pace, created ids). */
  runState: RunState;
  /** How many pets the target's store is known to hold at least (pets.ts, ensureStoreHolds). */
  storeFloor: StoreFloor;
}

function stateOf(states: Map<string, TargetState>, target: Target): TargetState {
  let state = states.get(target.name);
  if (!state) {
    state = {
      runState: new RunState({
        runId: settings.runId,
        baseUrl: target.baseUrl,
        maxPets: budgetShare(),
        budgetText:
          settings.shard.total > 1
            ? `this shard (${settings.shard.current} of ${settings.shard.total}) may send at most ${budgetShare()} of the run's ${settings.maxPets}`
            : `this run may send at most ${settings.maxPets}`,
        pace: settings.pace,
        maxWaitMs: settings.maxWaitMs,
      }),
      storeFloor: { atLeast: 0 },
    };
    states.set(target.name, state);
  }
  return state;
}

/** The run's target whose base address `url` lies below (the longest, if several do). */
function targetOf(url: string): Target | undefined {
  const address = new URL(url);
  const below = settings.targets.filter((target) => {
    const base = new URL(target.baseUrl);
    return (
      base.protocol === address.protocol &&
      base.host === address.host &&
      address.pathname.startsWith(base.pathname.replace(/\/*$/, '/'))
    );
  });
  return below.sort((a, b) => b.baseUrl.length - a.baseUrl.length)[0];
}

// Every fixture of the suite is boxed whole ('self'): it is plumbing, not a step a reader of the
// report needs, and each step costs Playwright a captured stack and two messages to the runner,
// for every test of every target. Its errors and attachments still reach the test.
export const test = base.extend<
  {
    target: Target;
    runState: RunState;
    storeFloor: StoreFloor;
    api: PetStoreClient;
    pets: Pets;
    advise: Advisor;
    baselinedFailure: void;
    preflightGate: void;
    controls: void;
  },
  { targetStates: Map<string, TargetState>; requestContext: WorkerRequestContext }
>({
  /**
   * The test's target: its project's (playwright.config.ts makes one project per target), or, with
   * CONFORMANCE_SHARE_WORKERS, its group's (describeChecks). Test-scoped, so that a worker can
   * check several targets, one test at a time.
   */
  target: [settings.targets[0]!, { option: true }],

  /** What the worker knows of each target it checks, made as it first meets one. */
  targetStates: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => use(new Map<string, TargetState>()),
    { scope: 'worker', box: 'self' },
  ],

  runState: [
    async ({ target, targetStates }, use) => {
      const state = stateOf(targetStates, target).runState;
      // Two pets under one id are told from one pet listed twice by every create of the run; and
      // the pets this worker created are the target's (known-pets.ts).
      followRunCreates(state);
      await use(state);
    },
    { box: 'self' },
  ],

  storeFloor: [
    async ({ target, targetStates }, use) => use(stateOf(targetStates, target).storeFloor),
    { box: 'self' },
  ],

  /**
   * A failure charged only to requirements the baseline tolerates on the target is marked
   * expected as the test ends (baselined.ts): no verdict changes, and Playwright keeps the worker.
   * An auto fixture is torn down after the test's others, so it sees every error (the preflight
   * gate's below included: it is set up after this one).
   */
  baselinedFailure: [
    async ({ target }, use, testInfo) => {
      await use();
      const why = baselinedFailureOf(testInfo.status ?? '', testInfo.errors, target.baselined);
      if (why) testInfo.fail(true, why);
    },
    { auto: true, box: 'self' },
  ],

  /**
   * A target whose preflight failed is not checked: each of its tests is blocked, with why. When
   * the preflight's answer broke a requirement, the test of that requirement (the one naming it
   * first) fails with the preflight's request and answer instead, counted among the run's
   * requests: so the requirement is charged once, in every run shape, shards merged included.
   */
  preflightGate: [
    async ({ target }, use, testInfo) => {
      const failure = preflightFailureOf(target.name);
      if (failure) {
        const [headline] = failure.problem.split('\n');
        const exchange = failure.exchanges?.at(-1);
        const own = idsAmong(testInfo.tags)[0];
        if (failure.requirement && own === failure.requirement && exchange) {
          testInfo.annotations.push({
            type: 'requests',
            description: String(failure.requests ?? 1),
          });
          await testInfo.attach('exchanges', {
            body: exchangesLog(failure.exchanges ?? []),
            contentType: 'text/plain',
          });
          throw new Error(
            checkFailure({
              requirements: [failure.requirement],
              exchange,
              expected: failure.expected ?? 'an answer as the document describes',
              problems: [
                `${headline} (met by the preflight, before any test: every other test of this target is blocked)`,
              ],
            }),
          );
        }
        base.skip(true, `${notes.preflightBlockedPrefix}${headline}`);
      }
      // What the preflight met that breaks a requirement without stopping the run: a finding of
      // the test of that requirement, once per run.
      const first = idsAmong(testInfo.tags)[0];
      for (const note of preflightNotesOf(target.name).filter(
        (each) => each.requirement === first,
      )) {
        testInfo.annotations.push({ type: 'requests', description: '1' });
        testInfo.annotations.push({
          type: notes.finding,
          description: checkFailure({
            requirements: [note.requirement],
            exchange: note.exchange,
            expected: note.expected,
            problems: [`${note.problem} (met by the preflight, before any test)`],
          }),
        });
      }
      await use();
    },
    { auto: true, box: 'self' },
  ],

  advise: [async ({ target }, use) => use(new Advisor(target.strict)), { box: 'self' }],

  // The worker's request context, kept from test to test while nothing of a test could reach the
  // next (no cookie set, the test passed: request-context.ts). It reaches the target through the
  // worker's response guard, which cuts an answer growing past the limit (http/response-guard.ts)
  // and, over https, verifies the target's certificate: the HTTPS setting is passed to it here
  // (Playwright's browser-context options reach no request context of the suite: see `base`).
  requestContext: [
    async ({ playwright, targetStates }, use) => {
      const guard = await startResponseGuard(settings.maxResponseBytes, {
        insecureTls: settings.insecureTls,
        ...settings.connection,
        // A create sent again (nothing of it was written the first time) is another create
        // request: it takes one from its target's write budget, or is not sent.
        mayResend: ({ url }) => {
          const target = targetOf(url);
          if (!target) return true;
          try {
            stateOf(targetStates, target).runState.reserveCreate();
            return true;
          } catch (error) {
            if (error instanceof WriteBudgetExceeded) return false;
            throw error;
          }
        },
      });
      const shared = new WorkerRequestContext(
        () => playwright.request.newContext(),
        undefined,
        guard,
      );
      await use(shared);
      await shared.dispose();
      await guard.close();
    },
    { scope: 'worker', box: 'self' },
  ],

  // A test's request context, the worker's: given back after the test, which keeps or replaces it.
  request: [
    async ({ requestContext }, use, testInfo) => {
      await use(await requestContext.acquire());
      await requestContext.release(testInfo.status === 'passed');
    },
    { scope: 'test', box: 'self' },
  ],

  api: [
    async ({ request, requestContext, target, runState }, use, testInfo) => {
      // Requests the guard sent again for this test: each met a kept-alive connection's close.
      const resentBefore = requestContext.guard?.resent ?? 0;
      const name = authorizationNameOf(target.name);
      const api = new PetStoreClient(request, {
        baseUrl: target.baseUrl,
        apiKey: process.env[target.apiKeyEnv] ?? '',
        timeoutMs: settings.requestTimeoutMs,
        state: runState,
        readOnly: target.readOnly,
        maxResponseBytes: settings.maxResponseBytes,
        // The spelling of the Authorization header's name the preflight found the target accepts.
        ...(name ? { authorizationName: name } : {}),
        guard: requestContext.guard,
        petNamePrefix,
      });

      await use(api);
      requestContext.note(api.contextUse);
      const { requests, petsCreated, throttled, pausedMs } = api.counts;
      const counts: [string, number][] = [
        ['requests', requests],
        ['pets created', petsCreated],
        ['throttled', throttled],
        ['paused ms', pausedMs],
        ['resent', (requestContext.guard?.resent ?? 0) - resentBefore],
      ];
      for (const [type, value] of counts) {
        if (value > 0 || type === 'requests') {
          testInfo.annotations.push({ type, description: String(value) });
        }
      }
      // A 5xx that did not come back when the same request was sent again at once: the check
      // judged the second answer; the first is NO-5XX's, charged here whatever the test checks.
      for (const { first, again } of api.passing5xx) {
        const { requirement, text } = passing5xxCharge(first, again);
        testInfo.annotations.push({
          type: notes.finding,
          description: api.redact(
            checkFailure({
              requirements: [requirement],
              exchange: first,
              expected: 'no 5xx, to any request',
              problems: [text],
            }),
          ),
        });
      }
      for (const id of api.unmarkedPets) {
        testInfo.annotations.push({ type: 'unmarked pet', description: String(id) });
      }
      const failed = testInfo.status !== 'passed' && testInfo.status !== 'skipped';
      if (failed && api.exchanges.length > 0) {
        const log = exchangesLog(api.exchanges);
        await testInfo.attach('exchanges', { body: api.redact(log), contentType: 'text/plain' });
      }
    },
    { box: 'self' },
  ],

  pets: [
    async ({ api, storeFloor, target }, use) =>
      use(
        new Pets(
          api,
          storeFloor,
          target.categoryIds?.map((id) => BigInt(id)),
        ),
      ),
    { box: 'self' },
  ],

  /**
   * The diagnosis' control requests go through the test's own client (diagnosis.ts): counted,
   * shown among its exchanges, creates against the write budget. Set for every test, so that any
   * matcher may diagnose; nothing is sent unless a check fails.
   */
  controls: [
    async ({ api, pets }, use) => {
      const restore = useControls({
        api,
        categoryId: () => pets.categoryId(),
        existing: () => pets.existingForControl(),
        ...(pets.categoryIds ? { categoryIds: pets.categoryIds } : {}),
      });
      await use();
      restore();
    },
    { auto: true, box: 'self' },
  ],
});

export { expect };
