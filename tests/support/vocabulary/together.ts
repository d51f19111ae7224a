/**
 * Requests and checks sent side by side, as `Promise.all` would, but every one settles before the
 * first failure ends the test. With `Promise.all`, a failed check ends the test at once while its
 * siblings are still in flight; the test's request context is then disposed under them, and their
 * own checks, judging "Response has been disposed", charge requirements nobody broke (a rounded
 * categoryId also failed CREATE-201-PET, one run in ten). ESLint keeps `Promise.all` out of tests.
 */
import { chargedIds } from '../reporting/summary.ts';

export async function together<T>(work: readonly (T | PromiseLike<T>)[]): Promise<Awaited<T>[]> {
  const settled = await Promise.allSettled(work);
  const failures = settled
    .filter((result): result is PromiseRejectedResult => result.status === 'rejected')
    .map((result) => result.reason as unknown);
  if (failures.length > 0) throw allOf(failures);
  return settled.map((result) => (result as PromiseFulfilledResult<Awaited<T>>).value);
}

/**
 * Starts each task when fewer than `limit` of them are in flight; the promises of their results,
 * in order, for `together`. A sweep of a hundred and more requests sent all at once opens as many
 * connections, past what a small server holds (WEBrick takes 100, and keeps idle ones 30 s).
 */
export function atMost<T>(limit: number, tasks: readonly (() => Promise<T>)[]): Promise<T>[] {
  let running = 0;
  const waiting: (() => void)[] = [];
  return tasks.map(async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  });
}

/**
 * Several checks that failed side by side are each a deviation: one error carrying every
 * message, so that each is reported and charged (a requirement whose case failed beside another's
 * would otherwise show as passed). Beside a skip (a request blocked, not sent), the checks' error
 * still ends the test: the skip's reason stays on the test, whose other requirements the summary
 * then leaves blocked, not passed. Anything else (an exception) ends the test as it came, first.
 */
function allOf(failures: unknown[]): unknown {
  // A check's failure names the requirements it is charged to, as the summary reads them.
  const isCheck = (error: unknown): error is Error =>
    error instanceof Error && chargedIds(error.message).length > 0;
  // Playwright's test.skip() throws an error of this message, its reason kept as an annotation.
  const isSkip = (error: unknown) =>
    error instanceof Error && error.message.startsWith('Test is skipped: ');
  const checks = failures.filter(isCheck);
  if (checks.length === 0 || !failures.every((error) => isCheck(error) || isSkip(error)))
    return failures[0];
  if (checks.length === 1) return checks[0];
  const first = checks[0]!;
  const messages = [...new Set(checks.map((error) => error.message))];
  const combined = new Error(messages.join('\n\n'));
  combined.stack = `Error: ${combined.message}\n${
    first.stack
      ?.split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n') ?? ''
  }`;
  return combined;
}
