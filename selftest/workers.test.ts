/**
 * One deviation fails its own requirement whichever worker meets its traces. The mutation
 * self-test gives each target one worker (the many-targets mode does); a user's run against one
 * target has four, and while one worker asks a target about a list, the others create pets and
 * read what the first created. With the user's four workers:
 *
 * - a store that gives concurrent creates one id (create-id-race) fails PET-ID-UNIQUE alone: a pet
 *   listed twice under such an id, or read there under another pet's name, is known run-wide to
 *   be two creates answered with one id (tests/support/http/run-state.ts), not a pet listed twice
 *   (LIST-NO-DUPLICATES) or not kept (CREATE-PERSIST);
 * - a store whose unfiltered lists leave out sold pets (list-unfiltered-hides-sold) fails
 *   LIST-COMPLETE alone: a list at a smaller limit that holds more than a short list did is the
 *   store growing meanwhile, once the short list asked again holds as many (pets.ts, shortfall),
 *   not a count that does not follow the limit (LIST-LIMIT-EXACT).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { findVariant } from '../reference/src/variants/index.ts';
import { runSuite } from './support/playwright.ts';

const apiKey = 'workers-key-7c2d19';

for (const [variant, requirement] of [
  ['create-id-race', 'PET-ID-UNIQUE'],
  ['list-unfiltered-hides-sold', 'LIST-COMPLETE'],
] as const) {
  test(`four workers against ${variant}: ${requirement} fails, and nothing else`, async () => {
    assert.equal(findVariant(variant)?.breaks, requirement);
    // The variant's own store (list-unfiltered-hides-sold starts empty), else 120 pets.
    const target = await startReference({
      apiKey,
      variant,
      seedPets: findVariant(variant)?.settings?.seedPets ?? 120,
    });
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
        [requirement],
        failed
          .map(
            (item) => `${item.id}: ${item.failures.map((failure) => failure.message).join('\n')}`,
          )
          .join('\n\n'),
      );
    } finally {
      await target.close();
    }
  });
}
