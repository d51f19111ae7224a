/**
 * The benchmark's network (scripts/network-delay.ts) delays as a network does: a request on a new
 * connection waits a round trip for the connection and one for its answer; on a kept-alive one,
 * one round trip; the bytes arrive in order and whole. What the benchmark's "round trips" figure
 * rests on.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { type DelayingRelay, startDelayingRelay } from '../scripts/network-delay.ts';

const roundTripMs = 300;
const body = Buffer.from(Array.from({ length: 300_000 }, (_, index) => index % 251));
const server = http.createServer((_request, response) => response.end(body));
let relay: DelayingRelay;

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  relay = await startDelayingRelay({ host: '127.0.0.1', port }, roundTripMs);
});
after(async () => {
  await relay.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** One GET through the relay on `agent`: how long it took, and what came back. */
async function timedGet(agent: http.Agent): Promise<{ ms: number; received: Buffer }> {
  const started = performance.now();
  const received = await new Promise<Buffer>((resolve, reject) => {
    http
      .get(`http://${relay.authority}/`, { agent }, (response) => {
        const pieces: Buffer[] = [];
        response.on('data', (piece: Buffer) => pieces.push(piece));
        response.on('end', () => resolve(Buffer.concat(pieces)));
      })
      .on('error', reject);
  });
  return { ms: performance.now() - started, received };
}

test('a new connection costs a round trip more than a kept-alive one; bytes arrive whole', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const first = await timedGet(agent);
    const again = await timedGet(agent);
    assert.ok(first.received.equals(body), 'the body arrives whole and in order');
    assert.ok(again.received.equals(body));
    // Slack for a busy machine above; below, the delays are lower bounds.
    assert.ok(first.ms >= 2 * roundTripMs, `new connection: ${first.ms} ms`);
    assert.ok(first.ms < 2 * roundTripMs + 1_500, `new connection: ${first.ms} ms`);
    assert.ok(again.ms >= roundTripMs, `kept-alive connection: ${again.ms} ms`);
    assert.ok(again.ms < 2 * roundTripMs, `kept-alive connection: ${again.ms} ms, not a new one`);
  } finally {
    agent.destroy();
  }
});
