/**
 * Known failures (CONFORMANCE_KNOWN_FAILURES; a target's `knownFailures`): they change no verdict
 * and no exit status; the report tells them from new failures and names those listed that did
 * not fail; and Playwright keeps the worker after them instead of starting a new one.
 *
 * Two runs of the auth checks against the same fault (auth-any-token, which breaks
 * AUTH-401-INVALID), with one worker: one lists AUTH-401-INVALID as known (and AUTH-401-MISSING,
 * which the fault does not break), the other lists nothing. Their console lines, summaries and
 * summary pages, and the overview of both, are read. Plus the rule that marks a failure known,
 * and the checks of the setting.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { overviewOf } from '../tests/support/reporting/overview.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { loadTargets } from '../tests/support/setup/targets.ts';
import { knownFailureOf } from '../tests/support/vocabulary/known-failures.ts';
import { type SuiteRun, runSuite } from './support/playwright.ts';

const apiKey = 'known-key-8d2f';
const fault = { variant: 'auth-any-token', breaks: 'AUTH-401-INVALID' };

interface Run extends SuiteRun {
  /** The target's summary (targets/<name>/conformance.json). */
  summary: Summary;
  /** The summary page (conformance.html). */
  page: string;
}

/** The auth checks, one worker, against a fresh reference with the fault: one target, `name`. */
async function authRun(name: string, knownFailures?: string[]): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), `conformance-known-${name}-`));
  const reference = await startReference({ apiKey, variant: fault.variant, seedPets: 0 });
  try {
    const targets = join(dir, 'targets.json');
    writeFileSync(
      targets,
      JSON.stringify([
        { name, baseUrl: reference.baseUrl, apiKeyEnv: 'KNOWN_FAILURES_KEY', knownFailures },
      ]),
    );
    const run = await runSuite(
      ['tests/auth.spec.ts'],
      {
        CONFORMANCE_TARGETS: targets,
        KNOWN_FAILURES_KEY: apiKey,
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

describe('known failures', { concurrency: true }, () => {
  let listed: Run;
  let unlisted: Run;
  before(async () => {
    [listed, unlisted] = await Promise.all([
      authRun('listed', [fault.breaks, 'AUTH-401-MISSING']),
      authRun('unlisted'),
    ]);
  });

  test('change no verdict and no exit status', () => {
    assert.deepEqual(verdicts(listed.summary), verdicts(unlisted.summary));
    const own = listed.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.equal(own.verdict, 'failed');
    assert.equal(listed.summary.verdict, 'not conformant');
    // Every failure of the listed run was a known one, which Playwright counts as expected.
    assert.equal(listed.exitCode, 1, listed.output);
    assert.equal(listed.summary.status, 'failed');
    assert.equal(unlisted.exitCode, 1, unlisted.output);
  });

  test('are told from new failures, with the evidence kept, and listed ones that passed named', () => {
    const own = listed.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.equal(own.known, true);
    assert.deepEqual(listed.summary.knownFailures, [fault.breaks, 'AUTH-401-MISSING']);
    const failedTest = listed.summary.tests[own.failures[0]!.test]!;
    assert.equal(failedTest.known, true);
    assert.equal(failedTest.outcome, 'failed');
    assert.match(failedTest.exchanges ?? '', /curl /, 'the failed check keeps its exchanges');
    assert.match(listed.output, new RegExp(`failed: ${fault.breaks} \\(known\\)`));
    assert.match(
      listed.output,
      /Listed as known failures, but did not fail: AUTH-401-MISSING passed\. Remove/,
    );
    // The summary page marks the known failure and names the listed requirement that passed.
    assert.match(
      listed.page,
      /AUTH-401-INVALID<\/a> <span class="muted">\(listed as a known failure\)/,
    );
    assert.match(listed.page, /Listed as known, did not fail<\/dt><dd>AUTH-401-MISSING passed/);
    assert.doesNotMatch(unlisted.page, /listed as a known failure/);
    // A run of several targets says which failed on known failures only.
    assert.match(
      overviewOf([listed.summary, unlisted.summary]).line,
      /\(not conformant: listed \(known failures only\), unlisted\)/,
    );
    const plain = unlisted.summary.requirements.find((item) => item.id === fault.breaks)!;
    assert.equal(plain.known, false);
    assert.equal(unlisted.summary.tests[plain.failures[0]!.test]!.known, undefined);
    assert.match(unlisted.output, new RegExp(`failed: ${fault.breaks}\\)`));
  });

  test('keep the worker; a failure not listed replaces it', () => {
    const kept = workersAround(listed, fault.breaks);
    assert.deepEqual(kept.later, [kept.failed], 'after a known failure, the same worker');
    const replaced = workersAround(unlisted, fault.breaks);
    assert.ok(!replaced.later.includes(replaced.failed), 'after a new failure, a new worker');
  });
});

describe('which failures are known', () => {
  const charged = (ids: string, text = 'status 200, not 401') => ({ message: `[${ids}] ${text}` });

  test('a failure whose every error names listed requirements', () => {
    const known = ['AUTH-401-INVALID', 'ERROR-SHAPE'];
    assert.match(
      knownFailureOf('failed', [charged('AUTH-401-INVALID')], known) ?? '',
      /^known failure of AUTH-401-INVALID/,
    );
    const two = [charged('AUTH-401-INVALID'), charged('ERROR-SHAPE')];
    assert.ok(knownFailureOf('failed', two, known));
    // Playwright's messages come coloured.
    const coloured = { message: '\u001b[31mError: [AUTH-401-INVALID] wrong\u001b[39m' };
    assert.ok(knownFailureOf('failed', [coloured], known));
  });

  test('not a new requirement, an error naming none, a timeout, or an empty list', () => {
    const known = ['AUTH-401-INVALID'];
    const own = charged('AUTH-401-INVALID');
    assert.equal(knownFailureOf('failed', [own, charged('ERROR-SHAPE')], known), undefined);
    assert.equal(
      knownFailureOf('failed', [charged('AUTH-401-INVALID, ERROR-SHAPE')], known),
      undefined,
    );
    assert.equal(
      knownFailureOf('failed', [own, { message: 'TypeError: x is undefined' }], known),
      undefined,
    );
    assert.equal(knownFailureOf('timedOut', [own], known), undefined);
    assert.equal(knownFailureOf('passed', [], known), undefined);
    assert.equal(knownFailureOf('failed', [own], []), undefined);
    assert.equal(knownFailureOf('failed', [own], undefined), undefined);
  });
});

describe('the setting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-known-targets-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const targetsWith = (knownFailures: unknown) => {
    const file = join(dir, 'targets.json');
    writeFileSync(
      file,
      JSON.stringify([
        { name: 'one', baseUrl: 'http://127.0.0.1:1/v1', apiKeyEnv: 'PATH', knownFailures },
      ]),
    );
    return loadTargets(file, { strict: false, readOnly: false })[0]!;
  };

  test('a targets file lists requirements of the catalogue, advisories not', () => {
    assert.deepEqual(targetsWith(['CREATE-ECHO', 'CREATE-ECHO']).knownFailures, ['CREATE-ECHO']);
    assert.equal(targetsWith([]).knownFailures, undefined);
    assert.throws(() => targetsWith(['CREATE-ECHO', 'NOPE']), /NOPE is no requirement/);
    assert.throws(() => targetsWith(['ADV-LOCATION']), /advisories never fail a run/);
    assert.throws(() => targetsWith('CREATE-ECHO'), /must be a list of requirement IDs/);
  });
});
