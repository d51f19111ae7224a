/**
 * The pet store client: one method per operation of the interface, on Playwright's request
 * context.
 *
 * - Paths are joined to the base address as text, never with `new URL(path, base)`, which would
 *   drop every segment of a deep base path ("/pets" on ".../api/v1" would go to "/pets").
 * - Response text is kept whole and parsed losslessly (see lossless-json.ts).
 * - The API key never leaves this module in the clear: requests are described with the
 *   placeholder <API_KEY>, and errors Playwright raises are scrubbed before they are rethrown.
 */
import { type APIRequestContext, type APIResponse, test } from '@playwright/test';
import type { Ledger } from './ledger.ts';
import { redactKey } from './secret.ts';
import {
  type JsonValue,
  excerpt,
  int64Of,
  parseLossless,
  stringifyExact,
} from './lossless-json.ts';
import { explainTransportError } from './transport-errors.ts';

export type PetStatus = 'available' | 'pending' | 'sold';
export const petStatuses: readonly PetStatus[] = ['available', 'pending', 'sold'];

export interface NewPet {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/** A Pet as returned, with int64 fields as exact BigInt values. */
export interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

/** How a request authenticates: the configured key, none, or a given Authorization header. */
export type Credentials = 'key' | 'none' | { authorization: string; label: string };

/** A request body: a value serialized as exact JSON, or text sent exactly as given. */
export type Body = { json: unknown } | { raw: string | Buffer };

export interface SentRequest {
  method: string;
  /** The path below the base address, as sent (query included). */
  path: string;
  url: string;
  /** The Authorization header as described in reports: the key itself is never shown. */
  auth: string;
  body?: string;
}

export type ParsedBody = { ok: true; value: JsonValue } | { ok: false; problem: string };

export class ApiResponse {
  private parsed?: ParsedBody;

  constructor(
    readonly request: SentRequest,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly durationMs: number,
  ) {}

  get contentType(): string {
    return this.headers['content-type'] ?? '';
  }

  /** True for application/json, with or without parameters such as charset. */
  get isJson(): boolean {
    return /^application\/json\s*(;|$)/i.test(this.contentType);
  }

  /** The body parsed losslessly, or why it could not be. */
  get body(): ParsedBody {
    this.parsed ??= (() => {
      if (this.text.trim() === '') return { ok: false, problem: 'the body is empty' };
      try {
        return { ok: true, value: parseLossless(this.text) };
      } catch (error) {
        return { ok: false, problem: `the body is not JSON (${(error as Error).message})` };
      }
    })();
    return this.parsed;
  }

  /** The parsed body; throws when it is not JSON (call after a matcher has checked it). */
  get json(): JsonValue {
    const body = this.body;
    if (!body.ok) throw new Error(`${this.describeRequest()}: ${body.problem}`);
    return body.value;
  }

  /** The body as a Pet (after a schema check), with exact int64 fields. */
  pet(): Pet {
    return toPet(this.json);
  }

  /** The body as Pets (after a schema check). */
  pets(): Pet[] {
    const value = this.json;
    if (!Array.isArray(value))
      throw new Error(`${this.describeRequest()}: the body is not an array`);
    return value.map(toPet);
  }

  describeRequest(): string {
    const { method, url, auth, body } = this.request;
    const sent = body === undefined ? '' : `\n  body: ${excerpt(body, 300)}`;
    return `${method} ${url} (Authorization: ${auth})${sent}`;
  }

  /** A curl command that repeats this request, with the key left to the shell ($API_KEY). */
  curl(): string {
    const { method, path, auth, body } = this.request;
    const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
    const parts = [`curl -i -X ${method} "$BASE_URL"${quote(path)}`];
    if (auth !== 'none')
      parts.push(`-H ${quote(`Authorization: ${auth}`).replace('<API_KEY>', '\'"$API_KEY"\'')}`);
    if (body !== undefined)
      parts.push(`-H 'content-type: application/json' --data-binary ${quote(body)}`);
    return parts.join(' ');
  }

  describeResponse(): string {
    const type = this.contentType || 'no Content-Type';
    const text = this.text === '' ? '(empty body)' : excerpt(this.text);
    return `${this.status} ${type} after ${this.durationMs} ms${this.redirect()}\n  ${text}`;
  }

  /** For a 3xx, where it points: the suite follows no redirect, so a 3xx is judged as it is. */
  private redirect(): string {
    if (this.status < 300 || this.status >= 400) return '';
    const location = this.headers.location;
    if (!location) return ', a redirect without a Location (not followed)';
    let target = location;
    try {
      target = new URL(location, this.request.url).href;
    } catch {
      // shown as sent
    }
    const loop = target === new URL(this.request.url).href ? ', to itself: a redirect loop' : '';
    return `, a redirect to ${location}${loop} (not followed)`;
  }
}

function toPet(value: JsonValue): Pet {
  const record = (value ?? {}) as Record<string, JsonValue>;
  const id = int64Of(record.id);
  const categoryId = int64Of(record.categoryId);
  if (id === undefined || categoryId === undefined || typeof record.name !== 'string') {
    throw new Error(`Not a Pet: ${excerpt(JSON.stringify(value))}`);
  }
  const pet: Pet = { id, name: record.name, categoryId };
  if (typeof record.status === 'string') pet.status = record.status;
  return pet;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string;
  timeoutMs: number;
  ledger: Ledger;
  /** Read-only mode: a test that sends createPet is skipped instead. */
  readOnly: boolean;
  /** A larger answer fails its request instead of being parsed. */
  maxResponseBytes: number;
}

export const readOnlySkipReason =
  'read-only mode (CONFORMANCE_READONLY=1): this check creates pets';

export interface RequestOptions {
  credentials?: Credentials;
  headers?: Record<string, string>;
}

/**
 * Marks a request's failure as observed; callers that await it still get the error. A request
 * still in flight when its test ends (another request of the same Promise.all failed, or the
 * test was skipped) fails when the request context is disposed: unobserved, that rejection
 * would fail whichever test runs next in the worker.
 */
function observed<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

export class PetStoreClient {
  /** Every answer received, in order: attached to the report when a test fails. */
  readonly exchanges: ApiResponse[] = [];

  constructor(
    private readonly request: APIRequestContext,
    readonly options: ClientOptions,
  ) {}

  /** listPets: GET /pets. Query values are sent as given, so invalid ones can be tried. */
  listPets(query: { limit?: string | number; status?: string } = {}, options: RequestOptions = {}) {
    const params = Object.entries(query)
      .filter(([, value]) => value !== undefined)
      .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
    return this.send('GET', `/pets${params.length ? `?${params.join('&')}` : ''}`, options);
  }

  /** createPet: POST /pets. Every call counts against the write budget, valid or not. */
  createPet(body: Body | undefined, options: RequestOptions = {}): Promise<ApiResponse> {
    return observed(this.sendCreate(body, options));
  }

  private async sendCreate(body: Body | undefined, options: RequestOptions) {
    // Also without credentials: a target that ignores authentication would store the pet.
    if (this.options.readOnly) test.skip(true, readOnlySkipReason);
    this.options.ledger.reserveCreate();
    const response = await this.send('POST', '/pets', options, body);
    if (response.status === 201) this.options.ledger.petsCreated++;
    return response;
  }

  /** getPet: GET /pets/{petId} (deprecated). */
  getPet(petId: bigint | string, options: RequestOptions = {}) {
    return this.send('GET', `/pets/${encodeURIComponent(String(petId))}`, options);
  }

  /** The absolute address of a path under the base address, whatever its depth. */
  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  send(method: string, path: string, options: RequestOptions = {}, body?: Body) {
    return observed(this.exchange(method, path, options, body));
  }

  private async exchange(method: string, path: string, options: RequestOptions, body?: Body) {
    const { authorization, label } = this.authorization(options.credentials ?? 'key');
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (authorization !== undefined) headers.authorization = authorization;
    let data: string | Buffer | undefined;
    if (body !== undefined) {
      // A string `data` would be re-encoded as a JSON string by Playwright: always send bytes.
      data = 'json' in body ? stringifyExact(body.json) : body.raw;
      headers['content-type'] ??= 'application/json';
    }
    const sent: SentRequest = { method, path, url: this.url(path), auth: label };
    if (data !== undefined) sent.body = data.toString();

    this.options.ledger.requests++;
    const started = Date.now();
    let response: APIResponse;
    let received: Buffer;
    try {
      response = await this.request.fetch(sent.url, {
        method,
        headers,
        data: data === undefined ? undefined : Buffer.from(data),
        timeout: this.options.timeoutMs,
        maxRedirects: 0,
        failOnStatusCode: false,
      });
      received = await response.body();
    } catch (error) {
      throw new Error(
        this.scrub(
          `${method} ${sent.url} (Authorization: ${label}) failed: ` +
            explainTransportError(error, this.options.timeoutMs),
        ),
      );
    }
    // Playwright reads an answer whole, within the request timeout; a huge one is refused here
    // rather than decoded, parsed and quoted.
    if (received.length > this.options.maxResponseBytes) {
      throw new Error(
        `${method} ${sent.url} (Authorization: ${label}): the answer was larger than ` +
          `${this.options.maxResponseBytes} bytes (${response.status()}, ${received.length} bytes); ` +
          'CONFORMANCE_MAX_RESPONSE_BYTES sets the limit',
      );
    }
    const answer = new ApiResponse(
      sent,
      response.status(),
      response.headers(),
      received.toString('utf8'),
      Date.now() - started,
    );
    this.exchanges.push(answer);
    return answer;
  }

  private authorization(credentials: Credentials): { authorization?: string; label: string } {
    if (credentials === 'none') return { label: 'none' };
    if (credentials === 'key') {
      return { authorization: `Bearer ${this.options.apiKey}`, label: 'Bearer <API_KEY>' };
    }
    return credentials;
  }

  /** Removes the key from any text that may reach a report. */
  scrub(text: string): string {
    return redactKey(text, this.options.apiKey);
  }
}

/** Wrong credentials that must each be refused with 401 (section 5); labels never hold the key. */
export function invalidCredentials(apiKey: string): Credentials[] {
  return [
    { authorization: 'Bearer not-the-key-0123456789', label: 'Bearer <a wrong key>' },
    { authorization: `Basic ${apiKey}`, label: 'Basic <API_KEY>' },
    { authorization: apiKey, label: '<API_KEY> (no scheme)' },
    { authorization: 'Bearer ', label: 'Bearer (empty token)' },
    { authorization: `Bearer ${apiKey}x`, label: 'Bearer <API_KEY>x (characters appended)' },
  ];
}
