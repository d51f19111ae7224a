/**
 * The faster stack traces (tests/support/setup/stack-traces.ts) write the same text as the
 * source-map-support they wrap: one section of the suite, run against a faulty reference so that
 * failures, properties and their shrinking are among the stacks, writes every stack both ways
 * (CONFORMANCE_STACK_AUDIT) in the main process and the worker; not one may differ.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { runPlaywright } from './support/playwright.ts';

const apiKey = 'stacks-key-41c9';

test('stack traces read the same, written fast', { timeout: 120_000 }, async () => {
  const target = await startReference({ apiKey, variant: 'name-truncated-200' });
  const dir = mkdtempSync(join(tmpdir(), 'conformance-stacks-'));
  const audit = join(dir, 'audit.jsonl');
  try {
    const run = await runPlaywright(['tests/createPet.spec.ts'], {
      BASE_URL: target.baseUrl,
      API_KEY: apiKey,
      CONFORMANCE_WORKERS: '1',
      CONFORMANCE_STACK_AUDIT: audit,
    });
    assert.ok(
      run.tests.some((outcome) => outcome.outcome === 'failed'),
      `the faulty target fails a check, so failures are among the stacks:\n${run.output}`,
    );
    const records = readFileSync(audit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { compared?: number; expected?: string; got?: string });
    const differences = records.filter((record) => record.compared === undefined);
    assert.deepEqual(differences.slice(0, 3), [], `${differences.length} stacks differ`);
    const compared = records.reduce((sum, record) => sum + (record.compared ?? 0), 0);
    // Each process reports its count as it exits: the main process and at least one worker.
    assert.ok(records.length >= 2, `counts from ${records.length} process(es)`);
    // About 470: a request and each example's expect capture one (a property's runs, checked with
    // verify(), do not).
    assert.ok(compared > 400, `only ${compared} stacks were written`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await target.close();
  }
});
