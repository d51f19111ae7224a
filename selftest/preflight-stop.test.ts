/**
 * What the preflight meets is recorded, in every run shape (issue 24). The mutation self-test
 * runs its targets in one run of many (CONFORMANCE_TARGETS), so these are the other shapes:
 * - one target (BASE_URL) whose preflight answer breaks a requirement (a list wrapped in an
 *   object, limit=1 refused): the run goes on, conformance.json and the summary page show that
 *   requirement failed with the preflight's request, counted among the requests sent, every other
 *   test blocked, and the run fails;
 * - the same, in two shards merged with `npm run merge`: the merged summary says the same;
 * - one target that reads the Authorization header only under the lower-case name: the
 *   preflight tells that from a wrong key, the run goes on under the spelling the target accepts,
 *   and AUTH-BEARER alone fails;
 * - targets whose answers are the interface's, garbled (issue 40): every body behind a byte order
 *   mark, a proxy's HTML page as the very first answer, lists that are always a page while a
 *   request without a key gets the interface's 401 Error. None is stopped as another service: the
 *   run goes on, and conformance.json names MEDIA-JSON with the preflight's answer. What is judged
 *   is each target's preflight line and verdicts, not a run's shape, so the three are targets of
 *   one run (CONFORMANCE_TARGETS, the workers shared), each read from its own conformance.json:
 *   three runs' start, and a worker after each failed check, spared. (The one-target shape of a
 *   note the preflight hands the checks is limit=1's, above.)
 */
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import {
  type SuiteRun,
  type TargetsRun,
  runSuite,
  runTargets,
  spawnNode,
  spawnPlaywright,
} from './support/playwright.ts';

const apiKey = 'pfs-7d2e91c4b0';
const quiet: Record<string, string> = {
  API_KEY: apiKey,
  CI: '1',
  CONFORMANCE_REPORTS: 'none',
  // One worker: these runs judge what the preflight met, and each worker costs a second of CPU.
  CONFORMANCE_WORKERS: '1',
};

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Summary;
const shown = (run: { output: string }) => `\n--- output ---\n${run.output.slice(-4000)}`;
const verdictOf = (summary: Summary, id: string) =>
  summary.requirements.find((item) => item.id === id)?.verdict;
const failedIds = (summary: Summary) =>
  summary.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id);

/** The summary records the preflight's answer as the requirement's failure, with its request. */
function assertRecorded(summary: Summary, requirement: string, answer: RegExp, why: string): void {
  assert.deepEqual(failedIds(summary), [requirement], why);
  const failure = summary.requirements.find((item) => item.id === requirement)!.failures[0]!;
  assert.match(failure.message, /GET \S+\/pets\?limit=1 \(Authorization: Bearer <API_KEY>\)/);
  assert.match(failure.message, answer);
  assert.ok(summary.requests >= 1, `requests sent: ${summary.requests}`);
  assert.equal(summary.verdict, 'not conformant');
  // Every other requirement blocked by the preflight, none passed.
  assert.equal(summary.totals.requirements.passed, 0, why);
  const test = summary.tests[failure.test]!;
  assert.match(test.exchanges ?? '', /repeat: curl -i -X GET "\$BASE_URL"'\/pets\?limit=1'/);
}

/**
 * A target whose lists are always a page, while a request without a key gets the interface's 401
 * Error.
 */
function startPageAnd401(): Promise<Server> {
  const error = JSON.stringify({ code: 'unauthorized', message: 'no key', status: 401 });
  const server = createServer((req, res) => {
    if (req.headers.authorization === undefined) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(error);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>Welcome</p>');
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('the preflight records what it meets, in every run shape', { concurrency: true }, () => {
  let dir: string;
  const references: Record<string, ReferenceHandle> = {};
  let pageAnd401: Server;
  before(async () => {
    pageAnd401 = await startPageAnd401();
    dir = mkdtempSync(join(tmpdir(), 'conformance-preflight-'));
    for (const variant of [
      'list-wrapped',
      'list-min-exclusive',
      'header-name-lower-case-only',
      'json-bom',
      'proxy-html-some-answers',
    ]) {
      references[variant] = await startReference({ apiKey, variant, seedPets: 120 });
    }
  });
  after(async () => {
    pageAnd401.close();
    pageAnd401.closeAllConnections();
    await Promise.all(Object.values(references).map((reference) => reference.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [variant, requirement, answer] of [
    ['list-wrapped', 'LIST-200-PETS', /Received: 200 application\/json[^\n]*\n {2}\{"items":\[/],
  ] as const) {
    test(`one target: ${variant} fails ${requirement}, with the preflight's request`, async () => {
      const reports = join(dir, variant);
      const run: SuiteRun = await runSuite(
        [],
        { ...quiet, BASE_URL: references[variant]!.baseUrl },
        { dir: reports },
      );
      assert.equal(run.exitCode, 1, shown(run));
      assert.match(run.output, new RegExp(`This answer breaks ${requirement}\\.`), shown(run));
      assert.ok(run.summary, `conformance.json written${shown(run)}`);
      assertRecorded(run.summary, requirement, answer, shown(run));
      // The summary page says so too.
      const page = readFileSync(join(reports, 'conformance.html'), 'utf8');
      assert.match(page, new RegExp(`<tr id="req-${requirement}" class="failed"`));
      assert.match(page, /Requests made<\/dt><dd>[1-9]\d*<\/dd>/);
      assert.match(
        run.output,
        new RegExp(
          `1 failed, 40 blocked \\(failed: ${requirement}\\)[\\s\\S]*Requests sent: [1-9]`,
        ),
      );
    });
  }

  test('limit=1 refused, the list without limit answered: the run goes on, LIST-LIMIT-MIN alone fails', async () => {
    const run = await runSuite(['--grep', '@LIST-LIMIT-MIN|@LIST-200-PETS'], {
      ...quiet,
      BASE_URL: references['list-min-exclusive']!.baseUrl,
    });
    assert.match(run.output, /limit=1 was refused: LIST-LIMIT-MIN is charged/, shown(run));
    assert.doesNotMatch(run.output, /Preflight failed/, shown(run));
    assert.ok(run.summary, `conformance.json written${shown(run)}`);
    assert.deepEqual(failedIds(run.summary), ['LIST-LIMIT-MIN'], shown(run));
    assert.equal(verdictOf(run.summary, 'LIST-200-PETS'), 'passed', shown(run));
    const failures = run.summary.requirements.find((item) => item.id === 'LIST-LIMIT-MIN')!;
    assert.ok(
      failures.failures.some((failure) => /met by the preflight/.test(failure.message)),
      `the preflight's answer among LIST-LIMIT-MIN's failures${shown(run)}`,
    );
  });

  test('two shards merged: the merged summary shows the requirement failed', async () => {
    const env = {
      ...quiet,
      BASE_URL: references['list-wrapped']!.baseUrl,
      CONFORMANCE_RUN_ID: 'preflight01',
    };
    const shards = await Promise.all(
      [1, 2].map((shard) =>
        spawnPlaywright([`--shard=${shard}/2`, '--output', join(dir, `out-${shard}`)], {
          ...env,
          CONFORMANCE_REPORT_DIR: join(dir, `shard-${shard}`),
        }),
      ),
    );
    const blobs = join(dir, 'blobs');
    mkdirSync(blobs);
    for (const [index, shard] of shards.entries()) {
      assert.equal(shard.exitCode, 1, shown(shard));
      const blob = join(dir, `shard-${index + 1}`, 'blob');
      assert.ok(existsSync(blob), `a blob report${shown(shard)}`);
      for (const file of readdirSync(blob)) cpSync(join(blob, file), join(blobs, file));
    }
    const merged = join(dir, 'merged');
    const merge = await spawnNode(['--import', 'tsx', 'scripts/merge.ts', blobs], {
      ...quiet,
      API_KEY: '',
      CONFORMANCE_REPORT_DIR: merged,
    });
    assertRecorded(
      read(join(merged, 'conformance.json')),
      'LIST-200-PETS',
      /\{"items":\[/,
      shown(merge),
    );
  });

  test('a target reading only "authorization" gets past the preflight and fails AUTH-BEARER alone', async () => {
    const run = await runSuite(['--grep', '@AUTH-|@LIST-200-PETS'], {
      ...quiet,
      BASE_URL: references['header-name-lower-case-only']!.baseUrl,
    });
    assert.match(
      run.output,
      /answered 200 in \d+ ms\. The target refused the key under the header name "Authorization" \(401\) and accepted it under "authorization": it reads header names case-sensitively/,
      shown(run),
    );
    assert.ok(run.summary, shown(run));
    assert.deepEqual(failedIds(run.summary), ['AUTH-BEARER'], shown(run));
    for (const id of ['LIST-200-PETS', 'AUTH-401-MISSING', 'AUTH-401-INVALID']) {
      assert.equal(verdictOf(run.summary, id), 'passed', `${id}${shown(run)}`);
    }
    const failure = run.summary.requirements.find((item) => item.id === 'AUTH-BEARER')!;
    assert.match(
      failure.failures[0]!.message,
      /refused under the header name "Authorization", and accepted under "authorization": the target reads header names case-sensitively, and they are case-insensitive \(RFC 9110 §5\.1\)/,
    );
  });

  /**
   * The garbled targets, each with the checks its test reads (the tags of `grep`), in one run of
   * several (CONFORMANCE_TARGETS), started by the first test that reads it. The run's one worker
   * checks each in turn (CONFORMANCE_SHARE_WORKERS; `--grep` picks each target's checks by its
   * name, the title of its group), and MEDIA-JSON, which each must fail, is in a baseline: a failed
   * check charged to it keeps the worker instead of starting another. A baseline changes no
   * verdict (the gate's exit code alone, which no test here reads): conformance.json still says
   * failed, and any other failure is a failure.
   */
  const garbled: Record<string, { baseUrl: () => string; grep: string }> = {
    'json-bom': {
      baseUrl: () => references['json-bom']!.baseUrl,
      grep: '@MEDIA-JSON|@LIST-200-PETS',
    },
    'proxy-html-some-answers': {
      baseUrl: () => references['proxy-html-some-answers']!.baseUrl,
      grep: '@MEDIA-JSON',
    },
    'page-and-401': {
      baseUrl: () => `http://127.0.0.1:${(pageAnd401.address() as AddressInfo).port}/api/v1`,
      grep: '@MEDIA-JSON',
    },
  };
  let garbledRun: Promise<TargetsRun> | undefined;
  function runGarbled(): Promise<TargetsRun> {
    const names = Object.keys(garbled);
    const baselineFile = join(dir, 'garbled-baseline.json');
    writeFileSync(
      baselineFile,
      JSON.stringify({
        failures: [
          { requirement: 'MEDIA-JSON', reason: 'each garbled target fails it: worker kept' },
        ],
      }),
    );
    const grep = names.map((name) => ` ${name} .*(?:${garbled[name]!.grep})`).join('|');
    return runTargets(
      names.map((name) => ({ name, baseUrl: garbled[name]!.baseUrl() })),
      apiKey,
      ['--grep', grep],
      { ...quiet, CONFORMANCE_SHARE_WORKERS: '1', CONFORMANCE_BASELINE: baselineFile },
    );
  }

  /**
   * A garbled target, of the run above: it went on past the preflight, whose line (the target's
   * own) says why (`line`), and MEDIA-JSON failed with the preflight's answer (`answer`) among its
   * failures. No target of the run was stopped as another service.
   */
  async function garbledTarget(name: string, line: RegExp, answer: RegExp): Promise<Summary> {
    const run = await (garbledRun ??= runGarbled());
    assert.match(run.output, new RegExp(`^${name}: Preflight: .*${line.source}`, 'm'), shown(run));
    assert.doesNotMatch(run.output, /not this interface|Preflight failed/, shown(run));
    const summary = run.summaries.get(name);
    assert.ok(summary, `${name}: conformance.json written${shown(run)}`);
    assert.equal(verdictOf(summary, 'MEDIA-JSON'), 'failed', shown(run));
    const failures = summary.requirements.find((item) => item.id === 'MEDIA-JSON')!.failures;
    const preflight = failures.find((failure) => /met by the preflight/.test(failure.message));
    assert.ok(preflight, `the preflight's answer among MEDIA-JSON's failures${shown(run)}`);
    assert.match(preflight.message, /GET \S+\/pets\?limit=1 \(Authorization: Bearer <API_KEY>\)/);
    assert.match(preflight.message, answer);
    return summary;
  }

  test('a target whose every body starts with a byte order mark is checked, and fails MEDIA-JSON', async () => {
    const summary = await garbledTarget(
      'json-bom',
      /answered 200 in \d+ ms\. Its body is not JSON, but the interface's answer: MEDIA-JSON is charged with it, and the run goes on \(the body is not JSON \([^\n]*\): JSON after a byte order mark \(EF BB BF\)/,
      /JSON after a byte order mark/,
    );
    // The lists behind the mark are judged as the lists they are: LIST-200-PETS passes.
    assert.deepEqual(failedIds(summary), ['MEDIA-JSON']);
    assert.equal(verdictOf(summary, 'LIST-200-PETS'), 'passed');
  });

  test("a proxy's page as the first answer: asked once more, the list comes, and the run goes on", async () => {
    await garbledTarget(
      'proxy-html-some-answers',
      /MEDIA-JSON is charged with it, and the run goes on \(the body is not JSON \([^\n]*\); the same request, sent again, was answered with the list\)/,
      /Received: 200 text\/html[\s\S]*<title>Sign in<\/title>/,
    );
  });

  test('lists that are always a page, a 401 Error without a key: the interface, garbled', async () => {
    await garbledTarget(
      'page-and-401',
      /; the request without a key was answered 401 with an Error: the interface answers at this address\)/,
      /Received: 200 text\/html/,
    );
  });
});
