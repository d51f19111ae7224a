/**
 * `petstore-conformance [options]`: checks a target. The options become the suite's settings
 * (environment variables, as docs/configuration.md lists them), the settings are checked here
 * before anything is sent, then Playwright runs the suite as built beside this file, writing every
 * report under the current folder. The exit code is read from the summary (exit-codes.ts).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Outcome, exitCodes, isOverview, outcomeOf, worstOf } from './exit-codes.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { SetupError } from '../tests/support/setup/setup-error.ts';
import { runPlaywright } from './suite.ts';
import { UsageError } from './usage.ts';

export interface CheckOptions {
  baseUrl?: string;
  readOnly?: boolean;
  reportDir?: string;
  grep?: string;
  targets?: string;
  shareWorkers?: boolean;
  shard?: string;
  workers?: string;
  /** Everything after `--`, for Playwright. */
  playwrightArgs: string[];
}

/**
 * The settings the options stand for. `.env` in the current folder is read first (as the suite
 * reads it); an option wins over both. Paths are made absolute here, against the current folder:
 * the suite resolves a relative one against its own folder, which is inside node_modules.
 */
export async function settingsOf(options: CheckOptions): Promise<void> {
  const { config } = await import('dotenv');
  config({ quiet: true });
  const env = process.env;
  // An empty BASE_URL means the bundled reference, as for the suite; an empty option is a mistake.
  if (options.baseUrl === '') throw new UsageError('--base-url is empty: give the target');
  if (options.baseUrl !== undefined) env.BASE_URL = options.baseUrl;
  if (options.readOnly) env.CONFORMANCE_READONLY = '1';
  if (options.targets !== undefined) env.CONFORMANCE_TARGETS = options.targets;
  if (options.shareWorkers) env.CONFORMANCE_SHARE_WORKERS = '1';
  if (options.workers !== undefined) env.CONFORMANCE_WORKERS = options.workers;
  if (options.reportDir !== undefined) env.CONFORMANCE_REPORT_DIR = options.reportDir;
  env.CONFORMANCE_REPORT_DIR = resolve(env.CONFORMANCE_REPORT_DIR || 'conformance-reports');
  if (env.CONFORMANCE_TARGETS) env.CONFORMANCE_TARGETS = resolve(env.CONFORMANCE_TARGETS);
  if (options.shard !== undefined && !/^[1-9]\d*\/[1-9]\d*$/.test(options.shard)) {
    throw new UsageError(`--shard takes K/N, such as 1/2 (got "${options.shard}")`);
  }
  if (options.shard !== undefined) {
    const [current, total] = options.shard.split('/').map(Number) as [number, number];
    if (current > total) throw new UsageError(`--shard ${options.shard}: K must be at most N`);
  }
}

/**
 * Checks the settings as the suite will read them: a wrong one stops here with the suite's own
 * message. Loading them also fixes the run's id, seed and (for the bundled reference) port and key
 * in the environment, which Playwright's processes then inherit, as its workers do from it.
 */
async function checkSettings(): Promise<void> {
  try {
    await import('../tests/support/setup/settings.ts');
  } catch (error) {
    if (error instanceof SetupError) throw new UsageError(`${error.name}: ${error.message}`);
    throw error;
  }
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'));
}

/** The outcome of the run from the summary it wrote, or incomplete when it wrote none. */
export function outcomeOfRun(reportDir: string): Outcome {
  const file = join(reportDir, 'conformance.json');
  if (!existsSync(file)) {
    return {
      code: exitCodes.incomplete,
      why: 'incomplete (the run wrote no summary: see the output above)',
    };
  }
  const written = readJson(file);
  if (!isOverview(written)) return outcomeOf(written as Summary);
  const outcomes = written.targets.map((target) => {
    const path = join(reportDir, target.summary.replace(/\.html$/, '.json'));
    return existsSync(path)
      ? outcomeOf(readJson(path) as Summary)
      : { code: exitCodes.incomplete, why: `${target.name}: incomplete (no summary)` };
  });
  if (outcomes.length === 0) {
    return { code: exitCodes.incomplete, why: 'incomplete (no target was checked)' };
  }
  const worst = worstOf(outcomes);
  return { code: worst.code, why: `${outcomes.length} targets, the worst ${worst.why}` };
}

/** Runs the suite; resolves to the exit code. */
export async function check(options: CheckOptions): Promise<number> {
  await settingsOf(options);
  await checkSettings();
  const reportDir = process.env.CONFORMANCE_REPORT_DIR!;
  // A summary left by an earlier run must not stand for this one's verdict.
  rmSync(join(reportDir, 'conformance.json'), { force: true });

  const exited = await runPlaywright('test', [
    // Playwright's own scratch folder, beside the reports: never inside node_modules.
    '--output',
    join(reportDir, 'test-results'),
    ...(options.grep !== undefined ? ['--grep', options.grep] : []),
    ...(options.shard !== undefined ? [`--shard=${options.shard}`] : []),
    ...options.playwrightArgs,
  ]);
  return report(outcomeOfRun(reportDir), exited);
}

/** Prints the exit code and why; Playwright's own failure is never read as conformance. */
export function report(outcome: Outcome, exited: number | null): number {
  // Playwright's own failure with every requirement passed (a check charged to none, a reporter
  // error) is not a verdict of conformance: the run is reported incomplete.
  if (outcome.code === exitCodes.conformant && exited !== 0) {
    outcome.code = exitCodes.incomplete;
    outcome.why = `incomplete (Playwright exited with ${exited ?? 'an error'} though no requirement failed)`;
  }
  console.log(`petstore-conformance: exit ${outcome.code}, ${outcome.why}.`);
  return outcome.code;
}
