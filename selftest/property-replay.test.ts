/**
 * A property failure can be replayed: run the generated-NewPet property against a faulty
 * reference (names silently truncated past 200 characters), read the seed, path and counterexample
 * from the report, then run the one replay command the report prints and see the same
 * counterexample fail again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { runPlaywright } from './support/playwright.ts';

const apiKey = 'replay-key-7d2a';

test(
  'a property failure on a faulty target replays from FC_SEED and FC_PATH',
  { timeout: 120_000 },
  async () => {
    const target = await startReference({ apiKey, variant: 'name-truncated-200' });
    try {
      const env = { BASE_URL: target.baseUrl, API_KEY: apiKey, CONFORMANCE_WORKERS: '1' };
      const grep = ['--grep', 'property: any valid NewPet'];
      const first = await runPlaywright(grep, { ...env, FC_SEED: '424242' });
      const failure = first.tests.find((outcome) => outcome.outcome === 'failed');
      assert.ok(failure, `the property fails on the faulty target:\n${first.output}`);

      const replay = /Replay: FC_SEED=(-?\d+) FC_PATH="([\d:]+)" npx playwright test (\S+)/.exec(
        failure.error,
      );
      const counterexample = /Counterexample: (.*)/.exec(failure.error)?.[1];
      assert.ok(
        replay && counterexample,
        `the failure names seed, path and counterexample:\n${failure.error}`,
      );
      const [, seed, path, location] = replay;

      const again = await runPlaywright([location!], {
        ...env,
        FC_SEED: seed!,
        FC_PATH: path!,
      });
      const replayed = again.tests.find((outcome) => outcome.outcome === 'failed');
      assert.ok(replayed, `the replay command fails again:\n${again.output}`);
      // The same generated value; only the run's marker at the start of the name differs.
      const unmarked = (text?: string) => text?.replace(/conformance-[0-9a-f]{8}-/g, '<marker>');
      assert.equal(
        unmarked(/Counterexample: (.*)/.exec(replayed.error)?.[1]),
        unmarked(counterexample),
        'with the same counterexample',
      );
      assert.equal(again.tests.length, 1, 'the replay command runs that one test');
    } finally {
      await target.close();
    }
  },
);
