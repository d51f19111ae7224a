/**
 * Many targets, many machines, one verdict (issue 12), proved with real runs:
 * - two shards of a run (`--shard=K/N`, the same CONFORMANCE_RUN_ID), merged with `npm run merge`
 *   without target or key, write the reports of one unsharded run, with its facts;
 * - shards share the write budget: together they never create more than CONFORMANCE_MAX_PETS;
 * - a reporter given on the command line (blob, html, json, junit), or --trace, never writes the
 *   key: the run refuses before sending a request, with one message;
 * - two targets in one run (CONFORMANCE_TARGETS), one of them faulty: a summary each, and an
 *   overview page whose cells link to each target's failure, checked in Debian's chromium;
 * - the same two sharing the workers (CONFORMANCE_SHARE_WORKERS), in two shards merged: the
 *   summaries of the run with a project per target.
 * The run of two targets is made once: it is also the unsharded run the merged shards are
 * compared with (the first bullet: its target on the shards' store; the last: both targets).
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
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { browserUnavailable, receivedOf, withBrowser } from './support/browser.ts';
import { startCountingProxy } from './support/counting-proxy.ts';
import { startHostileTarget } from './support/hostile-targets.ts';
import { leakForms, scanBytes, scanFolder } from './support/leak-scan.ts';
import { spawnNode, spawnPlaywright } from './support/playwright.ts';

const apiKey = 'dist-secret-Kq8vT3mZ';
/** What these runs share; every other setting as support/playwright.ts leaves it (one worker). */
const quiet: Record<string, string> = { API_KEY: apiKey, CI: '1' };

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Summary;
const verdicts = (summary: Summary) =>
  [...summary.requirements, ...summary.advisories].map((item) => `${item.id} ${item.verdict}`);

/**
 * `npm run merge` of the blob reports the shards left in `dir`/<shard>/blob, without target or
 * key, into `merged`.
 */
async function mergeShards(
  dir: string,
  shards: string[],
  merged: string,
  env: Record<string, string> = {},
) {
  const blobs = join(dir, `${shards[0]}-blobs`);
  mkdirSync(blobs);
  for (const shard of shards) {
    const blob = join(dir, shard, 'blob');
    for (const file of readdirSync(blob)) cpSync(join(blob, file), join(blobs, file));
  }
  return spawnNode(['--import', 'tsx', 'scripts/merge.ts', blobs], {
    ...quiet,
    API_KEY: '',
    CONFORMANCE_REPORT_DIR: merged,
    ...env,
  });
}

/** Where a run of several targets writes a target's summary. */
const targetSummary = (reports: string, name: string) =>
  join(reports, 'targets', name, 'conformance.json');

describe('many targets, many machines, one verdict', { concurrency: true }, () => {
  let dir: string;
  let reference: ReferenceHandle;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'conformance-distributed-'));
    reference = await startReference({ apiKey, seedPets: 120 });
  });
  after(async () => {
    await reference.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /**
   * One run of two targets, each a project (CONFORMANCE_TARGETS): staging-eu the reference the
   * shards of the first test check too, staging-us a faulty one (list-default-10, its own store).
   * Started by the first test that asks and read by three: a run costs seconds of CPU.
   */
  let many: Promise<{ reports: string; exitCode: number; output: string }> | undefined;
  const twoTargets = () =>
    (many ??= (async () => {
      const faulty = await startReference({ apiKey, variant: 'list-default-10', seedPets: 120 });
      try {
        const targets = join(dir, 'targets.json');
        writeFileSync(
          targets,
          JSON.stringify([
            { name: 'staging-eu', baseUrl: reference.baseUrl, apiKeyEnv: 'EU_KEY' },
            { name: 'staging-us', baseUrl: faulty.baseUrl, apiKeyEnv: 'US_KEY' },
          ]),
        );
        const reports = join(dir, 'many');
        const run = await spawnPlaywright(['--output', join(dir, 'many-out')], {
          ...quiet,
          API_KEY: '',
          CONFORMANCE_TARGETS: targets,
          EU_KEY: apiKey,
          US_KEY: apiKey,
          CONFORMANCE_REPORT_DIR: reports,
        });
        return { reports, ...run };
      } finally {
        await faulty.close();
      }
    })());

  test('two shards, merged without target or key, write the reports of one run', async () => {
    const env = { ...quiet, BASE_URL: reference.baseUrl, CONFORMANCE_RUN_ID: 'shards01' };
    const [unsharded, ...shards] = await Promise.all([
      twoTargets(),
      ...[1, 2].map((shard) =>
        spawnPlaywright([`--shard=${shard}/2`, '--output', join(dir, `out-${shard}`)], {
          ...env,
          CONFORMANCE_REPORT_DIR: join(dir, `shard-${shard}`),
        }),
      ),
    ]);
    for (const shard of shards) assert.equal(shard.exitCode, 0, shard.output);
    const merged = join(dir, 'merged');
    const merge = await mergeShards(dir, ['shard-1', 'shard-2'], merged);
    assert.equal(merge.exitCode, 0, merge.output);
    for (const file of [
      'conformance.json',
      'conformance.html',
      'html/index.html',
      'junit.xml',
      'results.json',
    ]) {
      assert.ok(existsSync(join(merged, file)), `the merge wrote ${file}`);
    }
    // The unsharded run: the reference's summary in the run of two targets, where it is a
    // project of its own (its own tests and verdicts), on the store these shards check.
    const eu = targetSummary(unsharded!.reports, 'staging-eu');
    assert.ok(
      existsSync(eu),
      `no summary of staging-eu (exit ${unsharded!.exitCode})\n${unsharded!.output}`,
    );
    const whole = read(eu);
    assert.equal(whole.target, reference.baseUrl);
    const parts = read(join(merged, 'conformance.json'));
    // The run's own facts, carried in the blobs: the merge read no setting of its own.
    assert.equal(parts.target, reference.baseUrl);
    assert.equal(parts.runId, 'shards01');
    assert.equal(parts.settings?.shards, 2);
    // One run id, one seed: both shards drew the same generated inputs, and the merge says so.
    const seeds = [1, 2].map((shard) => read(join(dir, `shard-${shard}`, 'conformance.json')).seed);
    assert.deepEqual(seeds, [parts.seed, parts.seed]);
    assert.deepEqual(verdicts(parts), verdicts(whole));
    assert.equal(parts.tests.length, whole.tests.length);
    assert.equal(parts.verdict, 'conformant');
    // A shard covers part of the run; the merge of all of them, the whole (badge, bundle, verify).
    const shard = read(join(dir, 'shard-1', 'conformance.json'));
    assert.deepEqual([shard.scope.shard, shard.scope.complete], ['1/2', false]);
    assert.deepEqual([parts.scope.complete, parts.scope.narrowedBy], [true, []]);
    assert.equal(
      JSON.parse(readFileSync(join(merged, 'badge.json'), 'utf8')).message,
      'conformant',
    );
  });

  test('shards share the write budget: together they create at most CONFORMANCE_MAX_PETS', async () => {
    const proxy = await startCountingProxy(reference.baseUrl);
    try {
      const runs = await Promise.all(
        [1, 2].map((shard) =>
          spawnPlaywright(
            [
              `--shard=${shard}/2`,
              // Two tests, one a shard, each of which alone would create more than the whole
              // budget (20 pets at once; 12 names): each shard spends its share, and a shard that
              // took the run's 9 for its own would take the two past it.
              '--grep',
              '20 pets created at the same time|names are kept exactly',
              '--output',
              join(dir, `budget-out-${shard}`),
            ],
            {
              ...quiet,
              BASE_URL: proxy.baseUrl,
              CONFORMANCE_RUN_ID: 'budget01',
              CONFORMANCE_MAX_PETS: '9',
              CONFORMANCE_REPORT_DIR: join(dir, `budget-${shard}`),
              // As on two machines: no temporary folder, so no counter file, in common. The
              // first keeps this machine's (and Playwright's compiled tests in it: a fresh folder
              // costs a run seconds of CPU to compile them again).
              ...(shard === 2 ? { TMPDIR: mkdtempSync(join(dir, `machine-${shard}-`)) } : {}),
            },
          ),
        ),
      );
      const creates = proxy.counts.POST ?? 0;
      assert.ok(creates <= 9, `${creates} creates from two shards with a budget of 9`);
      for (const [index, run] of runs.entries()) {
        assert.match(
          run.output,
          new RegExp(
            `Write budget spent: this shard \\(${index + 1} of 2\\) may send at most ${[5, 4][index]} of the run's 9 create requests`,
          ),
        );
      }
    } finally {
      await proxy.close();
    }
  });

  test('a reporter or a trace asked on the command line never writes the key: the run refuses first', async () => {
    const hostile = await startHostileTarget();
    const proxy = await startCountingProxy(hostile.baseUrl('hang'));
    const forms = leakForms(apiKey);
    try {
      for (const reporter of ['blob', 'html', 'json', 'junit']) {
        const out = join(dir, `cli-${reporter}`);
        const run = await spawnPlaywright(
          [`--reporter=${reporter}`, '--output', join(out, 'test-results')],
          {
            ...quiet,
            BASE_URL: proxy.baseUrl,
            CONFORMANCE_REPORT_DIR: join(out, 'reports'),
            CONFORMANCE_REQUEST_TIMEOUT_MS: '1000',
            // Where these reporters write by default, here: nothing may land in the project.
            PLAYWRIGHT_BLOB_OUTPUT_DIR: join(out, 'blob'),
            PLAYWRIGHT_HTML_OUTPUT_DIR: join(out, 'html'),
            PLAYWRIGHT_JSON_OUTPUT_NAME: join(out, 'results.json'),
            PLAYWRIGHT_JUNIT_OUTPUT_NAME: join(out, 'junit.xml'),
          },
        );
        assert.notEqual(run.exitCode, 0, `${reporter}: ${run.output}`);
        assert.equal(
          run.output.split('Reporters replaced:').length - 1,
          1,
          `${reporter}: one message\n${run.output}`,
        );
        assert.match(run.output, /No request was sent\./);
        assert.deepEqual(scanBytes(Buffer.from(run.output), `${reporter}: output`, forms), []);
        if (existsSync(out)) assert.deepEqual(scanFolder(out, forms), [], `${reporter}: files`);
      }
      // A trace records the key and cannot be redacted: refused the same way.
      const traced = await spawnPlaywright(
        ['--trace=on', '--output', join(dir, 'cli-trace', 'test-results')],
        {
          ...quiet,
          BASE_URL: proxy.baseUrl,
          CONFORMANCE_REPORT_DIR: join(dir, 'cli-trace', 'reports'),
          CONFORMANCE_REQUEST_TIMEOUT_MS: '1000',
        },
      );
      assert.notEqual(traced.exitCode, 0, traced.output);
      assert.equal(traced.output.split('Traces on:').length - 1, 1, traced.output);
      assert.match(traced.output, /No request was sent\./);
      assert.deepEqual(scanFolder(join(dir, 'cli-trace'), forms), []);
      assert.equal(proxy.counts.GET ?? 0, 0, 'the hanging target was never asked anything');
    } finally {
      await proxy.close();
      await hostile.close();
    }
  });

  test('two targets sharing the workers, in two shards merged: the summaries of a run with a project each', async () => {
    // The run with a project per target is the run of two targets (twoTargets), on stores of its
    // own: two runs on one store would leave it too full to tell completeness. These are set up
    // as its are (120 pets each; staging-us list-default-10).
    const stores = await Promise.all(
      [undefined, 'list-default-10'].map((variant) =>
        startReference({ apiKey, seedPets: 120, ...(variant ? { variant } : {}) }),
      ),
    );
    try {
      const targets = join(dir, 'shared-targets.json');
      writeFileSync(
        targets,
        JSON.stringify([
          { name: 'staging-eu', baseUrl: stores[0]!.baseUrl, apiKeyEnv: 'EU_KEY' },
          { name: 'staging-us', baseUrl: stores[1]!.baseUrl, apiKeyEnv: 'US_KEY' },
        ]),
      );
      const [projects, ...shards] = await Promise.all([
        twoTargets(),
        ...[1, 2].map((shard) =>
          spawnPlaywright([`--shard=${shard}/2`, '--output', join(dir, `shared-out-${shard}`)], {
            ...quiet,
            API_KEY: '',
            EU_KEY: apiKey,
            US_KEY: apiKey,
            CONFORMANCE_REPORTS: 'none',
            CONFORMANCE_RUN_ID: 'shared01',
            CONFORMANCE_TARGETS: targets,
            CONFORMANCE_SHARE_WORKERS: '1',
            CONFORMANCE_WORKERS: '2',
            CONFORMANCE_REPORT_DIR: join(dir, `shared-${shard}`),
          }),
        ),
      ]);
      assert.notEqual(projects!.exitCode, 0, 'a failing target fails the run');
      assert.equal(shards.length, 2);
      const merged = join(dir, 'shared-merged');
      const merge = await mergeShards(dir, ['shared-1', 'shared-2'], merged, {
        CONFORMANCE_REPORTS: 'none',
      });
      assert.ok(
        existsSync(join(merged, 'targets', 'staging-us', 'conformance.json')),
        merge.output,
      );
      for (const name of ['staging-eu', 'staging-us']) {
        const whole = read(targetSummary(projects!.reports, name));
        const parts = read(targetSummary(merged, name));
        assert.equal(parts.targetName, name);
        assert.equal(parts.target, stores[name === 'staging-eu' ? 0 : 1]!.baseUrl);
        assert.deepEqual(verdicts(parts), verdicts(whole), name);
        // The same tests, titled alike: the target's group is no part of a test's title.
        assert.deepEqual(
          parts.tests.map((item) => item.title).sort(),
          whole.tests.map((item) => item.title).sort(),
        );
      }
      const us = read(targetSummary(merged, 'staging-us'));
      assert.deepEqual(
        us.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id),
        ['LIST-LIMIT-DEFAULT'],
      );
      assert.deepEqual(scanFolder(merged, leakForms(apiKey)), []);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  test('two targets in one run: a summary each, and an overview linking to each failure', async (t) => {
    const { reports, ...run } = await twoTargets();
    assert.notEqual(run.exitCode, 0, 'a failing target fails the run');
    const eu = read(targetSummary(reports, 'staging-eu'));
    const us = read(targetSummary(reports, 'staging-us'));
    assert.equal(
      eu.verdict,
      'conformant',
      JSON.stringify(eu.requirements.filter((item) => item.verdict !== 'passed')).slice(0, 4000),
    );
    assert.equal(us.verdict, 'not conformant');
    assert.deepEqual(
      us.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id),
      ['LIST-LIMIT-DEFAULT'],
    );
    assert.ok(existsSync(join(reports, 'targets', 'staging-us', 'conformance.html')));
    const overview = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
      verdict: string;
      targets: { name: string; requirements: Record<string, string> }[];
    };
    assert.equal(overview.verdict, 'not conformant');
    assert.deepEqual(
      overview.targets.map((target) => target.name),
      ['staging-eu', 'staging-us'],
    );
    assert.deepEqual(scanFolder(reports, leakForms(apiKey)), []);

    const unavailable = browserUnavailable();
    if (unavailable) return t.skip(unavailable);
    await withBrowser(async (context) => {
      const page = context.pages()[0] ?? (await context.newPage());
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      await page.goto(`file://${join(reports, 'conformance.html')}`);
      const rows = page.locator('table.overview tbody tr');
      assert.equal(await rows.count(), 2);
      assert.equal(await rows.nth(0).locator('.tile.failed').count(), 0);
      const cell = rows.nth(1).locator('.tile.failed');
      assert.equal(await cell.count(), 1, 'one failed cell for staging-us');
      assert.equal(
        await cell.getAttribute('href'),
        'targets/staging-us/conformance.html#failure-LIST-LIMIT-DEFAULT',
      );
      await cell.click();
      await page.waitForURL(/targets\/staging-us\/conformance\.html#failure-LIST-LIMIT-DEFAULT$/);
      assert.ok(await page.locator('#failure-LIST-LIMIT-DEFAULT').isVisible());
      // What came back, as staging-us's summary recorded it (its wording is docs.test.ts's).
      const received = receivedOf(us, 'LIST-LIMIT-DEFAULT');
      assert.ok(
        (
          await page.locator('#failure-LIST-LIMIT-DEFAULT .part.received').first().innerText()
        ).includes(received),
        `the failure shows what came back:\n${received}`,
      );
      assert.deepEqual(
        requested.filter((url) => !url.startsWith('file:')),
        [],
        'loads nothing',
      );
    });
  });
});
