/**
 * Runs the conformance suite as a user would, in a child process, and reads Playwright's JSON
 * results: the project's own tests judge the suite by what it reports, not by its exit code.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suiteVariables } from '../../scripts/suite-variables.ts';
import type { Summary } from '../../tests/support/reporting/summary.ts';

export const projectRoot = new URL('../../', import.meta.url).pathname;

export interface TestOutcome {
  project: string;
  file: string;
  title: string;
  tags: string[];
  /** passed, failed (timedOut and interrupted count as failed) or skipped. */
  outcome: 'passed' | 'failed' | 'skipped';
  error: string;
  /** Annotations of the last result (runtime ones included), e.g. advisory verdicts. */
  annotations: { type: string; description?: string }[];
  /** The worker of the last result (each new worker process gets the next index) and its start. */
  workerIndex: number;
  startTime: string;
  /** How long the last result took, and its top-level steps' titles and durations, in order. */
  durationMs: number;
  steps: { title: string; durationMs: number }[];
}

interface JsonSuite {
  file?: string;
  specs?: {
    title: string;
    tags?: string[];
    tests: {
      projectName: string;
      status: string;
      results: {
        status: string;
        errors?: { message?: string }[];
        annotations?: { type: string; description?: string }[];
        workerIndex?: number;
        startTime?: string;
        duration?: number;
        steps?: { title: string; duration: number }[];
      }[];
    }[];
  }[];
  suites?: JsonSuite[];
}

function collect(suite: JsonSuite, file: string, into: TestOutcome[]): void {
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests) {
      const last = test.results.at(-1);
      // A known failure is one Playwright expected: it failed all the same.
      const outcome =
        test.status === 'skipped'
          ? 'skipped'
          : test.status === 'expected' && last?.status === 'passed'
            ? 'passed'
            : 'failed';
      into.push({
        project: test.projectName,
        file: suite.file ?? file,
        title: spec.title,
        tags: spec.tags ?? [],
        outcome,
        error: (last?.errors ?? []).map((error) => error.message ?? '').join('\n'),
        annotations: last?.annotations ?? [],
        workerIndex: last?.workerIndex ?? -1,
        startTime: last?.startTime ?? '',
        durationMs: last?.duration ?? 0,
        steps: (last?.steps ?? []).map((step) => ({
          title: step.title,
          durationMs: step.duration,
        })),
      });
    }
  }
  for (const child of suite.suites ?? []) collect(child, suite.file ?? file, into);
}

export interface ProcessResult {
  exitCode: number;
  /** Killed at its time limit (its exit code is then -1). */
  timedOut?: boolean;
  /** stdout and stderr, interleaved. */
  output: string;
  durationMs: number;
}

/**
 * The settings of a self-test's runs: every setting of the suite empty (its default, which dotenv
 * never replaces), so that a run does what the self-test says, whatever the developer's shell or
 * .env holds. But the workers: one, unless the self-test asks for more (or for the user's default,
 * with ''). Each worker costs more than a second of CPU to start, these runs share two cores with
 * the mutation run, and one worker keeps up with a reference on this machine; a self-test that
 * proves something of several workers, or times a run as a user starts it, says so.
 */
const runSettings = {
  ...Object.fromEntries(suiteVariables.map((name) => [name, ''])),
  CONFORMANCE_WORKERS: '1',
};

/**
 * Runs a node script of the project (its arguments) in a child process, on `runSettings`
 * but for `env`; killed after `timeoutMs`. `wrapper` is a command that runs node (e.g.
 * `/usr/bin/time -v`), its output included. It runs in the project's folder unless `cwd` says.
 */
export async function spawnNode(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
  wrapper: string[] = [],
  cwd = projectRoot,
): Promise<ProcessResult> {
  const started = Date.now();
  const [command, ...before] = [...wrapper, process.execPath];
  const child = spawn(command!, [...before, ...args], {
    cwd,
    env: { ...process.env, ...runSettings, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const exitCode = await new Promise<number>((resolve) =>
    child.on('close', (code) => resolve(code ?? -1)),
  );
  clearTimeout(timer);
  return { exitCode, output, durationMs: Date.now() - started, ...(timedOut ? { timedOut } : {}) };
}

/** Runs `playwright test` in a child process (under `wrapper`); killed after `timeoutMs`. */
export function spawnPlaywright(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
  wrapper: string[] = [],
): Promise<ProcessResult> {
  const cli = join(projectRoot, 'node_modules/@playwright/test/cli.js');
  return spawnNode([cli, 'test', ...args], env, timeoutMs, wrapper);
}

/** The outcome of every test in a Playwright JSON results file. */
export function readResults(file: string): TestOutcome[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: JsonSuite[] };
  const tests: TestOutcome[] = [];
  for (const suite of report.suites) collect(suite, suite.file ?? '', tests);
  return tests;
}

export interface SuiteRun extends ProcessResult {
  /** Playwright's JSON results, when the run wrote them (CONFORMANCE_REPORTS with json). */
  tests: TestOutcome[];
  /** The run's conformance summary (one target), when it wrote one. */
  summary?: Summary;
}

/**
 * The suite as a user runs it (`playwright test` with its own configuration and reporters), with
 * these arguments and settings; its reports and test output in `dir` (kept for the caller) or in
 * a temporary folder of its own, removed afterwards: runs may overlap, and Playwright empties its
 * output folder as a run starts.
 */
export async function runSuite(
  args: string[],
  env: Record<string, string>,
  options: { timeoutMs?: number; dir?: string; wrapper?: string[] } = {},
): Promise<SuiteRun> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  try {
    const run = await spawnPlaywright(
      ['--output', join(dir, 'test-results'), ...args],
      { CONFORMANCE_REPORT_DIR: dir, ...env },
      options.timeoutMs,
      options.wrapper,
    );
    const results = join(dir, 'results.json');
    const summaryFile = join(dir, 'conformance.json');
    const outcome: SuiteRun = { ...run, tests: existsSync(results) ? readResults(results) : [] };
    if (existsSync(summaryFile)) {
      outcome.summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
    }
    return outcome;
  } finally {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The suite's JSON results for these arguments (`--list --reporter=json` included: it writes where
 * PLAYWRIGHT_JSON_OUTPUT_NAME says); a run that wrote none is an error, with its output.
 */
export async function runPlaywright(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
): Promise<SuiteRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const results = join(dir, 'results.json');
  try {
    // The JSON results are what is read; a caller may ask for more.
    const run = await runSuite(
      args,
      { CONFORMANCE_REPORTS: 'json', ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: results },
      { timeoutMs, dir },
    );
    if (!existsSync(results)) {
      throw new Error(`No JSON results from playwright (exit ${run.exitCode})\n${run.output}`);
    }
    return run;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TargetsRun extends SuiteRun {
  /** Each target's summary (targets/<name>/conformance.json), by name: none where none was written. */
  summaries: Map<string, Summary>;
}

/**
 * The suite against several targets in one run (CONFORMANCE_TARGETS, each target's key `apiKey`),
 * with these arguments and settings, and each target's summary read: what a self-test judges of
 * each target, as a run of its own would report it, for one runner's start (and, with
 * CONFORMANCE_SHARE_WORKERS, the workers') instead of one per target.
 */
export async function runTargets(
  targets: readonly { name: string; baseUrl: string }[],
  apiKey: string,
  args: string[],
  env: Record<string, string>,
  options: { timeoutMs?: number } = {},
): Promise<TargetsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-targets-'));
  try {
    const targetsFile = join(dir, 'targets.json');
    const keyVariable = 'SELFTEST_TARGETS_KEY';
    writeFileSync(
      targetsFile,
      JSON.stringify(
        targets.map(({ name, baseUrl }) => ({ name, baseUrl, apiKeyEnv: keyVariable })),
      ),
    );
    const run = await runSuite(
      args,
      { API_KEY: '', ...env, CONFORMANCE_TARGETS: targetsFile, [keyVariable]: apiKey },
      { dir, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) },
    );
    const summaries = new Map<string, Summary>();
    for (const { name } of targets) {
      const file = join(dir, 'targets', name, 'conformance.json');
      if (existsSync(file)) summaries.set(name, JSON.parse(readFileSync(file, 'utf8')) as Summary);
    }
    return { ...run, summaries };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
