/**
 * A target flaky on purpose: a proxy in front of a conformant one whose first listPets without
 * query answers only the first 10 pets (LIST-LIMIT-DEFAULT broken once), every later request
 * passed through. Under --retries, the check of the default limit fails once and then passes:
 * what the report must call a flaky target.
 */
import { type CountingProxy, startCountingProxy } from './counting-proxy.ts';

export async function startFlakyTarget(targetBaseUrl: string): Promise<CountingProxy> {
  const listPath = `${new URL(targetBaseUrl).pathname}/pets`;
  let brokenOnce = false;
  return startCountingProxy(targetBaseUrl, (request) => {
    if (brokenOnce || request.method !== 'GET' || request.url !== listPath) return undefined;
    brokenOnce = true;
    // The clean reference's ids are small: JSON.parse keeps them exact.
    return (body) => JSON.stringify((JSON.parse(body) as unknown[]).slice(0, 10));
  });
}
