/**
 * Proves the suite: runs it against the clean reference, every fault and every conformant
 * variation of it (one Playwright project each, in one run), then checks that
 *  - the clean reference and every conformant variation pass entirely;
 *  - every fault is caught by a failing test tagged with the requirement the fault breaks
 *    (a fault's project runs just those tests);
 *  - a conformant variation lacking HTTP-standard extras passes with exactly those advisories
 *    flagged, and in strict mode (a second project, advisory tests only) fails exactly those.
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
  kind: 'reference' | 'fault' | 'conformant' | 'strict';
  /** Faults: the requirement broken. */
  breaks: string;
  /** Conformant targets: the advisories (HTTP-standard extras) they lack. */
  lacks: readonly string[];
  handle: ReferenceHandle;
}

interface Verdict {
  ok: boolean;
  /** How it was caught or passed: "2 example(s) + 1 property", "property only", "42 passed". */
  how: string;
  detail: string;
}

const shortTitle = (outcome: TestOutcome) =>
  `${outcome.file.replace(/^.*\//, '')}: ${outcome.title}`;

/** The advisory IDs flagged in these outcomes' annotations. */
function flaggedAdvisories(outcomes: TestOutcome[]): Set<string> {
  return new Set(
    outcomes.flatMap((outcome) =>
      outcome.annotations
        .filter(
          ({ type, description }) => type === 'advisory' && / flagged/.test(description ?? ''),
        )
        .map(({ description }) => (description ?? '').split(':')[0]!),
    ),
  );
}

function judgeFault(target: Target, outcomes: TestOutcome[]): Verdict {
  const catching = outcomes.filter(
    (outcome) => outcome.outcome === 'failed' && outcome.tags.includes(target.breaks),
  );
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

function judgeConformant(target: Target, outcomes: TestOutcome[]): Verdict {
  const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
  if (failed.length > 0) {
    return {
      ok: false,
      how: `${failed.length} of ${outcomes.length} failed`,
      detail: failed
        .map((each) => `${shortTitle(each)}\n${each.error.slice(0, 1500)}`)
        .join('\n\n'),
    };
  }
  const flags = flaggedAdvisories(outcomes);
  const wrong = [
    ...target.lacks.filter((id) => !flags.has(id)).map((id) => `${id} not flagged`),
    ...[...flags].filter((id) => !target.lacks.includes(id)).map((id) => `${id} flagged`),
  ];
  if (wrong.length) return { ok: false, how: 'advisories wrong', detail: wrong.join('; ') };
  const flaggedNote = target.lacks.length ? `, flagged ${target.lacks.join(', ')}` : '';
  return { ok: true, how: `${outcomes.length} passed${flaggedNote}`, detail: '' };
}

function judgeStrict(target: Target, outcomes: TestOutcome[]): Verdict {
  const failed = outcomes.filter((outcome) => outcome.outcome === 'failed');
  const failedTags = new Set(failed.flatMap((outcome) => outcome.tags));
  const wrong = [
    ...target.lacks.filter((id) => !failedTags.has(id)).map((id) => `${id} did not fail`),
    ...failed.filter((o) => !o.tags.some((tag) => target.lacks.includes(tag))).map(shortTitle),
  ];
  if (wrong.length) return { ok: false, how: 'strict mode wrong', detail: wrong.join('; ') };
  const how = target.lacks.length ? `strict: fails ${target.lacks.join(', ')}` : 'strict: all met';
  return { ok: true, how, detail: '' };
}

function judge(target: Target, outcomes: TestOutcome[]): Verdict {
  if (outcomes.length === 0) return { ok: false, how: 'no test ran', detail: '' };
  if (target.kind === 'fault') return judgeFault(target, outcomes);
  if (target.kind === 'strict') return judgeStrict(target, outcomes);
  return judgeConformant(target, outcomes);
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

async function startTargets(): Promise<Target[]> {
  const targets: Target[] = [];
  const add = (
    name: string,
    kind: Target['kind'],
    handle: ReferenceHandle,
    breaks = '-',
    lacks: readonly string[] = [],
  ) => targets.push({ name, kind, breaks, lacks, handle });
  const clean = await startReference({ apiKey });
  add('clean', 'reference', clean);
  add('clean (strict)', 'strict', clean);
  for (const variant of variants) {
    const handle = await startReference({ apiKey, variant: variant.name });
    add(variant.name, variant.kind, handle, variant.breaks, variant.lacks);
    if (variant.lacks?.length)
      add(`${variant.name} (strict)`, 'strict', handle, '-', variant.lacks);
  }
  return targets;
}

test(
  'the suite passes every conformant target and catches every fault',
  { timeout: 400_000 },
  async () => {
    const started = Date.now();
    let targets: Target[] = [];
    try {
      targets = await startTargets();
      const run = await runPlaywright(['-c', 'selftest/mutation.config.ts'], {
        SELFTEST_TARGETS: JSON.stringify(
          targets.map(({ name, kind, breaks, handle }) => ({
            name,
            baseUrl: handle.baseUrl,
            tag: kind === 'fault' ? breaks : kind === 'strict' ? 'advisory' : undefined,
            strict: kind === 'strict',
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
        target.kind === 'fault' ? target.breaks : '-',
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
        `Suite run: ${run.tests.length} tests over ${targets.length} projects in ${(run.durationMs / 1000).toFixed(1)} s; ` +
          `self-test ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
      console.log(`variants: ${verdicts.length - bad.length} passed, ${bad.length} failed`);
      assert.deepEqual(
        bad.map(({ target }) => target.name),
        [],
        'every fault caught by its requirement, every conformant target passing',
      );
    } finally {
      await Promise.all(
        [...new Set(targets.map(({ handle }) => handle))].map((handle) => handle.close()),
      );
    }
  },
);
