/**
 * Kept-alive connections to a target, through the response guard (tests/support/http/
 * response-guard.ts): a connection the target closed, or said it would close, never carries a
 * request; a request that meets a reset or a close on a reused connection before any byte of its
 * answer is sent again once, on a new connection, and counted; on a new connection the same is the
 * target's failure, as before. First against a raw target that closes where told, through a raw
 * client on one connection (Playwright's own client keeps to Keep-Alive too, and would hide the
 * guard's part); then the suite itself, with four workers, against a conformant target that
 * closes idle connections after 1 s and sheds load with 503 and Retry-After.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { request } from '@playwright/test';
import { PetStoreClient } from '../tests/support/http/client.ts';
import { type ResponseGuard, startResponseGuard } from '../tests/support/http/response-guard.ts';
import { RunState, removeRunState } from '../tests/support/http/run-state.ts';
import { runSuite } from './support/playwright.ts';
import { startSheddingTarget } from './support/shedding-target.ts';

/** What the raw target does with the n-th request (from 1) of a connection numbered `connection`. */
type Behaviour = (connection: number, request: number) => 'answer' | 'reset' | 'close';

interface RawTarget {
  baseUrl: string;
  /** Connections made to it. */
  connections: number;
  close(): Promise<void>;
}

/**
 * A target answering each GET with `{"connection":n}`, kept alive (with `headers` added), or
 * resetting or closing its connection instead, as `behaviour` says; with `idleCloseMs`, a
 * connection idle that long is closed.
 */
async function startRawTarget(
  behaviour: Behaviour,
  headers: string[] = [],
  idleCloseMs = 0,
): Promise<RawTarget> {
  const sockets = new Set<net.Socket>();
  const target: RawTarget = { baseUrl: '', connections: 0, close: async () => {} };
  const server = net.createServer((socket) => {
    const connection = ++target.connections;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let requests = 0;
    let buffered = '';
    let idle: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => {
      clearTimeout(idle);
      buffered += chunk.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        const what = behaviour(connection, ++requests);
        if (what === 'reset') return socket.resetAndDestroy();
        if (what === 'close') return socket.end();
        const body = JSON.stringify({ connection });
        socket.write(
          [
            'HTTP/1.1 200 OK',
            'Content-Type: application/json',
            `Content-Length: ${body.length}`,
            ...headers,
            '',
            body,
          ].join('\r\n'),
        );
        if (idleCloseMs > 0) idle = setTimeout(() => socket.end(), idleCloseMs);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  target.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  target.close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  return target;
}

/** One client connection to the guard's address for a target: requests sent one at a time. */
class RawClient {
  private readonly socket: net.Socket;
  private buffered = '';
  private waiting?: (answer: string) => void;
  private failed?: string;

  constructor(address: string) {
    const { hostname, port } = new URL(address);
    this.socket = net.connect({ host: hostname, port: Number(port) });
    this.socket.on('data', (chunk) => {
      this.buffered += chunk.toString('latin1');
      const end = this.buffered.indexOf('\r\n\r\n');
      const length = /content-length:\s*(\d+)/i.exec(this.buffered)?.[1];
      if (end < 0 || length === undefined) return;
      if (this.buffered.length < end + 4 + Number(length)) return;
      const answer = this.buffered.slice(0, end + 4 + Number(length));
      this.buffered = this.buffered.slice(answer.length);
      this.waiting?.(answer);
    });
    const fail = (why: string) => {
      this.failed = why;
      this.waiting?.(`failed: ${why}`);
    };
    this.socket.on('error', (error) => fail(error.message));
    this.socket.on('close', () => fail('closed'));
  }

  /** The answer's body, or `failed: …` when the connection failed or closed first. */
  get(path: string): Promise<string> {
    if (this.failed) return Promise.resolve(`failed: ${this.failed}`);
    return new Promise((resolve) => {
      this.waiting = (answer) => {
        this.waiting = undefined;
        resolve(
          answer.startsWith('failed: ') ? answer : answer.slice(answer.indexOf('\r\n\r\n') + 4),
        );
      };
      this.socket.write(`GET ${path} HTTP/1.1\r\nHost: guard\r\nConnection: keep-alive\r\n\r\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the guard and kept-alive connections', () => {
  const opened: { close(): unknown }[] = [];
  after(async () => {
    for (const each of opened.reverse()) await each.close();
  });

  /** A guard, a raw target doing as told, and one client connection through the guard. */
  async function setUp(behaviour: Behaviour, headers: string[] = [], idleCloseMs = 0) {
    const guard: ResponseGuard = await startResponseGuard(1_000_000, { insecureTls: false });
    const target = await startRawTarget(behaviour, headers, idleCloseMs);
    opened.push(guard, target);
    const client = new RawClient(await guard.via(`${target.baseUrl}/pets`));
    opened.push(client);
    return { guard, target, client };
  }

  for (const what of ['reset', 'close'] as const) {
    test(`a ${what} on a reused connection before the answer: sent again once, on a new one`, async () => {
      const { guard, target, client } = await setUp((_, request) =>
        request === 2 ? what : 'answer',
      );
      assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
      assert.equal(await client.get('/api/v1/pets'), '{"connection":2}');
      assert.equal(guard.resent, 1);
      assert.equal(target.connections, 2);
    });
  }

  test('a reset on a new connection is the target’s: passed on, not sent again', async () => {
    const { guard, client } = await setUp(() => 'reset');
    assert.match(await client.get('/api/v1/pets'), /^failed: /);
    assert.equal(guard.resent, 0);
  });

  test('sent again once only: a reset on the new connection too is passed on', async () => {
    const { guard, target, client } = await setUp((connection, request) =>
      connection === 1 && request === 1 ? 'answer' : 'reset',
    );
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.match(await client.get('/api/v1/pets'), /^failed: /);
    assert.equal(guard.resent, 1);
    assert.equal(target.connections, 2);
  });

  test('Connection: close: the connection is not used again', async () => {
    const { guard, target, client } = await setUp(() => 'answer', ['Connection: close']);
    // The target does not close it itself: the guard must not reuse it all the same.
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.equal(await client.get('/api/v1/pets'), '{"connection":2}');
    assert.equal(guard.resent, 0);
    assert.equal(target.connections, 2);
  });

  test('Keep-Alive: timeout=N: an idle connection is not reused close to N seconds', async () => {
    const { guard, target, client } = await setUp(() => 'answer', ['Keep-Alive: timeout=1']);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}', 'reused at once');
    await sleep(600);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":2}', 'not after 0.6 s');
    assert.equal(guard.resent, 0);
    assert.equal(target.connections, 2);
  });

  test('without Keep-Alive an idle connection is reused until the target closes it', async () => {
    const { guard, target, client } = await setUp(() => 'answer');
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    await sleep(600);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.equal(guard.resent, 0);
    assert.equal(target.connections, 1);
  });

  test('a connection the target closed while idle: the next request goes on a new one', async () => {
    const { guard, target, client } = await setUp(() => 'answer', [], 200);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    await sleep(500);
    // The guard keeps the client's connection: only its own to the target was closed.
    assert.equal(await client.get('/api/v1/pets'), '{"connection":2}');
    assert.equal(guard.resent, 0);
    assert.equal(target.connections, 2);
  });
});

const apiKey = 'ck-5d2e8a1f7c9b04';

describe('a conformant target that closes idle connections after 1 s and sheds load', () => {
  // Without `Keep-Alive: timeout=1`, as many servers answer: only a close tells the client, and a
  // request sent as the target closes meets it. Every 7th request is shed with Retry-After: 1, so
  // the whole run pauses about as long as the target keeps an idle connection.
  const shedding = { keepAliveMs: 1000, shedEvery: 11, retryAfterS: 1, keepAliveHeader: false };

  test('20 rounds of 4 workers, idle about 1 s between them: no request fails', async () => {
    const target = await startSheddingTarget({ apiKey, ...shedding });
    const runId = `selftest-conn-${process.pid}`;
    const state = new RunState({
      runId,
      baseUrl: target.baseUrl,
      maxPets: 1000,
      pace: 0,
      maxWaitMs: 120_000,
    });
    // Four workers as the fixtures make them: a guard and a request context each.
    const workers = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const guard = await startResponseGuard(1_000_000, { insecureTls: false });
        const context = await request.newContext();
        const client = new PetStoreClient(context, {
          baseUrl: target.baseUrl,
          apiKey,
          timeoutMs: 10_000,
          state,
          readOnly: false,
          maxResponseBytes: 1_000_000,
          guard,
        });
        return { guard, context, client };
      }),
    );
    const failures: string[] = [];
    try {
      for (let round = 1; round <= 20; round++) {
        await Promise.all(
          workers.map(async ({ client }) => {
            for (const answer of [
              await client.listPets({ limit: 1 }),
              await client.createPet({ json: { name: `conn ${round}`, categoryId: 1 } }),
              await client.getPet(1n),
            ]) {
              if (answer.failure) failures.push(`round ${round}: ${answer.failure}`);
            }
          }),
        );
        // Idle about as long as the target keeps a connection: the close and the next request meet.
        await sleep(950 + Math.random() * 100);
      }
      const resent = workers.reduce((sum, { guard }) => sum + guard.resent, 0);
      assert.deepEqual(failures, [], `requests sent again: ${resent}`);
      assert.ok(target.counts.shed > 0, 'the target shed load');
    } finally {
      for (const { guard, context } of workers) {
        await context.dispose();
        await guard.close();
      }
      removeRunState(runId);
      await target.close();
    }
  });

  test('the suite passes with 4 workers, and says how many requests it sent again', async () => {
    // Also every 5th request on a reused connection met with a reset: each must be sent again.
    const target = await startSheddingTarget({ apiKey, ...shedding, resetReused: 5 });
    try {
      const run = await runSuite(['--grep', '§5 Authentication|§7 Errors'], {
        BASE_URL: target.baseUrl,
        API_KEY: apiKey,
        CONFORMANCE_WORKERS: '4',
        CONFORMANCE_REPORTS: 'json',
      });
      const failed = run.tests.filter((each) => each.outcome === 'failed');
      assert.deepEqual(
        failed.map((each) => `${each.title}: ${each.error}`),
        [],
        run.output.slice(-3000),
      );
      assert.equal(run.exitCode, 0, run.output.slice(-3000));
      assert.ok(target.counts.shed > 0, 'the target shed load');
      assert.ok(target.counts.reset > 0, 'the target reset reused connections');
      assert.equal(run.summary?.resent, target.counts.reset, 'conformance.json counts each');
      assert.match(
        run.output,
        new RegExp(`; ${target.counts.reset} sent again on a new connection \\(a kept-alive one`),
      );
    } finally {
      await target.close();
    }
  });
});
