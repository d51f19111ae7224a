/**
 * Playwright's globalSetup: before any request, the reporters and traces are checked (the
 * redacting reporter must come first and traces be off, so that no report can hold the key);
 * the bundled reference is started when no
 * target is configured; then the preflight check (preflight-check.ts) runs against every target.
 *
 * With one target, a failed preflight stops the run with one message and a non-zero exit. With
 * several, a target whose preflight failed is left out (its tests are blocked, with the reason)
 * and the others are checked; only when every one failed does the run stop.
 * Reports of formats CONFORMANCE_REPORTS leaves out are removed first (none of an earlier run
 * stays beside this one's). The teardown removes the run's shared state files.
 */
import { rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { removeRunState } from '../http/run-state.ts';
import { reportsNotChosen } from '../reporting/paths.ts';
import { type PreflightResult, preflight } from './preflight-check.ts';
import { type PreflightFailure, recordPreflightFailures } from './preflight-results.ts';
import { startReference } from '../../../reference/src/server.ts';
import { settings, usesReference } from './settings.ts';
import { SetupError } from './setup-error.ts';

/** Pets in the bundled reference's store when a run starts it. */
export const bundledStorePets = 120;

/** The redacting reporter is the first of the reporters that will run, or the run refuses. */
export function checkReporters(config: Pick<FullConfig, 'reporter'>): void {
  const [first] = config.reporter;
  if (first && /redacting-reporter/.test(first[0])) return;
  const given = config.reporter.map(([name]) => name).join(', ') || '(none)';
  throw new SetupError(
    'Reporters replaced',
    `the reporters of this run (${given}) do not start with the suite's redacting reporter, so ` +
      'a report could hold the API key (a request that fails logs its headers). --reporter on ' +
      'the command line replaces the configured reporters: leave it out. `npm run conformance` ' +
      'writes reports/ (the summary, HTML, JSON and JUnit; with --shard=K/N also the blob ' +
      'report for `npm run merge`), every one without the key. No request was sent.',
  );
}

/**
 * Traces are off, or the run refuses: a trace records every request's headers, the key
 * included, and no reporter can redact it. The bundled reference's key is made for the run and
 * keeps nothing secret, so against it a trace is allowed.
 */
export function checkTraces(config: Pick<FullConfig, 'projects'>, keyIsSecret: boolean): void {
  const tracing = config.projects.filter((project) => (project.use.trace ?? 'off') !== 'off');
  if (!keyIsSecret || tracing.length === 0) return;
  throw new SetupError(
    'Traces on',
    'a trace records the headers of every request, the API key included, and cannot be ' +
      "redacted. Leave --trace out (the failing test's exchanges attachment shows every request " +
      'and answer, with a curl line to repeat each). No request was sent.',
  );
}

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  checkReporters(config);
  checkTraces(config, !usesReference);
  for (const stale of reportsNotChosen(settings.reports))
    rmSync(stale, { recursive: true, force: true });
  // The bundled reference, when no target is configured: started here, in Playwright's main
  // process, so that a run does not pay for a process of its own (and a TypeScript loader) first.
  // Its store starts with pets in it, as a staging store does: the limit checks need more than
  // 100, and creating them one by one would be a third of the run's requests, buying no coverage.
  // (Growing an empty store is checked by the mutation self-test's clean target.)
  const reference = usesReference
    ? await startReference({
        apiKey: settings.apiKey,
        port: settings.referencePort,
        basePath: settings.referenceBasePath,
        seedPets: bundledStorePets,
      })
    : undefined;
  const stop = async () => {
    await reference?.close();
    removeRunState(settings.runId);
  };
  try {
    await checkTargets();
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}

/** The preflight against every target; records the failed ones, or stops when all failed. */
async function checkTargets(): Promise<void> {
  const { targets, requestTimeoutMs, insecureTls, maxResponseBytes, maxWaitMs } = settings;
  const results: PreflightResult[] = await Promise.all(
    targets.map((target) =>
      preflight({
        baseUrl: target.baseUrl,
        apiKey: process.env[target.apiKeyEnv] ?? '',
        timeoutMs: requestTimeoutMs,
        insecureTls,
        maxResponseBytes,
        maxWaitMs,
      }),
    ),
  );
  const failures: Record<string, PreflightFailure> = {};
  targets.forEach((target, index) => {
    const result = results[index]!;
    const who = target.name ? `${target.name}: ` : '';
    if (result.ok) {
      console.log(`${who}${result.summary}`);
      return;
    }
    const failure: PreflightFailure = { problem: result.problem };
    if (result.requirement) failure.requirement = result.requirement;
    failures[target.name] = failure;
  });
  recordPreflightFailures(failures);
  const failed = Object.entries(failures);
  if (failed.length === targets.length) {
    const problem = failed
      .map(([name, failure]) => (name ? `${name}: ${failure.problem}` : failure.problem))
      .join('\n');
    throw new SetupError('Preflight failed', problem);
  }
  for (const [name, failure] of failed) {
    console.error(
      `${name}: Preflight failed: ${failure.problem.replace(/No test was run\.$/, 'Its tests are blocked.')}`,
    );
  }
  if (settings.readOnly) {
    console.log(
      'Read-only mode (CONFORMANCE_READONLY=1): checks that would create pets are skipped.',
    );
  }
}
