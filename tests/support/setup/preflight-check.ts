/**
 * The preflight check: one GET {BASE_URL}/pets?limit=1 with the key, judged before any test runs.
 * A target that is down, refuses the key, sits at another address or is not this interface
 * would otherwise fail every test the same way; here it is one message saying which it is. When
 * the answer is this interface answering against the document (a list that is not an array,
 * limit=1 refused), the message names the requirement it breaks, and the result carries the
 * exchange, so that the run can charge the requirement with it.
 *
 * The key goes under the header's name as the document spells it, `Authorization`. A 401 (or
 * 403) has two causes, told apart before the key is blamed: the request is sent once more with the
 * name in lower case (a diagnosis, not a retry of a check). Refused again: the key is wrong.
 * Accepted: the target reads header names case-sensitively (they are case-insensitive, RFC 9110
 * §5.1), which breaks AUTH-BEARER alone; the run goes on under the spelling the target accepts,
 * so that every other requirement is still checked, and AUTH-BEARER's check sends both.
 *
 * An answer that is not JSON is not taken for another service at once: a target whose answers are
 * the interface's, garbled (a byte order mark before the JSON, a warning printed before it, a
 * proxy's page on some answers), breaks MEDIA-JSON, not the address. A body that holds the list,
 * garbled (http/garbled.ts), lets the run go on, MEDIA-JSON charged with it. A body that is no JSON
 * at all is asked about before the address is blamed, with at most two control requests, sent on
 * that path only: the same request once more, then (if that is no list either) the request
 * without a key, which the interface answers 401 with an Error. Either answered as the interface
 * answers (garbled or not), the run goes on, MEDIA-JSON charged with the answer that was not;
 * neither, and it is not this interface.
 *
 * A target that refuses the request for its load (429, 503: http/throttle.ts) is waited for, as
 * every request is.
 * Settings are passed in (this module does not read the configuration) so that the project's own
 * tests can call it directly. Nothing returned contains the key.
 */
import { type APIRequestContext, type APIResponse, request } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { authorizationName, lowerCaseAuthorizationName } from '../http/client.ts';
import type { JsonValue } from '../http/lossless-json.ts';
import { parseBody } from '../http/response.ts';
import { type GuardOptions, startResponseGuard } from '../http/response-guard.ts';
import { retryDelayMs, throttleStatusReason } from '../http/throttle.ts';
import { firstLine, transportCause } from '../http/transport-errors.ts';
import type { ExchangeView } from '../reporting/failure-text.ts';
import { redact } from '../reporting/redaction.ts';
import { shownUrl } from './base-url.ts';

export interface PreflightOptions extends GuardOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** How long in all to wait for a target that asks to (429, 503 with Retry-After). */
  maxWaitMs?: number;
}

/** What the preflight found: a one-line summary when the target is usable, else the problem. */
export type PreflightResult =
  | {
      ok: true;
      summary: string;
      /** The spelling of the Authorization header's name the target accepts the key under. */
      authorizationName: string;
      /** Requests sent, each wait included. */
      requests: number;
      /** An answer with a 5xx that the same request, sent again at once, was not answered with. */
      passing5xx?: ExchangeView;
      /** An answer that was not JSON, from a target that answered as the interface otherwise. */
      garbled?: { exchange: ExchangeView; problem: string };
      /** limit=1 refused with a 400 Error, where the list without limit is answered. */
      limitRefused?: ExchangeView;
    }
  | {
      ok: false;
      problem: string;
      requirement?: RequirementId;
      /** The answers the problem was found in (as shown in reports, never the key). */
      exchanges: ExchangeView[];
      /** What the answer should have been; with a requirement. */
      expected?: string;
      requests: number;
    };

/** A problem: what it is (the first line), what to do, what it breaks, what was expected. */
type Finding = [headline: string, advice: string, requirement?: RequirementId, expected?: string];

const envHint = 'in the environment or in .env (see .env.example)';
const baseHint =
  `Set BASE_URL ${envHint} to the base address the interface's paths are relative to, ` +
  'ending in /v1 (e.g. https://staging.example.com/petstore/api/v1).';
/** A first answer this slow is named as such (a target that starts on its first request). */
const SLOW_FIRST_ANSWER_MS = 2000;
/** Of an answer's body, what a report keeps (the env variable handing it on is bounded). */
const keptBodyBytes = 8192;

/** One answer of the preflight, its exchange as reports show it, and the line the console shows. */
interface Answer {
  response: APIResponse;
  body: Buffer;
  exchange: ExchangeView;
  line: string;
}

const isServerError = (status: number) => status >= 500 && status !== 503;

const refusesKey = ({ exchange }: Pick<Answer, 'exchange'>) =>
  exchange.status === 401 || exchange.status === 403;

export async function preflight(options: PreflightOptions): Promise<PreflightResult> {
  const path = '/pets?limit=1';
  const url = `${options.baseUrl}${path}`;
  const shown = shownUrl(url);
  // A hostile target may echo the request, key included.
  const scrub = (text: string) => redact(text, [options.apiKey]);
  // Through a response guard, as every request of the run: a huge answer is cut as it comes.
  const { insecureTls, clientCertificate, proxies, lookup } = options;
  const guard = await startResponseGuard(options.maxResponseBytes, {
    insecureTls,
    ...(clientCertificate ? { clientCertificate } : {}),
    ...(proxies ? { proxies } : {}),
    ...(lookup ? { lookup } : {}),
  });
  const context = await request.newContext();
  const started = Date.now();
  const wait = { waitedMs: 0, requests: 0 };
  /** What each request got (the last one judged), also when one got no answer. */
  const answers: Pick<Answer, 'exchange' | 'line'>[] = [];
  let finding: Finding | undefined;
  /** The answer the finding judges, when a control request came after it. */
  let judged: ExchangeView | undefined;
  let name = authorizationName;
  let passing5xx: ExchangeView | undefined;
  let garbled: { exchange: ExchangeView; problem: string } | undefined;
  let limitRefused: ExchangeView | undefined;
  /** A request with the key under that spelling of the header's name, or none (`undefined`). */
  const once = async (spelling: string | undefined, at = path) => {
    const target = `${options.baseUrl}${at}`;
    const answer = await fetchWaiting(
      context,
      target,
      await guard.via(target),
      spelling,
      options,
      wait,
    );
    const auth = spelling === undefined ? 'none' : 'Bearer <API_KEY>';
    answer.exchange.request = { method: 'GET', path: at, url: shownUrl(target), auth };
    if (spelling !== undefined && spelling !== authorizationName) {
      answer.exchange.request.authName = spelling;
    }
    answer.exchange.text = scrub(answer.exchange.text);
    answers.push(answer);
    return answer;
  };
  // A 5xx (not a 503: a refusal for load, waited for above) is sent again once, as every request
  // of the run is (http/client.ts): one that does not come back is NO-5XX's, and the run goes on.
  const ask = async (spelling: string) => {
    const answer = await once(spelling);
    if (!isServerError(answer.exchange.status)) return answer;
    const again = await once(spelling);
    if (!isServerError(again.exchange.status)) passing5xx ??= answer.exchange;
    return again;
  };
  try {
    let answer = await ask(authorizationName);
    if (refusesKey(answer)) {
      // Which it is, the key or the header's name, before the key is blamed: one more request.
      const other = await ask(lowerCaseAuthorizationName);
      if (!refusesKey(other)) {
        answer = other;
        name = lowerCaseAuthorizationName;
      }
    }
    if (answer.exchange.status === 400 && isErrorBody(answer.body)) {
      // limit=1 refused: the limit's, or the list's? The same list without limit tells (the
      // diagnosis' rule, list-refused-for-its-limit): answered, the run goes on, LIST-LIMIT-MIN
      // charged with the refusal; refused too, the list itself fails, and nothing can be checked.
      const plain = await once(name, '/pets');
      if (Array.isArray(listRead(plain, options.maxResponseBytes)?.value)) {
        limitRefused = answer.exchange;
        answer = plain;
      }
    }
    let recognised = false;
    const read = listRead(answer, options.maxResponseBytes);
    if (read?.salvaged !== undefined)
      garbled = { exchange: answer.exchange, problem: read.problem };
    else if (read && read.value === undefined) {
      // No JSON at all: another service, or the interface garbled on this answer alone (a proxy's
      // page)? Asked before the address is blamed: the same request once more, then without a key.
      const again = await once(name);
      const asInterface = listRead(again, options.maxResponseBytes)?.value;
      if (Array.isArray(asInterface)) {
        garbled = {
          exchange: answer.exchange,
          problem: `${read.problem}; the same request, sent again, was answered with the list`,
        };
        answer = again;
      } else {
        const keyless = await once(undefined);
        if (keyless.exchange.status === 401 && isErrorBody(keyless.body)) {
          garbled = {
            exchange: answer.exchange,
            problem: `${read.problem}; the request without a key was answered 401 with an Error: the interface answers at this address`,
          };
          recognised = true;
        }
      }
    }
    finding = refusesKey(answer)
      ? keyRejected(answers)
      : recognised
        ? undefined
        : judge(answer.response, answer.body, options.maxResponseBytes, wait.waitedMs);
    // JSON, but no array (null, an object): the interface's list broken, or another service?
    // Without a key, the interface answers 401 with an Error: then the address is right.
    if (finding?.[0] === notAnArray) {
      judged = answer.exchange;
      const keyless = await once(undefined);
      if (keyless.exchange.status === 401 && isErrorBody(keyless.body)) {
        finding = [
          `the list of pets is JSON but no array: GET /pets must answer 200 with Pets, an array (section 4.1); without a key it was answered 401 with an Error, so the interface answers at this address`,
          'No check can be made without the list of pets.',
          ...finding.slice(2),
        ] as Finding;
      }
    }
  } catch (thrown) {
    // What the guard ended the request for: an answer past the size limit, one that ran past its
    // framing; a refused connection is a connection error like any other.
    const ended = guard.failureOf('GET', url);
    const cut = ended?.notSent ? undefined : ended?.why;
    const error = guard.connectErrorOf(url) ?? thrown;
    const cause = transportCause(error, options.timeoutMs) ?? 'the request failed';
    // A target that starts on its first request (serverless, scaled to zero) may need longer.
    const coldStart = cause.startsWith('no answer within')
      ? ` A target that starts on its first request (a cold start) may need longer: raise CONFORMANCE_REQUEST_TIMEOUT_MS (${options.timeoutMs} ms now).`
      : '';
    finding = cut
      ? [
          cut.startsWith('the answer ran past its framing')
            ? `not this interface: ${cut}`
            : `not this interface: the answer was larger than ${options.maxResponseBytes} bytes`,
          `A list of at most one pet was expected. ${baseHint}`,
        ]
      : unreachable(cause, coldStart);
    const got = cut ?? firstLine(error);
    answers.push({
      line: `=> ${got}`,
      exchange: {
        request: { method: 'GET', path, url: shown, auth: 'Bearer <API_KEY>' },
        status: 0,
        headers: {},
        text: '',
        durationMs: Date.now() - started,
        failure: scrub(got),
      },
    });
  } finally {
    await context.dispose();
    await guard.close();
  }

  const garbledNote = garbled
    ? ` Its body is not JSON, but the interface's answer: MEDIA-JSON is charged with it, and the run goes on (${garbled.problem}).`
    : '';
  const caseNote =
    name === authorizationName
      ? ''
      : ` The target refused the key under the header name "${authorizationName}" ` +
        `(${answers[0]!.exchange.status}) and accepted it under "${name}": it reads header names ` +
        'case-sensitively (they are case-insensitive, RFC 9110 §5.1), which breaks AUTH-BEARER. ' +
        `The run goes on sending "${name}", so that every other requirement is checked; ` +
        "AUTH-BEARER's check sends both, and AUTHORIZATION.";
  if (!finding) {
    const waited =
      wait.waitedMs > 0
        ? ` (after waiting ${(wait.waitedMs / 1000).toFixed(1)} s as it asked)`
        : '';
    // The first answer of a target that starts on demand is slow: the run waits for it (within
    // the request timeout), and says how close it came.
    const slowest = Math.max(...answers.map(({ exchange }) => exchange.durationMs));
    const slow =
      slowest >= SLOW_FIRST_ANSWER_MS
        ? ` A slow first answer (${(slowest / 1000).toFixed(1)} s; a cold start?): every request ` +
          `waits up to CONFORMANCE_REQUEST_TIMEOUT_MS (${options.timeoutMs} ms) for its answer.`
        : '';
    return {
      ok: true,
      summary: scrub(
        `Preflight: GET ${shown} answered 200 in ${Date.now() - started} ms${waited}.${slow}${garbledNote}${caseNote}`,
      ),
      authorizationName: name,
      requests: wait.requests,
      ...(passing5xx ? { passing5xx } : {}),
      ...(garbled ? { garbled } : {}),
      ...(limitRefused ? { limitRefused } : {}),
    };
  }
  const [headline, advice, requirement, expected] = finding;
  const lines = answers.flatMap(({ exchange, line }) => [
    `GET ${shown} (${exchange.request.authName ?? authorizationName}: ${exchange.request.auth})`,
    line,
  ]);
  const breaks = requirement ? ` This answer breaks ${requirement}.` : '';
  const result: PreflightResult = {
    ok: false,
    problem: scrub(
      `${headline}\n${lines.map((line) => `  ${line}\n`).join('')}  ${advice}${breaks}${caseNote}\n  No test was run.`,
    ),
    // The answer judged: the last one, unless a control came after it.
    exchanges: judged ? [judged] : answers.slice(-1).map(({ exchange }) => exchange),
    requests: wait.requests,
  };
  if (requirement) result.requirement = requirement;
  if (expected) result.expected = expected;
  return result;
}

/**
 * One GET of the list, waited for as long as the target asks (429, 503 with Retry-After) within
 * the bound; `wait` counts the time waited and the requests sent. The exchange's request is the
 * caller's to fill in.
 */
async function fetchWaiting(
  context: APIRequestContext,
  url: string,
  /** Where the request is sent: the guard's address for `url`. */
  address: string,
  /** The spelling of the Authorization header's name; undefined: no key is sent. */
  name: string | undefined,
  options: PreflightOptions,
  wait: { waitedMs: number; requests: number },
): Promise<Answer> {
  for (let attempt = 1; ; attempt++) {
    const started = Date.now();
    wait.requests++;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (name !== undefined) headers[name] = `Bearer ${options.apiKey}`;
    const response = await context.fetch(address, {
      headers,
      timeout: options.timeoutMs,
      maxRedirects: 0,
      failOnStatusCode: false,
    });
    const body = await response.body();
    const durationMs = Date.now() - started;
    const throttled =
      throttleStatusReason(response.status(), response.headers(), attempt) !== undefined;
    const delay = throttled ? retryDelayMs(response.headers(), attempt) : 0;
    if (throttled && wait.waitedMs + delay <= (options.maxWaitMs ?? 0)) {
      wait.waitedMs += delay;
      await sleep(delay);
      continue;
    }
    const kept = body.subarray(0, keptBodyBytes).toString('utf8');
    const exchange: ExchangeView = {
      request: { method: 'GET', path: '', url, auth: '' },
      status: response.status(),
      // What a report shows of the headers: the media type, and where a redirect points.
      headers: Object.fromEntries(
        Object.entries(response.headers()).filter(([header]) =>
          ['content-type', 'location'].includes(header),
        ),
      ),
      text: body.length > keptBodyBytes ? `${kept}… (${body.length} bytes in all)` : kept,
      durationMs,
    };
    return { response, body, exchange, line: receivedLine(response, body) };
  }
}

/** `=> 200 application/json, 12 bytes: {"items":[]}`: an answer, on one line. */
function receivedLine(response: APIResponse, body: Buffer): string {
  const type = response.headers()['content-type'] || 'no Content-Type';
  // Only the start of the body is decoded: it may be huge.
  const start = body.subarray(0, 200).toString('utf8');
  const excerpt = body.length === 0 ? '(empty body)' : `${start}${body.length > 200 ? '…' : ''}`;
  return `=> ${response.status()} ${type}, ${body.length} bytes: ${excerpt}`;
}

/** No answer from the target: why, and what to check (the proxy, the client certificate…). */
function unreachable(cause: string, coldStart = ''): Finding {
  const advice = cause.startsWith('the proxy')
    ? `Check the proxy settings ${envHint}: HTTPS_PROXY (or HTTP_PROXY for an http target) and NO_PROXY.`
    : /client certificate/.test(cause)
      ? `Check CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY ${envHint}.`
      : `Check BASE_URL ${envHint}, and that the target is up and reachable from this machine.${coldStart}`;
  return [`the target is unreachable: ${cause}`, advice];
}

/** Refused under both spellings of the header's name: the key itself. */
function keyRejected(answers: readonly Pick<Answer, 'exchange'>[]): Finding {
  const statuses = answers.map(
    ({ exchange }) => `${exchange.request.authName ?? authorizationName}: ${exchange.status}`,
  );
  const status = answers[0]!.exchange.status;
  return [
    `the API key was rejected (${status}), under both spellings of the header's name (${statuses.join(', ')})`,
    `Check API_KEY ${envHint}: it must be a key this target accepts.`,
  ];
}

const notAnArray = 'not this interface: the answer is JSON but not an array';

/** What is wrong with the answer, or nothing when it is a JSON array. */
function judge(
  response: APIResponse,
  body: Buffer,
  maxResponseBytes: number,
  waitedMs: number,
): Finding | undefined {
  const status = response.status();
  const headers = response.headers();
  if (status === 404) {
    // An Error body: the interface answering, but not at paths relative to this base address.
    const breaks: RequirementId | undefined = isErrorBody(body) ? 'BASE-V1' : undefined;
    return [
      'wrong base address (404 on the list of pets)',
      baseHint,
      breaks,
      '200 with the list of pets, at /pets below the base address',
    ];
  }
  if (status >= 300 && status < 400) {
    return [
      `the target answered with a redirect (${status}) to ${headers.location ?? '(no Location)'}`,
      `The suite follows no redirect. ${baseHint}`,
    ];
  }
  if (status === 429 || (status === 503 && headers['retry-after'] !== undefined)) {
    return [
      `rate limited: the target kept asking to wait (${status}) after ${(waitedMs / 1000).toFixed(1)} s`,
      'Set CONFORMANCE_RATE to its limit (requests a second), or raise CONFORMANCE_MAX_WAIT_S.',
    ];
  }
  if (status === 400 && isErrorBody(body)) {
    // The interface answering, refusing the list with limit=1 and without (asked above).
    return [
      'the list of pets was refused (400), with limit=1 and without limit',
      'GET /pets must answer 200 with the list (section 4.1): no check can be made without it.',
      'LIST-200-PETS',
      '200 with the list of pets',
    ];
  }
  if (status !== 200) {
    return [
      `the list of pets failed (${status})`,
      'The suite cannot check a target whose GET /pets fails; see the answer above.',
    ];
  }
  if (body.length > maxResponseBytes) {
    return [
      `not this interface: the answer was larger than ${maxResponseBytes} bytes`,
      `A list of at most one pet was expected. ${baseHint}`,
    ];
  }
  const read = parseBody(body.toString('utf8'));
  if (!read.ok && read.unread) {
    return [
      `not this interface: ${read.problem}`,
      `A JSON array of pets was expected. ${baseHint}`,
    ];
  }
  // Garbled (a byte order mark, a warning before it), it is the list all the same: MEDIA-JSON's.
  const value = read.ok ? read.value : read.salvaged;
  if (value === undefined) {
    return [
      'not this interface: the answer is not JSON',
      'Sent once more, and without a key, it was not answered as the interface answers either ' +
        `(a JSON array of pets; 401 with an Error). A JSON array of pets was expected. ${baseHint}`,
    ];
  }
  if (!Array.isArray(value)) {
    return [
      notAnArray,
      `A JSON array of pets was expected (section 4.1: 200 answers Pets, an array). ${baseHint}`,
      'LIST-200-PETS',
      '200 with Pets, a JSON array',
    ];
  }
  return undefined;
}

/** The JSON a body holds, garbled or not (http/response.ts parses every body); undefined if none. */
function jsonOf(body: Buffer): JsonValue | undefined {
  const read = parseBody(body.toString('utf8'));
  return read.ok ? read.value : read.salvaged;
}

/**
 * A 200 answer's body as the list is read: its JSON (`value`), and when it is not JSON, why
 * (`problem`), with the JSON found inside a garbled one (`salvaged`). Undefined for any other
 * answer, and for one too large to read (judge says so).
 */
function listRead(
  answer: Pick<Answer, 'exchange' | 'body'>,
  maxResponseBytes: number,
): { value?: JsonValue; problem: string; salvaged?: JsonValue } | undefined {
  if (answer.exchange.status !== 200 || answer.body.length > maxResponseBytes) return undefined;
  const read = parseBody(answer.body.toString('utf8'));
  if (read.ok) return { value: read.value, problem: '' };
  // A body too deep to parse is no list of pets: judged as it is.
  if (read.unread) return { value: null, problem: read.problem };
  return read.salvaged === undefined
    ? { problem: read.problem }
    : { value: read.salvaged, problem: read.problem, salvaged: read.salvaged };
}

/** An Error body (code, message, status), garbled or not: the answer comes from the interface. */
function isErrorBody(body: Buffer): boolean {
  const value = jsonOf(body) as Record<string, unknown> | null | undefined;
  return typeof value?.code === 'string' && typeof value.message === 'string';
}
