/**
 * A target refusing a request for its load: `429 Too Many Requests` (RFC 6585 §4), or `503
 * Service Unavailable` (RFC 9110 §15.6.4: "a temporary overload", "likely to be alleviated after
 * some delay"). Either way the target did not process the request, so the client waits and sends
 * the same request again (see client.ts): that is not a retry of a failed check, no answer was
 * judged.
 *
 * - With Retry-After (RFC 9110 §10.2.3) the wait is the one asked for.
 * - Without it, an exponential back-off with jitter (so that the workers refused together do not
 *   come back together): 1 s, doubling per attempt, at most 30 s, each wait drawn from its upper
 *   half.
 * - A 429 asks to wait whatever else it says, and is waited for within the run's bound
 *   (CONFORMANCE_MAX_WAIT_S). A 503 without Retry-After may as well be a server that has failed:
 *   it is sent again at most UNASKED_503_ATTEMPTS times in all; the answer of the last is judged
 *   like any answer (a 5xx then is the target's: NO-5XX, or the check's own requirement).
 */
import type { ApiResponse } from './response.ts';

/** How long to wait when the target names no time: 1 s, doubling per attempt, at most 30 s. */
const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/**
 * A request answered 503 without Retry-After is sent at most this many times: three waits of
 * about 1, 2 and 4 s, then the last answer stands. A load shedder is over its peak by then; a
 * server that has failed has cost seven seconds, not a verdict.
 */
export const UNASKED_503_ATTEMPTS = 4;

/**
 * Why the answer refuses the request for the target's load ("429 Too Many Requests", "503 with
 * Retry-After", "503 without Retry-After"), or undefined when it does not, or when it is the
 * `attempt`-th 503 without Retry-After in a row and is to be judged.
 */
export function throttleReason(answer: ApiResponse, attempt = 1): string | undefined {
  if (answer.failure !== undefined) return undefined;
  return throttleStatusReason(answer.status, answer.headers, attempt);
}

/** throttleReason, from an answer's status and headers (the preflight reads them so). */
export function throttleStatusReason(
  status: number,
  headers: Record<string, string>,
  attempt = 1,
): string | undefined {
  if (status === 429) return '429 Too Many Requests';
  if (status !== 503) return undefined;
  if (headers['retry-after'] !== undefined) return '503 with Retry-After';
  return attempt < UNASKED_503_ATTEMPTS ? '503 without Retry-After' : undefined;
}

/**
 * The wait Retry-After asks for: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Without one,
 * or with one that cannot be read, an exponential back-off by attempt with jitter: the wait is
 * drawn between half and all of 1 s × 2^(attempt-1), at most 30 s.
 */
export function retryDelayMs(
  headers: Record<string, string>,
  attempt: number,
  now = Date.now(),
  random: () => number = Math.random,
): number {
  const value = headers['retry-after']?.trim();
  if (value !== undefined && /^\d+$/.test(value)) return Number(value) * 1000;
  if (value !== undefined && value !== '') {
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
