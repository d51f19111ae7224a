/**
 * The pet store client: one method per operation of the interface, on Playwright's request
 * context.
 *
 * - Paths are joined to the base address as text, never with `new URL(path, base)`, which would
 *   drop every segment of a deep base path ("/pets" on ".../api/v1" would go to "/pets").
 * - Answers are read whole and parsed losslessly (see response.ts). A request that gets no usable
 *   answer (refused, reset, timed out, too large) resolves to an answer with a `failure`, so that
 *   the check that meets it can say which operation failed.
 * - A target that refuses a request for its load (429, 503: throttle.ts) did not process it: the
 *   run pauses as asked (or backs off) and the same request is sent again (run-state.ts bounds
 *   the waiting). That is not a retry of a failed check: no answer was judged.
 * - A create the response guard could not send again after its kept-alive connection closed
 *   before the answer (it may have been applied: http/resend.ts) leaves its check undecided: the
 *   test is blocked, saying which request and what happened, and never passes.
 * - The API key never leaves this module in the clear: requests are described with the
 *   placeholder <API_KEY>, and errors Playwright raises are redacted before they are shown.
 */
import { type APIRequestContext, type APIResponse, test } from '@playwright/test';
import { isUtf8 } from 'node:buffer';
import { redact } from '../reporting/redaction.ts';
import { notes } from '../reporting/summary.ts';
import { int64Of, parseLossless, stringifyExact } from './lossless-json.ts';
import type { ContextUse } from './request-context.ts';
import { ApiResponse, type Operation, type SentRequest } from './response.ts';
import { segmentsText } from '../reporting/failure-text.ts';
import {
  type ResponseGuard,
  type Segments,
  headerBytesHeader,
  segmentsHeader,
} from './response-guard.ts';
import { type RunState, UNANSWERED_LIMIT, WriteBudgetExceeded } from './run-state.ts';
import { retryDelayMs, throttleReason } from './throttle.ts';
import { explainTransportError } from './transport-errors.ts';

export { ApiResponse, type Operation, type Pet, type SentRequest } from './response.ts';

export type PetStatus = 'available' | 'pending' | 'sold';
export const petStatuses: readonly PetStatus[] = ['available', 'pending', 'sold'];

export interface NewPet {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/**
 * The header's name as the document spells it (section 5), sent by default. Header names are
 * case-insensitive (RFC 9110 §5.1), and Playwright sends a name as written: a target must accept
 * the key under any spelling (HTTP/2 clients always send the lower-case one).
 */
export const authorizationName = 'Authorization';
/** The other spelling of the name a target meets: the one every HTTP/2 client sends. */
export const lowerCaseAuthorizationName = 'authorization';
/**
 * A third spelling, in capitals: a lookup that tries the two usual spellings one after the other
 * (PHP's `$headers['Authorization'] ?? $headers['authorization']`) still reads names by case.
 */
export const upperCaseAuthorizationName = 'AUTHORIZATION';

/**
 * How a request authenticates: the configured key, none, or a given Authorization header (`name`:
 * the header's name as spelled, else the run's).
 */
export type Credentials = 'key' | 'none' | { authorization: string; label: string; name?: string };

/** A request body: a value serialized as exact JSON, or text sent exactly as given. */
export type Body = { json: unknown } | { raw: string | Buffer };

/** A petId: an integer, text to percent-encode, or a path segment sent exactly as given. */
export type PetId = bigint | string | { raw: string };

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  /** What the run's workers share: the write budget, the pace, the pauses the target asked for. */
  state: RunState;
  /** Read-only mode: a test that sends createPet is skipped instead. */
  readOnly: boolean;
  /** A larger answer is refused instead of being parsed. */
  maxResponseBytes: number;
  /**
   * How this run spells the Authorization header's name: the document's, unless the preflight
   * found the target accepts the key only under another (setup/preflight-check.ts).
   */
  authorizationName?: string;
  /** The gateway every request goes through, which cuts an answer past the limit. */
  guard?: ResponseGuard;
  /** The run's marker, which every name the suite makes carries: a pet without it is recorded. */
  petNamePrefix?: string;
}

export const readOnlySkipReason =
  'read-only mode (CONFORMANCE_READONLY=1): this check creates pets';

export interface RequestOptions {
  credentials?: Credentials;
  headers?: Record<string, string>;
  /** Written to the target in pieces, apart in time, by the response guard. */
  segments?: Segments;
  /**
   * The request carries a hostile input (vocabulary/hostile.ts): left unanswered, it is that
   * input's deviation, judged where it was sent, and no sign that its operation hangs: it does not
   * count toward UNANSWERED_LIMIT, which would leave every later request of the operation unsent.
   */
  hostile?: true;
}

/** The target kept asking to wait beyond the run's bound: no check can be made. */
export class RateLimitExhausted extends Error {}

/** The id of a 201 createPet answer, when its body holds a JSON object with an int64 id. */
function createdId(response: ApiResponse): bigint | undefined {
  const value = response.bodyValue;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return int64Of((value as Record<string, unknown>).id);
}

/** The id a create body asks for (an `id` among its fields), when it has one. */
export function askedId(body: string | undefined): bigint | undefined {
  if (body === undefined || !body.includes('"id"')) return undefined;
  try {
    const value = parseLossless(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? int64Of((value as Record<string, unknown>).id)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a create body's name holds a lone surrogate (`\udc00`): half a character. */
function loneSurrogateIn(text: string | undefined): boolean {
  // Sent as an escape: only a body that has one is read.
  if (!text || !/\\u[dD][89a-fA-F]/.test(text)) return false;
  try {
    const name = (JSON.parse(text) as { name?: unknown } | null)?.name;
    return typeof name === 'string' && /\p{Cs}/u.test(name);
  } catch {
    return false;
  }
}

// The bytes Node refuses in a field value (RFC 9110 §5.5: control characters but HTAB).
// eslint-disable-next-line no-control-regex
const fieldControl = /[\u0000-\u0008\u000a-\u001f\u007f]/g;

/**
 * Header values holding control characters, each replaced by a space, and the guard's directive
 * that puts them back on the wire (http/response-guard.ts, headerBytesHeader); none when no value
 * holds one.
 */
function headerControls(
  headers: Record<string, string>,
): { headers: Record<string, string>; directive: string } | undefined {
  const replaced: Record<string, string> = {};
  const parts: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const places = [...value.matchAll(fieldControl)].map(
      (match) => `${match.index}=${match[0].charCodeAt(0).toString(16).padStart(2, '0')}`,
    );
    if (places.length === 0) continue;
    replaced[name] = value.replace(fieldControl, ' ');
    parts.push(`${name} ${places.join(' ')}`);
  }
  return parts.length ? { headers: replaced, directive: parts.join('; ') } : undefined;
}

/** What one test's client did: reported as annotations, summed by the reporter. */
export interface ClientCounts {
  requests: number;
  petsCreated: number;
  /** Answers that refused the request for the target's load (429, 503); each was sent again. */
  throttled: number;
  /** How much this test's requests added to the run's pauses. */
  pausedMs: number;
}

/**
 * Marks a request's failure as observed; callers that await it still get the error. A request
 * still in flight when its test ends (the test timed out, or was skipped, while it waited) fails
 * when the request context is disposed: unobserved, that rejection would fail whichever test runs
 * next in the worker. (Requests sent side by side all settle first: vocabulary/together.ts.)
 */
function observed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** A 5xx but 503 (a refusal for load: sent again as throttle.ts says, and judged after that). */
const isServerError = (answer: ApiResponse) =>
  answer.failure === undefined && answer.status >= 500 && answer.status !== 503;

export class PetStoreClient {
  /** Every answer received, in order: attached to the report when a test fails. */
  readonly exchanges: ApiResponse[] = [];
  readonly counts: ClientCounts = { requests: 0, petsCreated: 0, throttled: 0, pausedMs: 0 };
  /**
   * The ids of pets created whose body did not carry the run's marker (an empty name cannot):
   * reported by id, since a staging owner cannot find them by name.
   */
  readonly unmarkedPets: bigint[] = [];
  /** GETs answered with a 5xx, then otherwise when sent again at once (exchange). */
  readonly passing5xx: { first: ApiResponse; again: ApiResponse }[] = [];
  /**
   * What this client's requests left in the request context, every answer counted (also those
   * that asked to wait): whether the context may serve the next test (request-context.ts).
   */
  readonly contextUse: ContextUse = { cookies: false, bytes: 0 };
  /**
   * What each request carried, by its description: its body's bytes and its credentials, what
   * `again` sends (held here only, never in a report).
   */
  private readonly sentAs = new WeakMap<SentRequest, { data?: Buffer; credentials: Credentials }>();

  constructor(
    private readonly request: APIRequestContext,
    readonly options: ClientOptions,
  ) {}

  /** listPets: GET /pets. Query values are sent as given, so invalid ones can be tried. */
  listPets(query: { limit?: string | number; status?: string } = {}, options: RequestOptions = {}) {
    const params = Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
    const path = `/pets${params.length ? `?${params.join('&')}` : ''}`;
    return this.send('GET', path, options, undefined, 'listPets');
  }

  /** createPet: POST /pets. Every call the target processes counts against the write budget. */
  createPet(body: Body | undefined, options: RequestOptions = {}): Promise<ApiResponse> {
    return observed(this.sendCreate(body, options));
  }

  private async sendCreate(body: Body | undefined, options: RequestOptions) {
    // Read-only mode (production) promised no writes: the check is skipped, named in the summary
    // as not run. Also without credentials: a target that ignores authentication would store it.
    if (this.options.readOnly) test.skip(true, readOnlySkipReason);
    this.options.state.reserveCreate();
    this.options.state.createSent();
    try {
      const response = await this.exchange('POST', '/pets', options, body, 'createPet');
      // Half a character in the name, answered with a 5xx: the pet may be stored all the same,
      // and the 5xx of a list holding it is the same deviation (vocabulary/attribution.ts).
      if (response.status >= 500 && loneSurrogateIn(response.request.body)) {
        this.options.state.noteUnwritableName();
      }
      if (response.status === 201) {
        this.counts.petsCreated++;
        // Every pet created, checked or not: two creates given one id are told from one pet
        // listed twice by this record (vocabulary/known-pets.ts).
        const id = createdId(response);
        if (id !== undefined) this.options.state.noteCreated(id);
        if (id !== undefined && id === askedId(response.request.body)) {
          this.options.state.noteChosenByBody(id);
        }
        const marker = this.options.petNamePrefix;
        if (id !== undefined && marker && !response.request.body?.includes(marker)) {
          this.unmarkedPets.push(id);
        }
      }
      return response;
    } catch (error) {
      // Asked to wait until the run's bound was spent: the target processed nothing.
      if (error instanceof RateLimitExhausted) this.options.state.releaseCreate();
      throw error;
    } finally {
      this.options.state.createSettled();
    }
  }

  /** getPet: GET /pets/{petId} (deprecated). */
  getPet(petId: PetId, options: RequestOptions = {}) {
    const segment = typeof petId === 'object' ? petId.raw : encodeURIComponent(String(petId));
    return this.send('GET', `/pets/${segment}`, options, undefined, 'getPet');
  }

  /** The absolute address of a path under the base address, whatever its depth. */
  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  /**
   * The request that got `answer`, sent once more exactly (its bytes, media type and credentials,
   * or the key or none in their place): a control request of the diagnosis
   * (vocabulary/diagnosis.ts), never a retry of a check (the check judges the answer it got).
   */
  again(answer: ApiResponse, credentials?: 'key' | 'none'): Promise<ApiResponse> {
    const sent = this.sentAs.get(answer.request);
    const type = answer.request.contentType;
    const headers = type ? { 'content-type': type } : undefined;
    const body = sent?.data === undefined ? undefined : { raw: sent.data };
    const { method, path } = answer.request;
    return this.send(
      method,
      path,
      { credentials: credentials ?? sent?.credentials ?? 'key', ...(headers ? { headers } : {}) },
      body,
      answer.operation,
    );
  }

  /** Any request below the base address; `operation` names the operation it is, if one. */
  send(
    method: string,
    path: string,
    options: RequestOptions = {},
    body?: Body,
    operation?: Operation,
  ): Promise<ApiResponse> {
    return observed(this.exchange(method, path, options, body, operation));
  }

  /**
   * Sends a request, and a GET once more at once when it is answered with a 5xx (not a 503, a
   * refusal for load sent again already: throttle.ts): a 5xx that does not come back (a dropped
   * database connection) is the target failing now and then, NO-5XX's, and the check judges the
   * answer to the same request sent again (`passing5xx` keeps both; the suite's fixture charges
   * NO-5XX). A 5xx that comes back is judged as any answer. A GET changes nothing; a create
   * answered with a 5xx may have been applied, so it is never sent again here: the check judges
   * the 5xx, and the diagnosis asks whether it comes back with a control of its own (a new pet,
   * counted against the write budget). A conformant target never pays for it.
   */
  private async exchange(
    method: string,
    path: string,
    options: RequestOptions,
    body: Body | undefined,
    operation: Operation | undefined,
  ): Promise<ApiResponse> {
    const first = await this.exchangeOnce(method, path, options, body, operation);
    if (!isServerError(first) || method !== 'GET') return first;
    const again = await this.exchangeOnce(method, path, options, body, operation);
    if (!isServerError(again)) this.passing5xx.push({ first, again });
    return again;
  }

  private async exchangeOnce(
    method: string,
    path: string,
    options: RequestOptions,
    body: Body | undefined,
    operation: Operation | undefined,
  ): Promise<ApiResponse> {
    const { authorization, label, name } = this.authorization(options.credentials ?? 'key');
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (authorization !== undefined) headers[name] = authorization;
    let data: Buffer | undefined;
    if (body !== undefined) {
      // A string `data` would be re-encoded as a JSON string by Playwright: always send bytes.
      data = Buffer.from('json' in body ? stringifyExact(body.json) : body.raw);
      headers['content-type'] ??= 'application/json';
    }
    const sent: SentRequest = { method, path, url: this.url(path), auth: label };
    if (name !== authorizationName) sent.authName = name;
    const controls = headerControls(headers);
    if (controls) {
      // A value no client library sends (a control character): the guard puts the bytes in.
      if (!this.options.guard) throw new Error('a control character in a header needs the guard');
      Object.assign(headers, controls.headers);
      headers[headerBytesHeader] = controls.directive;
      sent.fieldControls = true;
    }
    if (options.segments) {
      // Read and removed by the guard, which writes the request so; no guard, no pieces.
      if (!this.options.guard) throw new Error('a request in pieces needs the response guard');
      const { head, body: pieces, gapMs, inChar } = options.segments;
      headers[segmentsHeader] =
        `head=${head}; body=${pieces}; gap=${gapMs}${inChar ? '; in-char' : ''}`;
      sent.segments = segmentsText(options.segments);
    }
    if (headers.accept !== 'application/json') sent.accept = headers.accept;
    this.sentAs.set(sent, {
      ...(data === undefined ? {} : { data }),
      credentials: options.credentials ?? 'key',
    });
    if (data !== undefined) {
      sent.body = data.toString();
      sent.contentType = headers['content-type'];
      if (!isUtf8(data)) sent.notUtf8 = true;
    }

    for (let attempt = 1; ; attempt++) {
      const state = this.options.state;
      const { unanswered, cuts, paced } = await state.beforeRequest(operation, allowWaiting);
      // The requests that went unanswered are judged where they were sent; a check whose request
      // is not sent cannot decide anything: blocked, never charged for what the target never saw.
      // Answered as not sent, not thrown as a skip: the check judges the answers it has, and
      // blocks on this one only when nothing else of it failed (verdicts.ts, settle).
      if (operation && unanswered >= UNANSWERED_LIMIT) {
        const why =
          `not sent: ${operation} left ${UNANSWERED_LIMIT} requests in a row unanswered (no answer ` +
          `within ${this.options.timeoutMs} ms); the run does not wait on it again (${method} ${sent.url})`;
        const unsent = ApiResponse.failed(sent, operation, why, 0);
        unsent.notSent = why;
        return unsent;
      }
      const answer = await this.fetchOnce(sent, headers, data, operation, options.hostile);
      const reason = throttleReason(answer, attempt);
      if (!reason) {
        // An answer the target gave at the run's pace, that a learned pace may grow on (a 503 let
        // through to be judged is none).
        if (answer.failure === undefined && answer.status !== 503 && answer.status !== 429) {
          state.accepted(paced);
        }
        this.exchanges.push(answer);
        // Applied or not, nobody knows: no check can decide on it (not even that it failed).
        if (answer.outcomeUnknown) {
          test.skip(
            true,
            `${notes.blockedPrefix}no usable answer (${operation ?? method}, ${method} ${sent.url}): ${answer.failure}`,
          );
        }
        return answer;
      }
      // The target did not process the request: the run's pace is cut (run-state.ts), and it
      // waits as asked, or backs off, then sends it again.
      this.counts.throttled++;
      state.refused(cuts);
      const pause = state.pause(retryDelayMs(answer.headers, attempt));
      if (pause.spent) {
        this.exchanges.push(answer);
        throw new RateLimitExhausted(
          `Rate limited: ${method} ${sent.url} was answered ${reason} ${attempt} time(s) in a row, ` +
            `and the run has already waited ${(pause.pausedMs / 1000).toFixed(1)} s in all for ` +
            `this target, its bound (CONFORMANCE_MAX_WAIT_S=${state.options.maxWaitMs / 1000}). ` +
            'The target kept refusing: set CONFORMANCE_RATE to its limit (requests a second), or ' +
            'raise the bound.',
        );
      }
      this.counts.pausedMs += pause.addedMs;
    }
  }

  private async fetchOnce(
    sent: SentRequest,
    headers: Record<string, string>,
    data: Buffer | undefined,
    operation: Operation | undefined,
    hostile?: true,
  ): Promise<ApiResponse> {
    const state = this.options.state;
    this.counts.requests++;
    const started = Date.now();
    let response: APIResponse;
    let received: Buffer;
    try {
      // Through the guard's address for the target (the target's own without a guard).
      const address = this.options.guard ? await this.options.guard.via(sent.url) : sent.url;
      response = await this.request.fetch(address, {
        method: sent.method,
        headers,
        data,
        timeout: this.options.timeoutMs,
        maxRedirects: 0,
        failOnStatusCode: false,
      });
      received = await response.body();
    } catch (error) {
      // The guard cut an answer past the limit, ended a create it could not send again, or could
      // not reach the target: it knows why.
      const guard = this.options.guard;
      const ended = guard?.failureOf(sent.method, sent.url);
      if (ended?.budgetSpent) throw new WriteBudgetExceeded(ended.why);
      const why =
        ended?.why ??
        this.redact(
          explainTransportError(guard?.connectErrorOf(sent.url) ?? error, this.options.timeoutMs),
        );
      const timedOut = /^no answer within/.test(why);
      if (operation && !(timedOut && hostile)) state.answered(operation, !timedOut);
      // Headers may have come, and set a cookie, before the request failed.
      this.contextUse.cookies = true;
      const failed = ApiResponse.failed(sent, operation, why, Date.now() - started);
      if (ended?.outcomeUnknown) failed.outcomeUnknown = true;
      // Nothing listens any more (the preflight found the target): it stopped, or crashed on an
      // earlier request, which that request's check judges. This one was never sent: the check
      // that reads it is blocked, not charged (verdicts.ts, settle).
      if (ended?.notSent) {
        failed.notSent = `not sent: the target refused the connection (nothing listens at its address any more: did it stop, or crash on an earlier request?) (${sent.method} ${sent.url})`;
      }
      return failed;
    }
    if (operation) state.answered(operation, true);
    const answerHeaders = response.headers();
    if (answerHeaders['set-cookie'] !== undefined) this.contextUse.cookies = true;
    this.contextUse.bytes += received.length;
    // The guard cut any answer that grew past the limit as it came (over plain http, raw and
    // decoded); one that fits only with its head or encoding is refused here, before parsing.
    if (received.length > this.options.maxResponseBytes) {
      const why =
        `the answer was larger than ${this.options.maxResponseBytes} bytes ` +
        `(${response.status()}, ${received.length} bytes); CONFORMANCE_MAX_RESPONSE_BYTES sets the limit`;
      return ApiResponse.failed(sent, operation, why, Date.now() - started, response.status());
    }
    const answer = new ApiResponse(
      sent,
      response.status(),
      answerHeaders,
      received.toString('utf8'),
      Date.now() - started,
      operation,
    );
    if (!isUtf8(received)) answer.notUtf8 = true;
    if (answer.status >= 500 && operation !== 'createPet' && state.unwritableNameSeen()) {
      answer.afterUnwritableName = true;
    }
    return answer;
  }

  private authorization(credentials: Credentials): {
    authorization?: string;
    label: string;
    name: string;
  } {
    const name = this.options.authorizationName ?? authorizationName;
    if (credentials === 'none') return { label: 'none', name };
    if (credentials === 'key') {
      return { authorization: `Bearer ${this.options.apiKey}`, label: 'Bearer <API_KEY>', name };
    }
    return { ...credentials, name: credentials.name ?? name };
  }

  /** Removes the key from any text that may reach a report. */
  redact(text: string): string {
    return redact(text, [this.options.apiKey]);
  }
}

/** For each test, until when its timeout already allows for waiting. */
const waitAllowedUntil = new WeakMap<object, number>();

/**
 * Time the run waits as the target asked (a 429's or 503's pause, its pace) is not the check's:
 * the test's timeout grows by it, as the wait starts, once for waits of its requests that overlap.
 * A target that refuses a share of requests however slowly they come is answered at last, within
 * the run's own bounds (CONFORMANCE_MAX_WAIT_S, CONFORMANCE_RUN_TIMEOUT_MS); without this its
 * checks would time out with every answer right.
 */
function allowWaiting(until: number): void {
  let info: ReturnType<typeof test.info>;
  try {
    info = test.info();
  } catch {
    return; // not within a test (a worker's fixture): no test timeout runs
  }
  const from = Math.max(Date.now(), waitAllowedUntil.get(info) ?? 0);
  if (until <= from || info.timeout === 0) return;
  info.setTimeout(info.timeout + (until - from));
  waitAllowedUntil.set(info, until);
}
