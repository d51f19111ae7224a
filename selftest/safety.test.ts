/**
 * The suite is safe and clear against real environments (issue 7). It runs as a user would, in
 * child processes, against small local servers that misbehave on purpose; each case checks the
 * exit code, the one message the user sees, that the key never appears, and the time taken:
 *
 * - configuration errors stop the run at load, in one readable message; a name size set for a
 *   target with short names makes the suite's own names that short;
 * - the preflight stops a run against an unusable target with one message naming the problem
 *   (every kind of problem is also checked by calling the preflight directly, which is quicker);
 * - hostile answers after the preflight fail their check clearly, without crash or hang;
 * - a target that stalls ends the run within the whole-run bound;
 * - read-only mode sends no create request; the write budget holds across workers;
 * - the inputs a store may keep are sent after every other check, with four workers too, and
 *   CONFORMANCE_SHARED_STORE=1 leaves them out, the report saying which requirements and why.
 *
 * A run that stops (a configuration error, a preflight stop) is a run of one target: what the user
 * sees of a whole run is its point. The checks that judge one target's answers (the hostile
 * answers, a TLS certificate accepted) are targets of a run of several instead
 * (CONFORMANCE_TARGETS, the workers shared), each read from its own conformance.json: its
 * verdicts, its tests and the exit code it earns (its gate), as a run of its own would report
 * them. Each Playwright run costs seconds of CPU before its first request, and so does each worker.
 *
 * The runs are independent (a run of several targets serves each test that reads it): they all
 * start at once and `inSlot` lets a few run at a time.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { preflight } from '../tests/support/setup/preflight-check.ts';
import { startCountingProxy } from './support/counting-proxy.ts';
import { leakForms, scanBytes } from './support/leak-scan.ts';
import {
  type HostileTarget,
  type TlsTarget,
  startHostileTarget,
  startSelfSignedTarget,
} from './support/hostile-targets.ts';
import {
  type SuiteRun,
  type TestOutcome,
  runSuite as runSuiteNow,
  runTargets as runTargetsNow,
  spawnNode,
} from './support/playwright.ts';

const apiKey = 'safety-key-4e1f9c2ab7';
/** The check each run against a hostile answer makes: one unauthenticated getPet. */
const oneRequest = ['--grep', '@AUTH-BEFORE-EXISTENCE'];
/**
 * A run that needs only its preflight: no test matches, and Playwright passes a run of none (the
 * suite keeps Playwright's status when no test ran), so no worker is started after globalSetup.
 */
const preflightOnly = ['--grep', 'no check has this title', '--pass-with-no-tests'];

/** What these runs share; every other setting as support/playwright.ts leaves it (one worker). */
const baseEnv: Record<string, string> = {
  API_KEY: apiKey,
  // The JSON results and the summary are what these checks read.
  CONFORMANCE_REPORTS: 'json',
  CONFORMANCE_WORKERS: '1',
};
/**
 * For the runs that meet a target that never answers: a request timeout of 1 s, so that they end
 * soon. Every other run keeps the default (10 s), which a prompt answer on a loaded machine
 * cannot use up.
 */
const hangTimeout = { CONFORMANCE_REQUEST_TIMEOUT_MS: '1000' };
/**
 * The request bound of the run of the hostile targets: beside two other files a local answer took
 * more than a second (a preflight 520 ms), and a bound of 1 s then cut an answer that came,
 * blocking a check that had its answer to judge.
 */
const hostileTimeout = { CONFORMANCE_REQUEST_TIMEOUT_MS: '5000' };

/** At most this many suite runs at once: enough to overlap waits, few enough for two cores. */
const slots = { free: 4, waiting: [] as (() => void)[] };

async function inSlot<T>(work: () => Promise<T>): Promise<T> {
  if (slots.free === 0) await new Promise<void>((resolve) => slots.waiting.push(resolve));
  else slots.free--;
  try {
    return await work();
  } finally {
    const next = slots.waiting.shift();
    if (next) next();
    else slots.free++;
  }
}

/**
 * `playwright test` with the suite's own configuration, as a user runs it; killed after
 * `timeoutMs`.
 */
function runSuite(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 90_000,
): Promise<SuiteRun> {
  return inSlot(() => runSuiteNow(args, { ...baseEnv, ...env }, { timeoutMs }));
}

const shown = (run: SuiteRun) =>
  `\n--- output (exit ${run.exitCode}, ${run.durationMs} ms) ---\n${run.output}`;
const occurrences = (text: string, part: string) => text.split(part).length - 1;
/** Where the key shows in some text: any run of 8 of it in any case, or encoded (leak-scan.ts). */
const keyIn = (text: string) => scanBytes(Buffer.from(text), 'output', leakForms(apiKey));

/** Stopped before any test, with exactly one message, no stack trace and no key. */
function assertStoppedOnce(run: SuiteRun, title: string, message: RegExp): void {
  assert.notEqual(run.exitCode, 0, `a non-zero exit${shown(run)}`);
  assert.equal(occurrences(run.output, `${title}:`), 1, `"${title}" printed once${shown(run)}`);
  assert.match(run.output, message, shown(run));
  assert.doesNotMatch(run.output, /^\s+at .+:\d+/m, `no stack trace${shown(run)}`);
  assert.deepEqual(keyIn(run.output), [], `the key is never printed${shown(run)}`);
  assert.equal(run.tests.length, 0, `no test ran${shown(run)}`);
}

/** A run of several targets, and each target's summary (its conformance.json). */
interface TargetsRun {
  run: SuiteRun;
  summaryOf(name: string): Summary;
}

/**
 * `oneRequest` against several targets in one run (support/playwright.ts: runTargets). The workers
 * are shared (CONFORMANCE_SHARE_WORKERS): the run's one worker checks each target in turn, where a
 * project per target starts a worker each (Playwright lends none from one project to another). A
 * check that fails in Playwright's terms ends its worker, and another is started for the rest:
 * such targets come last. (A requirement charged without failing the check, or a check blocked,
 * keeps it.)
 */
async function runTargets(
  targets: { name: string; baseUrl: string }[],
  env: Record<string, string>,
): Promise<TargetsRun> {
  const run = await inSlot(() =>
    runTargetsNow(
      targets,
      apiKey,
      oneRequest,
      { ...baseEnv, CONFORMANCE_SHARE_WORKERS: '1', ...env },
      // Killed no sooner than the bound the hostile answers' test allows a run of several.
      { timeoutMs: 150_000 },
    ),
  );
  return {
    run,
    summaryOf(name) {
      const summary = run.summaries.get(name);
      assert.ok(summary, `${name}: conformance.json written${shown(run)}`);
      return summary;
    },
  };
}

/** `start`, run once, by the first test that asks (after `before`): its result for each. */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => (started ??= start());
}

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let hostile: HostileTarget;
let selfSigned: TlsTarget;
/** A file holding the self-signed target's certificate, for NODE_EXTRA_CA_CERTS. */
let caDir: string;
let caFile: string;
before(async () => {
  hostile = await startHostileTarget();
  selfSigned = await startSelfSignedTarget();
  caDir = mkdtempSync(join(tmpdir(), 'conformance-ca-'));
  caFile = join(caDir, 'ca.pem');
  writeFileSync(caFile, selfSigned.cert);
});
after(async () => {
  await hostile.close();
  await selfSigned.close();
  rmSync(caDir, { recursive: true, force: true });
});

/** Settings that are wrong, and the message that must say so. */
const configurationErrors: [string, Record<string, string>, RegExp][] = [
  [
    'a BASE_URL that is not an http(s) address',
    { BASE_URL: 'staging.example.com/petstore/v1' },
    /BASE_URL "staging\.example\.com\/petstore\/v1" is not an http:\/\/ or https:\/\/ address\. Set BASE_URL .*\.env\.example/,
  ],
  [
    'a remote target without API_KEY',
    { BASE_URL: 'https://staging.example.com/v1', API_KEY: '' },
    /API_KEY is not set: .* Set API_KEY in the environment or in \.env \(see \.env\.example\)/,
  ],
  [
    'a BASE_URL whose path does not end in /v1',
    { BASE_URL: 'https://staging.example.com/petstore/api' },
    /does not end in \/v1: .* Fix BASE_URL .*\.env\.example.*CONFORMANCE_ALLOW_NON_V1_BASE=1/,
  ],
  [
    'a timeout that is not a number',
    { CONFORMANCE_REQUEST_TIMEOUT_MS: '10s' },
    /CONFORMANCE_REQUEST_TIMEOUT_MS must be an integer >= 1 \(got "10s"\); see \.env\.example/,
  ],
  [
    'an unknown report format',
    { CONFORMANCE_REPORTS: 'json,pdf' },
    /CONFORMANCE_REPORTS must list html, json, junit, ctrf \(comma-separated\) or be none \(got "json,pdf"\); see \.env\.example/,
  ],
  [
    "a name size that leaves no room for the run's marker and a unique tail",
    { CONFORMANCE_NAME_MAX_BYTES: '28', CONFORMANCE_RUN_ID: 'abcdefgh' },
    /CONFORMANCE_NAME_MAX_BYTES=28 leaves no room for the run's marker \(conformance-abcdefgh-, 21 bytes\) and a tail of 8 that makes each name unique: it must be 29 or more, or set a shorter CONFORMANCE_RUN_ID; see \.env\.example/,
  ],
  [
    'the retired list of known failures, which the baseline replaces',
    { CONFORMANCE_KNOWN_FAILURES: 'CREATE-ECHO' },
    /CONFORMANCE_KNOWN_FAILURES is replaced by the baseline \(CONFORMANCE_BASELINE\): .*`petstore-conformance baseline <conformance\.json>` writes one from a run/,
  ],
];

/** The one unusable target whose preflight waits for its timeout. */
const neverAnswers = 'a target that never answers';
/** Unusable targets, and how the preflight must describe each (a maximum answer size, maybe). */
const unusableTargets: [string, () => Promise<string> | string, RegExp, number?][] = [
  [
    'connection refused',
    async () => `http://127.0.0.1:${await closedPort()}/v1`,
    /^the target is unreachable: connection refused.*\n.*\n {2}=> connect ECONNREFUSED/,
  ],
  [
    'a host name that does not resolve',
    () => 'http://petstore.invalid/v1',
    /^the target is unreachable: DNS: the host name does not resolve/,
  ],
  [
    neverAnswers,
    () => hostile.baseUrl('hang'),
    /^the target is unreachable: no answer within 1000 ms/,
  ],
  [
    'a connection reset',
    () => hostile.baseUrl('reset'),
    /^the target is unreachable: the connection was (closed or )?reset by the target/,
  ],
  [
    'a rejected key',
    () => hostile.baseUrl('unauthorized'),
    /^the API key was rejected \(401\)[\s\S]*Check API_KEY/,
  ],
  [
    'a wrong base address',
    () => hostile.baseUrl('not-found'),
    /^wrong base address \(404 on the list of pets\)[\s\S]*ending in \/v1/,
  ],
  [
    'an answer that is not JSON',
    () => hostile.baseUrl('html'),
    /^not this interface: the answer is not JSON\n.*\n {2}=> 200 text\/html/,
  ],
  [
    'JSON that is not an array',
    () => hostile.baseUrl('object'),
    /^not this interface: the answer is JSON but not an array/,
  ],
  [
    'an answer larger than the limit',
    () => hostile.baseUrl('object'),
    /^not this interface: the answer was larger than 10 bytes/,
    10,
  ],
  [
    'a redirect',
    () => hostile.baseUrl('redirect'),
    /^the target answered with a redirect \(301\) to https:\/\/elsewhere\.example\/petstore\/v1\/pets\?limit=1/,
  ],
  ['a failing list', () => hostile.baseUrl('server-error'), /^the list of pets failed \(503\)/],
];

/**
 * Answers after a successful preflight: each one, met by the one check of the run (an
 * unauthenticated getPet), must fail the requirement it breaks, with a message that says what
 * happened. An answer that never comes, or comes broken, is its operation's (getPet's): the
 * check that met it is blocked, not failed. (In this order, the targets of one run: the one whose
 * check fails in Playwright's terms, the redirect loop, comes last, see runTargets.)
 */
const hostileAnswers: [behaviour: string, requirement: string, message: RegExp][] = [
  ['not-json', 'MEDIA-JSON', /the body is not JSON/],
  ['wrong-type', 'MEDIA-JSON', /Content-Type is "text\/plain", not application\/json/],
  [
    'truncated',
    'GET-200-PET',
    /no usable answer \(getPet\): the connection closed before the whole answer arrived \(truncated answer\)/,
  ],
  [
    'reset',
    'GET-200-PET',
    /no usable answer \(getPet\): the connection was (closed or )?reset by the target/,
  ],
  ['hang', 'GET-200-PET', /no usable answer \(getPet\): no answer within 5000 ms/],
  [
    'redirect-loop',
    'AUTH-BEFORE-EXISTENCE',
    /302 no Content-Type after \d+ ms, a redirect to \/after-preflight-redirect-loop\/v1\/pets\/-9223372036854775807, to itself: a redirect loop \(not followed\)/,
  ],
];

/** The targets of the self-signed server's conformant answers, its certificate accepted. */
const trustedTls = 'tls-trusted-ca';
const insecureTls = 'tls-insecure';

/**
 * The hostile answers, and a certificate trusted through NODE_EXTRA_CA_CERTS (which no plain
 * http target meets): one run.
 */
const hostileRun = once(() =>
  runTargets(
    [
      { name: trustedTls, baseUrl: selfSigned.baseUrl('after-preflight-conformant') },
      ...hostileAnswers.map(([behaviour]) => ({
        name: behaviour,
        baseUrl: hostile.baseUrl(`after-preflight-${behaviour}`),
      })),
    ],
    {
      // caFile is written before the tests run, after they are declared.
      NODE_EXTRA_CA_CERTS: caFile,
      // One setting for the run: the target that hangs needs it, the others answer at once.
      ...hostileTimeout,
      // A test's own bound far above the one below: a hang that only the test's timeout ended
      // would outlast it, whatever the machine's load.
      CONFORMANCE_TEST_TIMEOUT_MS: '300000',
    },
  ),
);

/**
 * CONFORMANCE_INSECURE_TLS=1 (which accepts any certificate, so not in the run above), and the
 * body of 30 MB, whose request bound (reading 30 MB can take more than a second on a busy machine)
 * the hang above would wait out: one run, the failing one last.
 */
const insecureRun = once(() =>
  runTargets(
    [
      { name: insecureTls, baseUrl: selfSigned.baseUrl('after-preflight-conformant') },
      { name: 'huge', baseUrl: hostile.baseUrl('after-preflight-huge') },
    ],
    { CONFORMANCE_INSECURE_TLS: '1', CONFORMANCE_REQUEST_TIMEOUT_MS: '20000' },
  ),
);

// One suite whose tests run concurrently, so that every run is started at once (see inSlot);
// the longest runs are declared first.
describe('safety against real environments', { concurrency: true }, () => {
  test('read-only mode: no create request, writing checks skipped with the reason', async () => {
    const reference = await startReference({ apiKey, seedPets: 50 });
    const proxy = await startCountingProxy(reference.baseUrl);
    try {
      // One worker (baseEnv): a second costs its start, and on two cores ends no sooner.
      const run = await runSuite([], { BASE_URL: proxy.baseUrl, CONFORMANCE_READONLY: '1' });
      assert.equal(run.exitCode, 0, shown(run));
      assert.equal(proxy.counts.POST ?? 0, 0, 'no create request reached the target');
      assert.match(run.output, /Read-only mode \(CONFORMANCE_READONLY=1\)/);
      const skipReason = (outcome: TestOutcome) =>
        outcome.annotations.find((annotation) => annotation.type === 'skip')?.description ?? '';
      const skipped = run.tests.filter((outcome) => outcome.outcome === 'skipped');
      assert.ok(skipped.length > 0, 'writing checks are skipped');
      for (const outcome of skipped) {
        assert.match(
          skipReason(outcome),
          /^read-only mode \(CONFORMANCE_READONLY=1\): this check creates pets/,
          outcome.title,
        );
      }
      const tagged = (id: string) => run.tests.filter((outcome) => outcome.tags.includes(id));
      const outcomes = (id: string) => tagged(id).map((outcome) => outcome.outcome);
      // 50 pets: enough for the default limit (21 needed), too few for the maximum (101).
      assert.deepEqual(outcomes('LIST-LIMIT-DEFAULT'), ['passed']);
      assert.deepEqual(outcomes('LIST-LIMIT-MAX'), ['skipped']);
      assert.match(skipReason(tagged('LIST-LIMIT-MAX')[0]!), /needs 101 pets .* which lists 50/);
      // Unauthenticated creates too: a target that ignores the key would store the pet. (Refused
      // queries and petIds are sent again without a key all the same: they create nothing.)
      const creating = tagged('AUTH-BEFORE-VALIDATION').filter((outcome) =>
        /createPet|create body|store may keep/.test(outcome.title),
      );
      assert.deepEqual(
        creating.map((outcome) => outcome.outcome),
        ['skipped', 'skipped', 'skipped'],
        creating.map((outcome) => outcome.title).join('\n'),
      );
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  test('the inputs a store may keep come after every other check; on a shared store they are left out, and said so', async () => {
    // A few checks that take a while (the store past 100 pets, the status filter's rounds, every
    // answer 200 ms late) beside the last one: four groups, four workers, all started at once; it
    // must start sending only once they have all ended.
    const reference = await startReference({ apiKey, seedPets: 120, latencyMs: 200 });
    const some = ['--grep', 'store may keep|more than 100 pets|status=X returns'];
    // When each request reached the target and when its answer came back, with its body: the
    // report's times cannot tell (a test's start is before its fixtures, a step has no start).
    const seen: { reached: number; answered?: number; request: string; body: string }[] = [];
    const proxy = await startCountingProxy(reference.baseUrl, (request) => {
      const one: (typeof seen)[number] = {
        reached: Date.now(),
        request: `${request.method} ${request.url}`,
        body: '',
      };
      seen.push(one);
      request.on('data', (chunk: Buffer) => (one.body += chunk.toString('latin1')));
      return (body) => {
        one.answered = Date.now();
        return body;
      };
    });
    try {
      const [whole, shared] = await Promise.all([
        runSuite(some, {
          BASE_URL: proxy.baseUrl,
          CONFORMANCE_WORKERS: '4',
          CONFORMANCE_REPORTS: 'json',
        }),
        runSuite(['--grep', 'store may keep'], {
          BASE_URL: reference.baseUrl,
          CONFORMANCE_SHARED_STORE: '1',
          CONFORMANCE_REPORTS: 'json',
        }),
      ]);
      assert.equal(whole.exitCode, 0, shown(whole));
      const last = whole.tests.find((outcome) => outcome.title.includes('store may keep'));
      const others = whole.tests.filter((outcome) => outcome !== last);
      assert.ok(last && last.outcome === 'passed' && others.length >= 5, shown(whole));
      const waited = last.steps.find((step) => step.title.startsWith('wait until every other'));
      assert.ok(waited, `the last check waits for the others${shown(whole)}`);
      // Its creates carry its labels (s, two characters) after the run's marker, and the list of
      // what they left goes with its keyless ones: every other request was answered before the
      // first of them reached the target, and none reached it after.
      const marker = whole.summary!.petNamePrefix.replace(/[^a-z0-9]/g, (char) => `\\${char}`);
      const its = new RegExp(`${marker}s[0-9a-z]{2}(?![a-z0-9-])`);
      const creates = seen.filter((one) => its.test(one.body));
      const first = Math.min(...creates.map((one) => one.reached));
      const before = seen.filter((one) => !its.test(one.body) && one.reached < first);
      const besides = seen.filter((one) => !its.test(one.body) && one.reached >= first);
      assert.ok(creates.length > 0, `none of ${seen.length} requests is one of its creates`);
      assert.deepEqual(
        besides.map((one) => one.request),
        ['GET /api/v1/pets?status=sold&limit=100'],
        'after its first create, only its list',
      );
      assert.ok(before.length > 0, 'the other checks sent nothing');
      const answered = Math.max(...before.map((one) => one.answered ?? Number.POSITIVE_INFINITY));
      assert.ok(
        answered <= first,
        `sent ${answered - first} ms before the other checks' last answer${shown(whole)}`,
      );
      // Left out: skipped as declared, and each requirement it checks not run, with why; a run that
      // checked nothing at all is incomplete, which the gate does not pass.
      assert.notEqual(shared.exitCode, 0, shown(shared));
      assert.match(shared.output, /Gate: exit 2, incomplete/, shown(shared));
      assert.deepEqual(
        shared.tests.map((outcome) => outcome.outcome),
        ['skipped'],
        shown(shared),
      );
      // (The other requirements are not run too: --grep left their checks out.)
      const notRun = shared.summary!.requirements.filter(
        (item) =>
          item.verdict === 'not run' &&
          item.reasons.some((reason) => reason.startsWith('CONFORMANCE_SHARED_STORE=1: ')),
      );
      assert.deepEqual(notRun.map((item) => item.id).sort(), [
        'AUTH-BEFORE-VALIDATION',
        'CREATE-201-PET',
        'CREATE-400-BODY',
        'CREATE-400-CATEGORYID-RANGE',
        'CREATE-400-STATUS',
        'CREATE-ECHO',
        'CREATE-REFUSED-NO-EFFECT',
        'NO-5XX',
      ]);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  test('the write budget holds across workers, and a spent budget fails clearly', async () => {
    const reference = await startReference({ apiKey });
    const proxy = await startCountingProxy(reference.baseUrl);
    try {
      // Two checks that each ask for more than the budget (20 pets created at once; a property's
      // creates in flight, at least two runs of two), one per worker, at the same time: a budget
      // per worker would let 6 through. With a budget of 5, the property's 4 could come first and
      // pass, and decide the requirement alone. (Each failed check ends its worker: more checks,
      // more workers to start.)
      const run = await runSuite(['--grep', '@PET-ID-UNIQUE'], {
        BASE_URL: proxy.baseUrl,
        CONFORMANCE_MAX_PETS: '3',
        CONFORMANCE_WORKERS: '2',
      });
      assert.equal(run.exitCode, 1, shown(run));
      const creates = proxy.counts.POST ?? 0;
      assert.ok(creates <= 3, `${creates} create requests reached the target, not at most 3`);
      const spent = /Write budget spent: this run may send at most 3 create requests/;
      assert.ok(
        run.tests.some((outcome) => spent.test(outcome.error)),
        shown(run),
      );
      const created = /pets created: (\d+)/.exec(run.output);
      assert.ok(created, `the run reports the pets it created${shown(run)}`);
      assert.ok(Number(created[1]) <= creates, shown(run));
      // A check stopped by the budget decided nothing: its requirement is never passed, whatever
      // its other checks found.
      const verdict = run.summary?.requirements.find((item) => item.id === 'PET-ID-UNIQUE');
      assert.equal(verdict?.verdict, 'blocked', shown(run));
      assert.match(verdict.reasons.join('\n'), /Write budget spent/);
    } finally {
      await proxy.close();
      await reference.close();
    }
  });

  test('a target that stalls after the preflight ends at the whole-run bound', async () => {
    const run = await runSuite(oneRequest, {
      BASE_URL: hostile.baseUrl('after-preflight-hang'),
      CONFORMANCE_REQUEST_TIMEOUT_MS: '60000',
      // Long enough to load the tests on a busy machine (the bound counts from the start).
      CONFORMANCE_RUN_TIMEOUT_MS: '8000',
    });
    assert.notEqual(run.exitCode, 0, shown(run));
    assert.match(run.output, /Timed out waiting 8s for the test suite to run/);
    assert.ok(run.durationMs < 25_000, `ended after ${run.durationMs} ms`);
  });

  for (const [name, env, message] of configurationErrors) {
    test(`configuration error: ${name}`, async () => {
      assertStoppedOnce(await runSuite(oneRequest, env), 'Configuration error', message);
    });
  }

  test("CONFORMANCE_NAME_MAX_BYTES makes the suite's own names no longer, marker and tail kept", async () => {
    // The names module as the suite's workers load it, with the setting at its least.
    const script =
      "import { isOwnName, ownName } from './tests/support/vocabulary/names.ts'; " +
      "const names = [ownName('a-label-longer-than-the-room'), ownName('x')]; " +
      'console.log(JSON.stringify(names.map((n) => [n, Buffer.byteLength(n), isOwnName(n)])));';
    const run = await spawnNode(['--import', 'tsx', '--input-type=module', '-e', script], {
      CONFORMANCE_NAME_MAX_BYTES: '29',
      CONFORMANCE_RUN_ID: 'abcdefgh',
    });
    assert.equal(run.exitCode, 0, run.output);
    const names = JSON.parse(run.output) as [string, number, boolean][];
    for (const [name, bytes, own] of names) {
      assert.ok(name.startsWith('conformance-abcdefgh-') && bytes <= 29 && own, name);
    }
    assert.notEqual(names[0]![0], names[1]![0]);
  });

  test('CONFORMANCE_ALLOW_NON_V1_BASE=1 turns the /v1 error into one warning', async () => {
    const run = await runSuite(['--list'], {
      BASE_URL: 'https://staging.example.com/petstore/api',
      CONFORMANCE_ALLOW_NON_V1_BASE: '1',
    });
    assert.equal(run.exitCode, 0, shown(run));
    assert.equal(occurrences(run.output, 'does not end in /v1'), 1, shown(run));
    assert.match(run.output, /Warning: .*Checking it anyway/);
  });

  for (const [name, baseUrl, message, maxResponseBytes = 10_000_000] of unusableTargets) {
    test(`preflight: ${name}`, async () => {
      const result = await preflight({
        baseUrl: await baseUrl(),
        apiKey,
        // The target that never answers is given 1 s; the others answer at once, and are given
        // the default, which a loaded machine cannot use up (1 s once timed out a prompt 503).
        timeoutMs: name === neverAnswers ? 1000 : 10_000,
        insecureTls: false,
        maxResponseBytes,
      });
      assert.ok(!result.ok, `refused: ${JSON.stringify(result)}`);
      assert.match(result.problem, message);
      assert.match(result.problem, /No test was run\.$/);
      assert.deepEqual(keyIn(result.problem), [], 'the key is never shown');
    });
  }

  test('preflight: a self-signed certificate, refused by default', async () => {
    const run = await runSuite(oneRequest, { BASE_URL: selfSigned.baseUrl('conformant') });
    assertStoppedOnce(
      run,
      'Preflight failed',
      /Preflight failed: the target is unreachable: TLS: the certificate is not trusted.*CONFORMANCE_INSECURE_TLS=1/,
    );
  });

  // The same stop, end to end: one message, a non-zero exit, within the request timeout (1 s)
  // rather than the test or run timeouts (60 s, 15 min).
  for (const [name, behaviour, message] of [
    ['a target that never answers', 'hang', /the target is unreachable: no answer within 1000 ms/],
    ['a rejected key', 'unauthorized', /the API key was rejected \(401\)/],
  ] as const) {
    test(`preflight, end to end: ${name}`, async () => {
      const run = await runSuite(oneRequest, {
        BASE_URL: hostile.baseUrl(behaviour),
        ...(behaviour === 'hang' ? hangTimeout : {}),
      });
      assertStoppedOnce(run, 'Preflight failed', message);
      assert.ok(run.durationMs < 20_000, `stopped after ${run.durationMs} ms`);
    });
  }

  test('preflight: the bundled reference is checked once its server is up', async () => {
    const run = await runSuite(preflightOnly, { BASE_URL: '', API_KEY: '' });
    assert.equal(run.exitCode, 0, shown(run));
    assert.match(
      run.output,
      /Preflight: GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/pets\?limit=1 answered 200 in \d+ ms\./,
    );
  });

  // All at once: one run, one target per behaviour (hostileRun).
  test('hostile answers: each fails its requirement with what happened, in bounded time', async () => {
    const { run, summaryOf } = await hostileRun();
    assert.equal(run.exitCode, 1, shown(run));
    assert.deepEqual(keyIn(run.output), [], `the key is never printed${shown(run)}`);
    // Seven targets at once, on a machine busy with the other cases of this file and two other
    // files (65 s seen for six): ended by the request's bound of 5 s, not by a test's.
    assert.ok(run.durationMs < 150_000, `done after ${run.durationMs} ms`);
    for (const [behaviour, requirement, message] of hostileAnswers) {
      const summary = summaryOf(behaviour);
      const failed = summary.requirements.find((item) => item.id === requirement);
      assert.equal(failed?.verdict, 'failed', `${behaviour}: ${requirement}${shown(run)}`);
      assert.match(failed!.failures.map((failure) => failure.message).join('\n'), message);
      // No usable answer: the operation's failure, and the check that met it blocked by it.
      if (requirement === 'GET-200-PET') {
        const check = summary.requirements.find((item) => item.id === 'AUTH-BEFORE-EXISTENCE');
        assert.equal(check?.verdict, 'blocked', `${behaviour}: the check is blocked`);
      }
    }
  });

  test('hostile answer: a body of 30 MB is refused, not parsed', async () => {
    const { run, summaryOf } = await insecureRun();
    const summary = summaryOf('huge');
    // The run fails, and so would a run of this target alone (the exit code its gate earns).
    assert.equal(run.exitCode, 1, shown(run));
    assert.equal(summary.gate.code, 1, `${summary.gate.why}${shown(run)}`);
    assert.match(
      summary.requirements.find((item) => item.id === 'GET-200-PET')?.failures[0]?.message ?? '',
      /the answer was larger than 10000000 bytes \(401, more than 10000000 bytes of body were sent; the suite stopped reading it\); CONFORMANCE_MAX_RESPONSE_BYTES/,
      shown(run),
    );
    assert.deepEqual(keyIn(run.output), [], `the key is never printed${shown(run)}`);
  });

  // The response guard ends TLS and verifies the target itself: with Node's CAs and
  // NODE_EXTRA_CA_CERTS, for the name in BASE_URL, not by accepting every certificate.
  for (const [how, name, targetsRun] of [
    [
      'a self-signed certificate is accepted with CONFORMANCE_INSECURE_TLS=1',
      insecureTls,
      insecureRun,
    ],
    ['a certificate trusted through NODE_EXTRA_CA_CERTS is accepted', trustedTls, hostileRun],
  ] as const) {
    test(`TLS: ${how}`, async () => {
      const { run, summaryOf } = await targetsRun();
      const summary = summaryOf(name);
      // Its one check passed, and a run of this target alone would exit 0 (its gate).
      assert.deepEqual(
        summary.tests.map((record) => record.status),
        ['passed'],
        shown(run),
      );
      assert.equal(summary.gate.code, 0, `${summary.gate.why}${shown(run)}`);
    });
  }

  test('TLS: a trusted certificate presented for another name is refused', async () => {
    // The certificate names 127.0.0.1; the same server reached as localhost.
    const run = await runSuite(oneRequest, {
      BASE_URL: selfSigned.baseUrl('conformant').replace('127.0.0.1', 'localhost'),
      NODE_EXTRA_CA_CERTS: caFile,
    });
    assertStoppedOnce(
      run,
      'Preflight failed',
      /Preflight failed: the target is unreachable: TLS: the certificate is not trusted.*\n.*\n {2}=> Hostname\/IP does not match certificate's altnames/,
    );
  });
});
