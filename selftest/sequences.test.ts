/**
 * The sequences property (tests/endpoints.spec.ts) on its own, in one Playwright run against
 * several targets: each fault that only a run of operations shows (a status hidden from unfiltered
 * lists, a cache that keeps the newest 60 pets, overlapping creates that lose a write) fails its
 * own requirement and nothing else, no LIST-LIMIT-* rule among them; the clean reference and the
 * conformant variations a shared staging has (a busy neighbour, a large store) pass. Then a counterexample replays: the command the
 * failure prints, against a fresh target of the same fault, fails with the same minimal sequence.
 *
 * The run's one worker checks the targets in turn (CONFORMANCE_SHARE_WORKERS), each target's tests
 * in order on its own store, as a project of one worker per target did, without a worker started
 * per target. A baseline of each fault's own requirement keeps that worker after the failures it
 * expects, where Playwright would start another for each: no verdict changes (a requirement charged
 * anything fails, tolerated or not), and a failure of any other requirement is still a new one.
 * The counterexample that replays is that run's: the failure of the spec's first test against the
 * hidden status (list-unfiltered-hides-sold), which ran first on that fresh store with the same
 * seed, as in a run of that test alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import { findVariant } from '../reference/src/variants/index.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { runPlaywright, runTargets } from './support/playwright.ts';

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

/** The fault whose counterexample replays, and its test (the spec's first). */
const replayOf = { fault: 'list-unfiltered-hides-sold', test: 'creates of each status' };

interface Target {
  name: string;
  handle: ReferenceHandle;
  breaks?: string;
}

interface SequencesRun {
  /** The run's output, the last of it shown when a summary is missing. */
  output: string;
  /** Each target's summary, by its name; undefined where the run wrote none. */
  summaries: Record<string, Summary | undefined>;
  breaks: Record<string, string | undefined>;
}

/** The sequences property against every target of `faults` and `conformant`, in one run. */
async function runSequences(): Promise<SequencesRun> {
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
    const baselineFile = join(dir, 'baseline.json');
    writeFileSync(
      baselineFile,
      JSON.stringify({
        failures: targets.flatMap(({ name, breaks }) =>
          breaks ? [{ requirement: breaks, target: name, reason: 'a fault: its worker kept' }] : [],
        ),
      }),
    );
    const run = await runTargets(
      targets.map(({ name, handle }) => ({ name, baseUrl: handle.baseUrl })),
      apiKey,
      [spec],
      {
        CONFORMANCE_BASELINE: baselineFile,
        CONFORMANCE_REPORTS: 'none',
        FC_SEED: seed,
        CONFORMANCE_RUN_ID: '',
        CONFORMANCE_SHARE_WORKERS: '1',
        CONFORMANCE_WORKERS: '1',
      },
      { timeoutMs: 400_000 },
    );
    const summaries: SequencesRun['summaries'] = {};
    for (const { name } of targets) summaries[name] = run.summaries.get(name);
    return {
      output: run.output,
      summaries,
      breaks: Object.fromEntries(targets.map(({ name, breaks }) => [name, breaks])),
    };
  } finally {
    for (const { handle } of targets) await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The one run both tests read, started by the first that asks. */
let sequencesRun: Promise<SequencesRun> | undefined;
const theRun = () => (sequencesRun ??= runSequences());

const failedIds = (summary: Summary) =>
  summary.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id);

test(
  'the sequences property alone catches each sequence fault under its own requirement, and passes conformant stores',
  { timeout: 420_000 },
  async () => {
    const { output, summaries, breaks: faultOf } = await theRun();
    for (const [name, summary] of Object.entries(summaries)) {
      assert.ok(summary, `${name}: a summary\n${output.slice(-3000)}`);
      const failed = failedIds(summary);
      const breaks = faultOf[name];
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
  },
);

test(
  'a counterexample sequence replays from FC_REPLAY_PATH, FC_SEED and FC_PATH to the same minimal sequence',
  // The run above, if this test runs alone, then the replay.
  { timeout: 540_000 },
  async () => {
    const { fault } = replayOf;
    const { output, summaries } = await theRun();
    const failed = summaries[fault]?.tests.find(
      (record) => record.title.includes(replayOf.test) && record.outcome === 'failed',
    );
    assert.ok(failed, `the property fails on ${fault}:\n${output.slice(-3000)}`);
    const failure = (failed.errors ?? []).join('\n');
    assert.match(failure, /^\s*(Error: )?\[LIST-COMPLETE\]/, 'charged to LIST-COMPLETE');
    assert.match(failure, /The sequence as sent \(\d+ requests\):\n\s*1\. GET \/pets\?limit=100/);
    const replay =
      /Replay: FC_REPLAY_PATH="([^"]*)" FC_SEED=(-?\d+) FC_PATH="([\d:]+)" npx playwright test (\S+)/.exec(
        failure,
      );
    const counterexample = /Counterexample: (.*)/.exec(failure)?.[1];
    assert.ok(replay && counterexample, `seed, paths and counterexample named:\n${failure}`);
    const [, replayPath, replaySeed, path, location] = replay;

    // The printed command, against a fresh target of the same fault.
    const target = await startReference({ apiKey, variant: fault });
    const again = await runPlaywright([location!], {
      BASE_URL: target.baseUrl,
      API_KEY: apiKey,
      CONFORMANCE_WORKERS: '1',
      FC_REPLAY_PATH: replayPath!,
      FC_SEED: replaySeed!,
      FC_PATH: path!,
    }).finally(() => target.close());
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
    assert.deepEqual(requests(replayed.error), requests(failure));
  },
);
