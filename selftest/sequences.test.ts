/**
 * The sequences property (tests/endpoints.spec.ts) on its own, in one Playwright run against
 * several targets: each fault that only a run of operations shows (a status hidden from unfiltered
 * lists, a cache that keeps the newest 60 pets, overlapping creates that lose a write) fails its
 * own requirement and nothing else, no LIST-LIMIT-* rule among them; the clean reference and the
 * conformant variations a shared staging has (a busy neighbour, a large store, a default status
 * that appears later, declared categories) pass. Then a counterexample replays: the command the
 * failure prints, against a fresh target of the same fault, fails with the same minimal sequence.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import { findVariant } from '../reference/src/variants/index.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { runPlaywright, spawnPlaywright } from './support/playwright.ts';

const apiKey = 'sqk-3b9e61d0';
const seed = '20261121';
const spec = 'tests/endpoints.spec.ts';

/** The faults of sequences, and how many pets their stores start with. */
const faults: Record<string, number | undefined> = {
  'list-unfiltered-hides-sold': undefined,
  // Full from the start: every create evicts a pet the store listed before.
  'store-capped-newest-60': 120,
  'create-overlapping-writes-lost': 120,
};
/** The conformant stores of a shared staging: empty, a busy neighbour, 5,000 pets. */
const conformant: Record<string, number | undefined> = {
  clean: 0,
  'concurrent-writers': 120,
  'large-store': undefined,
};

interface Target {
  name: string;
  handle: ReferenceHandle;
  breaks?: string;
}

const failedIds = (summary: Summary) =>
  summary.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id);

test(
  'the sequences property alone catches each sequence fault under its own requirement, and passes conformant stores',
  { timeout: 420_000 },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-sequences-'));
    const targets: Target[] = [];
    try {
      for (const [name, seedPets] of Object.entries({ ...faults, ...conformant })) {
        const variant = findVariant(name);
        const handle = await startReference({
          apiKey,
          variant: name,
          ...(seedPets === undefined ? {} : { seedPets }),
        });
        targets.push({ name, handle, ...(variant?.breaks ? { breaks: variant.breaks } : {}) });
      }
      const targetsFile = join(dir, 'targets.json');
      writeFileSync(
        targetsFile,
        JSON.stringify(
          targets.map(({ name, handle }) => ({
            name,
            baseUrl: handle.baseUrl,
            apiKeyEnv: 'SELFTEST_API_KEY',
          })),
        ),
      );
      const reports = join(dir, 'reports');
      const run = await spawnPlaywright(
        ['--output', join(dir, 'test-results'), spec],
        {
          CONFORMANCE_TARGETS: targetsFile,
          SELFTEST_API_KEY: apiKey,
          CONFORMANCE_REPORT_DIR: reports,
          CONFORMANCE_REPORTS: 'none',
          FC_SEED: seed,
          CONFORMANCE_RUN_ID: '',
          CONFORMANCE_WORKERS: '2',
        },
        400_000,
      );
      for (const { name, breaks } of targets) {
        const file = join(reports, 'targets', name, 'conformance.json');
        assert.ok(existsSync(file), `${name}: a summary\n${run.output.slice(-3000)}`);
        const summary = JSON.parse(readFileSync(file, 'utf8')) as Summary;
        const failed = failedIds(summary);
        if (breaks) {
          assert.deepEqual(failed, [breaks], `${name} fails ${breaks} alone`);
        } else {
          assert.deepEqual(failed, [], `${name} passes`);
          const undecided = summary.requirements.filter(
            (item) => item.verdict !== 'passed' && item.verdict !== 'not run',
          );
          assert.deepEqual(
            undecided.map((item) => `${item.id} ${item.verdict}`),
            // The large store: its lists are full, so no short list decides completeness.
            name === 'large-store' ? ['LIST-COMPLETE inconclusive'] : [],
            `${name}: nothing else left undecided`,
          );
          // A few short sequences per test: about 70 requests on a store of 120 pets.
          assert.ok(summary.requests <= 90, `${name}: ${summary.requests} requests`);
        }
      }
    } finally {
      for (const { handle } of targets) await handle.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test(
  'a counterexample sequence replays from FC_REPLAY_PATH, FC_SEED and FC_PATH to the same minimal sequence',
  { timeout: 120_000 },
  async () => {
    const fault = 'list-unfiltered-hides-sold';
    const runOn = async (env: Record<string, string>, args: string[]) => {
      const target = await startReference({ apiKey, variant: fault });
      try {
        return await runPlaywright(args, {
          BASE_URL: target.baseUrl,
          API_KEY: apiKey,
          CONFORMANCE_WORKERS: '1',
          ...env,
        });
      } finally {
        await target.close();
      }
    };
    const first = await runOn({ FC_SEED: seed }, [spec, '--grep', 'creates of each status']);
    const failure = first.tests.find((outcome) => outcome.outcome === 'failed');
    assert.ok(failure, `the property fails on ${fault}:\n${first.output}`);
    assert.match(failure.error, /^\s*(Error: )?\[LIST-COMPLETE\]/, 'charged to LIST-COMPLETE');
    assert.match(
      failure.error,
      /The sequence as sent \(\d+ requests\):\n\s*1\. GET \/pets\?limit=100/,
    );
    const replay =
      /Replay: FC_REPLAY_PATH="([^"]*)" FC_SEED=(-?\d+) FC_PATH="([\d:]+)" npx playwright test (\S+)/.exec(
        failure.error,
      );
    const counterexample = /Counterexample: (.*)/.exec(failure.error)?.[1];
    assert.ok(replay && counterexample, `seed, paths and counterexample named:\n${failure.error}`);
    const [, replayPath, replaySeed, path, location] = replay;

    const again = await runOn(
      { FC_REPLAY_PATH: replayPath!, FC_SEED: replaySeed!, FC_PATH: path! },
      [location!],
    );
    const replayed = again.tests.find((outcome) => outcome.outcome === 'failed');
    assert.ok(replayed, `the replay fails again:\n${again.output}`);
    assert.equal(again.tests.length, 1, 'the replay command runs that one test');
    assert.equal(/Counterexample: (.*)/.exec(replayed.error)?.[1], counterexample);
    // The same requests, in the same order (only the run's marker in names differs).
    // Ids differ: the first run's earlier sequences left pets in its store.
    const requests = (text: string) =>
      [...text.matchAll(/^\s*\d+\. (GET|POST) (\S+)/gm)].map(
        (match) => `${match[1]} ${match[2]!.replace(/^\/pets\/-?\d+$/, '/pets/{id}')}`,
      );
    assert.deepEqual(requests(replayed.error), requests(failure.error));
  },
);
