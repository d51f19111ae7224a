/**
 * `petstore-conformance [options]`: checks a target. The options become the suite's settings
 * (environment variables, as docs/configuration.md lists them), the settings are checked here
 * before anything is sent, then Playwright runs the suite as built beside this file, writing every
 * report under the current folder. The exit code is the gate the run wrote in its summary
 * (conformance.json's `gate`, decided by reporting/gate.ts).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Gate, exitCodes } from '../tests/support/reporting/gate.ts';
import { verdictFiles } from '../tests/support/reporting/paths.ts';
import { SetupError } from '../tests/support/setup/setup-error.ts';
import { runPlaywright } from './suite.ts';
import { UsageError } from './usage.ts';

export interface CheckOptions {
  baseUrl?: string;
  readOnly?: boolean;
  reportDir?: string;
  grep?: string;
  targets?: string;
  baseline?: string;
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
  if (options.baseline === '') throw new UsageError('--baseline is empty: give the file');
  if (options.baseline !== undefined) env.CONFORMANCE_BASELINE = options.baseline;
  if (env.CONFORMANCE_BASELINE) env.CONFORMANCE_BASELINE = resolve(env.CONFORMANCE_BASELINE);
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

/** The run's gate, as its summary (or overview) recorded it; incomplete when it wrote none. */
export function gateOfRun(reportDir: string): Gate {
  const file = join(reportDir, 'conformance.json');
  const written = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { gate?: Gate })
    : undefined;
  return (
    written?.gate ?? {
      code: exitCodes.incomplete,
      why: 'incomplete (the run wrote no summary: see the output above)',
      newFailures: [],
    }
  );
}

/** Removes the verdict files an earlier run left: none must stand for this run's verdict. */
export function removeVerdicts(reportDir: string): void {
  for (const name of verdictFiles) rmSync(join(reportDir, name), { force: true });
}

/** Runs the suite; resolves to the exit code. */
export async function check(options: CheckOptions): Promise<number> {
  await settingsOf(options);
  await checkSettings();
  const reportDir = process.env.CONFORMANCE_REPORT_DIR!;
  removeVerdicts(reportDir);

  const exited = await runPlaywright('test', [
    // Playwright's own scratch folder, beside the reports: never inside node_modules.
    '--output',
    join(reportDir, 'test-results'),
    ...(options.grep !== undefined ? ['--grep', options.grep] : []),
    ...(options.shard !== undefined ? [`--shard=${options.shard}`] : []),
    ...options.playwrightArgs,
  ]);
  return report(gateOfRun(reportDir), exited);
}

/** Prints the exit code and why; Playwright's own failure is never read as conformance. */
export function report(gate: Gate, exited: number | null): number {
  // The gate returns Playwright the status it implies: Playwright failing with a gate of 0 is a
  // failure of the run itself (a reporter's error), not a verdict: the run is reported incomplete.
  if (gate.code === exitCodes.conformant && exited !== 0) {
    gate.code = exitCodes.incomplete;
    gate.why = `incomplete (Playwright exited with ${exited ?? 'an error'} though the gate passed)`;
  }
  console.log(`petstore-conformance: exit ${gate.code}, ${gate.why}.`);
  return gate.code;
}
