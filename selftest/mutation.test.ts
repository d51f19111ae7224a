/**
 * Proves the suite: runs it against the clean reference, every fault and every conformant
 * variation of it (one Playwright project each, in one run), then checks that
 *  - the clean reference and every conformant variation pass entirely, and
 *  - every fault is caught by a failing test tagged with the requirement the fault breaks
 *    (a fault's project runs just those tests).
 * Prints the matrix and a closing line `variants: N passed, N failed`.
 *
 * fast-check runs with a fixed seed here, so that the self-test is deterministic.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import { variants } from '../reference/src/variants/index.ts';
import { type TestOutcome, runPlaywright } from './support/playwright.ts';

const apiKey = 'selftest-key-5f1c0e';
const selftestSeed = '20261121';

interface Target {
  name: string;
  kind: 'reference' | 'fault' | 'conformant';
  breaks: string;
  handle: ReferenceHandle;
}

interface Verdict {
  ok: boolean;
  /** How it was caught or passed: "2 examples + 1 property", "property only", "42 passed". */
  how: string;
  detail: string;
}

const shortTitle = (outcome: TestOutcome) =>
  `${outcome.file.replace(/^.*\//, '')}: ${outcome.title}`;

function judge(target: Target, outcomes: TestOutcome[]): Verdict {
  const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
  if (outcomes.length === 0) return { ok: false, how: 'no test ran', detail: '' };
  if (target.kind !== 'fault') {
    return failed.length === 0
      ? { ok: true, how: `${outcomes.length} passed`, detail: '' }
      : {
          ok: false,
          how: `${failed.length} of ${outcomes.length} failed`,
          detail: failed
            .map((each) => `${shortTitle(each)}\n${each.error.slice(0, 1500)}`)
            .join('\n\n'),
        };
  }
  const catching = failed.filter((outcome) => outcome.tags.includes(target.breaks));
  if (catching.length === 0) {
    return {
      ok: false,
      how: 'NOT CAUGHT',
      detail: `no ${target.breaks} test failed (${outcomes.length} ran)`,
    };
  }
  const properties = catching.filter((outcome) => outcome.tags.includes('property')).length;
  const examples = catching.length - properties;
  const how =
    examples === 0
      ? 'property only'
      : properties === 0
        ? `${examples} example(s)`
        : `${examples} example(s) + ${properties} property`;
  return { ok: true, how, detail: catching.map(shortTitle).join('; ') };
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

test(
  'the suite passes every conformant target and catches every fault',
  { timeout: 400_000 },
  async () => {
    const started = Date.now();
    const targets: Target[] = [];
    try {
      targets.push({
        name: 'clean',
        kind: 'reference',
        breaks: '-',
        handle: await startReference({ apiKey }),
      });
      for (const variant of variants) {
        const handle = await startReference({ apiKey, variant: variant.name });
        targets.push({
          name: variant.name,
          kind: variant.kind,
          breaks: variant.breaks ?? '-',
          handle,
        });
      }
      const run = await runPlaywright(['-c', 'selftest/mutation.config.ts'], {
        SELFTEST_TARGETS: JSON.stringify(
          targets.map(({ name, kind, breaks, handle }) => ({
            name,
            baseUrl: handle.baseUrl,
            requirement: kind === 'fault' ? breaks : undefined,
          })),
        ),
        BASE_URL: targets[0]!.handle.baseUrl,
        API_KEY: apiKey,
        FC_SEED: selftestSeed,
        CONFORMANCE_REQUEST_TIMEOUT_MS: '2000',
        CONFORMANCE_TEST_TIMEOUT_MS: '30000',
        CONFORMANCE_MAX_PETS: '1000',
        CONFORMANCE_WORKERS: process.env.SELFTEST_WORKERS ?? '4',
      });

      const verdicts = targets.map((target) => ({
        target,
        verdict: judge(
          target,
          run.tests.filter((outcome) => outcome.project === target.name),
        ),
      }));
      const rows = verdicts.map(({ target, verdict }) => [
        target.name,
        target.kind,
        target.breaks,
        verdict.ok ? (target.kind === 'fault' ? 'caught' : 'passed') : 'FAILED',
        verdict.how,
        target.kind === 'fault' ? verdict.detail : '',
      ]);
      console.log(
        `\n${table([['variant', 'kind', 'breaks', 'verdict', 'how', 'caught by'], ...rows])}`,
      );
      const bad = verdicts.filter(({ verdict }) => !verdict.ok);
      for (const { target, verdict } of bad)
        console.log(`\n${target.name}: ${verdict.how}\n${verdict.detail}`);
      const onlyProperty = verdicts
        .filter(({ verdict }) => verdict.how === 'property only')
        .map(({ target }) => target.name);
      console.log(`\nFaults only a property catches: ${onlyProperty.join(', ') || 'none'}`);
      console.log(
        `Suite run: ${run.tests.length} tests over ${targets.length} targets in ${(run.durationMs / 1000).toFixed(1)} s; ` +
          `self-test ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      console.log(`variants: ${verdicts.length - bad.length} passed, ${bad.length} failed`);
      assert.deepEqual(
        bad.map(({ target }) => target.name),
        [],
        'every fault caught by its requirement, every conformant target passing',
      );
    } finally {
      await Promise.all(targets.map(({ handle }) => handle.close()));
    }
  },
);
