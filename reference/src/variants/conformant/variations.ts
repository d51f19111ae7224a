// Unusual but conformant behaviours: a suite must pass all of them.
import { randomBytes, randomInt } from 'node:crypto';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { isJsonObject } from '../../json.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, ok, refuse } from '../../service.ts';
import { PET_STATUSES, type Pet, type PetStatus } from '../../store.ts';
import {
  afterOperation,
  afterValidation,
  beforeListing,
  categoryIdLiteral,
  bodyReadFirst,
  everyReply,
} from '../helpers.ts';
import {
  AUTH,
  INT64_MAX,
  INT64_MIN,
  assertError,
  count,
  each,
  field,
  statusOf,
  valid,
} from '../probe.ts';
import type { Variant } from '../types.ts';

/** The categories the known-categories variation knows; the self-test declares them to the suite. */
export const knownCategoryIds: readonly bigint[] = [101n, 202n, 303n];

const NEW_PET_FIELDS = new Set(['name', 'categoryId', 'status']);
/** The rate-limited gateway's token bucket: its capacity (the burst) and its refill rate. */
const RATE_BURST = 40;
/** The rate-limited gateway's rate (selftest/staging.test.ts bounds the run's time by it). */
export const RATE_PER_SECOND = 25;
/** Leading or trailing whitespace, or a control character anywhere. */
const UNTIDY_NAME = /^\s|\s$|\p{Cc}/u;
/** A control, format, unassigned or private-use character, or whitespace at either end. */
const ODD_NAME = /[\p{Cc}\p{Cf}\p{Cn}\p{Co}]|^\s|\s$/u;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const GETPET_REMOVED = 'getPet was removed on 2030-12-05; use GET /pets';
const NUMBER_LITERAL = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** limit clamped into 1..100; anything that is not an integer falls back to the default. */
function clampedLimit(raw: string | undefined): number {
  if (raw === undefined || !/^-?[0-9]+$/.test(raw)) return DEFAULT_LIMIT;
  if (raw.startsWith('-')) return 1;
  const digits = raw.replace(/^0+(?=.)/, '');
  return digits.length > 3 ? MAX_LIMIT : Math.min(MAX_LIMIT, Math.max(1, Number(digits)));
}

/**
 * The integer a JSON number literal denotes exactly (7.0, 7e0, 70e-1 all give "7"), or
 * undefined when a fraction remains. Computed on the digits, never through a double; values far
 * outside int64 come back as some integer outside it, so that the range check refuses them.
 */
function integralLiteral(literal: string): string | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign = '', int = '', fraction = '', exponent = '0'] = match;
  const significant = (int + fraction).replace(/^0+/, '');
  if (significant === '') return '0';
  const digits = significant.replace(/0+$/, '');
  const shift = Number(exponent) - fraction.length + (significant.length - digits.length);
  if (shift < 0) return undefined;
  if (digits.length + shift > 20) return `${sign}1${'0'.repeat(20)}`;
  return sign + digits + '0'.repeat(shift);
}

const randomStatus = (): PetStatus => PET_STATUSES[randomInt(PET_STATUSES.length)] ?? 'available';
const randomInt64 = (): bigint => randomBytes(8).readBigInt64BE();

export const variations: Variant[] = [
  {
    name: 'ids-beyond-2p53',
    kind: 'conformant',
    description: 'Ids start at 2^53+1000 and grow by 1 (exact in every body and path).',
    settings: { firstId: 2n ** 53n + 1000n },
    probe: async (t) => {
      const created = await t.post(valid);
      assert.equal(field(created, 'id'), 2n ** 53n + 1000n);
      assert.deepEqual((await t.get(`/pets/${2n ** 53n + 1000n}`)).body, created.body);
    },
  },
  {
    name: 'ids-random-negative',
    kind: 'conformant',
    description: 'Ids are random int64 values, negative ones included (unique).',
    apply(s) {
      s.nextId = () => {
        let id = randomInt64();
        while (s.store.get(id) !== undefined) id = randomInt64();
        return id;
      };
    },
    probe: async (t) => {
      const created = await Promise.all(Array.from({ length: 20 }, () => t.post(valid)));
      const ids = created.map((answer) => field(answer, 'id') as bigint);
      assert.equal(new Set(ids).size, 20);
      assert.ok(ids.every((id) => id >= INT64_MIN && id <= INT64_MAX));
      // Random, not 1..20: some of 20 random int64 values are negative (all positive: 2^-20).
      assert.ok(
        ids.some((id) => id < 0n),
        `negative ids among ${ids.join(', ')}`,
      );
      assert.deepEqual((await t.get(`/pets/${ids[0]}`)).body, created[0]?.body);
    },
  },
  {
    name: 'default-status-pending',
    kind: 'conformant',
    description: 'A pet created without status is stored and returned as "pending".',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, status: newPet.status ?? 'pending' }));
    },
    probe: async (t) => assert.equal(field(await t.post(valid), 'status'), 'pending'),
  },
  {
    name: 'limits-clamped',
    kind: 'conformant',
    lacks: ['ADV-INVALID-QUERY-400'],
    description:
      'Out-of-range limits are clamped into 1..100, non-integer limits fall back to 20; an unknown status filter gives an empty list (200).',
    apply(s) {
      s.parseLimit = (raw) => ok(clampedLimit(raw));
      // No pet has an unknown status, so filtering by it selects nothing.
      s.parseStatusFilter = (raw) => ok(raw as PetStatus | undefined);
    },
    probeSeedPets: 150,
    probe: async (t) => {
      assert.equal(count(await t.get('/pets?limit=500')), 100);
      assert.equal(count(await t.get('/pets?limit=0')), 1);
      assert.equal(count(await t.get('/pets?limit=abc')), 20);
      assert.deepEqual((await t.get('/pets?status=lost')).body, []);
    },
  },
  {
    name: 'unknown-query-refused',
    kind: 'conformant',
    description:
      'A list query with a parameter other than limit and status (status[]=sold, limit[a]=5, offset=10) is refused with 400, as an OpenAPI request validator refuses unknown query parameters.',
    apply(s) {
      beforeListing(s, (req) => {
        const unknown = [...new URLSearchParams(req.query).keys()].filter(
          (name) => name !== 'limit' && name !== 'status',
        );
        return unknown.length > 0
          ? s.errorReply(400, 'invalid_parameter', `Unknown query parameter: ${unknown[0]}`)
          : undefined;
      });
    },
    probeSeedPets: 2,
    probe: async (t) => {
      assertError(await t.get('/pets?status[]=sold'), 400);
      assertError(await t.get('/pets?offset=1'), 400);
      assertError(await t.get('/pets?offset=1', {}), 401);
      assert.equal(count(await t.get('/pets?limit=1&status=available')), 1);
    },
  },
  {
    name: 'newest-first',
    kind: 'conformant',
    description: 'Lists are ordered newest first.',
    apply(s) {
      s.selectPets = ({ limit, status }) =>
        (status === undefined ? s.store.all() : s.store.withStatus(status)).slice(-limit).reverse();
    },
    probeSeedPets: 30,
    probe: async (t) => {
      const pets = (await t.get('/pets?limit=3')).body as Record<string, unknown>[];
      assert.deepEqual(
        pets.map((pet) => pet.id),
        [30n, 29n, 28n],
      );
    },
  },
  {
    name: 'extra-fields',
    kind: 'conformant',
    description:
      'Pets carry extra fields (createdAt, tags: []), Error bodies an extra "details" field, and the list answer an extra X-Total-Count header.',
    apply(s) {
      const createdAt = new WeakMap<Pet, string>();
      const startedAt = new Date().toISOString();
      const savePet = s.savePet;
      s.savePet = (pet) => {
        createdAt.set(pet, new Date().toISOString());
        savePet(pet);
      };
      const renderPet = s.renderPet;
      s.renderPet = (pet) => ({
        ...(renderPet(pet) as Record<string, unknown>),
        createdAt: createdAt.get(pet) ?? startedAt,
        tags: [],
      });
      const renderError = s.renderError;
      s.renderError = (status, code, message) => ({
        ...(renderError(status, code, message) as Record<string, unknown>),
        details: [],
      });
      afterOperation(s, 'listPets', (reply) =>
        reply.status === 200
          ? { ...reply, headers: { ...reply.headers, 'x-total-count': String(s.store.size) } }
          : reply,
      );
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.deepEqual(field(await t.get('/pets/1'), 'tags'), []);
      assert.equal(typeof field(await t.post(valid), 'createdAt'), 'string');
      assert.deepEqual(field(await t.get('/pets', {}), 'details'), []);
      assert.equal((await t.get('/pets')).headers.get('x-total-count'), '2');
    },
  },
  {
    name: 'unknown-fields-refused',
    kind: 'conformant',
    description: 'NewPet fields other than name, categoryId and status are refused with 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        const unknown = isJsonObject(body)
          ? Object.keys(body).filter((key) => !NEW_PET_FIELDS.has(key))
          : [];
        return unknown.length > 0
          ? refuse(s.errorReply(400, 'invalid_body', `Unknown fields: ${unknown.join(', ')}`))
          : validate(body);
      };
    },
    probe: async (t) =>
      assertError(await t.create({ name: 'a', categoryId: 1, colour: 'red' }), 400),
  },
  {
    name: 'name-limits',
    kind: 'conformant',
    description: 'Names that are empty or longer than 64 characters are refused with 400.',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length === 0 || (newPet.name.length > 64 && [...newPet.name].length > 64)
          ? refuse(s.errorReply(400, 'invalid_body', 'name must have 1 to 64 characters'))
          : newPet,
      );
    },
    probe: async (t) => {
      assertError(await t.create({ name: '', categoryId: 1 }), 400);
      assertError(await t.create({ name: 'n'.repeat(65), categoryId: 1 }), 400);
      assert.equal(await statusOf(t.create({ name: '🐶'.repeat(64), categoryId: 1 })), 201);
    },
  },
  {
    name: 'encoded-slash-refused',
    kind: 'conformant',
    description:
      "A path holding an encoded slash (%2F) is answered 404 with an HTML page before the service, key or none: Apache's AllowEncodedSlashes Off in front.",
    apply(s) {
      const handle = s.handle;
      s.handle = (req) =>
        /%2f/i.test(req.path ?? '')
          ? Promise.resolve({
              status: 404,
              headers: { 'content-type': 'text/html' },
              text: '<html><body><h1>Not Found</h1></body></html>\n',
            })
          : handle(req);
    },
    probe: async (t) => {
      for (const headers of [AUTH, {}]) {
        const answer = await t.get('/pets/1%2Fx', headers);
        assert.equal(answer.status, 404);
        assert.equal(answer.headers.get('content-type'), 'text/html');
      }
      assertError(await t.get('/pets/1x'), 400);
    },
  },
  {
    name: 'integral-exponent-accepted',
    kind: 'conformant',
    description:
      'A categoryId written as 7.0 or 7e0 is accepted and stored as 7 (7.5 is still 400).',
    apply(s) {
      categoryIdLiteral(s, integralLiteral);
    },
    probe: async (t) => {
      for (const literal of ['7.0', '7e0', '70e-1', '0.7E1', '7.000e+0']) {
        assert.equal(
          field(await t.post(`{"name":"a","categoryId":${literal}}`), 'categoryId'),
          7n,
          literal,
        );
      }
      assert.equal(
        field(await t.post('{"name":"a","categoryId":-9.223372036854775808e18}'), 'categoryId'),
        INT64_MIN,
      );
      for (const literal of ['7.5', '1e400', '9.223372036854775808e18', '1e-400']) {
        assertError(await t.post(`{"name":"a","categoryId":${literal}}`), 400);
      }
    },
  },
  {
    name: 'petid-invalid-404',
    kind: 'conformant',
    description: 'A petId that is not an int64 is answered 404 instead of 400.',
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        const id = parsePetId(raw);
        return id.ok ? id : refuse(s.errorReply(404, 'not_found', 'No pet with that id'));
      };
    },
    probe: async (t) => assertError(await t.get('/pets/abc'), 404),
  },
  {
    name: 'deep-base-path',
    kind: 'conformant',
    description: 'The service lives under /deep/nested/path/petstore/api/v1.',
    settings: { basePath: '/deep/nested/path/petstore/api/v1' },
    probe: async (t) => {
      assert.match(t.handle.baseUrl, /:[0-9]+\/deep\/nested\/path\/petstore\/api\/v1$/);
      assert.equal(
        (await t.post(valid)).headers.get('location'),
        '/deep/nested/path/petstore/api/v1/pets/1',
      );
    },
  },
  {
    name: 'charset-utf8',
    kind: 'conformant',
    description: 'Every JSON body is sent as application/json; charset=utf-8.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : {
              ...reply,
              headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' },
            },
      );
    },
    probe: async (t) => {
      assert.equal(
        (await t.get('/pets')).headers.get('content-type'),
        'application/json; charset=utf-8',
      );
      assert.equal(
        (await t.get('/pets', {})).headers.get('content-type'),
        'application/json; charset=utf-8',
      );
    },
  },
  {
    name: 'lenient-http-parser',
    kind: 'conformant',
    description:
      "The HTTP layer takes control characters in header values (as Python's http.server and Java's HttpServer do), where node's own refuses the message with 400: the service compares the token exactly, so the key with a NUL after it is another token, refused with 401.",
    settings: { lenientParser: true },
    probe: async (t) => {
      assert.equal(await t.rawGet('/pets', `Bearer selftest-key\u0000`), 401);
      assert.equal(await t.rawGet('/pets', 'Bearer selftest-key'), 200);
    },
  },
  {
    name: 'slow',
    kind: 'conformant',
    description: 'Every request waits 15 ms before it is handled.',
    settings: { latencyMs: 15 },
    probe: async (t) => {
      const started = performance.now();
      await t.get('/pets');
      assert.ok(performance.now() - started >= 14);
    },
  },
  {
    name: 'large-store',
    kind: 'conformant',
    description:
      '5,000 pets pre-seeded with mixed statuses (a quarter without status) and categoryIds across the int64 range.',
    settings: { seedPets: 5000 },
    probe: async (t) => {
      assert.equal(count(await t.get('/pets?limit=100&status=pending')), 100);
      assert.equal(await statusOf(t.get('/pets/5000')), 200);
      assertError(await t.get('/pets/5001'), 404);
    },
  },
  {
    name: 'concurrent-writers',
    kind: 'conformant',
    description:
      'Another client adds a pet (random status, name "other client N") before every 5th request is handled.',
    apply(s) {
      const handle = s.handle;
      let requests = 0;
      let added = 0;
      s.handle = async (req) => {
        requests += 1;
        if (requests % 5 === 0) {
          added += 1;
          s.savePet({
            id: await s.nextId(),
            name: `other client ${added}`,
            categoryId: randomInt64(),
            status: randomStatus(),
          });
        }
        return handle(req);
      };
    },
    probe: async (t) => {
      for (let i = 0; i < 10; i++) await t.get('/pets');
      const names = ((await t.get('/pets')).body as Record<string, unknown>[]).map(
        (pet) => pet.name,
      );
      assert.deepEqual(names, ['other client 1', 'other client 2']);
    },
  },
  {
    name: 'rate-limited',
    kind: 'conformant',
    description: `A gateway lets about ${RATE_PER_SECOND} requests a second through, in bursts of up to ${RATE_BURST} (one token bucket for the server): a request over the rate gets 429 with Retry-After: 1 and an Error body, and is not processed.`,
    apply(s) {
      const handle = s.handle;
      let tokens = RATE_BURST;
      let filledAt = performance.now();
      s.handle = async (req) => {
        const now = performance.now();
        tokens = Math.min(RATE_BURST, tokens + ((now - filledAt) / 1000) * RATE_PER_SECOND);
        filledAt = now;
        if (tokens < 1) {
          return s.finishReply(
            s.errorReply(429, 'rate_limited', 'Too many requests; retry in a second', {
              'retry-after': '1',
            }),
          );
        }
        tokens -= 1;
        return handle(req);
      };
    },
    probe: async (t) => {
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) => t.create({ name: `burst ${i}`, categoryId: i })),
      );
      const created = burst.filter((answer) => answer.status === 201);
      const refused = burst.filter((answer) => answer.status !== 201);
      assert.ok(created.length >= RATE_BURST, `${created.length} created`);
      assert.ok(refused.length > 0, 'none refused');
      for (const answer of refused) {
        assertError(answer, 429);
        assert.equal(field(answer, 'code'), 'rate_limited');
        assert.equal(answer.headers.get('retry-after'), '1');
      }
      await sleep(1000);
      // The refused creates were not carried out.
      assert.equal(count(await t.get('/pets?limit=100')), created.length);
      for (let i = 0; i < 5; i++) assert.equal(await statusOf(t.get('/pets')), 200);
    },
  },
  {
    name: 'name-bytes-32',
    kind: 'conformant',
    description:
      'Names longer than 32 UTF-8 bytes are refused with 400 (a small name column, sized in bytes).',
    apply(s) {
      afterValidation(s, (newPet) =>
        Buffer.byteLength(newPet.name, 'utf8') > 32
          ? refuse(s.errorReply(400, 'invalid_body', 'name must be at most 32 bytes in UTF-8'))
          : newPet,
      );
    },
    probe: async (t) => {
      for (const name of ['', 'n'.repeat(32), '\u00e9'.repeat(16), '🐶'.repeat(8)])
        assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), name);
      for (const name of ['n'.repeat(33), '\u00e9'.repeat(17), '🐶'.repeat(8) + 'n'])
        assertError(await t.create({ name, categoryId: 1 }), 400);
    },
  },
  {
    name: 'name-code-points-41',
    kind: 'conformant',
    description: 'Names of more than 41 code points are refused with 400.',
    apply(s) {
      afterValidation(s, (newPet) =>
        [...newPet.name].length > 41
          ? refuse(s.errorReply(400, 'invalid_body', 'name must have at most 41 characters'))
          : newPet,
      );
    },
    probe: async (t) => {
      for (const name of ['n'.repeat(41), '🐶'.repeat(41)])
        assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), name);
      for (const name of ['n'.repeat(42), '🐶'.repeat(42)])
        assertError(await t.create({ name, categoryId: 1 }), 400);
    },
  },
  {
    name: 'name-whitespace-refused',
    kind: 'conformant',
    description:
      'Names with leading or trailing whitespace, or any control character, are refused with 400 (never altered).',
    apply(s) {
      afterValidation(s, (newPet) =>
        UNTIDY_NAME.test(newPet.name)
          ? refuse(
              s.errorReply(
                400,
                'invalid_body',
                'name must not start or end with whitespace nor hold control characters',
              ),
            )
          : newPet,
      );
    },
    probe: async (t) => {
      for (const name of [
        ' a',
        'a ',
        '\u00a0a',
        'a\u2003',
        '\ta',
        'a\tb',
        'a\nb',
        'a\u0000b',
        'a\u0085b',
      ])
        assertError(await t.create({ name, categoryId: 1 }), 400);
      for (const name of ['a b', 'in  ner', '<b>&"\'</b>', 'Cafe\u0301'])
        assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), name);
    },
  },
  {
    name: 'odd-names-refused',
    kind: 'conformant',
    description:
      'Every name a service may refuse is refused with 400 and none is trimmed or altered: a control, format, unassigned or private-use character anywhere, whitespace at either end, more than 40 UTF-8 bytes.',
    apply(s) {
      afterValidation(s, (newPet) =>
        ODD_NAME.test(newPet.name) || Buffer.byteLength(newPet.name) > 40
          ? refuse(
              s.errorReply(
                400,
                'invalid_body',
                'name holds characters or a length this store does not take',
              ),
            )
          : newPet,
      );
    },
    probe: async (t) => {
      for (const name of ['a\u0000', 'a\u200b', '\u00a0a', 'a\ue000', 'n'.repeat(41)])
        assertError(await t.create({ name, categoryId: 1 }), 400);
      for (const name of ['a\u00a0b', "O'Brien %00", '\uff11\u0661'])
        assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), name);
    },
  },
  {
    name: 'names-plain-only',
    kind: 'conformant',
    description:
      "A strict rule for names, as a form validator keeps: letters and digits, with spaces, '.', \"'\" and '-' inside; any other name (a colon, markup, another script, the empty name) is refused with 400, none altered.",
    apply(s) {
      afterValidation(s, (newPet) =>
        /^[A-Za-z0-9](?:[A-Za-z0-9 .'-]*[A-Za-z0-9.])?$/.test(newPet.name)
          ? newPet
          : refuse(s.errorReply(400, 'invalid_body', 'name must be letters and digits')),
      );
    },
    probe: async (t) => {
      for (const name of ['Rex', "O'Brien-Smith Jr.", 'conformance-ab12cd34-label-0-1'])
        assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), name);
      for (const name of ['a:b', '<b>', ' Rex', 'Rex-', '', 'caf\u00e9'])
        assertError(await t.create({ name, categoryId: 1 }), 400);
    },
  },
  {
    name: 'names-markup-refused',
    kind: 'conformant',
    description:
      'An input filter of its own refuses names holding < > & with 400: a rule on names the document leaves to the service (§4.2: 400 for invalid values), and none is altered.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) =>
        isJsonObject(body) && typeof body.name === 'string' && /[<>&]/.test(body.name)
          ? refuse(s.errorReply(400, 'invalid_body', 'name holds forbidden characters'))
          : validate(body);
    },
    probe: async (t) => {
      assertError(await t.create({ name: '<b>Rex</b>', categoryId: 1 }), 400);
      assert.equal(await statusOf(t.create({ name: 'Rex', categoryId: 1 })), 201);
    },
  },
  {
    name: 'names-unique-409',
    kind: 'conformant',
    description:
      'A name the store holds already is refused with 409 and an Error: a rule of its own on names, and a status the document leaves open (§7).',
    apply(s) {
      afterValidation(s, (newPet) =>
        s.store.all().some((pet) => pet.name === newPet.name)
          ? refuse(s.errorReply(409, 'name_taken', 'A pet with this name exists'))
          : newPet,
      );
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.create({ name: 'Twice', categoryId: 1 })), 201);
      assertError(await t.create({ name: 'Twice', categoryId: 2 }), 409);
    },
  },
  {
    name: 'utf8-bom-refused',
    kind: 'conformant',
    description:
      'A body that begins with a UTF-8 byte order mark is refused with 400 (RFC 8259 §8.1 lets a parser ignore it or refuse it).',
    apply(s) {
      const readJsonBody = s.readJsonBody;
      s.readJsonBody = (req) =>
        bodyReadFirst(
          req,
          (bytes) =>
            bytes.subarray(0, 3).equals(UTF8_BOM)
              ? refuse(
                  s.errorReply(
                    400,
                    'invalid_json',
                    'The request body begins with a byte order mark',
                  ),
                )
              : undefined,
          readJsonBody,
        );
    },
    probe: async (t) => {
      assertError(await t.post(Buffer.concat([UTF8_BOM, Buffer.from(valid)])), 400);
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'status-default-later',
    kind: 'conformant',
    description:
      'A database fills in an omitted status after the insert: a pet created without status is answered 201 without one, and every later read (getPet, lists, the status filter) shows it as available.',
    apply(s) {
      // addPet answers with the pet it built, before the "database" filled the status in.
      const savePet = s.savePet;
      s.savePet = (pet) =>
        savePet(pet.status === undefined ? { ...pet, status: 'available' } : pet);
    },
    // The 4th seeded pet has no status: it reads back as available too.
    probeSeedPets: 4,
    probe: async (t) => {
      const created = await t.post(valid);
      assert.equal(created.status, 201);
      assert.equal(field(created, 'id'), 5n);
      assert.equal(field(created, 'status'), undefined);
      assert.equal(field(await t.get('/pets/5'), 'status'), 'available');
      assert.equal(field(await t.get('/pets/4'), 'status'), 'available');
      assert.deepEqual(each(await t.get('/pets?status=available'), 'id'), [1n, 4n, 5n]);
      assert.deepEqual(each(await t.get('/pets'), 'status'), [
        'available',
        'pending',
        'sold',
        'available',
        'available',
      ]);
    },
  },
  {
    name: 'known-categories',
    kind: 'conformant',
    description: `Only the categoryIds of the categories the service knows (${knownCategoryIds.join(', ')}) are accepted; any other valid categoryId is refused with 400 (unknown_category).`,
    apply(s) {
      afterValidation(s, (newPet) =>
        knownCategoryIds.includes(newPet.categoryId)
          ? newPet
          : refuse(
              s.errorReply(
                400,
                'unknown_category',
                `categoryId must be one of ${knownCategoryIds.join(', ')}`,
              ),
            ),
      );
    },
    probe: async (t) => {
      for (const categoryId of knownCategoryIds) {
        const created = await t.create({ name: 'a', categoryId });
        assert.equal(field(created, 'categoryId'), categoryId);
        assert.equal(field(await t.get(`/pets/${field(created, 'id')}`), 'categoryId'), categoryId);
      }
      for (const categoryId of [0n, 1n, -101n, 102n, INT64_MAX, INT64_MIN]) {
        const refused = await t.create({ name: 'a', categoryId });
        assertError(refused, 400);
        assert.equal(field(refused, 'code'), 'unknown_category');
      }
      assertError(await t.post('{"name":"a","categoryId":"101"}'), 400);
      assert.equal(count(await t.get('/pets')), knownCategoryIds.length);
    },
  },
  {
    name: 'getpet-removed',
    kind: 'conformant',
    conformantFrom: '2030-12-05',
    description: `getPet is gone, as the document allows from 5 December 2030: every GET /pets/{petId} answers 404 with an Error ("${GETPET_REMOVED}").`,
    apply(s) {
      s.getPet = async () => s.errorReply(404, 'not_found', GETPET_REMOVED);
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const answer of [
        await t.get('/pets/1'),
        await t.get('/pets/1', {}),
        await t.get('/pets/abc'),
      ]) {
        assertError(answer, 404);
        assert.equal(field(answer, 'message'), GETPET_REMOVED);
      }
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n]);
      assert.equal(field(await t.post(valid), 'id'), 2n);
    },
  },
];
