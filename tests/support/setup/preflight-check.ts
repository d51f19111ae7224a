/**
 * The preflight check: one GET {BASE_URL}/pets?limit=1 with the key, judged before any test runs.
 * A target that is down, refuses the key, sits at another address or is not this interface
 * would otherwise fail every test the same way; here it is one message saying which it is. When
 * the answer is this interface answering against the document (a list that is not an array,
 * limit=1 refused), the message names the requirement it breaks.
 *
 * A target that asks to wait (429, 503 with Retry-After) is waited for, as every request is.
 * Settings are passed in (this module does not read the configuration) so that the project's own
 * tests can call it directly. Nothing returned contains the key.
 */
import { type APIResponse, request } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { startResponseGuard, warmUp } from '../http/response-guard.ts';
import { retryDelayMs } from '../http/throttle.ts';
import { firstLine, transportCause } from '../http/transport-errors.ts';
import { redact } from '../reporting/redaction.ts';
import { shownUrl } from './base-url.ts';

export interface PreflightOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  insecureTls: boolean;
  maxResponseBytes: number;
  /** How long in all to wait for a target that asks to (429, 503 with Retry-After). */
  maxWaitMs?: number;
}

/** What the preflight found: a one-line summary when the target is usable, else the problem. */
export type PreflightResult =
  { ok: true; summary: string } | { ok: false; problem: string; requirement?: RequirementId };

/** A problem: what it is (the first line), what came back, what to do, what it breaks. */
type Finding = [headline: string, received: string, advice: string, requirement?: RequirementId];

const envHint = 'in the environment or in .env (see .env.example)';
const baseHint =
  `Set BASE_URL ${envHint} to the base address the interface's paths are relative to, ` +
  'ending in /v1 (e.g. https://staging.example.com/petstore/api/v1).';

export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const url = `${options.baseUrl}/pets?limit=1`;
  // Through a response guard, as every request of the run: a huge answer is cut as it comes.
  const guard = await startResponseGuard(options.maxResponseBytes);
  const context = await request.newContext({
    ignoreHTTPSErrors: options.insecureTls,
    proxy: { server: guard.server },
  });
  await warmUp(context, guard);
  const started = Date.now();
  let finding: Finding | undefined;
  let waitedMs = 0;
  try {
    for (let attempt = 1; ; attempt++) {
      const response = await context.fetch(url, {
        headers: { accept: 'application/json', authorization: `Bearer ${options.apiKey}` },
        timeout: options.timeoutMs,
        maxRedirects: 0,
        failOnStatusCode: false,
      });
      const body = await response.body();
      const throttled =
        response.status() === 429 ||
        (response.status() === 503 && response.headers()['retry-after'] !== undefined);
      const delay = throttled ? retryDelayMs(response.headers(), attempt) : 0;
      if (throttled && waitedMs + delay <= (options.maxWaitMs ?? 0)) {
        waitedMs += delay;
        await sleep(delay);
        continue;
      }
      finding = judge(response, body, options.maxResponseBytes, waitedMs);
      break;
    }
  } catch (thrown) {
    const cut = guard.cutOf('GET', url);
    const error = guard.connectErrorOf(url) ?? thrown;
    finding = cut
      ? [
          `not this interface: the answer was larger than ${options.maxResponseBytes} bytes`,
          `=> ${cut}`,
          `A list of at most one pet was expected. ${baseHint}`,
        ]
      : [
          `the target is unreachable: ${transportCause(error, options.timeoutMs) ?? 'the request failed'}`,
          `=> ${firstLine(error)}`,
          `Check BASE_URL ${envHint}, and that the target is up and reachable from this machine.`,
        ];
  } finally {
    await context.dispose();
    await guard.close();
  }

  // A hostile target may echo the request, key included.
  const scrub = (text: string) => redact(text, [options.apiKey]);
  const shown = shownUrl(url);
  if (!finding) {
    const waited =
      waitedMs > 0 ? ` (after waiting ${(waitedMs / 1000).toFixed(1)} s as it asked)` : '';
    return {
      ok: true,
      summary: scrub(
        `Preflight: GET ${shown} answered 200 in ${Date.now() - started} ms${waited}.`,
      ),
    };
  }
  const [headline, received, advice, requirement] = finding;
  const sent = `GET ${shown} (Authorization: Bearer <API_KEY>)`;
  const breaks = requirement ? ` This answer breaks ${requirement}.` : '';
  const result: PreflightResult = {
    ok: false,
    problem: scrub(
      `${headline}\n  ${sent}\n  ${received}\n  ${advice}${breaks}\n  No test was run.`,
    ),
  };
  if (requirement) result.requirement = requirement;
  return result;
}

/** What is wrong with the answer, or nothing when it is a JSON array. */
function judge(
  response: APIResponse,
  body: Buffer,
  maxResponseBytes: number,
  waitedMs: number,
): Finding | undefined {
  const status = response.status();
  const headers = response.headers();
  const type = headers['content-type'] || 'no Content-Type';
  // Only the start of the body is decoded: it may be huge.
  const start = body.subarray(0, 200).toString('utf8');
  const excerpt = body.length === 0 ? '(empty body)' : `${start}${body.length > 200 ? '…' : ''}`;
  const received = `=> ${status} ${type}, ${body.length} bytes: ${excerpt}`;

  if (status === 401 || status === 403) {
    return [
      `the API key was rejected (${status})`,
      received,
      `Check API_KEY ${envHint}: it must be a key this target accepts.`,
    ];
  }
  if (status === 404) {
    // An Error body: the interface answering, but not at paths relative to this base address.
    const breaks: RequirementId | undefined = isErrorBody(body) ? 'BASE-V1' : undefined;
    return ['wrong base address (404 on the list of pets)', received, baseHint, breaks];
  }
  if (status >= 300 && status < 400) {
    return [
      `the target answered with a redirect (${status}) to ${headers.location ?? '(no Location)'}`,
      received,
      `The suite follows no redirect. ${baseHint}`,
    ];
  }
  if (status === 429 || (status === 503 && headers['retry-after'] !== undefined)) {
    return [
      `rate limited: the target kept asking to wait (${status}) after ${(waitedMs / 1000).toFixed(1)} s`,
      received,
      'Set CONFORMANCE_RATE to its limit (requests a second), or raise CONFORMANCE_MAX_WAIT_S.',
    ];
  }
  if (status === 400 && isErrorBody(body)) {
    // The interface answering, refusing the documented minimum of limit.
    return [
      'the list of pets with limit=1 was refused (400)',
      received,
      'limit=1 is the documented minimum (section 8): the target must accept it.',
      'LIST-LIMIT-MIN',
    ];
  }
  if (status !== 200) {
    return [
      `the list of pets failed (${status})`,
      received,
      'The suite cannot check a target whose GET /pets fails; see the answer above.',
    ];
  }
  if (body.length > maxResponseBytes) {
    return [
      `not this interface: the answer was larger than ${maxResponseBytes} bytes`,
      received,
      `A list of at most one pet was expected. ${baseHint}`,
    ];
  }
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return [
      'not this interface: the answer is not JSON',
      received,
      `A JSON array of pets was expected. ${baseHint}`,
    ];
  }
  if (!Array.isArray(value)) {
    return [
      'not this interface: the answer is JSON but not an array',
      received,
      `A JSON array of pets was expected (section 4.1: 200 answers Pets, an array). ${baseHint}`,
      'LIST-200-PETS',
    ];
  }
  return undefined;
}

/** An Error body (code, message, status): the answer comes from the interface. */
function isErrorBody(body: Buffer): boolean {
  try {
    const value = JSON.parse(body.toString('utf8')) as Record<string, unknown> | null;
    return typeof value?.code === 'string' && typeof value.message === 'string';
  } catch {
    return false;
  }
}
