/**
 * Requests and checks sent side by side, as `Promise.all` would, but every one settles before the
 * first failure ends the test. With `Promise.all`, a failed check ends the test at once while its
 * siblings are still in flight; the test's request context is then disposed under them, and their
 * own checks, judging "Response has been disposed", charge requirements nobody broke (a rounded
 * categoryId also failed CREATE-201-PET, one run in ten). ESLint keeps `Promise.all` out of tests.
 */
export async function together<T>(work: readonly (T | PromiseLike<T>)[]): Promise<Awaited<T>[]> {
  const settled = await Promise.allSettled(work);
  const failure = settled.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<Awaited<T>>).value);
}
