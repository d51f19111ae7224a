/**
 * One deviation fails its own requirement whichever worker meets its traces. The mutation
 * self-test gives each target one worker (the many-targets mode does); a user's run against one
 * target has four, and what one worker created another lists and reads. Against a store that gives
 * concurrent creates one id (create-id-race), a run of four workers fails PET-ID-UNIQUE and
 * nothing else: a pet listed twice under such an id, or read there under another pet's name, is
 * known run-wide to be two creates answered with one id (tests/support/http/run-state.ts), not a
 * pet listed twice (LIST-NO-DUPLICATES) or a pet not kept (CREATE-PERSIST).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { runSuite } from './support/playwright.ts';

const apiKey = 'workers-key-7c2d19';

test('four workers against a store that gives concurrent creates one id: PET-ID-UNIQUE fails, and nothing else', async () => {
  const target = await startReference({ apiKey, variant: 'create-id-race', seedPets: 120 });
  try {
    const run = await runSuite([], {
      BASE_URL: target.baseUrl,
      API_KEY: apiKey,
      CONFORMANCE_REPORTS: 'json',
      CONFORMANCE_WORKERS: '4',
    });
    const summary = run.summary;
    assert.ok(summary, `no summary\n${run.output}`);
    const failed = summary.requirements.filter((item) => item.verdict === 'failed');
    assert.deepEqual(
      failed.map((item) => item.id),
      ['PET-ID-UNIQUE'],
      failed
        .map((item) => `${item.id}: ${item.failures.map((failure) => failure.message).join('\n')}`)
        .join('\n\n'),
    );
    const undecided = summary.requirements.filter(
      (item) => item.verdict !== 'passed' && item.verdict !== 'failed',
    );
    assert.deepEqual(
      undecided.map((item) => `${item.id} ${item.verdict}`),
      [],
    );
  } finally {
    await target.close();
  }
});
