/**
 * Gateways' own answers, which the document leaves open (issue 35): a gateway in front of the
 * clean reference answers some requests itself, and the suite passes the target all the same.
 * - A body over 1 KB gets 413 with the gateway's HTML page: a size limit of bodies, which the
 *   document leaves open, like a 400 for a long name; the suite passes. A 413 to a NewPet no
 *   larger than the suite's own is no such limit: CREATE-201-PET fails.
 * - A rate limiter whose 429 names no time to wait, and a load shedder's 503 with Retry-After:
 *   the run backs off, learns the pace from the refusals, and passes, with at most one request
 *   in five refused (counted by the run, and by the gateway).
 * - A 503 without Retry-After that comes back on the fourth send is judged: a 5xx of the target's.
 * - A cold start: the first answer takes 8 s; the run waits for it, says how long it took, and
 *   passes.
 * The four gateways the suite passes are checked in one run of the suite (CONFORMANCE_TARGETS),
 * each in front of a reference of its own, the run's two workers checking each of them side by
 * side (CONFORMANCE_SHARE_WORKERS), as two workers checked each rate limiter in a run of its own:
 * a run per gateway cost three more runners and four more workers. Its exit code is 0 only if
 * every one passed; each test reads its target's summary, its lines of the output and its
 * gateway's counts. The two runs that must fail are runs of their own, beside it, each of its
 * requirement's own check (the other checks of its tag fail too, and each failure costs a worker).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import {
  type Gateway,
  type GatewayRule,
  bodyLimit,
  coldStart,
  shedding,
  startGateway,
  tokenBucket,
  tooManyRequests,
} from './support/gateways.ts';
import { RunState, removeRunState } from '../tests/support/http/run-state.ts';
import {
  UNASKED_503_ATTEMPTS,
  retryDelayMs,
  throttleStatusReason,
} from '../tests/support/http/throttle.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { type HostileTarget, startHostileTarget } from './support/hostile-targets.ts';
import { type ProcessResult, type SuiteRun, runSuite, runTargets } from './support/playwright.ts';

const apiKey = 'gw-key-5e2a9c41';
/** The most requests a run may have refused: one in five of those it sent. */
const REFUSED_BOUND = 0.2;

const shown = (run: ProcessResult) =>
  `\n--- exit ${run.exitCode}, ${run.durationMs} ms ---\n${run.output.slice(-4000)}`;

/** The whole suite through a gateway with this rule, in front of the reference. */
async function throughGateway(
  rule: GatewayRule,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<{ run: SuiteRun; gateway: Gateway }> {
  const gateway = await startGateway(reference.baseUrl, rule);
  try {
    const run = await runSuite(args, {
      BASE_URL: gateway.baseUrl,
      API_KEY: apiKey,
      CONFORMANCE_REPORTS: 'none',
      FC_SEED: '20261126',
      CI: '1',
      ...env,
    });
    return { run, gateway };
  } finally {
    await gateway.close();
  }
}

/** The gateways the suite passes, each a target of the one run, by its name there. */
const conformantGateways = {
  'body-limit-1k': bodyLimit(1024),
  'rate-limit-429': tokenBucket(40, 10, tooManyRequests),
  'shedding-503': tokenBucket(40, 10, shedding),
  'cold-start': coldStart(8000),
} satisfies Record<string, GatewayRule>;
type GatewayName = keyof typeof conformantGateways;

interface GatewaysRun {
  run: ProcessResult;
  /** Each target's summary (undefined if the run wrote none) and its gateway, with its counts. */
  targets: Record<GatewayName, { summary?: Summary; gateway: Gateway }>;
}

/**
 * The whole suite against every gateway of `conformantGateways`, in one run: each in front of a
 * fresh store of its own (a store that earlier runs filled leaves completeness undecided, and the
 * targets write at once), the run's two workers checking every target.
 */
async function runConformantGateways(): Promise<GatewaysRun> {
  const stores: ReferenceHandle[] = [];
  const gateways: Partial<Record<GatewayName, Gateway>> = {};
  try {
    for (const [name, rule] of Object.entries(conformantGateways)) {
      const store = await startReference({ apiKey, seedPets: 120 });
      stores.push(store);
      gateways[name as GatewayName] = await startGateway(store.baseUrl, rule);
    }
    const run = await runTargets(
      Object.entries(gateways).map(([name, gateway]) => ({ name, baseUrl: gateway.baseUrl })),
      apiKey,
      [],
      {
        CONFORMANCE_REPORTS: 'none',
        FC_SEED: '20261126',
        CI: '1',
        // Two workers share each target's pace, as in a run of that target alone with two; one
        // pair of workers for the four targets, not a project (and workers) each.
        CONFORMANCE_SHARE_WORKERS: '1',
        CONFORMANCE_WORKERS: '2',
      },
    );
    const targets = {} as GatewaysRun['targets'];
    for (const [name, gateway] of Object.entries(gateways)) {
      const summary = run.summaries.get(name);
      targets[name as GatewayName] = { gateway, ...(summary ? { summary } : {}) };
    }
    return { run, targets };
  } finally {
    for (const gateway of Object.values(gateways)) await gateway.close();
    for (const store of stores) await store.close();
  }
}

/** The one run the tests of those gateways read, started by the first that asks. */
let conformantRun: Promise<GatewaysRun> | undefined;

/** One gateway's target of the shared run: the run passed whole, and this target with it. */
async function passedTarget(
  name: GatewayName,
): Promise<{ run: ProcessResult; summary: Summary; gateway: Gateway }> {
  const { run, targets } = await (conformantRun ??= runConformantGateways());
  const { summary, gateway } = targets[name];
  // The run's exit code is 0 only if every target passed: each test asks it of its own.
  assert.equal(run.exitCode, 0, shown(run));
  assert.equal(summary?.verdict, 'conformant', `${name}${shown(run)}`);
  return { run, summary, gateway };
}

/**
 * The target passed, and refused at most one request in five, by its count and the gateway's;
 * the run's closing lines say so for it.
 */
function assertPacedPass(
  name: GatewayName,
  run: ProcessResult,
  summary: Summary,
  gateway: Gateway,
  status: number,
): void {
  const refusedByGateway = gateway.counts.own[status] ?? 0;
  const share = summary.throttled / summary.requests;
  console.log(
    `${status}: ${summary.throttled} of ${summary.requests} requests refused (${(share * 100).toFixed(1)}%; ` +
      `the gateway refused ${refusedByGateway} of ${gateway.counts.requests}), ${(run.durationMs / 1000).toFixed(1)} s (the run of four gateways)`,
  );
  assert.ok(summary.throttled > 0, `the gateway refused some${shown(run)}`);
  assert.equal(summary.refusedShare, Number(share.toFixed(3)), shown(run));
  assert.ok(share <= REFUSED_BOUND, `${(share * 100).toFixed(1)}% refused${shown(run)}`);
  // The gateway saw the preflight's requests too, which the run's count leaves out.
  assert.ok(refusedByGateway / gateway.counts.requests <= REFUSED_BOUND, shown(run));
  assert.match(
    run.output,
    new RegExp(
      `${name}: Requests sent: ${summary.requests}, ${summary.throttled} of them refused \\(\\d+\\.\\d%;`,
    ),
  );
}

let reference: ReferenceHandle;
let hostile: HostileTarget;
before(async () => {
  reference = await startReference({ apiKey, seedPets: 120 });
  hostile = await startHostileTarget();
});
after(async () => {
  await reference.close();
  await hostile.close();
});

// The tests run at once: the two that must fail run beside the run of the four gateways (the 503
// without Retry-After mostly waits), which each of the others reads.
describe('gateways in front of a conformant target', { concurrency: true }, () => {
  test('a gateway that answers 413 with an HTML page to every body over 1 KB: the suite passes', async () => {
    const { gateway } = await passedTarget('body-limit-1k');
    assert.ok((gateway.counts.own[413] ?? 0) > 0, `some bodies were refused for their size`);
  });

  test('a 413 to a body no larger than the suite’s own NewPets is no size limit: CREATE-201-PET fails', async () => {
    // 64 bytes: below the suite's ordinary NewPet (a 40-byte name), which a target must take.
    // CREATE-201-PET's own check alone: the others of that tag (hostile bodies) fail too, and
    // Playwright starts a worker again after each failure.
    const { run } = await throughGateway(bodyLimit(64), {}, [
      'tests/createPet.spec.ts',
      '--grep',
      '@CREATE-201-PET',
    ]);
    assert.notEqual(run.exitCode, 0, shown(run));
    const create = run.summary?.requirements.find((item) => item.id === 'CREATE-201-PET');
    assert.equal(create?.verdict, 'failed', shown(run));
    assert.match(create!.failures[0]!.message, /status 413, not 201/, shown(run));
  });

  test('a rate limiter whose 429 names no time: backed off, paced, passed, at most one in five refused', async () => {
    const { run, summary, gateway } = await passedTarget('rate-limit-429');
    assertPacedPass('rate-limit-429', run, summary, gateway, 429);
  });

  test('a load shedder (503 with Retry-After): paced, passed, at most one in five refused', async () => {
    const { run, summary, gateway } = await passedTarget('shedding-503');
    assertPacedPass('shedding-503', run, summary, gateway, 503);
  });

  test('a 503 without Retry-After that comes back on the fourth send is the target’s: judged, in bounded time', async () => {
    // Every request after the preflight is answered 503 without Retry-After: each is sent four
    // times in all (waits of about 1, 2 and 4 s), then judged. GET-404-UNKNOWN's own check alone
    // (three getPets at once): the properties of that tag would each fail on their first request,
    // one after the other, each waiting its 7 s and then replacing its worker.
    const run = await runSuite(['tests/getPet.spec.ts', '--grep', '@GET-404-UNKNOWN'], {
      BASE_URL: hostile.baseUrl('after-preflight-server-error'),
      API_KEY: apiKey,
      CONFORMANCE_REPORTS: 'none',
      CI: '1',
    });
    assert.notEqual(run.exitCode, 0, shown(run));
    const summary = run.summary!;
    const item = summary.requirements.find((one) => one.id === 'GET-404-UNKNOWN');
    assert.equal(item?.verdict, 'failed', shown(run));
    assert.match(item!.failures[0]!.message, /status 503, not 404/, shown(run));
    // Each request sent four times in all, three of them refused: none more, none judged sooner.
    const requests = summary.requests / 4;
    assert.ok(Number.isInteger(requests) && requests >= 3, shown(run));
    assert.equal(summary.throttled, 3 * requests, shown(run));
    // The waits are the run's: at most 1 + 2 + 4 s for each request (they overlap, mostly).
    assert.ok(summary.pausedMs <= 7000 * requests, shown(run));
  });

  test('a cold start: the first answer takes 8 s; the run waits for it, says so, and passes', async () => {
    const { run } = await passedTarget('cold-start');
    assert.match(
      run.output,
      /cold-start: Preflight: GET \S+ answered 200 in (8|9)\d{3} ms\. A slow first answer \((8|9)\.\d s; a cold start\?\): every request waits up to CONFORMANCE_REQUEST_TIMEOUT_MS \(10000 ms\)/,
      shown(run),
    );
  });
});

describe('the back-off and the pace, alone', () => {
  test('without Retry-After: 1 s doubling to 30 s, each wait in the upper half; with it, as asked', () => {
    const at = (attempt: number, random: number) => retryDelayMs({}, attempt, 0, () => random);
    assert.deepEqual([at(1, 0), at(1, 1), at(3, 0), at(3, 1)], [500, 1000, 2000, 4000]);
    assert.deepEqual([at(9, 0), at(9, 1)], [15_000, 30_000]);
    assert.equal(retryDelayMs({ 'retry-after': '3' }, 5), 3000);
  });

  test('a 429 is always a refusal; a 503 without Retry-After only until its fourth send', () => {
    const unasked = (attempt: number) => throttleStatusReason(503, {}, attempt);
    assert.equal(UNASKED_503_ATTEMPTS, 4);
    assert.deepEqual([1, 2, 3, 4].map(unasked), [
      '503 without Retry-After',
      '503 without Retry-After',
      '503 without Retry-After',
      undefined,
    ]);
    assert.equal(throttleStatusReason(503, { 'retry-after': '1' }, 9), '503 with Retry-After');
    assert.equal(throttleStatusReason(429, {}, 99), '429 Too Many Requests');
    assert.equal(throttleStatusReason(500, {}, 1), undefined);
  });

  test('the pace: 70% of the answers’ rate at the first refusal, a quarter off at each later one (once per pace), raised by answers that waited for their slot', async () => {
    const runId = `pace-selftest-${process.pid}`;
    const state = new RunState({
      runId,
      baseUrl: 'http://127.0.0.1:9/v1',
      maxPets: 10,
      pace: 0,
      maxWaitMs: 0,
    });
    try {
      // Unpaced: no slot is waited for.
      const first = await state.beforeRequest();
      assert.deepEqual([first.cuts, first.paced], [0, false]);
      // 100 answers in the last quarter second or so: 400 a second at most, 70% of that.
      for (let i = 0; i < 100; i++) state.accepted(false);
      const learned = state.refused(first.cuts);
      assert.ok(learned > 100 && learned <= 0.7 * 100 * 4, `${learned}`);
      // Another refusal of a request sent before that cut cuts nothing more.
      assert.equal(state.refused(first.cuts), learned);
      // A request sent at the new pace waits for its slot; its refusal cuts a quarter off.
      const next = await state.beforeRequest();
      assert.equal(next.cuts, 1);
      const cut = state.refused(next.cuts);
      assert.equal(cut, learned * 0.75);
      // Answers raise it only when their requests waited for a slot.
      state.accepted(false);
      assert.equal(state.refused(next.cuts), cut);
      // Each request takes the next slot: within a few, one must wait for its own, however long
      // a loaded machine took between two of them.
      let paced = await state.beforeRequest();
      for (let i = 0; i < 20 && !paced.paced; i++) paced = await state.beforeRequest();
      assert.equal(paced.paced, true);
      state.accepted(true);
      assert.equal(state.refused(paced.cuts), (cut + 0.1) * 0.75);
    } finally {
      removeRunState(runId);
    }
  });

  test('a worker starved of CPU past its slots sends no burst: a request that woke a slot late takes a new one', async () => {
    const runId = `pace-stale-selftest-${process.pid}`;
    const interval = 100;
    const state = new RunState({
      runId,
      baseUrl: 'http://127.0.0.1:9/v1',
      maxPets: 10,
      pace: 1000 / interval,
      maxWaitMs: 0,
    });
    try {
      // Eight requests queued on the pace, then the process stalls (as a loaded machine stalls
      // it) for four and a half slots: the slots that passed meanwhile are not all sent at once.
      await state.beforeRequest();
      const sentAt: number[] = [];
      const queued = Array.from({ length: 8 }, () =>
        state.beforeRequest().then(() => sentAt.push(Date.now())),
      );
      const stall = Date.now() + 4.5 * interval;
      while (Date.now() < stall) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      await Promise.all(queued);
      sentAt.sort((a, b) => a - b);
      // Each is sent within a slot of its own: never three within one slot's time.
      for (let i = 0; i + 2 < sentAt.length; i++) {
        assert.ok(
          sentAt[i + 2]! - sentAt[i]! >= 0.8 * interval,
          `sent at ${sentAt.map((time) => time - sentAt[0]!).join(', ')} ms`,
        );
      }
    } finally {
      removeRunState(runId);
    }
  });
});
