/**
 * Gateways as companies deploy them in front of a service, each its own small server on
 * 127.0.0.1 that answers some requests itself and passes the others to the target: a body-size
 * limit (413, an HTML page), a rate limiter whose 429 names no time, a load shedder (503 with
 * Retry-After), a cold start (the first answer after seconds). Each counts what it saw.
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenOnLoopback } from './counting-proxy.ts';

/** What a gateway answers itself instead of passing the request on. */
export interface OwnAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A gateway's rule for one request (its body read whole): an answer of its own, or undefined to
 * pass it on; `delayMs` holds the request that long first.
 */
export type GatewayRule = (
  request: IncomingMessage,
  body: Buffer,
) => { answer?: OwnAnswer; delayMs?: number } | undefined;

export interface Gateway {
  /** The target's base address, through the gateway. */
  baseUrl: string;
  /** Requests seen, and those the gateway answered itself, by status. */
  counts: { requests: number; own: Record<number, number> };
  close(): Promise<void>;
}

export async function startGateway(targetBaseUrl: string, rule: GatewayRule): Promise<Gateway> {
  const target = new URL(targetBaseUrl);
  const counts: Gateway['counts'] = { requests: 0, own: {} };
  const pass = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers['keep-alive'];
    const upstream = request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  };
  const server = createServer((req, res) => {
    counts.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const decision = rule(req, body) ?? {};
      void sleep(decision.delayMs ?? 0).then(() => {
        const own = decision.answer;
        if (!own) return pass(req, res, body);
        counts.own[own.status] = (counts.own[own.status] ?? 0) + 1;
        res.writeHead(own.status, {
          'content-length': Buffer.byteLength(own.body),
          ...own.headers,
        });
        res.end(own.body);
      });
    });
  });
  return { ...(await listenOnLoopback(server, target.pathname)), counts };
}

/** A body-size limit: a body over `limitBytes` gets 413 and the gateway's HTML page (nginx's). */
export const bodyLimit =
  (limitBytes: number): GatewayRule =>
  (_request, body) =>
    body.length > limitBytes
      ? {
          answer: {
            status: 413,
            headers: { 'content-type': 'text/html' },
            body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
          },
        }
      : undefined;

/**
 * A token bucket for the whole gateway: `rate` requests a second, in bursts of up to `burst`;
 * a request over it gets `refusal`.
 */
export function tokenBucket(rate: number, burst: number, refusal: OwnAnswer): GatewayRule {
  let tokens = burst;
  let filledAt = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - filledAt) / 1000) * rate);
    filledAt = now;
    if (tokens < 1) return { answer: refusal };
    tokens -= 1;
    return undefined;
  };
}

/** A rate limiter's 429 that names no time to wait (API gateways' default). */
export const tooManyRequests: OwnAnswer = {
  status: 429,
  headers: { 'content-type': 'application/json' },
  body: '{"message":"Too Many Requests"}',
};

/** A load shedder's 503: wait a second, says Retry-After; its body is the gateway's, plain text. */
export const shedding: OwnAnswer = {
  status: 503,
  headers: { 'content-type': 'text/plain', 'retry-after': '1' },
  body: 'upstream overloaded, retry later',
};

/** A cold start: the first request is held `delayMs`, as a serverless function starts. */
export function coldStart(delayMs: number): GatewayRule {
  let started = false;
  return () => {
    if (started) return undefined;
    started = true;
    return { delayMs };
  };
}
