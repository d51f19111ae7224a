/**
 * The baseline (CONFORMANCE_BASELINE): it changes no verdict, only the gate. A failure it lists
 * in date exits 0; a new failure, an expired entry or an entry whose requirement passed exits 1;
 * the report tells tolerated failures from new ones; and Playwright keeps the worker after a
 * tolerated failure instead of starting a new one.
 *
 * Two runs of the auth checks against the same fault (auth-any-token, which breaks
 * AUTH-401-INVALID), with one worker, each a target of a targets file: one with a baseline that
 * lists AUTH-401-INVALID for that target, the other without. Their exit codes, console lines,
 * summaries and summary pages are read. Then the rules themselves: which failure is tolerated,
 * the gate's codes, the baseline a run makes, and the checks of the file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import {
  type BaselineEntry,
  baselineFrom,
  entriesFor,
  judgeBaseline,
} from '../tests/support/reporting/baseline.ts';
import { gateOf, runGate } from '../tests/support/reporting/gate.ts';
import { overviewOf } from '../tests/support/reporting/overview.ts';
import type { Summary, Verdict } from '../tests/support/reporting/summary.ts';
import { loadBaseline } from '../tests/support/setup/baseline.ts';
import { loadTargets } from '../tests/support/setup/targets.ts';
import { baselinedFailureOf } from '../tests/support/vocabulary/baselined.ts';
import { type SuiteRun, runSuite } from './support/playwright.ts';

const apiKey = 'bsl-key-8d2f7c';
const fault = { variant: 'auth-any-token', breaks: 'AUTH-401-INVALID' };

interface Run extends SuiteRun {
  /** The target's summary (targets/<name>/conformance.json). */
  summary: Summary;
  /** The summary page (conformance.html). */
  page: string;
  /** conformance.md */
  markdown: string;
}

/** The auth checks, one worker, against a fresh reference with the fault: one target, `name`. */
async function authRun(name: string, entries?: BaselineEntry[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), `conformance-baseline-${name}-`));
  const reference = await startReference({ apiKey, variant: fault.variant, seedPets: 0 });
  try {
    const targets = join(dir, 'targets.json');
    writeFileSync(
      targets,
      JSON.stringify([{ name, baseUrl: reference.baseUrl, apiKeyEnv: 'BASELINE_KEY' }]),
    );
    const baseline = join(dir, 'baseline.json');
    if (entries) writeFileSync(baseline, JSON.stringify({ failures: entries }));
    const run = await runSuite(
      ['tests/auth.spec.ts'],
      {
        CONFORMANCE_TARGETS: targets,
        ...(entries ? { CONFORMANCE_BASELINE: baseline } : {}),
        BASELINE_KEY: apiKey,
        CONFORMANCE_WORKERS: '1',
        CONFORMANCE_REPORTS: 'json',
        CI: '1',
      },
      { dir },
    );
    const summaryFile = join(dir, 'targets', name, 'conformance.json');
    assert.ok(existsSync(summaryFile), `no summary written (exit ${run.exitCode})\n${run.output}`);
    return {
      ...run,
      summary: JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary,
      page: readFileSync(join(dir, 'targets', name, 'conformance.html'), 'utf8'),
      markdown: readFileSync(join(dir, 'conformance.md'), 'utf8'),
    };
  } finally {
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const verdicts = (summary: Summary) =>
  summary.requirements.map((item) => `${item.id} ${item.verdict}`);

/** The workers the tests that started after the failed one ran in, and the failed one's. */
function workersAround(run: Run, id: string) {
  const failed = run.tests.find((item) => item.tags.some((tag) => tag.replace(/^@/, '') === id));
  assert.ok(failed, `no test tagged ${id}`);
  const later = run.tests.filter((item) => item.startTime > failed.startTime);
  assert.ok(later.length > 0, 'no test ran after the failed one: nothing to tell');
  return { failed: failed.workerIndex, later: [...new Set(later.map((item) => item.workerIndex))] };
}

describe('a baseline', { concurrency: true }, () => {
  let listed: Run;
  let unlisted: Run;
  before(async () => {
    [listed, unlisted] = await Promise.all([
      authRun('listed', [
        { requirement: fault.breaks, reason: 'AUTH-7: any token accepted', target: 'listed' },
      ]),
      authRun('unlisted'),
    ]);
  });

  test('changes no verdict, only the gate: exit 0 with the failure listed, 1 without', () => {
    assert.deepEqual(verdicts(listed.summary), verdicts(unlisted.summary));
    const own = listed.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.equal(own.verdict, 'failed');
    assert.equal(listed.summary.verdict, 'not conformant');
    assert.equal(listed.exitCode, 0, listed.output);
    assert.equal(listed.summary.gate.code, 0);
    assert.equal(unlisted.exitCode, 1, unlisted.output);
    assert.deepEqual(unlisted.summary.gate.newFailures, [fault.breaks]);
    assert.match(listed.output, /Gate: exit 0, listed: not conformant, every failure tolerated/);
  });

  test('the reports tell tolerated failures from new ones, with the evidence kept', () => {
    const own = listed.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.deepEqual(own.tolerated, { reason: 'AUTH-7: any token accepted' });
    const failedTest = listed.summary.tests[own.failures[0]!.test]!;
    assert.equal(failedTest.tolerated, true);
    assert.equal(failedTest.outcome, 'failed');
    assert.match(failedTest.exchanges ?? '', /curl /, 'the failed check keeps its exchanges');
    assert.match(listed.output, new RegExp(`failed: ${fault.breaks} \\(tolerated\\)`));
    assert.match(
      listed.output,
      /Baseline \(\S*baseline\.json\): tolerated AUTH-401-INVALID \(no end date: AUTH-7/,
    );
    assert.match(
      listed.page,
      /AUTH-401-INVALID<\/a> <span class="muted">\(tolerated by the baseline: AUTH-7/,
    );
    assert.match(listed.markdown, /\| `AUTH-401-INVALID` §5 \| failed \(tolerated\) \|/);
    assert.match(unlisted.markdown, /\| `AUTH-401-INVALID` §5 \| failed \|/);
    assert.doesNotMatch(unlisted.page, /tolerated by the baseline/);
    assert.match(
      overviewOf([listed.summary, unlisted.summary]).line,
      /\(not conformant: listed \(every failure tolerated\), unlisted\)/,
    );
    const plain = unlisted.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.equal(plain.tolerated, undefined);
    assert.equal(unlisted.summary.tests[plain.failures[0]!.test]!.tolerated, undefined);
  });

  test('keeps the worker after a tolerated failure; a new failure replaces it', () => {
    const kept = workersAround(listed, fault.breaks);
    assert.deepEqual(kept.later, [kept.failed], 'after a tolerated failure, the same worker');
    const replaced = workersAround(unlisted, fault.breaks);
    assert.ok(!replaced.later.includes(replaced.failed), 'after a new failure, a new worker');
  });
});

describe('which failure is tolerated', () => {
  const charged = (ids: string, text = 'status 200, not 401') => ({ message: `[${ids}] ${text}` });

  test('a test failure whose every error names tolerated requirements is marked expected', () => {
    const tolerated = ['AUTH-401-INVALID', 'ERROR-SHAPE'];
    assert.match(
      baselinedFailureOf('failed', [charged('AUTH-401-INVALID')], tolerated) ?? '',
      /^failure of AUTH-401-INVALID tolerated by the baseline/,
    );
    assert.ok(
      baselinedFailureOf(
        'failed',
        [charged('AUTH-401-INVALID'), charged('ERROR-SHAPE')],
        tolerated,
      ),
    );
    // Playwright's messages come coloured.
    const coloured = { message: '\u001b[31mError: [AUTH-401-INVALID] wrong\u001b[39m' };
    assert.ok(baselinedFailureOf('failed', [coloured], tolerated));
  });

  test('not a new requirement, an error naming none, a timeout, or nothing tolerated', () => {
    const tolerated = ['AUTH-401-INVALID'];
    const own = charged('AUTH-401-INVALID');
    assert.equal(baselinedFailureOf('failed', [own, charged('ERROR-SHAPE')], tolerated), undefined);
    assert.equal(
      baselinedFailureOf('failed', [charged('AUTH-401-INVALID, ERROR-SHAPE')], tolerated),
      undefined,
    );
    assert.equal(
      baselinedFailureOf('failed', [own, { message: 'TypeError: x is undefined' }], tolerated),
      undefined,
    );
    assert.equal(baselinedFailureOf('timedOut', [own], tolerated), undefined);
    assert.equal(baselinedFailureOf('passed', [], tolerated), undefined);
    assert.equal(baselinedFailureOf('failed', [own], []), undefined);
    assert.equal(baselinedFailureOf('failed', [own], undefined), undefined);
  });

  const verdictsOf = (pairs: [string, Verdict][]) =>
    pairs.map(([id, verdict]) => ({ id, verdict }));
  const run = verdictsOf([
    ['CREATE-ECHO', 'failed'],
    ['LIST-LIMIT-DEFAULT', 'failed'],
    ['GET-200-PET', 'passed'],
    ['LIST-COMPLETE', 'inconclusive'],
    ['ERROR-SHAPE', 'failed'],
  ]);
  const entries: BaselineEntry[] = [
    { requirement: 'CREATE-ECHO', reason: 'T-1', until: '2026-06-30' },
    { requirement: 'LIST-LIMIT-DEFAULT', reason: 'T-2', until: '2026-06-01' },
    { requirement: 'GET-200-PET', reason: 'T-3' },
    { requirement: 'LIST-COMPLETE', reason: 'T-4' },
    { requirement: 'ERROR-SHAPE', reason: 'T-5', target: 'eu' },
  ];

  test('tolerated in date (through its until day), new once expired, fixed when it passed, unchecked when undecided', () => {
    const judged = judgeBaseline(run, entriesFor({ file: 'b.json', entries }, ''), '2026-06-30');
    assert.deepEqual(judged.tolerated, [
      { requirement: 'CREATE-ECHO', reason: 'T-1', until: '2026-06-30' },
    ]);
    assert.deepEqual(judged.newFailures, [
      { requirement: 'LIST-LIMIT-DEFAULT', expired: '2026-06-01' },
      { requirement: 'ERROR-SHAPE' },
    ]);
    assert.deepEqual(judged.fixed, [{ requirement: 'GET-200-PET', reason: 'T-3' }]);
    assert.deepEqual(judged.unchecked, [{ requirement: 'LIST-COMPLETE', verdict: 'inconclusive' }]);
    // The entry for target eu covers eu alone; the next day, CREATE-ECHO's has expired too.
    const eu = judgeBaseline(run, entriesFor({ file: 'b.json', entries }, 'eu'), '2026-07-01');
    assert.deepEqual(
      eu.tolerated.map(({ requirement }) => requirement),
      ['ERROR-SHAPE'],
    );
    assert.deepEqual(
      eu.newFailures.map(({ requirement }) => requirement),
      ['CREATE-ECHO', 'LIST-LIMIT-DEFAULT'],
    );
  });

  /** A summary's parts the gate reads, with these verdicts and baseline. */
  const judgedSummary = (pairs: [string, Verdict][], list: BaselineEntry[], targetName = '') => {
    const requirements = verdictsOf(pairs);
    const count = (verdict: Verdict) =>
      requirements.filter((item) => item.verdict === verdict).length;
    const totals = {
      requirements: {
        passed: count('passed'),
        failed: count('failed'),
        inconclusive: count('inconclusive'),
        blocked: count('blocked'),
        'not run': count('not run'),
        total: requirements.length,
      },
      advisories: { met: 0, flagged: 0, failed: 0, 'not run': 0, total: 0 },
    };
    return {
      targetName,
      totals,
      status: 'failed',
      strict: false,
      advisories: [],
      requirements: requirements as unknown as Summary['requirements'],
      baseline: judgeBaseline(requirements, list, '2026-06-15', 'b.json'),
    };
  };

  test('the gate: 0 for tolerated failures only, 1 for a new one (named) or a fixed entry, 2 for undecided', () => {
    /** The gate of these verdicts (`ID verdict, …`), with a baseline tolerating `ids`. */
    const gateFor = (verdicts: string, ...ids: string[]) =>
      gateOf(
        judgedSummary(
          verdicts.split(', ').map((pair) => pair.split(' ') as [string, Verdict]),
          ids.map((requirement) => ({ requirement, reason: 'T' })),
        ),
      );
    const tolerated = gateFor('CREATE-ECHO failed, GET-200-PET passed', 'CREATE-ECHO');
    assert.equal(tolerated.code, 0);
    assert.match(
      tolerated.why,
      /^not conformant, every failure tolerated by b\.json: CREATE-ECHO \(1 of 2/,
    );
    const fresh = gateFor('CREATE-ECHO failed, ERROR-SHAPE failed', 'CREATE-ECHO');
    assert.equal(fresh.code, 1);
    assert.match(
      fresh.why,
      /^not conformant: new failures ERROR-SHAPE; tolerated CREATE-ECHO \(2 of 2/,
    );
    assert.deepEqual(fresh.newFailures, ['ERROR-SHAPE']);
    const fixed = gateFor('GET-200-PET passed', 'GET-200-PET');
    assert.equal(fixed.code, 1);
    assert.match(fixed.why, /GET-200-PET passed \(fixed: remove it from b\.json\)/);
    const blocked = gateFor('CREATE-ECHO failed, PET-SHAPE blocked', 'CREATE-ECHO');
    assert.equal(blocked.code, 2);
    const several = runGate([
      { targetName: 'eu', gate: tolerated },
      { targetName: 'us', gate: fresh },
    ]);
    assert.equal(several.code, 1);
    assert.deepEqual(several.newFailures, ['us › ERROR-SHAPE']);
  });

  test("the baseline a run makes: each failure, an entry's reason and date kept, a target named with several", () => {
    const summary = (targetName: string, tolerated?: { reason: string; until?: string }) => ({
      targetName,
      runId: 'r1',
      startedAt: '2026-06-15T10:00:00.000Z',
      requirements: [
        { id: 'CREATE-ECHO', verdict: 'failed' as Verdict, ...(tolerated ? { tolerated } : {}) },
        { id: 'GET-200-PET', verdict: 'passed' as Verdict },
      ],
    });
    assert.deepEqual(baselineFrom([{ ...summary(''), requirements: [] }]).failures, []);
    const [entry] = baselineFrom([summary('')]).failures;
    assert.equal(entry!.requirement, 'CREATE-ECHO');
    assert.match(entry!.reason, /^failed in run r1 on 2026-06-15/);
    assert.equal(entry!.target, undefined);
    assert.deepEqual(
      baselineFrom([
        summary('eu', { reason: 'T-9', until: '2026-12-31' }),
        summary('us'),
      ]).failures.map((one) => [one.target, one.reason.slice(0, 6), one.until]),
      [
        ['eu', 'T-9', '2026-12-31'],
        ['us', 'failed', undefined],
      ],
    );
  });
});

describe('the baseline file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-baseline-file-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const load = (content: unknown, targets: string[] = ['']) => {
    const file = join(dir, 'baseline.json');
    writeFileSync(file, JSON.stringify(content));
    return loadBaseline(file, targets);
  };
  const entry = (fields: Record<string, unknown>) => ({
    failures: [{ requirement: 'CREATE-ECHO', reason: 'T-1', ...fields }],
  });

  test('lists requirements of the catalogue, each with a reason, a real date, a target of the run', () => {
    assert.deepEqual(load(entry({ until: '2026-02-28' })).entries, [
      { requirement: 'CREATE-ECHO', reason: 'T-1', until: '2026-02-28' },
    ]);
    assert.deepEqual(load({ failures: [] }).entries, []);
    assert.equal(load(entry({ target: 'eu' }), ['eu', 'us']).entries[0]!.target, 'eu');
    assert.throws(() => load(entry({ requirement: 'NOPE' })), /NOPE is no requirement/);
    assert.throws(
      () => load(entry({ requirement: 'ADV-LOCATION' })),
      /advisories never fail a run/,
    );
    assert.throws(() => load(entry({ reason: ' ' })), /"reason" must say why/);
    assert.throws(
      () => load(entry({ until: '2026-02-30' })),
      /"until" must be a date as YYYY-MM-DD/,
    );
    assert.throws(() => load(entry({ untill: '2026-02-28' })), /unknown field untill/);
    assert.throws(
      () => load(entry({ target: 'eu' })),
      /names no target of this run \(a run of one target/,
    );
    assert.throws(() => load(entry({ target: 'asia' }), ['eu', 'us']), /targets: eu, us/);
    assert.throws(
      () => load({ failures: [entry({}).failures[0], entry({}).failures[0]] }),
      /listed twice/,
    );
    assert.throws(() => load(['CREATE-ECHO']), /must hold an object with "failures"/);
  });

  test('a targets file\'s "knownFailures" is refused, pointing at the baseline', () => {
    const file = join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          name: 'one',
          baseUrl: 'http://127.0.0.1:1/v1',
          apiKeyEnv: 'PATH',
          knownFailures: ['CREATE-ECHO'],
        },
      ]),
    );
    assert.throws(
      () => loadTargets(file, { strict: false, readOnly: false }),
      /"knownFailures" is replaced by the baseline \(CONFORMANCE_BASELINE\)/,
    );
  });
});
