// Self-test of the bundled reference service: the clean path against the interface document,
// robustness against odd and hostile input, the variant registry and each variant's probe.
// Run: npx tsx --test selftest/reference.test.ts
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startReference, type ReferenceOptions } from '../reference/src/server.ts';
import { faultsBySection, findVariant, variants } from '../reference/src/variants/index.ts';
import {
  AUTH,
  INT64_MAX,
  INT64_MIN,
  JSON_TYPE,
  KEY,
  TWO_53_PLUS_1,
  assertError,
  call,
  callAsWritten,
  probeTarget,
  type Answer,
  type ProbeTarget as Target,
} from '../reference/src/variants/probe.ts';
import { requirement } from '../requirements/catalogue.ts';

const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

/** A reference started with the probe kit's KEY, with its helpers bound to its base URL. */
async function start(options: Partial<ReferenceOptions> = {}): Promise<Target> {
  return probeTarget(await startReference({ apiKey: KEY, ...options }));
}

/** Sends raw bytes, returns what comes back until the server closes or `waitMs` passes. */
function raw(port: number, request: string | Buffer, waitMs = 500): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(received);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('close', done);
    socket.on('error', done);
    socket.write(request);
  });
}

/** A seeded PRNG (mulberry32): the fuzz loop is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('clean reference: the three operations', () => {
  let t: Target;
  before(async () => (t = await start()));
  after(() => t.handle.close());

  it('answers at 127.0.0.1 under /api/v1', () => {
    assert.match(t.handle.baseUrl, /^http:\/\/127\.0\.0\.1:[0-9]+\/api\/v1$/);
  });

  it('round-trips int64 categoryIds exactly through createPet, getPet and listPets', async () => {
    const created: Record<string, unknown>[] = [];
    for (const categoryId of [INT64_MAX, INT64_MIN, TWO_53_PLUS_1, 0n, -1n]) {
      const answer = await t.create({ name: `cat ${categoryId}`, categoryId, status: 'available' });
      assert.equal(answer.status, 201, answer.text);
      assert.equal(answer.headers.get('content-type'), 'application/json');
      const pet = answer.body as Record<string, unknown>;
      assert.equal(pet.categoryId, categoryId);
      assert.equal(typeof pet.id, 'bigint');
      assert.match(answer.text, new RegExp(`"categoryId":${categoryId}[,}]`));
      assert.equal(answer.headers.get('location'), `/api/v1/pets/${pet.id}`);

      const read = await t.get(`/pets/${pet.id}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, pet);
      assert.equal(read.headers.get('deprecation'), '@1767225600');
      assert.equal(read.headers.get('sunset'), SUNSET);
      assert.equal(read.headers.get('link'), '</api/v1/pets>; rel="successor-version"');
      created.push(pet);
    }
    const list = await t.get('/pets?limit=100');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, created);
  });

  it('the Sunset date is a Thursday', () => {
    assert.equal(new Date(Date.UTC(2030, 11, 5)).toUTCString(), SUNSET);
  });

  it('assigns ids 1, 2, 3... and stores a pet without status without a status field', async () => {
    const fresh = await start();
    try {
      const first = await fresh.create({ name: 'a', categoryId: 1 });
      const second = await fresh.create({ name: 'b', categoryId: 2, status: 'pending' });
      assert.deepEqual(first.body, { id: 1n, name: 'a', categoryId: 1n });
      assert.deepEqual(second.body, { id: 2n, name: 'b', categoryId: 2n, status: 'pending' });
      assert.deepEqual((await fresh.get('/pets/1')).body, first.body);
    } finally {
      await fresh.handle.close();
    }
  });

  it('accepts any name, each status, unknown extra fields, and -0', async () => {
    for (const [fields, stored] of [
      [
        { name: '', categoryId: 1 },
        { name: '', categoryId: 1n },
      ],
      [
        { name: 'Ünïcødé 🐶 \u0000', categoryId: 1 },
        { name: 'Ünïcødé 🐶 \u0000', categoryId: 1n },
      ],
      [
        { name: 'x', categoryId: 1, status: 'sold', colour: 'red' },
        { name: 'x', categoryId: 1n, status: 'sold' },
      ],
      [
        { name: 'x', categoryId: 1, status: 'available' },
        { name: 'x', categoryId: 1n, status: 'available' },
      ],
    ] as const) {
      const answer = await t.create(fields);
      assert.equal(answer.status, 201, answer.text);
      const { id, ...rest } = answer.body as Record<string, unknown>;
      assert.equal(typeof id, 'bigint');
      assert.deepEqual(rest, stored);
    }
    const minusZero = await t.post('{"name":"z","categoryId":-0}');
    assert.equal(minusZero.status, 201);
    assert.equal((minusZero.body as Record<string, unknown>).categoryId, 0n);
  });

  it('accepts application/json with parameters, in any case, and no Content-Type at all', async () => {
    const body = '{"name":"m","categoryId":3}';
    for (const type of [
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json;x=y',
    ]) {
      assert.equal((await t.post(body, { ...AUTH, 'content-type': type })).status, 201, type);
    }
    assert.equal((await t.post(Buffer.from(body), AUTH)).status, 201);
  });
});

describe('clean reference: createPet validation', () => {
  let t: Target;
  before(async () => (t = await start()));
  after(() => t.handle.close());

  const refused: Record<string, string> = {
    'no body': '',
    'blank body': '  \n ',
    null: 'null',
    array: '[{"name":"a","categoryId":1}]',
    string: '"a"',
    number: '42',
    boolean: 'true',
    'truncated JSON': '{"name":"a","categoryId":1',
    'trailing comma': '{"name":"a","categoryId":1,}',
    'trailing garbage': '{"name":"a","categoryId":1} x',
    'two values': '{"name":"a","categoryId":1}{}',
    'single quotes': "{'name':'a','categoryId':1}",
    'leading zero': '{"name":"a","categoryId":01}',
    NaN: '{"name":"a","categoryId":NaN}',
    'duplicate keys': '{"name":"a","categoryId":1,"categoryId":2}',
    'deep nesting': '['.repeat(100_000),
    'name missing': '{"categoryId":1}',
    'categoryId missing': '{"name":"a"}',
    'empty object': '{}',
    'name number': '{"name":5,"categoryId":1}',
    'name null': '{"name":null,"categoryId":1}',
    'name object': '{"name":{},"categoryId":1}',
    'name array': '{"name":["a"],"categoryId":1}',
    'name boolean': '{"name":true,"categoryId":1}',
    'categoryId string': '{"name":"a","categoryId":"7"}',
    'categoryId 7.0': '{"name":"a","categoryId":7.0}',
    'categoryId 7e0': '{"name":"a","categoryId":7e0}',
    'categoryId 7.5': '{"name":"a","categoryId":7.5}',
    'categoryId 1E2': '{"name":"a","categoryId":1E2}',
    'categoryId null': '{"name":"a","categoryId":null}',
    'categoryId true': '{"name":"a","categoryId":true}',
    'categoryId 2^63': '{"name":"a","categoryId":9223372036854775808}',
    'categoryId -2^63-1': '{"name":"a","categoryId":-9223372036854775809}',
    'categoryId 1e400': '{"name":"a","categoryId":1e400}',
    'categoryId 10^30': `{"name":"a","categoryId":1${'0'.repeat(30)}}`,
    'categoryId 100k digits': `{"name":"a","categoryId":${'9'.repeat(100_000)}}`,
    'status SOLD': '{"name":"a","categoryId":1,"status":"SOLD"}',
    'status unknown': '{"name":"a","categoryId":1,"status":"lost"}',
    'status null': '{"name":"a","categoryId":1,"status":null}',
    'status empty': '{"name":"a","categoryId":1,"status":""}',
    'status number': '{"name":"a","categoryId":1,"status":1}',
  };
  for (const [what, body] of Object.entries(refused)) {
    it(`refuses ${what} with 400 Error`, async () => assertError(await t.post(body), 400));
  }

  it('refuses a body that is not UTF-8 with 400', async () => {
    for (const bytes of [
      [0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d],
      // An encoded UTF-16 surrogate (ED A0 80) is not UTF-8 either.
      [0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d],
    ]) {
      assertError(await t.post(Buffer.from(bytes)), 400);
    }
  });

  it('refuses other media types with 415 Error', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'application/merge-patch+json',
    ]) {
      assertError(
        await t.post('{"name":"a","categoryId":1}', { ...AUTH, 'content-type': type }),
        415,
      );
    }
  });

  it('refuses a 2 MiB body with 413 Error and keeps serving', async () => {
    const body = `{"name":"${'a'.repeat(2 * 1024 * 1024)}","categoryId":1}`;
    const answer = await t.post(body);
    assertError(answer, 413);
    assert.equal(answer.headers.get('connection'), 'close');
    assert.equal((await t.get('/pets')).status, 200);
  });

  it('accepts a body of exactly 1 MiB', async () => {
    const frame = '{"name":"","categoryId":1}';
    const body = `{"name":"${'b'.repeat(1024 * 1024 - frame.length)}","categoryId":1}`;
    assert.equal(Buffer.byteLength(body), 1024 * 1024);
    assert.equal((await t.post(body)).status, 201);
  });

  it('answers 413 on raw sockets: announced, streamed, chunked, and with Expect: 100-continue', async () => {
    const port = t.handle.port;
    const head = (extra: string): string =>
      `POST /api/v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\n${extra}\r\n`;
    const big = Buffer.alloc(2 * 1024 * 1024, 0x20);
    // Announced too large, nothing sent: answered at once.
    assert.match(await raw(port, head('Content-Length: 2097152\r\n')), /^HTTP\/1\.1 413 /);
    // Sent in full: the client reads the 413 without a reset.
    assert.match(
      await raw(port, Buffer.concat([Buffer.from(head('Content-Length: 2097152\r\n')), big]), 2500),
      /^HTTP\/1\.1 413 /,
    );
    const chunked = Buffer.concat([
      Buffer.from(head('Transfer-Encoding: chunked\r\n')),
      Buffer.from(`${big.length.toString(16)}\r\n`),
      big,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    assert.match(await raw(port, chunked, 2500), /^HTTP\/1\.1 413 /);
    const expecting = await raw(port, head('Content-Length: 2097152\r\nExpect: 100-continue\r\n'));
    assert.match(expecting, /^HTTP\/1\.1 413 /);
    assert.doesNotMatch(expecting, /100 Continue/);
  });
});

describe('clean reference: authentication', () => {
  let t: Target;
  before(async () => {
    t = await start();
    await t.create({ name: 'known', categoryId: 1 });
  });
  after(() => t.handle.close());

  const operations = {
    listPets: (headers: Record<string, string>) => t.get('/pets', headers),
    createPet: (headers: Record<string, string>) =>
      t.post('{"name":"a","categoryId":1}', { ...headers, ...JSON_TYPE }),
    getPet: (headers: Record<string, string>) => t.get('/pets/1', headers),
  };
  const realm = 'Bearer realm="petstore"';
  const invalid = `${realm}, error="invalid_token"`;
  const refusals: [string, Record<string, string>, string][] = [
    ['no Authorization', {}, realm],
    ['a wrong key', { authorization: 'Bearer wrong' }, invalid],
    ['the key with characters appended', { authorization: `Bearer ${KEY}x` }, invalid],
    ['a prefix of the key', { authorization: `Bearer ${KEY.slice(0, -1)}` }, invalid],
    ['an empty bearer token', { authorization: 'Bearer ' }, invalid],
    ['the key under Basic', { authorization: `Basic ${KEY}` }, realm],
    ['the key without scheme', { authorization: KEY }, realm],
    ['the key twice', { authorization: `Bearer ${KEY}, Bearer ${KEY}` }, invalid],
    ['an empty header', { authorization: '' }, realm],
  ];
  for (const [operation, send] of Object.entries(operations)) {
    for (const [what, headers, challenge] of refusals) {
      it(`${operation} refuses ${what} with 401 Error`, async () => {
        const answer = await send(headers);
        assertError(answer, 401);
        assert.equal(answer.headers.get('www-authenticate'), challenge);
      });
    }
    it(`${operation} matches the scheme case-insensitively and the key exactly`, async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        const answer = await send({ authorization: `${scheme} ${KEY}` });
        assert.ok(answer.status < 300, `${scheme}: ${answer.status}`);
      }
      assert.ok((await send({ authorization: `Bearer   ${KEY}` })).status < 300);
      assertError(await send({ authorization: `Bearer ${KEY.toUpperCase()}` }), 401);
    });
  }

  it('reads the Authorization header under any spelling of its name (RFC 9110 §5.1)', async () => {
    for (const name of ['Authorization', 'authorization', 'AUTHORIZATION', 'aUtHoRiZaTiOn']) {
      const answer = await t.getAsWritten('/pets', { [name]: `Bearer ${KEY}` });
      assert.equal(answer.status, 200, name);
    }
  });

  it('checks credentials before validation', async () => {
    assertError(await t.post('{"name":5}', JSON_TYPE), 401);
    assertError(await t.post('not json', { 'content-type': 'text/plain' }), 401);
    assertError(await t.post(`{"name":"${'a'.repeat(2 * 1024 * 1024)}"}`, JSON_TYPE), 401);
    assertError(await t.get('/pets?limit=abc', {}), 401);
    assertError(await t.get('/pets?status=lost', {}), 401);
  });

  it('checks credentials before existence', async () => {
    assertError(await t.get('/pets/999', {}), 401);
    assertError(await t.get('/pets/abc', {}), 401);
    assertError(await t.get('/pets/1', { authorization: 'Bearer wrong' }), 401);
  });
});

describe('clean reference: listPets', () => {
  let t: Target;
  const statuses = ['available', 'pending', 'sold', undefined];
  before(async () => (t = await start({ seedPets: 150 })));
  after(() => t.handle.close());

  const ids = (answer: Answer): bigint[] =>
    (answer.body as Record<string, unknown>[]).map((pet) => pet.id as bigint);
  const range = (from: number, count: number, step = 1): bigint[] =>
    Array.from({ length: count }, (_, i) => BigInt(from + i * step));

  it('returns 20 pets by default, oldest first', async () => {
    const answer = await t.get('/pets');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('content-type'), 'application/json');
    assert.deepEqual(ids(answer), range(1, 20));
  });

  it('returns exactly min(limit, matching) pets for every limit from 1 to 100', async () => {
    for (let limit = 1; limit <= 100; limit++) {
      assert.deepEqual(ids(await t.get(`/pets?limit=${limit}`)), range(1, limit));
    }
    assert.deepEqual(ids(await t.get('/pets?limit=007')), range(1, 7));
  });

  it('filters by each status, then applies the limit', async () => {
    for (const [i, status] of statuses.entries()) {
      if (status === undefined) continue;
      const answer = await t.get(`/pets?status=${status}&limit=100`);
      assert.equal(answer.status, 200);
      const pets = answer.body as Record<string, unknown>[];
      assert.ok(pets.every((pet) => pet.status === status));
      // Seeded statuses cycle available, pending, sold, none: 38, 38, 37 of 150.
      assert.deepEqual(ids(answer), range(i + 1, i === 2 ? 37 : 38, 4));
      assert.deepEqual(ids(await t.get(`/pets?limit=3&status=${status}`)), range(i + 1, 3, 4));
    }
  });

  const badQueries = [
    'limit=0',
    'limit=101',
    'limit=-1',
    'limit=1.5',
    'limit=abc',
    'limit=',
    'limit',
    'limit=+5',
    'limit=1e2',
    'limit=%205',
    'limit=0x10',
    `limit=${'9'.repeat(400)}`,
    'limit=5&limit=6',
    'status=SOLD',
    'status=lost',
    'status=',
    'status=available&status=sold',
    'status=null',
  ];
  for (const query of badQueries) {
    it(`refuses ?${query.slice(0, 30)} with 400 Error`, async () =>
      assertError(await t.get(`/pets?${query}`), 400));
  }

  it('ignores unknown query parameters', async () => {
    assert.deepEqual(ids(await t.get('/pets?offset=5&limit=2')), range(1, 2));
  });

  it('stays fast with 10,000 pets in the store', async () => {
    const big = await start({ seedPets: 10_000 });
    try {
      const started = performance.now();
      for (let i = 0; i < 50; i++) {
        const answer = await big.get(`/pets?limit=100&status=${statuses[i % 3]}`);
        assert.equal((answer.body as unknown[]).length, 100);
      }
      const elapsed = performance.now() - started;
      assert.ok(elapsed < 2000, `50 lists took ${elapsed.toFixed(0)} ms`);
    } finally {
      await big.handle.close();
    }
  });
});

describe('clean reference: getPet, routes and methods', () => {
  let t: Target;
  before(async () => (t = await start({ seedPets: 10 })));
  after(() => t.handle.close());

  it('finds pets by decimal id, leading zeros and percent-encoding included', async () => {
    for (const id of ['7', '007', '%37']) {
      const answer = await t.get(`/pets/${id}`);
      assert.equal(answer.status, 200, id);
      assert.equal((answer.body as Record<string, unknown>).id, 7n);
    }
  });

  for (const id of [
    'abc',
    '1.5',
    '1e3',
    '+1',
    '0x1',
    '9223372036854775808',
    '-9223372036854775809',
    '%20',
    '%',
    '-',
    `${'1'.repeat(5000)}`,
  ]) {
    it(`refuses petId ${id.slice(0, 24)} with 400 Error`, async () =>
      assertError(await t.get(`/pets/${id}`), 400));
  }

  for (const id of ['0', '-1', '11', '9223372036854775807', '-9223372036854775808']) {
    it(`answers 404 Error for the unknown petId ${id}`, async () =>
      assertError(await t.get(`/pets/${id}`), 404));
  }

  it('answers 404 Error outside the routes', async () => {
    const port = t.handle.port;
    for (const path of [
      '/',
      '/pets',
      '/api',
      '/api/v1',
      '/api/v1/',
      '/api/v1/pets/',
      '/api/v1/pets/1/',
      '/api/v1/pets/1/x',
      '/api/v2/pets',
      '/API/V1/pets',
      '/api/v1pets',
      '/api/v1/store/orders',
    ]) {
      assertError(await call(`http://127.0.0.1:${port}${path}`, { headers: AUTH }), 404);
    }
  });

  it('answers 405 Error with Allow to other methods', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      const answer = await call(`${t.handle.baseUrl}/pets`, { method, headers: AUTH });
      assertError(answer, 405);
      assert.equal(answer.headers.get('allow'), 'GET, HEAD, POST');
    }
    const answer = await call(`${t.handle.baseUrl}/pets/1`, { method: 'POST', headers: AUTH });
    assertError(answer, 405);
    assert.equal(answer.headers.get('allow'), 'GET, HEAD');
  });

  it('answers HEAD like GET, without a body', async () => {
    const get = await t.get('/pets/1');
    const head = await call(`${t.handle.baseUrl}/pets/1`, { method: 'HEAD', headers: AUTH });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(get.text)));
  });
});

describe('clean reference: malformed and hostile HTTP', () => {
  let t: Target;
  before(async () => (t = await start({ seedPets: 3 })));
  after(() => t.handle.close());
  const get = (path: string, extra = ''): string =>
    `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\n${extra}\r\n`;

  it('answers 400 Error to requests that are not HTTP', async () => {
    for (const request of [
      'HELLO\r\n\r\n',
      'GET /api/v1/pets HTTP/9.9\r\n\r\n',
      'GET / HTTP/1.1\r\nBad Header\r\n\r\n',
      '\u0000\u0001\u0002\r\n\r\n',
    ]) {
      const answer = await raw(t.handle.port, request);
      assert.match(answer, /^HTTP\/1\.1 400 /, JSON.stringify(request));
      assert.match(answer, /Content-Type: application\/json\r\n/);
      assert.match(answer, /\r\n\r\n\{"code":"bad_request","message":"[^"]+","status":400\}$/);
    }
  });

  it('answers 400 Error to HTTP/1.1 without Host, 417 Error to an unknown Expect', async () => {
    const noHost = await raw(
      t.handle.port,
      `GET /api/v1/pets HTTP/1.1\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    );
    assert.match(noHost, /^HTTP\/1\.1 400 .*"status":400\}$/s);
    const expect = await raw(t.handle.port, get('/api/v1/pets', 'Expect: teapot\r\n'));
    assert.match(expect, /^HTTP\/1\.1 417 .*"status":417\}$/s);
  });

  it('answers 431 Error to oversized headers', async () => {
    const answer = await raw(
      t.handle.port,
      get('/api/v1/pets', `X-Big: ${'a'.repeat(64 * 1024)}\r\n`),
    );
    assert.match(answer, /^HTTP\/1\.1 431 .*"status":431\}$/s);
  });

  it('survives a body shorter than its Content-Length, and keeps serving meanwhile', async () => {
    const half = `POST /api/v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`;
    const hanging = net.connect(t.handle.port, '127.0.0.1');
    hanging.on('error', () => {});
    hanging.write(half);
    // A second one that hangs up mid-body.
    assert.equal(await raw(t.handle.port, half, 100), '');
    assert.equal((await t.get('/pets')).status, 200);
    assert.equal((await t.create({ name: 'after', categoryId: 1 })).status, 201);
    hanging.destroy();
    assert.equal((await t.get('/pets')).status, 200);
  });

  it('accepts the absolute form and pipelined requests', async () => {
    const absolute = await raw(
      t.handle.port,
      get(`http://127.0.0.1:${t.handle.port}/api/v1/pets/1`),
    );
    assert.match(absolute, /^HTTP\/1\.1 200 /);
    const pipelined = await raw(
      t.handle.port,
      get('/api/v1/pets/1') + get('/api/v1/pets/2', 'Connection: close\r\n'),
    );
    assert.equal(pipelined.match(/HTTP\/1\.1 200 /g)?.length, 2);
  });

  it('refuses several Authorization fields', async () => {
    const answer = await raw(
      t.handle.port,
      get('/api/v1/pets', `Authorization: Bearer ${KEY}\r\nConnection: close\r\n`),
    );
    assert.match(answer, /^HTTP\/1\.1 401 /);
  });

  it('never answers 5xx to a seeded fuzz of methods, paths, headers and bodies', async () => {
    const random = prng(20240601);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const chars = 'abcXYZ019-._~%/?&=#:+ {}[]",\\\u00e9\u{1f436}';
    const junk = (n: number): string => Array.from({ length: n }, () => pick([...chars])).join('');
    const bodies = [
      '',
      'null',
      '{}',
      '[]',
      '{"name":"a","categoryId":1}',
      '{"name":"a","categoryId":1,"status":"sold"}',
      '{"name":1e999,"categoryId":-0.0e-0}',
      '{"__proto__":{"name":"x"},"name":"p","categoryId":2}',
      '{"constructor":{"prototype":{}},"name":"c","categoryId":3}',
      '{"name":"\\ud800","categoryId":4}',
    ];
    const paths = [
      '/pets',
      '/pets/1',
      '/pets/',
      '/pets/-1',
      '/pets/%ff',
      '/pets/%E2%82%AC',
      '',
      '/pets/1?x',
      '/pets?limit=',
      '/pets?status=sold&limit=7',
    ];
    const failures: string[] = [];
    let answered = 0;
    const one = async (): Promise<void> => {
      const method = pick(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'OPTIONS']);
      const path = pick([pick(paths), `${pick(paths)}${junk(8)}`, `/pets?${junk(12)}`]);
      const headers: Record<string, string> = {};
      const auth = pick([
        AUTH.authorization,
        '',
        'Bearer',
        `Basic ${KEY}`,
        `bearer ${KEY}`,
        junk(10),
      ]);
      if (auth !== '') headers.authorization = auth;
      const type = pick([
        'application/json',
        'text/plain',
        '',
        'application/json; charset=latin1',
        junk(6),
      ]);
      if (type !== '') headers['content-type'] = type;
      const body =
        method === 'GET' || method === 'HEAD'
          ? undefined
          : pick([pick(bodies), junk(40), pick(bodies).slice(0, 9)]);
      let url: string;
      try {
        url = new URL(t.handle.baseUrl + path).href;
      } catch {
        return;
      }
      try {
        const answer = await fetch(url, { method, headers, body });
        await answer.arrayBuffer();
        answered += 1;
        if (answer.status >= 500)
          failures.push(`${method} ${path} ${JSON.stringify(headers)} ${body} -> ${answer.status}`);
      } catch (error) {
        // fetch refuses some generated header values before sending: not the server's doing.
        // "fetch failed" is a network failure, which is.
        if (!(error instanceof TypeError) || error.message === 'fetch failed') {
          failures.push(`${method} ${path} ${JSON.stringify(headers)} -> ${String(error)}`);
        }
      }
    };
    for (let round = 0; round < 20; round++) await Promise.all(Array.from({ length: 20 }, one));
    // Raw garbage, half of it starting like a real request.
    for (let i = 0; i < 40; i++) {
      const bytes = Buffer.from(
        Array.from({ length: 1 + Math.floor(random() * 200) }, () => Math.floor(random() * 256)),
      );
      const request =
        i % 2 === 0 ? Buffer.concat([Buffer.from('POST /api/v1/pets HTTP/1.1\r\n'), bytes]) : bytes;
      const answer = await raw(t.handle.port, request, 50);
      if (/^HTTP\/1\.1 5/.test(answer))
        failures.push(`raw ${request.toString('hex')} -> ${answer.slice(0, 12)}`);
    }
    assert.deepEqual(failures, []);
    assert.ok(answered > 300, `only ${answered} of 400 generated requests were sent`);
    assert.equal((await t.get('/pets')).status, 200);
  });

  it('close() ends kept-alive and hung connections at once', async () => {
    const target = await start();
    const hung = net.connect(target.handle.port, '127.0.0.1');
    hung.on('error', () => {});
    hung.write(`POST /api/v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{`);
    await target.get('/pets');
    const started = performance.now();
    await target.handle.close();
    assert.ok(performance.now() - started < 1000);
    hung.destroy();
  });
});

describe('variants', () => {
  const catalogue = JSON.parse(
    readFileSync(new URL('../requirements/catalogue.json', import.meta.url), 'utf8'),
  ) as { requirements: { id: string }[] };
  const ids = new Set(catalogue.requirements.map((r) => r.id));

  it('have unique names, and exactly the faults name a catalogue requirement they break', () => {
    assert.equal(new Set(variants.map((v) => v.name)).size, variants.length);
    for (const variant of variants) {
      if (variant.kind === 'fault')
        assert.ok(variant.breaks && ids.has(variant.breaks), variant.name);
      else assert.equal(variant.breaks, undefined, variant.name);
      assert.ok(variant.description.length > 0);
      assert.equal(findVariant(variant.name), variant);
    }
    assert.equal(findVariant('clean')?.name, 'clean');
    assert.equal(findVariant('no-such-variant'), undefined);
  });

  it('refuses an unknown variant name', async () => {
    await assert.rejects(
      startReference({ apiKey: KEY, variant: 'no-such-variant' }),
      /Unknown variant/,
    );
  });

  it('all start and serve GET /pets with the key', async () => {
    await Promise.all(
      variants.map(async (variant) => {
        const target = await start({ variant: variant.name });
        try {
          const url =
            variant.name === 'base-path-ignored'
              ? `http://127.0.0.1:${target.handle.port}/pets`
              : `${target.handle.baseUrl}/pets`;
          // The header's name as the document spells it (fetch would send it in lower case), but
          // for the variant that reads only the lower-case one.
          const name =
            variant.name === 'header-name-lower-case-only' ? 'authorization' : 'Authorization';
          // cold-start-500's first answer is its fault (its probe shows it): the second counts.
          if (variant.name === 'cold-start-500') {
            await callAsWritten(url, { [name]: AUTH.authorization });
          }
          const answer = await callAsWritten(url, { [name]: AUTH.authorization });
          assert.equal(answer.status, 200, `${variant.name}: ${answer.text}`);
        } finally {
          await target.handle.close();
        }
      }),
    );
  });

  it('each fault is registered under the section of the requirement it breaks', () => {
    for (const [section, faults] of Object.entries(faultsBySection)) {
      for (const variant of faults) {
        assert.equal(variant.kind, 'fault', variant.name);
        assert.ok(variant.breaks, variant.name);
        assert.equal(requirement(variant.breaks).section, section, variant.name);
      }
    }
    assert.deepEqual(
      Object.values(faultsBySection)
        .flat()
        .map((v) => v.name)
        .sort(),
      variants
        .filter((v) => v.kind === 'fault')
        .map((v) => v.name)
        .sort(),
    );
  });

  // For each variant, its probe shows that it does what its description says.
  for (const variant of variants) {
    it(`${variant.name} does what its description says`, async () => {
      const seedPets = variant.probeSeedPets ?? 0;
      const target = await start({ variant: variant.name, ...(seedPets > 0 ? { seedPets } : {}) });
      try {
        await variant.probe(target);
      } finally {
        await target.handle.close();
      }
    });
  }
});

describe('npm run reference', () => {
  it('prints where it listens, answers 401 without a key, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'reference/src/main.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, PORT: '0', API_KEY: 'cli-key', VARIANT: 'clean' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const first =
          /^Pet store reference listening at (\S+) \(API key: cli-key, variant: clean\)\n/.exec(
            output,
          );
        if (first?.[1]) resolve(first[1]);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    const answer = await call(`${line}/pets`);
    assertError(answer, 401);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.match(output, /curl -i -H 'Authorization: Bearer cli-key'/);
  });
});
