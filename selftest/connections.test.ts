/**
 * Kept-alive connections to a target, through the response guard (tests/support/http/
 * response-guard.ts, its rule in resend.ts): a connection the target closed, or said it would
 * close, never carries a request; a GET that meets a reset or a close on a reused connection
 * before any byte of its answer is sent again once, on a new connection, and counted; on a new
 * connection the same is the target's failure, as before. A POST (a create) is never sent twice
 * when it may have been applied: one that met the close after it was written is not sent again,
 * and the guard says its outcome is unknown; one whose connection was found closed before any of
 * it was written goes, once, on a new connection, counted; and a POST goes on a kept-alive
 * connection only soon after its last answer. First against a raw target that closes where told,
 * through a raw client on one connection (Playwright's own client keeps to Keep-Alive too, and
 * would hide the guard's part); then the suite itself, with four workers, against a conformant
 * target that closes idle connections after 1 s and sheds load with 503 and Retry-After, and
 * against one that sheds one request in four however slowly they come: the waits it asks for are
 * not counted in a test's timeout, and its checks pass. Last, a request the suite asks to be written
 * in pieces (the hostile class segments) reaches the target so, apart in time, and a control
 * character in a header value is written where the client asked.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { request } from '@playwright/test';
import { PetStoreClient } from '../tests/support/http/client.ts';
import { createReuseMs } from '../tests/support/http/resend.ts';
import {
  type ResponseGuard,
  headerBytesHeader,
  segmentsHeader,
  startResponseGuard,
} from '../tests/support/http/response-guard.ts';
import { RunState, removeRunState } from '../tests/support/http/run-state.ts';
import { runSuite } from './support/playwright.ts';
import { startSheddingTarget } from './support/shedding-target.ts';

/**
 * What the raw target does with the n-th request (from 1) of a connection numbered `connection`,
 * read whole (its body too).
 */
type Behaviour = (
  connection: number,
  request: number,
  method: string,
) => 'answer' | 'reset' | 'close';

interface RawTarget {
  baseUrl: string;
  /** Connections made to it. */
  connections: number;
  /** Every request read whole: its method, and the connection it came on. */
  seen: { method: string; connection: number }[];
  /** Closes every connection at once (the close is sent as this returns: no event loop turn). */
  dropConnections(): void;
  close(): Promise<void>;
}

/**
 * A target answering each request with `{"connection":n}`, kept alive (with `headers` added), or
 * resetting or closing its connection instead, as `behaviour` says; with `idleCloseMs`, a
 * connection idle that long is closed; `afterAnswer` runs as each answer has been written.
 */
async function startRawTarget(
  behaviour: Behaviour,
  headers: string[] = [],
  idleCloseMs = 0,
  afterAnswer: () => void = () => {},
): Promise<RawTarget> {
  const sockets = new Set<net.Socket>();
  const target: RawTarget = {
    baseUrl: '',
    connections: 0,
    seen: [],
    dropConnections: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {},
  };
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
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = buffered.slice(0, end);
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) break;
        buffered = buffered.slice(end + 4 + length);
        const method = head.slice(0, head.indexOf(' '));
        target.seen.push({ method, connection });
        const what = behaviour(connection, ++requests, method);
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
        afterAnswer();
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
    return this.send(`GET ${path} HTTP/1.1\r\nHost: guard\r\nConnection: keep-alive\r\n\r\n`);
  }

  /** A POST with a JSON body: its answer's body, or `failed: …`. */
  post(path: string, body = '{"name":"a","categoryId":1}'): Promise<string> {
    return this.send(
      `POST ${path} HTTP/1.1\r\nHost: guard\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }

  /** Sends a whole request (written as this returns); resolves with its answer's body. */
  private send(request: string): Promise<string> {
    if (this.failed) return Promise.resolve(`failed: ${this.failed}`);
    return new Promise((resolve) => {
      this.waiting = (answer) => {
        this.waiting = undefined;
        resolve(
          answer.startsWith('failed: ') ? answer : answer.slice(answer.indexOf('\r\n\r\n') + 4),
        );
      };
      this.socket.write(request);
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
  async function setUp(
    behaviour: Behaviour,
    headers: string[] = [],
    idleCloseMs = 0,
    afterAnswer?: () => void,
  ) {
    const guard: ResponseGuard = await startResponseGuard(1_000_000, { insecureTls: false });
    const target = await startRawTarget(behaviour, headers, idleCloseMs, afterAnswer);
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

  for (const what of ['reset', 'close'] as const) {
    test(`a POST met by a ${what} after it was written on a reused connection: not sent again`, async () => {
      // The target reads the POST whole, then closes: it may have applied it.
      const { guard, target, client } = await setUp((_, __, method) =>
        method === 'POST' ? what : 'answer',
      );
      assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
      assert.match(await client.post('/api/v1/pets'), /^failed: /);
      assert.deepEqual(
        target.seen.filter((each) => each.method === 'POST'),
        [{ method: 'POST', connection: 1 }],
        'sent once, never again',
      );
      assert.equal(guard.resent, 0);
      const failure = guard.failureOf('POST', `${target.baseUrl}/pets`);
      assert.equal(failure?.outcomeUnknown, true, JSON.stringify(failure));
      assert.match(
        failure?.why ?? '',
        /^the connection (closed|was reset) after the request was sent, before any byte of its answer \(a kept-alive connection, its last answer \d+ ms before the close\): the target may have applied it, so it was not sent again/,
      );
    });
  }

  test('a POST whose connection is found closed before any of it is written: sent once, on a new one, counted', async () => {
    const { guard, target, client } = await setUp(() => 'answer');
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    // The POST reaches the guard, then the target's close of its idle connection, in one turn: the
    // guard holds a create for a turn before writing it on a reused connection, so it meets the
    // close first.
    const answer = client.post('/api/v1/pets');
    target.dropConnections();
    assert.equal(await answer, '{"connection":2}');
    assert.deepEqual(
      target.seen.filter((each) => each.method === 'POST'),
      [{ method: 'POST', connection: 2 }],
      'sent once, on the new connection only',
    );
    assert.equal(guard.resent, 1, 'counted');
  });

  test('a POST goes on a kept-alive connection only soon after its last answer', async () => {
    const { guard, target, client } = await setUp(() => 'answer');
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.equal(await client.post('/api/v1/pets'), '{"connection":1}', 'at once: kept');
    await sleep(createReuseMs + 150);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}', 'a GET keeps it');
    await sleep(createReuseMs + 150);
    assert.equal(await client.post('/api/v1/pets'), '{"connection":2}', 'idle: a new one');
    assert.equal(guard.resent, 0);
    assert.equal(target.connections, 2);
  });

  test('an answer handled late, the process held up: its connection is idle since it arrived', async () => {
    // The target's idle clock starts as its answer leaves. A process starved of CPU handles the
    // answer late; its idle time counted from then, a create would go on a connection whose
    // target may be closing it (the self-test's busy two cores once showed it).
    let holdUp = true;
    const { target, client } = await setUp(
      () => 'answer',
      [],
      0,
      () => {
        if (!holdUp) return;
        holdUp = false;
        // This process, the guard's too, is held up as the answer waits to be read.
        for (const until = Date.now() + createReuseMs + 150; Date.now() < until;);
      },
    );
    await sleep(100);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":1}');
    assert.equal(await client.post('/api/v1/pets'), '{"connection":2}', 'its answer came long ago');
    // Once the process runs on time again, answers are dated as they come.
    await sleep(100);
    assert.equal(await client.get('/api/v1/pets'), '{"connection":2}');
    assert.equal(await client.post('/api/v1/pets'), '{"connection":2}', 'at once: kept');
    assert.equal(target.connections, 2);
  });

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
            // Every other round starts with the create, after the pause: it must not go on a
            // connection the target may be closing (response-guard.ts, resend.ts).
            const create = () =>
              client.createPet({ json: { name: `conn ${round}`, categoryId: 1 } });
            const list = () => client.listPets({ limit: 1 });
            try {
              for (const answer of [
                await (round % 2 ? create() : list()),
                await (round % 2 ? list() : create()),
                await client.getPet(1n),
              ]) {
                if (answer.failure) failures.push(`round ${round}: ${answer.failure}`);
              }
            } catch (error) {
              // A create whose outcome is unknown blocks its check (test.skip, outside a test here).
              failures.push(`round ${round}: ${(error as Error).message}`);
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
    // Also every 2nd request on a reused connection idle a while (longer than the guard keeps a
    // connection for a create) met with a reset, as when the idle close crosses it: each must be
    // sent again, and no create may meet one.
    const target = await startSheddingTarget({
      apiKey,
      ...shedding,
      resetReused: 2,
      resetIdleMs: createReuseMs + 50,
    });
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
      // Exit 0, not 2: no check was left undecided, so no create met a close after it was sent.
      assert.equal(run.exitCode, 0, run.output.slice(-3000));
      assert.ok(target.counts.shed > 0, 'the target shed load');
      assert.ok(target.counts.reset > 0, 'the target reset reused connections');
      // Each reset request was sent again; so may be one that met the target's own idle close
      // (after a pause of 1 s, as long as it keeps a connection), or a create whose connection
      // was found closed before it was written.
      const resent = run.summary?.resent ?? 0;
      assert.ok(
        resent >= target.counts.reset,
        `${resent} sent again, ${target.counts.reset} reset`,
      );
      assert.match(
        run.output,
        new RegExp(`; ${resent} sent again on a new connection \\(a kept-alive one`),
      );
    } finally {
      await target.close();
    }
  });

  test('a target refusing one request in four, however slowly they come: its waits are not the checks’, which pass', async () => {
    // Every 4th request shed with Retry-After: 1 s, whatever the pace: the run waits as asked
    // longer than a test's timeout of 8 s (the sweep of the GET slots alone sends 230 requests,
    // more than two cores send in 3 s beside the others), and no check may time out for it.
    const target = await startSheddingTarget({ apiKey, keepAliveMs: 5000, shedEvery: 4 });
    try {
      const run = await runSuite(['--grep', '@AUTH-401-INVALID'], {
        BASE_URL: target.baseUrl,
        API_KEY: apiKey,
        CONFORMANCE_WORKERS: '4',
        CONFORMANCE_TEST_TIMEOUT_MS: '8000',
        CONFORMANCE_REPORTS: 'json',
      });
      const failed = run.tests.filter((each) => each.outcome !== 'passed');
      assert.deepEqual(
        failed.map((each) => `${each.title}: ${each.error}`),
        [],
        run.output.slice(-3000),
      );
      assert.equal(run.exitCode, 0, run.output.slice(-3000));
      // The run did wait longer than a test may take.
      assert.ok((run.summary?.pausedMs ?? 0) > 8000, `paused ${run.summary?.pausedMs} ms`);
    } finally {
      await target.close();
    }
  });
});

describe('what no client library sends: a request in pieces, control characters in a header', () => {
  /**
   * A guard in front of a target that hands each chunk it reads to `read` and answers 201 400 ms
   * after a connection opens: the address of its pets through the guard.
   */
  async function piecesTarget(read: (chunk: Buffer) => void) {
    const server = net.createServer((socket) => {
      socket.on('data', read);
      socket.on('error', () => {});
      setTimeout(() => socket.end('HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\n{}'), 400);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const guard = await startResponseGuard(1_000_000, { insecureTls: false });
    const port = (server.address() as AddressInfo).port;
    return {
      address: await guard.via(`http://127.0.0.1:${port}/v1/pets`),
      close: async () => {
        await guard.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  test('the guard writes it to the target in its pieces, apart in time, without the header that asked', async () => {
    const reads: { at: number; bytes: string }[] = [];
    const target = await piecesTarget((chunk) =>
      reads.push({ at: Date.now(), bytes: chunk.toString('latin1') }),
    );
    try {
      const body = '{"name":"pieces","categoryId":7}';
      const answer = await fetch(target.address, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [segmentsHeader]: 'head=2; body=3; gap=30' },
        body,
      });
      assert.equal(answer.status, 201);
      const whole = reads.map((read) => read.bytes).join('');
      assert.ok(whole.endsWith(`\r\n\r\n${body}`), whole);
      assert.doesNotMatch(whole, new RegExp(segmentsHeader, 'i'));
      // Five pieces, each read on its own: two of the head, three of the body.
      assert.equal(reads.length, 5, JSON.stringify(reads));
      assert.ok(!reads[0]!.bytes.includes('\r\n\r\n'), 'the head is cut before its end');
      assert.ok(reads.at(-1)!.at - reads[0]!.at >= 4 * 30 * 0.8, JSON.stringify(reads));
    } finally {
      await target.close();
    }
  });

  test('its pieces keep their order when the process is held up past several gaps', async () => {
    // Timers of different delays that are due together run list by list: a timer of two gaps set
    // 1.4 gaps before the pieces' puts the list of two gaps ahead of the list of one, as other
    // requests' timers may; held up past both, the body's timer would run first.
    const gap = 50;
    let whole = '';
    let heldUp = false;
    const target = await piecesTarget((chunk) => {
      whole += chunk.toString('latin1');
      if (heldUp) return;
      heldUp = true;
      // Once the guard has set the timers of the pieces (as it reached this target): held up
      // past them.
      setTimeout(() => {
        for (const until = Date.now() + 4 * gap; Date.now() < until;);
      }, 10);
    });
    try {
      const body = '{"name":"pieces","categoryId":7}';
      const others = setInterval(() => setTimeout(() => {}, 2 * gap), 5);
      const answer = await fetch(target.address, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [segmentsHeader]: `head=2; body=1; gap=${gap}`,
        },
        body,
      }).finally(() => clearInterval(others));
      assert.equal(answer.status, 201);
      assert.ok(whole.endsWith(`\r\n\r\n${body}`), whole);
    } finally {
      await target.close();
    }
  });

  test('the guard writes a control character in a header value where the client put a placeholder, and drops the header that asked', async () => {
    let head = '';
    const server = net.createServer((socket) => {
      socket.on('data', (chunk) => {
        head += chunk.toString('latin1');
        if (head.includes('\r\n\r\n'))
          socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n');
      });
      socket.on('error', () => {});
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const guard = await startResponseGuard(1_000_000, { insecureTls: false });
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await fetch(await guard.via(`http://127.0.0.1:${port}/v1/pets`), {
        headers: {
          authorization: 'Bearer KEY  x',
          [headerBytesHeader]: 'authorization 10=00 11=0b',
        },
      });
      assert.equal(answer.status, 401);
      assert.ok(head.includes('\r\nauthorization: Bearer KEY\u0000\u000bx\r\n'), head);
      assert.doesNotMatch(head, new RegExp(headerBytesHeader, 'i'));
    } finally {
      await guard.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
