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
 * Several checks that failed side by side are each a deviation: one error carrying every
 * message, so that each is reported and charged (a requirement whose case failed beside another's
 * would otherwise show as passed). Anything else (a skip, a blocked check, an exception) ends the
 * test as it came, the first.
 */
function allOf(failures: unknown[]): unknown {
  // A check's failure names the requirements it is charged to, as the summary reads them.
  const isCheck = (error: unknown): error is Error =>
    error instanceof Error && chargedIds(error.message).length > 0;
  if (failures.length === 1 || !failures.every(isCheck)) return failures[0];
  const first = failures[0]!;
  const messages = [...new Set(failures.map((error) => error.message))];
  const combined = new Error(messages.join('\n\n'));
  combined.stack = `Error: ${combined.message}\n${
    first.stack
      ?.split('\n')
      .filter((line) => /^\s+at /.test(line))
      .join('\n') ?? ''
  }`;
  return combined;
}
