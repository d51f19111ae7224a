/**
 * Baselined failures: requirements whose failures the baseline tolerates on the test's target
 * today (CONFORMANCE_BASELINE; setup/baseline.ts). A test that failed only on them, every error
 * naming its requirements and all of them tolerated, is marked an expected failure
 * (`testInfo.fail()`) as it ends. That changes no verdict: the reporter judges requirements by
 * what each error charges, and a requirement charged anything fails, tolerated or not. What it
 * changes is the worker: Playwright replaces a worker after every unexpected failure (a new
 * process, about a second of CPU), and keeps it after an expected one. The test's request
 * context is replaced all the same (the `request` fixture keeps it only after a test that passed).
 *
 * Not marked, so handled as any failure: a timeout (the test's code may still be running), an
 * error naming no requirement (an exception, a failed request: what broke is not known), and an
 * error charging a requirement not tolerated (a new failure).
 */
import { chargedIds, stripAnsi } from '../reporting/summary.ts';

/** The annotation's description when the failure is a baselined one; undefined otherwise. */
export function baselinedFailureOf(
  status: string,
  errors: readonly { message?: string }[],
  tolerated: readonly string[] | undefined,
): string | undefined {
  if (status !== 'failed' || !tolerated?.length || errors.length === 0) return undefined;
  const charged = errors.map((error) => chargedIds(stripAnsi(error.message ?? '')));
  if (charged.some((ids) => ids.length === 0)) return undefined;
  const ids = [...new Set(charged.flat())];
  if (!ids.every((id) => tolerated.includes(id))) return undefined;
  return `failure of ${ids.join(', ')} tolerated by the baseline: it still fails ${ids.length > 1 ? 'them' : 'it'}`;
}
