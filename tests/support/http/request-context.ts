/**
 * The request context of a worker's tests: one, kept from test to test, so that a worker's tests
 * share its connections (kept alive; against an HTTPS target one TLS handshake, not one a test)
 * and do not each pay for a context of their own. It is replaced after a test when keeping it
 * could carry something of that test into the next:
 * - the target set a cookie: no cookie a target sets reaches another test;
 * - the test did not pass: a request of it may still be in flight;
 * - the answers it holds pass a bound: Playwright keeps every answer's body until its context is
 *   disposed;
 * - nothing was noted of the test (it used the context without the client): nothing is known.
 */
import type { APIRequestContext } from '@playwright/test';
import type { ResponseGuard } from './response-guard.ts';

/** What one test's requests left in the context (the client counts it: `contextUse`). */
export interface ContextUse {
  /** Some answer carried Set-Cookie, or may have (a request that failed after its headers came). */
  cookies: boolean;
  /** The bytes of the answers received. */
  bytes: number;
}

/** Bytes of answers a kept context may hold before it is replaced. */
export const keptBytesLimit = 32 * 1024 * 1024;

export class WorkerRequestContext {
  private context?: APIRequestContext;
  private keptBytes = 0;
  private noted?: ContextUse;

  constructor(
    private readonly create: () => Promise<APIRequestContext>,
    private readonly limit = keptBytesLimit,
    /** The gateway the requests go through (response-guard.ts): the client asks it why one failed. */
    readonly guard?: ResponseGuard,
  ) {}

  /** The context for a test: the one kept, or a new one. */
  async acquire(): Promise<APIRequestContext> {
    this.noted = undefined;
    this.context ??= await this.create();
    return this.context;
  }

  /** What the test's requests left in the context; read by `release`. */
  note(use: ContextUse): void {
    this.noted = use;
  }

  /** After a test: keeps the context for the next one, or disposes of it (see above). */
  async release(passed: boolean): Promise<void> {
    const use = this.noted;
    this.noted = undefined;
    if (use) this.keptBytes += use.bytes;
    if (passed && use && !use.cookies && this.keptBytes <= this.limit) return;
    await this.dispose();
  }

  /** Disposes of the context: its requests still in flight fail, its answers are let go. */
  async dispose(): Promise<void> {
    const context = this.context;
    this.context = undefined;
    this.keptBytes = 0;
    await context?.dispose();
  }

  /** Whether a context is kept for the next test. */
  get kept(): boolean {
    return this.context !== undefined;
  }
}
