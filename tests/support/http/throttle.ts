/**
 * A target asking to wait: `429 Too Many Requests`, or `503 Service Unavailable` with a
 * Retry-After (RFC 9110 §10.2.3). The target did not process the request, so the client waits as
 * asked and sends the same request again (see client.ts). A 503 without Retry-After is not a
 * request to wait: it is judged like any answer.
 */
import type { ApiResponse } from './response.ts';

/** How long to wait when the target names no time: 1 s, doubling per attempt, at most 30 s. */
const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;

/** Why the answer asks to wait ("429", "503 with Retry-After"), or undefined when it does not. */
export function throttleReason(answer: ApiResponse): string | undefined {
  if (answer.failure !== undefined) return undefined;
  if (answer.status === 429) return '429 Too Many Requests';
  if (answer.status === 503 && answer.headers['retry-after'] !== undefined) {
    return '503 with Retry-After';
  }
  return undefined;
}

/**
 * The wait Retry-After asks for: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). Without one,
 * or with one that cannot be read, an exponential back-off by attempt.
 */
export function retryDelayMs(
  headers: Record<string, string>,
  attempt: number,
  now = Date.now(),
): number {
  const value = headers['retry-after']?.trim();
  if (value !== undefined && /^\d+$/.test(value)) return Number(value) * 1000;
  if (value !== undefined && value !== '') {
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (attempt - 1));
}
