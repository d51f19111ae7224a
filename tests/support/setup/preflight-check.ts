/**
 * The preflight check: one GET {BASE_URL}/pets?limit=1 with the key, judged before any test runs.
 * A target that is down, refuses the key, sits at another address or is not this interface
 * would otherwise fail every test the same way; here it is one message saying which it is.
 *
 * Settings are passed in (this module does not read the configuration) so that the project's own
 * tests can call it directly. Nothing returned contains the key.
 */
import { type APIResponse, request } from '@playwright/test';
import { shownUrl } from './base-url.ts';
import { firstLine, transportCause } from '../http/transport-errors.ts';
import { redact } from '../reporting/redaction.ts';

export interface PreflightOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  insecureTls: boolean;
  maxResponseBytes: number;
}

/** What the preflight found: a one-line summary when the target is usable, else the problem. */
export type PreflightResult = { ok: true; summary: string } | { ok: false; problem: string };

/** A problem: what it is (the first line), what came back, what to do. */
type Finding = [headline: string, received: string, advice: string];

const envHint = 'in the environment or in .env (see .env.example)';
const baseHint =
  `Set BASE_URL ${envHint} to the base address the interface's paths are relative to, ` +
  'ending in /v1 (e.g. https://staging.example.com/petstore/api/v1).';

export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const url = `${options.baseUrl}/pets?limit=1`;
  const context = await request.newContext({ ignoreHTTPSErrors: options.insecureTls });
  const started = Date.now();
  let finding: Finding | undefined;
  try {
    const response = await context.fetch(url, {
      headers: { accept: 'application/json', authorization: `Bearer ${options.apiKey}` },
      timeout: options.timeoutMs,
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    finding = judge(response, await response.body(), options.maxResponseBytes);
  } catch (error) {
    finding = [
      `the target is unreachable: ${transportCause(error, options.timeoutMs) ?? 'the request failed'}`,
      `=> ${firstLine(error)}`,
      `Check BASE_URL ${envHint}, and that the target is up and reachable from this machine.`,
    ];
  } finally {
    await context.dispose();
  }

  // A hostile target may echo the request, key included.
  const scrub = (text: string) => redact(text, [options.apiKey]);
  const shown = shownUrl(url);
  if (!finding) {
    return {
      ok: true,
      summary: scrub(`Preflight: GET ${shown} answered 200 in ${Date.now() - started} ms.`),
    };
  }
  const [headline, received, advice] = finding;
  const sent = `GET ${shown} (Authorization: Bearer <API_KEY>)`;
  return {
    ok: false,
    problem: scrub(`${headline}\n  ${sent}\n  ${received}\n  ${advice}\n  No test was run.`),
  };
}

/** What is wrong with the answer, or nothing when it is a JSON array. */
function judge(response: APIResponse, body: Buffer, maxResponseBytes: number): Finding | undefined {
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
  if (status === 404) return ['wrong base address (404 on the list of pets)', received, baseHint];
  if (status >= 300 && status < 400) {
    return [
      `the target answered with a redirect (${status}) to ${headers.location ?? '(no Location)'}`,
      received,
      `The suite follows no redirect. ${baseHint}`,
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
      `A JSON array of pets was expected. ${baseHint}`,
    ];
  }
  return undefined;
}
