/**
 * A worker's request context is kept from test to test (tests/support/http/request-context.ts)
 * only while no test can leave anything in it for the next: a cookie a target set, a request in
 * flight, answers piling up. Checked on Playwright's own request contexts, through the suite's
 * client, against a server on 127.0.0.1 that sets a cookie where asked and says which connection
 * each request came on.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { request } from '@playwright/test';
import { PetStoreClient } from '../tests/support/http/client.ts';
import { WorkerRequestContext } from '../tests/support/http/request-context.ts';
import { type ResponseGuard, startResponseGuard } from '../tests/support/http/response-guard.ts';
import { RunState, removeRunState } from '../tests/support/http/run-state.ts';

const runId = `selftest-context-${process.pid}`;
let connections = 0;
const server = createServer((req, res) => {
  const socket = req.socket as typeof req.socket & { number?: number };
  socket.number ??= ++connections;
  res.setHeader('content-type', 'application/json');
  if (req.url?.startsWith('/api/v1/cookie')) res.setHeader('set-cookie', 'session=s1; Path=/');
  res.end(
    JSON.stringify({
      connection: socket.number,
      cookie: req.headers.cookie ?? null,
      host: req.headers.host,
    }),
  );
});
let baseUrl = '';
let guard: ResponseGuard;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  guard = await startResponseGuard(1_000_000, { insecureTls: false });
});
after(async () => {
  await guard.close();
  removeRunState(runId);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One test of a worker, as the fixtures run it: acquire, requests through the client, release. */
async function aTest(
  shared: WorkerRequestContext,
  paths: string[],
  passed = true,
): Promise<{ connection: number; cookie: string | null; host: string }[]> {
  const context = await shared.acquire();
  const client = new PetStoreClient(context, {
    baseUrl,
    apiKey: 'context-key',
    timeoutMs: 5_000,
    state: new RunState({ runId, baseUrl, maxPets: 10, pace: 0, maxWaitMs: 0 }),
    readOnly: false,
    maxResponseBytes: 1_000_000,
    guard,
  });
  const seen = [];
  for (const path of paths) {
    const answer = await client.send('GET', path);
    assert.equal(answer.failure, undefined, `${path}: ${answer.failure}`);
    seen.push(
      JSON.parse(answer.text) as { connection: number; cookie: string | null; host: string },
    );
  }
  shared.note(client.contextUse);
  await shared.release(passed);
  return seen;
}

test('tests of a worker share its context and connection while they leave nothing in it', async () => {
  const shared = new WorkerRequestContext(() => request.newContext());
  try {
    const [first, again] = await aTest(shared, ['/pets', '/pets']);
    const [second] = await aTest(shared, ['/pets']);
    assert.equal(shared.kept, true);
    // Through the guard: its connection to the target is kept alive as Playwright's to it is.
    assert.equal(again!.connection, first!.connection, 'one connection serves a test');
    assert.equal(second!.connection, first!.connection, 'the kept connection serves the next test');
    assert.equal(first!.host, new URL(baseUrl).host, 'the target gets its own Host');
  } finally {
    await shared.dispose();
  }
});

test('a cookie the target set never reaches the next test', async () => {
  const shared = new WorkerRequestContext(() => request.newContext());
  try {
    const [, withinTest] = await aTest(shared, ['/cookie', '/pets']);
    assert.equal(withinTest!.cookie, 'session=s1', 'within its test, the cookie is sent back');
    assert.equal(shared.kept, false, 'the context that holds a cookie is disposed');
    const [next] = await aTest(shared, ['/pets']);
    assert.equal(next!.cookie, null);
  } finally {
    await shared.dispose();
  }
});

test('a test that did not pass, or noted nothing, leaves a new context to the next', async () => {
  const shared = new WorkerRequestContext(() => request.newContext());
  try {
    await aTest(shared, ['/pets'], false);
    assert.equal(shared.kept, false, 'after a test that did not pass');
    await shared.acquire();
    await shared.release(true);
    assert.equal(shared.kept, false, 'after a test whose requests were not counted');
  } finally {
    await shared.dispose();
  }
});

test('answers kept past the bound replace the context', async () => {
  const shared = new WorkerRequestContext(() => request.newContext(), 100);
  try {
    await aTest(shared, ['/pets']);
    assert.equal(shared.kept, true, 'one small answer is within the bound');
    await aTest(shared, ['/pets', '/pets', '/pets']);
    assert.equal(shared.kept, false, 'answers past the bound');
  } finally {
    await shared.dispose();
  }
});
