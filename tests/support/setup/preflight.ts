/**
 * Playwright's globalSetup: before any request, the reporters and traces are checked (the
 * redacting reporter must come first and traces be off, so that no report can hold the key);
 * the bundled reference is started when no
 * target is configured; then the preflight check (preflight-check.ts) runs against every target.
 *
 * A target whose preflight failed is left out: its tests are blocked, with the reason, and the
 * others are checked. When its answer breaks a requirement (a list that is not an array, limit=1
 * refused), that requirement's test fails with the preflight's request and answer, in every run
 * shape (one target, several, shards merged), so the summary shows what the console said. The run
 * stops with one message and a non-zero exit only when no target can be checked or judged: every
 * preflight failed, none on a requirement (unreachable, the key rejected, a wrong address…).
 * Reports of formats CONFORMANCE_REPORTS leaves out are removed first (none of an earlier run
 * stays beside this one's). The teardown removes the run's shared state files.
 */
import { rmSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { removeRunState } from '../http/run-state.ts';
import { reportsNotChosen } from '../reporting/paths.ts';
import { authorizationName } from '../http/client.ts';
import { type PreflightResult, preflight } from './preflight-check.ts';
import {
  type PreflightFailure,
  recordAuthorizationNames,
  recordPreflightFailures,
  recordPreflightNotes,
  type PreflightNote,
} from './preflight-results.ts';
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
        ...settings.connection,
        maxResponseBytes,
        maxWaitMs,
      }),
    ),
  );
  const failures: Record<string, PreflightFailure> = {};
  const names: Record<string, string> = {};
  const notes: Record<string, PreflightNote[]> = {};
  targets.forEach((target, index) => {
    const result = results[index]!;
    const who = target.name ? `${target.name}: ` : '';
    if (result.ok) {
      console.log(`${who}${result.summary}`);
      const noted: PreflightNote[] = [];
      if (result.passing5xx) {
        const problem = `status ${result.passing5xx.status}; the same request sent again at once was answered 200: a 5xx that does not come back (the target fails now and then)`;
        console.log(
          `${who}The preflight's first answer was a ${result.passing5xx.status}: NO-5XX is charged.`,
        );
        noted.push({
          requirement: 'NO-5XX',
          problem,
          exchange: result.passing5xx,
          expected: 'no 5xx, to any request',
        });
      }
      // The summary line above says so: a body that is not JSON, of a target that answers as the
      // interface does otherwise.
      if (result.garbled) {
        noted.push({
          requirement: 'MEDIA-JSON',
          problem: result.garbled.problem,
          exchange: result.garbled.exchange,
          expected: '200 with the list of pets, a JSON array in application/json',
        });
      }
      // limit=1, the documented minimum, refused, where the list without limit is answered.
      if (result.limitRefused) {
        console.log(
          `${who}The preflight's list with limit=1 was refused: LIST-LIMIT-MIN is charged.`,
        );
        noted.push({
          requirement: 'LIST-LIMIT-MIN',
          problem: `status ${result.limitRefused.status} to limit=1, the documented minimum, though the list without limit is answered 200`,
          exchange: result.limitRefused,
          expected: '200 with a list of at most one pet (limit=1 is the documented minimum)',
        });
      }
      if (noted.length > 0) notes[target.name] = noted;
      if (result.authorizationName !== authorizationName) {
        names[target.name] = result.authorizationName;
      }
      return;
    }
    const failure: PreflightFailure = { problem: result.problem, requests: result.requests };
    if (result.requirement) {
      failure.requirement = result.requirement;
      failure.exchanges = result.exchanges;
      if (result.expected) failure.expected = result.expected;
    }
    failures[target.name] = failure;
  });
  recordPreflightFailures(failures);
  recordAuthorizationNames(names);
  recordPreflightNotes(notes);
  const failed = Object.entries(failures);
  // No target left to check, and none judged: nothing to report but why.
  if (failed.length === targets.length && failed.every(([, failure]) => !failure.requirement)) {
    const problem = failed
      .map(([name, failure]) => (name ? `${name}: ${failure.problem}` : failure.problem))
      .join('\n');
    throw new SetupError('Preflight failed', problem);
  }
  for (const [name, failure] of failed) {
    const next = failure.requirement
      ? `The run goes on: ${failure.requirement}'s check fails with this answer, every other test is blocked.`
      : 'Its tests are blocked.';
    const who = name ? `${name}: ` : '';
    console.error(`${who}Preflight failed: ${failure.problem.replace(/No test was run\.$/, next)}`);
  }
  if (settings.readOnly) {
    console.log(
      'Read-only mode (CONFORMANCE_READONLY=1): checks that would create pets are skipped.',
    );
  }
}
