// Section 4.3, Get an animal (getPet): faults in finding the pet, 404 and the petId check.
import assert from 'node:assert/strict';
import { posix } from 'node:path';
import { INT64_MAX, INT64_MIN } from '../../int64.ts';
import { ok } from '../../service.ts';
import { afterOperation } from '../helpers.ts';
import { AUTH, assertError, each, field, leftOpen, statusOf } from '../probe.ts';
import type { Variant } from '../types.ts';

export const getPetFaults: Variant[] = [
  {
    name: 'get-wrong-pet',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description:
      'getPet answers with the pet created just after the requested one, when there is one (an off-by-one index).',
    apply(s) {
      s.findPet = (id) => {
        const pets = s.store.all();
        const index = pets.findIndex((pet) => pet.id === id);
        return index < 0 ? undefined : (pets[index + 1] ?? pets[index]);
      };
    },
    probeSeedPets: 3,
    probe: async (t) => assert.equal(field(await t.get('/pets/1'), 'id'), 2n),
  },
  {
    name: 'get-pet-202',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description: 'getPet of an existing pet answers 202 (with the Pet body) instead of 200.',
    apply(s) {
      afterOperation(s, 'getPet', (reply) =>
        reply.status === 200 ? { ...reply, status: 202 } : reply,
      );
    },
    probeSeedPets: 1,
    probe: async (t) => {
      const read = await t.get('/pets/1');
      assert.equal(read.status, 202);
      assert.equal(field(read, 'id'), 1n);
      assertError(await t.get('/pets/2'), 404);
    },
  },
  {
    name: 'get-null-200',
    kind: 'fault',
    breaks: 'GET-404-UNKNOWN',
    description: 'An unknown id is answered 200 with the body null.',
    apply(s) {
      afterOperation(s, 'getPet', (reply) =>
        reply.status === 404 ? { status: 200, headers: {}, json: null } : reply,
      );
    },
    probe: async (t) => {
      const answer = await t.get('/pets/9');
      assert.equal(answer.status, 200);
      assert.equal(answer.text, 'null');
    },
  },
  {
    name: 'get-invalid-id-500',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      'petId goes through BigInt() unchecked: a non-integer petId (abc, 1.5) answers 500.',
    apply(s) {
      const parsePetId = s.parsePetId;
      // BigInt('abc') throws a SyntaxError that nobody catches.
      s.parsePetId = (raw) => parsePetId(String(BigInt(raw)));
    },
    probe: async (t) => assert.equal(await statusOf(t.get('/pets/abc')), 500),
  },
  {
    name: 'get-petid-number-parsed',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      'A petId that is not a plain decimal integer goes through Number(): 0x1, 0b1, 1e0, " 1" and "1 " (percent-decoded) read pet 1; when Number() gives NaN or a non-integer (1.5), the clean 400 applies.',
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        if (/^-?[0-9]+$/.test(raw)) return parsePetId(raw);
        const number = Number(raw);
        const id = Number.isInteger(number) ? BigInt(number) : undefined;
        return id !== undefined && id >= INT64_MIN && id <= INT64_MAX ? ok(id) : parsePetId(raw);
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const spelling of ['0x1', '0b1', '0o1', '1e0', '1.0', '%201', '1%20', '%091'])
        assert.equal(field(await t.get(`/pets/${spelling}`), 'id'), 1n, spelling);
      for (const spelling of ['abc', '1.5', '0x', '9223372036854775808'])
        assertError(await t.get(`/pets/${spelling}`), 400);
    },
  },
  {
    name: 'get-pet-object-lookup',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      'Pets are found in a plain object keyed by their ids\' text, pets[petId], before the petId is checked: "constructor", "toString" or "__proto__" find what every object inherits, answered 200 with the body {} (what JSON makes of it).',
    apply(s) {
      const getPet = s.getPet;
      s.getPet = async (req, rawPetId) => {
        const pets: Record<string, unknown> = {};
        for (const pet of s.store.all()) pets[String(pet.id)] = pet;
        const found = pets[rawPetId];
        if (found === undefined || Object.hasOwn(pets, rawPetId) || s.guard(req, 'getPet')) {
          return getPet(req, rawPetId);
        }
        return { status: 200, headers: {}, json: {} };
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const petId of ['constructor', '__proto__'])
        assert.deepEqual(await t.get(`/pets/${petId}`).then((a) => [a.status, a.text]), [
          200,
          '{}',
        ]);
      assertError(await t.get('/pets/abc'), 400);
      assert.equal(field(await t.get('/pets/1'), 'id'), 1n);
    },
  },
  {
    name: 'get-never-finds',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description:
      "getPet answers 404 for every pet: the store is keyed by numbers and looked up by the petId's text (a Ruby Hash of Integer keys read with a String). Lists show every pet.",
    apply(s) {
      s.findPet = () => undefined;
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assertError(await t.get('/pets/1'), 404);
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n]);
    },
  },
  {
    name: 'get-petid-decoded-split',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      "The path is percent-decoded whole, then split on '/' (a router over the decoded path): /pets/1%2Fx is /pets/1/x to it, whose segment after pets, 1, names pet 1.",
    apply(s) {
      const dispatch = s.dispatch;
      s.dispatch = (req) => {
        if (req.method !== 'GET' || !/^\/pets\/.*%2f/i.test(req.path ?? '')) return dispatch(req);
        const segment = decodeURIComponent(req.path!).split('/')[2] ?? '';
        return dispatch({ ...req, path: `/pets/${encodeURIComponent(segment)}` });
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.equal(field(await t.get('/pets/1%2Fx'), 'id'), 1n);
      assert.equal(field(await t.get('/pets/1%2F'), 'id'), 1n);
      assertError(await t.get('/pets/1x'), 400);
    },
  },
  {
    name: 'get-petid-decoded-cleaned',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      "Go's ServeMux: the path is percent-decoded, then cleaned of empty and dot segments, and a path that cleaning changes is redirected there (301, an HTML body), before any handler or key: /pets/1%2F%2Fx goes to /pets/1/x, /pets/1%2F..%2F to /pets/.",
    apply(s) {
      const dispatch = s.dispatch;
      s.dispatch = (req) => {
        if (!/%2f/i.test(req.path ?? '')) return dispatch(req);
        const decoded = decodeURIComponent(req.path!);
        const cleaned = posix.normalize(decoded);
        if (cleaned === decoded) return dispatch(req);
        const html = `<a href="${cleaned}">Moved Permanently</a>.\n`;
        return Promise.resolve({
          status: 301,
          headers: { location: `${s.config.basePath}${cleaned}`, 'content-type': 'text/html' },
          text: html,
        });
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const path of ['/pets/1%2F%2Fx', '/pets/1%2F..%2F']) {
        assert.equal(await t.rawGet(path, AUTH.authorization), 301, path);
      }
      assertError(await t.get('/pets/1%2F'), 400);
    },
  },
  {
    name: 'get-petid-int32',
    kind: 'fault',
    breaks: 'GET-404-UNKNOWN',
    description:
      "The petId is read into a 32-bit int (C's sscanf %d, (int)strtol): its low 32 bits, so an id 2^32 above or below an existing pet's reads that pet.",
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        const id = parsePetId(raw);
        return id.ok ? ok(BigInt.asIntN(32, id.value)) : id;
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const petId of [2n ** 32n + 1n, 1n - 2n ** 32n])
        assert.equal(field(await t.get(`/pets/${petId}`), 'id'), 1n);
      assertError(await t.get('/pets/2'), 404);
    },
  },
  {
    name: 'get-petid-leading-plus',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      "The petId is read by a parser that takes a leading plus sign (Rust's str::parse::<i64>, Java's Long.parseLong, C's strtoll): /pets/+1 reads pet 1.",
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => parsePetId(/^\+[0-9]+$/.test(raw) ? raw.slice(1) : raw);
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.equal(field(await t.get('/pets/%2B1'), 'id'), 1n);
      assertError(await t.get('/pets/1.0'), 400);
    },
  },
  {
    name: 'get-petid-regex-dollar',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      "The petId is checked with /^-?\\d+$/ as Perl, Python's re.match, PHP and Ruby read it, $ matching before a final line feed: /pets/1%0A reads pet 1.",
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => parsePetId(/^-?[0-9]+\n$/.test(raw) ? raw.slice(0, -1) : raw);
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.equal(field(await t.get('/pets/1%0A'), 'id'), 1n);
      assertError(await t.get('/pets/1%20'), 400);
    },
  },
  {
    name: 'hang-getPet',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description: 'getPet never answers: the request is left open (close() still ends it).',
    apply(s) {
      s.getPet = () => new Promise(() => {});
    },
    probeSeedPets: 1,
    probe: async (t) => {
      const { settled } = await leftOpen(t, '/pets/1');
      const started = performance.now();
      await t.handle.close();
      assert.ok(performance.now() - started < 1000);
      assert.equal(await settled, 'failed');
    },
  },
  {
    name: 'get-petid-unicode-digits',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      "The petId is matched with Perl's Unicode-aware \\d (any script's digits, ١ and ０ among them) and then read as Perl numifies it, by its leading ASCII digits: 1١ and 1０ read pet 1, ١ reads pet 0.",
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        if (/^-?[0-9]+$/.test(raw) || !/^-?\p{Nd}+$/u.test(raw)) return parsePetId(raw);
        const leading = /^-?[0-9]*/.exec(raw)![0];
        return parsePetId(/[0-9]/.test(leading) ? leading : '0');
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const spelling of ['1\u0661', '1\uff10', '1\u0967'])
        assert.equal(
          field(await t.get(`/pets/${encodeURIComponent(spelling)}`), 'id'),
          1n,
          spelling,
        );
      assertError(await t.get(`/pets/${encodeURIComponent('1\u00a0')}`), 400);
      assertError(await t.get('/pets/abc'), 400);
    },
  },
  {
    name: 'get-petid-decoded-twice',
    kind: 'fault',
    breaks: 'GET-PETID-INVALID',
    description:
      'The petId is percent-decoded twice (by the router, then again by the handler): %2531 is %31 to the document, and 1 to the target, which reads pet 1.',
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        if (!raw.includes('%')) return parsePetId(raw);
        try {
          return parsePetId(decodeURIComponent(raw));
        } catch {
          return parsePetId(raw);
        }
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.equal(field(await t.get('/pets/%2531'), 'id'), 1n);
      assertError(await t.get('/pets/%2531x'), 400);
      assertError(await t.get('/pets/%25'), 400);
    },
  },
  {
    name: 'get-500-without-status',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description:
      "getPet of a pet stored without status ends in an exception (its status lower-cased, Python's None.lower()): 500. Lists and the 201 answer are as they should be.",
    apply(s) {
      const getPet = s.getPet;
      s.getPet = async (req, rawPetId) => {
        const reply = await getPet(req, rawPetId);
        const body = reply.json as Record<string, unknown> | undefined;
        return reply.status === 200 && body && body.status === undefined
          ? s.errorReply(500, 'internal_error', "'NoneType' object has no attribute 'lower'")
          : reply;
      };
    },
    probeSeedPets: 4,
    probe: async (t) => {
      assert.equal(await statusOf(t.get('/pets/1')), 200);
      assertError(await t.get('/pets/4'), 500);
    },
  },
];
