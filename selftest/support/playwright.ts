/**
 * Runs the conformance suite as a user would, in a child process, and reads Playwright's JSON
 * results: the project's own tests judge the suite by what it reports, not by its exit code.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
}

export interface RunResult {
  exitCode: number;
  output: string;
  tests: TestOutcome[];
  durationMs: number;
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
      });
    }
  }
  for (const child of suite.suites ?? []) collect(child, suite.file ?? file, into);
}

export interface ProcessResult {
  exitCode: number;
  /** stdout and stderr, interleaved. */
  output: string;
  durationMs: number;
}

/** Runs a node script of the project (its arguments) in a child process; killed after `timeoutMs`. */
export async function spawnNode(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
): Promise<ProcessResult> {
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { ...process.env, ...env, FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const exitCode = await new Promise<number>((resolve) =>
    child.on('close', (code) => resolve(code ?? -1)),
  );
  clearTimeout(timer);
  return { exitCode, output, durationMs: Date.now() - started };
}

/** Runs `playwright test` in a child process; killed after `timeoutMs`. */
export function spawnPlaywright(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
): Promise<ProcessResult> {
  const cli = join(projectRoot, 'node_modules/@playwright/test/cli.js');
  return spawnNode([cli, 'test', ...args], env, timeoutMs);
}

/** The outcome of every test in a Playwright JSON results file. */
export function readResults(file: string): TestOutcome[] {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: JsonSuite[] };
  const tests: TestOutcome[] = [];
  for (const suite of report.suites) collect(suite, suite.file ?? '', tests);
  return tests;
}

/**
 * Runs `playwright test` with these arguments and environment, its reports and test results in a
 * temporary folder, removed afterwards (the suite's configured reporters: a run refuses
 * `--reporter` on the command line, which would bypass redaction, but for `--list`); resolves
 * with the JSON results the suite wrote there.
 */
export async function runPlaywright(
  args: string[],
  env: Record<string, string>,
  timeoutMs = 300_000,
): Promise<RunResult> {
  const reports = mkdtempSync(join(tmpdir(), 'conformance-selftest-'));
  const resultsFile = join(reports, 'results.json');
  try {
    const run = await spawnPlaywright(
      [...args, '--output', join(reports, 'test-results')],
      {
        CONFORMANCE_REPORT_DIR: reports,
        // The JSON results are what is read; a caller may ask for more.
        CONFORMANCE_REPORTS: 'json',
        ...env,
        PLAYWRIGHT_JSON_OUTPUT_NAME: resultsFile,
      },
      timeoutMs,
    );
    try {
      return { ...run, tests: readResults(resultsFile) };
    } catch (error) {
      throw new Error(
        `No JSON results from playwright (exit ${run.exitCode}): ${(error as Error).message}\n${run.output}`,
      );
    }
  } finally {
    rmSync(reports, { recursive: true, force: true });
  }
}
