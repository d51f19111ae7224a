/**
 * A property's counterexample is the smallest: against a fault only the generated-NewPet property
 * catches (categoryIds rounded through a double in mid-range, exact near 2^53 and at the int64
 * bounds), what does not matter to the failure is shrunk away. The counterexample printed is the
 * run's marker as the name, no status, and a categoryId the fault rounds: nothing else.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { runPlaywright } from './support/playwright.ts';

// No run of 8 of its characters is in the run's marker, conformance-minimal-: the report would
// redact it from the counterexample.
const apiKey = 'shrink-key-3b9e';
const runId = 'minimal';

test(
  'a property counterexample keeps only what its failure needs: the marker as the name, the categoryId',
  { timeout: 120_000 },
  async () => {
    const target = await startReference({
      apiKey,
      variant: 'categoryid-rounded-mid-range',
    });
    try {
      const run = await runPlaywright(['--grep', 'property: any valid NewPet'], {
        BASE_URL: target.baseUrl,
        API_KEY: apiKey,
        CONFORMANCE_WORKERS: '1',
        CONFORMANCE_RUN_ID: runId,
        FC_SEED: '424242',
      });
      const failure = run.tests.find((outcome) => outcome.outcome === 'failed');
      assert.ok(failure, `the property fails on the faulty target:\n${run.output}`);
      const counterexample = /Counterexample: (.*)/.exec(failure.error)?.[1];
      // fast-check prints the property's arguments as a tuple: [NewPet].
      const shape = new RegExp(
        `^\\[\\{"name":"conformance-${runId}-","categoryId":(-?\\d+)n\\}\\]$`,
      );
      const categoryId = shape.exec(counterexample ?? '')?.[1];
      assert.ok(
        categoryId,
        `the counterexample is the marker as the name and a categoryId, no status:\n${failure.error}`,
      );
      // The one value that matters: a categoryId the fault rounds, the failure charged to it.
      const value = BigInt(categoryId);
      assert.notEqual(BigInt(Number(value)), value, `${value} is one a double rounds`);
      assert.match(failure.error, /\[NEWPET-CATEGORYID-INT64\] Property failed/);
    } finally {
      await target.close();
    }
  },
);
