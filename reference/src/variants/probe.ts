// The probe kit: what a variant's probe (and the reference self-test) uses to talk to a running
// reference. Probes run against a reference started with the API key KEY; its seeded pets get
// ids 1, 2, 3... and statuses available, pending, sold, none, available...
import assert from 'node:assert/strict';
import { type ClientRequest, type IncomingMessage, request } from 'node:http';
import { connect } from 'node:net';
import { losslessJson } from '../json.ts';
import type { ReferenceHandle } from '../server.ts';

export const KEY = 'selftest-key';
export const AUTH = { authorization: `Bearer ${KEY}` };
export const JSON_TYPE = { 'content-type': 'application/json' };
export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;
export const TWO_53_PLUS_1 = 9007199254740993n;
/** A valid NewPet body. */
export const valid = '{"name":"a","categoryId":1}';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed exactly: integers as bigint, other numbers as number; undefined if not JSON. */
  body: unknown;
}

/** JSON with integers kept exact (bigint), so comparisons never go through a double. */
export function exact(text: string): unknown {
  return losslessJson.parse(text, null, (n) => (/^-?[0-9]+$/.test(n) ? BigInt(n) : Number(n)));
}

export async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = exact(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/**
 * A GET whose header names go out exactly as written (fetch sends every name in lower case): for
 * targets that read header names case-sensitively.
 */
export function callAsWritten(url: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { headers }, (response) => void answerOf(response).then(resolve));
    sent.on('error', reject);
    sent.end();
  });
}

/** A node:http answer, read whole. */
async function answerOf(response: IncomingMessage): Promise<Answer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (typeof value === 'string') headers.set(name, value);
  }
  let body: unknown;
  try {
    body = exact(text);
  } catch {
    body = undefined;
  }
  return { status: response.statusCode ?? 0, headers, text, body };
}

/** Calls `then` once the request's connection is made: a gap timed before it would shrink. */
function afterConnect(sent: ClientRequest, then: () => void): void {
  sent.once('socket', (socket) => {
    if (socket.connecting) socket.once('connect', then);
    else then();
  });
}

/** A create whose body is written in two pieces, `gapMs` apart (after the head with the first). */
export function postInTwo(
  url: string,
  first: Buffer,
  second: Buffer,
  gapMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = {
      ...AUTH,
      ...JSON_TYPE,
      'content-length': String(first.length + second.length),
    };
    const sent = request(url, { method: 'POST', headers }, (response) => {
      void answerOf(response).then(resolve);
    });
    sent.on('error', reject);
    sent.write(first);
    afterConnect(sent, () => setTimeout(() => sent.end(second), gapMs));
  });
}

/**
 * A create whose head is written first and its body `gapMs` later, as a client that writes them
 * apart sends it (node's flushHeaders): for targets that read a request with one read.
 */
export function postAfterHead(url: string, body: string, gapMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = { ...AUTH, ...JSON_TYPE, 'content-length': String(Buffer.byteLength(body)) };
    const sent = request(url, { method: 'POST', headers }, (response) => {
      void answerOf(response).then(resolve);
    });
    sent.on('error', reject);
    sent.flushHeaders();
    afterConnect(sent, () => setTimeout(() => sent.end(body), gapMs));
  });
}

/**
 * A GET whose Authorization value is written byte for byte (Latin-1), control characters too,
 * which no client library sends: the status of its answer.
 */
export function statusOfRawGet(url: string, authorization: string): Promise<number> {
  const { hostname, port, pathname, search } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n` +
          `Authorization: ${authorization}\r\nConnection: close\r\n\r\n`,
        'latin1',
      );
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on('error', reject);
  });
}

/** A started reference with helpers bound to its base URL. */
export interface ProbeTarget {
  handle: ReferenceHandle;
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** A GET with its header names sent exactly as written (callAsWritten). */
  getAsWritten(path: string, headers: Record<string, string>): Promise<Answer>;
  post(body: string | Uint8Array, headers?: Record<string, string>): Promise<Answer>;
  create(fields: Record<string, unknown>): Promise<Answer>;
  /** The status of a GET of `path` with this Authorization value, byte for byte (statusOfRawGet). */
  rawGet(path: string, authorization: string): Promise<number>;
  /** A create whose body is written in two pieces, `gapMs` apart (postInTwo). */
  postInTwo(first: Buffer, second: Buffer, gapMs: number): Promise<Answer>;
  /** A create of this body, written `gapMs` after its head (postAfterHead). */
  postAfterHead(body: string, gapMs: number): Promise<Answer>;
}

/** Binds the helpers to a reference started with the API key KEY. */
export function probeTarget(handle: ReferenceHandle): ProbeTarget {
  return {
    handle,
    get: (path, headers = AUTH) => call(handle.baseUrl + path, { headers }),
    getAsWritten: (path, headers) => callAsWritten(handle.baseUrl + path, headers),
    post: (body, headers = { ...AUTH, ...JSON_TYPE }) =>
      call(`${handle.baseUrl}/pets`, { method: 'POST', headers, body }),
    rawGet: (path, authorization) => statusOfRawGet(handle.baseUrl + path, authorization),
    postInTwo: (first, second, gapMs) => postInTwo(`${handle.baseUrl}/pets`, first, second, gapMs),
    postAfterHead: (body, gapMs) => postAfterHead(`${handle.baseUrl}/pets`, body, gapMs),
    create: (fields) =>
      call(`${handle.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...AUTH, ...JSON_TYPE },
        // Fields given as bigint are written as exact JSON integers.
        body: JSON.stringify(fields, (_, v: unknown) =>
          typeof v === 'bigint' ? `@@${v}@@` : v,
        ).replace(/"@@(-?[0-9]+)@@"/g, '$1'),
      }),
  };
}

/**
 * A GET of `path`, with the key, left open: no answer within 200 ms. What it ends as ('answered',
 * 'failed') once the target is closed is `settled`, to be awaited then (an async function
 * returning the promise itself would wait for it).
 */
export async function leftOpen(
  t: ProbeTarget,
  path: string,
): Promise<{ settled: Promise<string> }> {
  const settled = fetch(t.handle.baseUrl + path, { headers: AUTH }).then(
    () => 'answered',
    () => 'failed',
  );
  const first = await Promise.race([settled, new Promise((r) => setTimeout(r, 200, 'open'))]);
  assert.equal(first, 'open', path);
  return { settled };
}

/** The answer is an Error of that status, sent as application/json. */
export function assertError(answer: Answer, status: number): void {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.headers.get('content-type'), 'application/json');
  const body = answer.body as Record<string, unknown>;
  assert.equal(typeof body.code, 'string');
  assert.equal(typeof body.message, 'string');
  assert.equal(body.status, BigInt(status));
}

/** One field of an object body. */
export const field = (answer: Answer, name: string): unknown =>
  (answer.body as Record<string, unknown>)[name];

/** One field of each item of an array body (a list answer's ids, names...). */
export const each = (answer: Answer, name: string): unknown[] =>
  (answer.body as Record<string, unknown>[]).map((item) => item[name]);

/** The length of an array body. */
export const count = (answer: Answer): number => (answer.body as unknown[]).length;

export const statusOf = async (answer: Promise<Answer>): Promise<number> => (await answer).status;
