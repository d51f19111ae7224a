/**
 * The pet store client: one method per operation of the interface, on Playwright's request
 * context.
 *
 * - Paths are joined to the base address as text, never with `new URL(path, base)`, which would
 *   drop every segment of a deep base path ("/pets" on ".../api/v1" would go to "/pets").
 * - Response text is kept whole and parsed losslessly (see lossless-json.ts).
 * - The API key never leaves this module in the clear: requests are described with the
 *   placeholder <API_KEY>, and errors Playwright raises are redacted before they are rethrown.
 */
import { type APIRequestContext, type APIResponse, test } from '@playwright/test';
import { redact } from '../reporting/redaction.ts';
import type { Ledger } from './ledger.ts';
import { stringifyExact } from './lossless-json.ts';
import { ApiResponse, type SentRequest } from './response.ts';
import { explainTransportError } from './transport-errors.ts';

export { ApiResponse, type Pet, type SentRequest } from './response.ts';

export type PetStatus = 'available' | 'pending' | 'sold';
export const petStatuses: readonly PetStatus[] = ['available', 'pending', 'sold'];

export interface NewPet {
  name: string;
  categoryId: bigint;
  status?: PetStatus;
}

/** How a request authenticates: the configured key, none, or a given Authorization header. */
export type Credentials = 'key' | 'none' | { authorization: string; label: string };

/** A request body: a value serialized as exact JSON, or text sent exactly as given. */
export type Body = { json: unknown } | { raw: string | Buffer };

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
        this.redact(
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
  redact(text: string): string {
    return redact(text, [this.options.apiKey]);
  }
}
