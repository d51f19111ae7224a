// Section 8, Limits: faults in listPets' limit (its default, its bounds, invalid values).
import assert from 'node:assert/strict';
import { ok, refuse } from '../../service.ts';
import { assertError, count, leftOpen, statusOf } from '../probe.ts';
import type { Variant } from '../types.ts';

export const limitFaults: Variant[] = [
  {
    name: 'list-limit-nonascii-hangs',
    kind: 'fault',
    breaks: 'LIST-LIMIT-INVALID',
    description:
      'A limit holding any character outside ASCII (a no-break space, a digit of another script) is left unanswered, with the key: a pattern that backtracks without end on it. Other lists answer at once.',
    apply(s) {
      const listPets = s.listPets;
      s.listPets = (req) => {
        const limit = new URLSearchParams(req.query).get('limit') ?? '';
        // eslint-disable-next-line no-control-regex
        const hangs = /[^\u0000-\u007f]/.test(limit) && s.guard(req, 'listPets') === undefined;
        return hangs ? new Promise(() => {}) : listPets(req);
      };
    },
    probe: async (t) => {
      const { settled } = await leftOpen(t, '/pets?limit=5%C2%A0');
      assert.equal(await statusOf(t.get('/pets?limit=5')), 200);
      assertError(await t.get('/pets?limit=5x'), 400);
      await t.handle.close();
      assert.equal(await settled, 'failed');
    },
  },
  {
    name: 'list-default-10',
    kind: 'fault',
    breaks: 'LIST-LIMIT-DEFAULT',
    description: 'Without limit, 10 pets are returned instead of 20.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => (raw === undefined ? ok(10) : parseLimit(raw));
    },
    probeSeedPets: 30,
    probe: async (t) => assert.equal(count(await t.get('/pets')), 10),
  },
  {
    name: 'list-default-unbounded',
    kind: 'fault',
    breaks: 'LIST-LIMIT-DEFAULT',
    description: 'Without limit, the whole store is returned.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => (raw === undefined ? ok(Number.POSITIVE_INFINITY) : parseLimit(raw));
    },
    probeSeedPets: 30,
    probe: async (t) => assert.equal(count(await t.get('/pets')), 30),
  },
  {
    name: 'list-no-maximum',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MAX',
    description: 'Limits above 100 are accepted and honoured (limit=101 returns 101 pets).',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) =>
        raw !== undefined && /^[0-9]+$/.test(raw) && Number(raw) > 100
          ? ok(Number(raw))
          : parseLimit(raw);
    },
    probeSeedPets: 150,
    probe: async (t) => assert.equal(count(await t.get('/pets?limit=101')), 101),
  },
  {
    name: 'list-max-exclusive',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MAX',
    description: 'limit=100 is refused with 400: the maximum is treated as exclusive.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => {
        const limit = parseLimit(raw);
        return limit.ok && limit.value >= 100
          ? refuse(s.errorReply(400, 'invalid_parameter', 'limit must be below 100'))
          : limit;
      };
    },
    probeSeedPets: 150,
    probe: async (t) => assertError(await t.get('/pets?limit=100'), 400),
  },
  {
    name: 'list-min-exclusive',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MIN',
    description: 'limit=1 is refused with 400: the minimum is treated as exclusive.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => {
        const limit = parseLimit(raw);
        return limit.ok && limit.value <= 1
          ? refuse(s.errorReply(400, 'invalid_parameter', 'limit must be above 1'))
          : limit;
      };
    },
    probeSeedPets: 5,
    probe: async (t) => assertError(await t.get('/pets?limit=1'), 400),
  },
  {
    name: 'list-limit-invalid-500',
    kind: 'fault',
    breaks: 'LIST-LIMIT-INVALID',
    description:
      'limit goes through BigInt() unchecked: a non-numeric limit (abc, 1.5) answers 500.',
    apply(s) {
      const parseLimit = s.parseLimit;
      // BigInt('abc') throws a SyntaxError that nobody catches.
      s.parseLimit = (raw) => parseLimit(raw === undefined ? raw : String(BigInt(raw)));
    },
    probe: async (t) => assert.equal(await statusOf(t.get('/pets?limit=abc')), 500),
  },
  {
    name: 'list-default-only-unfiltered',
    kind: 'fault',
    breaks: 'LIST-LIMIT-DEFAULT',
    description:
      'The default of 20 applies only to the list without a filter: with status and no limit, every pet of that status is returned (a "search" code path written apart from the paged list).',
    apply(s) {
      const listPets = s.listPets;
      s.listPets = async (req) => {
        const params = new URLSearchParams(req.query);
        if (!params.has('status') || params.has('limit')) return listPets(req);
        return listPets({ ...req, query: `${req.query}&limit=100` });
      };
    },
    probeSeedPets: 90,
    probe: async (t) => {
      assert.equal(count(await t.get('/pets')), 20);
      assert.ok(count(await t.get('/pets?status=available')) > 20);
      assert.equal(count(await t.get('/pets?status=available&limit=5')), 5);
    },
  },
];
