// Section 4.1, List animals (listPets): faults in the list, its limit and its status filter
// (the limit's default and bounds are section 8).
import assert from 'node:assert/strict';
import { isJsonObject } from '../../json.ts';
import { ok, refuse, type Service } from '../../service.ts';
import { isPetStatus, type Pet } from '../../store.ts';
import { type Answer, assertError, count, each, field, statusOf, valid } from '../probe.ts';
import type { Variant } from '../types.ts';

/** A status filter of a fault's own: the pets `keeps` lets through for the status asked, then the limit. */
function filteredAs(s: Service, keeps: (pet: Pet, status: string) => boolean): void {
  const selectPets = s.selectPets;
  s.selectPets = ({ limit, status }) =>
    status === undefined
      ? selectPets({ limit, status })
      : s.store
          .all()
          .filter((pet) => keeps(pet, status))
          .slice(0, limit);
}

const SNAPSHOT_TTL_MS = 60_000;

export const listPetsFaults: Variant[] = [
  {
    name: 'list-limit-off-by-one',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description: 'Every list holds limit-1 pets (slice(0, limit - 1)); limit=1 gives none.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => selectPets({ ...query, limit: query.limit - 1 });
    },
    probeSeedPets: 30,
    probe: async (t) => assert.equal(count(await t.get('/pets?limit=5')), 4),
  },
  {
    name: 'list-limit-capped-50',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description:
      'The store caps every page at 50 pets (a page size of its own): a limit from 51 to 100 lists 50 pets when more exist.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => selectPets({ ...query, limit: Math.min(query.limit, 50) });
    },
    probeSeedPets: 60,
    probe: async (t) => {
      assert.equal(count(await t.get('/pets?limit=60')), 50);
      assert.equal(count(await t.get('/pets?limit=50')), 50);
      assert.equal(count(await t.get('/pets?limit=7')), 7);
    },
  },
  {
    name: 'list-limit-plus-one',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description: 'Every list holds limit+1 pets (a <= loop bound); limit=100 gives 101.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => selectPets({ ...query, limit: query.limit + 1 });
    },
    probeSeedPets: 150,
    probe: async (t) => assert.equal(count(await t.get('/pets?limit=100')), 101),
  },
  {
    name: 'list-filter-ignored',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'The status query parameter is ignored.',
    apply(s) {
      s.parseStatusFilter = () => ok(undefined);
    },
    probeSeedPets: 8,
    probe: async (t) => assert.equal(count(await t.get('/pets?status=sold')), 8),
  },
  {
    name: 'list-query-not-decoded',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description:
      'The query is split by hand on & and = and its values read as sent, never percent-decoded: status=%73%6F%6C%64 (sold) is refused with 400 as no PetStatus.',
    apply(s) {
      const listPets = s.listPets;
      s.listPets = async (req) => {
        const pair = req.query.split('&').find((part) => part.startsWith('status='));
        const raw = pair?.slice('status='.length);
        if (raw === undefined || !raw.includes('%') || s.guard(req, 'listPets')) {
          return listPets(req);
        }
        const status = s.parseStatusFilter(raw);
        return status.ok ? listPets(req) : status.reply;
      };
    },
    probeSeedPets: 3,
    probe: async (t) => {
      assertError(await t.get('/pets?status=%73%6F%6C%64'), 400);
      assert.equal(count(await t.get('/pets?status=sold')), 1);
    },
  },
  {
    name: 'list-filter-after-limit',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'Takes the first limit pets of the store, then filters them by status.',
    apply(s) {
      s.selectPets = ({ limit, status }) => {
        const page = s.store.all().slice(0, limit);
        return status === undefined ? page : page.filter((pet) => pet.status === status);
      };
    },
    probeSeedPets: 30,
    probe: async (t) => assert.equal(count(await t.get('/pets?status=sold&limit=4')), 1),
  },
  {
    name: 'list-filter-after-limit-newest-first',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description:
      'Lists are newest first, and the status filter is applied after taking the first limit pets: with status=X&limit=1 only the status of the newest pet is ever found.',
    apply(s) {
      s.selectPets = ({ limit, status }) => {
        const page = s.store.all().slice(-limit).reverse();
        return status === undefined ? page : page.filter((pet) => pet.status === status);
      };
    },
    // The newest of 8 seeded pets (8) has no status; 7 is sold, 6 pending, 5 available.
    probeSeedPets: 8,
    probe: async (t) => {
      assert.deepEqual(each(await t.get('/pets?limit=3'), 'id'), [8n, 7n, 6n]);
      for (const status of ['available', 'pending', 'sold'])
        assert.deepEqual((await t.get(`/pets?status=${status}&limit=1`)).body, [], status);
      assert.deepEqual(each(await t.get('/pets?status=sold&limit=2'), 'id'), [7n]);
      assert.deepEqual(each(await t.get('/pets?status=sold'), 'id'), [7n, 3n]);
    },
  },
  {
    name: 'list-filter-inverted',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'status=X returns the pets whose status is not X.',
    apply(s) {
      filteredAs(s, (pet, status) => pet.status !== status);
    },
    probeSeedPets: 8,
    probe: async (t) => {
      const pets = (await t.get('/pets?status=sold')).body as Record<string, unknown>[];
      assert.deepEqual(
        pets.map((pet) => pet.id),
        [1n, 2n, 4n, 5n, 6n, 8n],
      );
    },
  },
  {
    name: 'list-stale-snapshot',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'Lists come from a snapshot of the store taken at the first list request and refreshed at most every 60 s: pets created since are missing.',
    apply(s) {
      let snapshot: readonly Pet[] | undefined;
      let takenAt = 0;
      s.selectPets = ({ limit, status }) => {
        const now = Date.now();
        if (snapshot === undefined || now - takenAt >= SNAPSHOT_TTL_MS) {
          snapshot = s.store.all().slice();
          takenAt = now;
        }
        const matching =
          status === undefined ? snapshot : snapshot.filter((pet) => pet.status === status);
        return matching.slice(0, limit);
      };
    },
    probe: async (t) => {
      await t.get('/pets');
      await t.create({ name: 'late', categoryId: 1 });
      assert.deepEqual((await t.get('/pets')).body, []);
    },
  },
  {
    name: 'list-unfiltered-hides-sold',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'A storefront default: a list without a status filter leaves out sold pets (status=sold lists them, getPet finds them). The store starts empty, so its lists are short of their limit.',
    settings: { seedPets: 0 },
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = ({ limit, status }) =>
        status === undefined
          ? s.store
              .all()
              .filter((pet) => pet.status !== 'sold')
              .slice(0, limit)
          : selectPets({ limit, status });
    },
    // Seeded statuses: available, pending, sold, none, available, pending, sold, none.
    probeSeedPets: 8,
    probe: async (t) => {
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n, 2n, 4n, 5n, 6n, 8n]);
      assert.deepEqual(each(await t.get('/pets?status=sold'), 'id'), [3n, 7n]);
      assert.equal(field(await t.get('/pets/3'), 'status'), 'sold');
    },
  },
  {
    name: 'list-duplicates',
    kind: 'fault',
    breaks: 'LIST-NO-DUPLICATES',
    description:
      'A join that repeats rows: a full page (as many pets as its limit) has its last item replaced by a copy of its first (the count stays right, one pet appears twice; a shorter list is whole).',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => {
        const pets = selectPets(query);
        return pets.length < 2 || pets.length < query.limit
          ? pets
          : [...pets.slice(0, -1), pets[0]!];
      };
    },
    probeSeedPets: 5,
    probe: async (t) => {
      assert.deepEqual(each(await t.get('/pets?limit=3'), 'id'), [1n, 2n, 1n]);
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n, 2n, 3n, 4n, 5n]);
      assert.deepEqual(each(await t.get('/pets?status=pending'), 'id'), [2n]);
    },
  },
  {
    name: 'list-wrapped',
    kind: 'fault',
    breaks: 'LIST-200-PETS',
    description: 'The list is wrapped in an object: {"items": [...]}.',
    apply(s) {
      const renderPets = s.renderPets;
      s.renderPets = (pets) => ({ items: renderPets(pets) });
    },
    probeSeedPets: 2,
    probe: async (t) =>
      assert.equal(count({ body: field(await t.get('/pets'), 'items') } as Answer), 2),
  },
  {
    name: 'list-status-invalid-500',
    kind: 'fault',
    breaks: 'LIST-STATUS-INVALID',
    description: 'An unknown status filter value ends in an uncaught exception: 500.',
    apply(s) {
      s.parseStatusFilter = (raw) => {
        if (raw === undefined || isPetStatus(raw)) return ok(raw);
        // Stands for an index lookup that assumes every status exists.
        throw new TypeError(`Cannot read properties of undefined (reading '${raw}')`);
      };
    },
    probe: async (t) => assert.equal(await statusOf(t.get('/pets?status=lost')), 500),
  },
  {
    name: 'list-created-never-listed',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'Lists served from a replica that never catches up: they show the pets the store held when it started, never one created since (getPet, on the primary, finds those).',
    apply(s) {
      const created = new Set<bigint>();
      const addPet = s.addPet;
      s.addPet = async (newPet) => {
        const reply = await addPet(newPet);
        const id = reply.status === 201 && isJsonObject(reply.json) ? reply.json.id : undefined;
        if (typeof id === 'bigint') created.add(id);
        return reply;
      };
      const selectPets = s.selectPets;
      s.selectPets = ({ limit, status }) =>
        selectPets({ limit: Number.MAX_SAFE_INTEGER, status })
          .filter((pet) => !created.has(pet.id))
          .slice(0, limit);
    },
    probeSeedPets: 2,
    probe: async (t) => {
      const id = field(await t.create({ name: 'a', categoryId: 1 }), 'id');
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n, 2n]);
      assert.equal(field(await t.get(`/pets/${id}`), 'name'), 'a');
    },
  },
  {
    name: 'unset-status-shown-available',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'A pet created without status is shown as available everywhere (a default applied when rendering), but its row holds none: status=available never lists it.',
    apply(s) {
      const renderPet = s.renderPet;
      s.renderPet = (pet) =>
        renderPet(pet.status === undefined ? { ...pet, status: 'available' } : pet);
    },
    probe: async (t) => {
      assert.equal(field(await t.post(valid), 'status'), 'available');
      assert.equal(field(await t.get('/pets/1'), 'status'), 'available');
      assert.deepEqual(each(await t.get('/pets'), 'status'), ['available']);
      assert.deepEqual(each(await t.get('/pets?status=available'), 'id'), []);
    },
  },
  {
    name: 'list-filter-takes-no-status',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description:
      'A filter written as SQL status = ? OR status IS NULL: a pet stored without status is listed under every status, shown without one.',
    apply(s) {
      filteredAs(s, (pet, status) => pet.status === status || pet.status === undefined);
    },
    probe: async (t) => {
      await t.post(valid);
      for (const status of ['available', 'pending', 'sold'])
        assert.deepEqual(each(await t.get(`/pets?status=${status}`), 'id'), [1n]);
    },
  },
  {
    name: 'list-limit-ignored',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description:
      'The limit parameter is never read: every list is a page of the default 20 (a filtered one too), whatever limit is asked for.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = ({ status }) => selectPets({ limit: 20, status });
    },
    probeSeedPets: 30,
    probe: async (t) => {
      assert.equal(count(await t.get('/pets?limit=1')), 20);
      assert.equal(count(await t.get('/pets?limit=100')), 20);
      assert.equal(count(await t.get('/pets')), 20);
    },
  },
  {
    name: 'list-status-sql-string',
    kind: 'fault',
    breaks: 'LIST-STATUS-INVALID',
    description:
      "The status filter is pasted into an SQL string, WHERE status = '<status>': a quote ends the string early, and what follows is a syntax error (500), unless it is a tautology (' OR '1'='1), which lists every status. Without a quote, an unknown status gets the clean 400.",
    apply(s) {
      const parseStatusFilter = s.parseStatusFilter;
      s.parseStatusFilter = (raw) => {
        if (raw === undefined || !raw.includes("'")) return parseStatusFilter(raw);
        const where = sqlStringWhere(raw);
        if (where === 'every status') return ok(undefined);
        if (where !== 'syntax error') return parseStatusFilter(where);
        return refuse(
          s.errorReply(500, 'internal_error', `SQL syntax error near '${raw.slice(0, 40)}'`),
        );
      };
    },
    probeSeedPets: 3,
    probe: async (t) => {
      assert.equal(await statusOf(t.get(`/pets?status=${encodeURIComponent("sold'")}`)), 500);
      assert.equal(await statusOf(t.get(`/pets?status=${encodeURIComponent("x'y")}`)), 500);
      const everything = await t.get(`/pets?status=${encodeURIComponent("' OR '1'='1")}`);
      assert.deepEqual(each(everything, 'status'), ['available', 'pending', 'sold']);
      assert.deepEqual(
        each(await t.get(`/pets?status=${encodeURIComponent("sold'--")}`), 'status'),
        ['sold'],
      );
      assert.equal(await statusOf(t.get('/pets?status=lost')), 400);
    },
  },
  {
    name: 'list-limit-compared-as-text',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description:
      'limit is checked against its maximum as text, not as a number ("5" > "100" in string order): limits 2 to 9 are refused with 400, every other limit works.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) =>
        raw !== undefined && /^[2-9]$/.test(raw)
          ? refuse(s.errorReply(400, 'invalid_parameter', 'limit must be at most 100'))
          : parseLimit(raw);
    },
    probeSeedPets: 30,
    probe: async (t) => {
      assertError(await t.get('/pets?limit=5'), 400);
      assert.equal(count(await t.get('/pets?limit=1')), 1);
      assert.equal(count(await t.get('/pets?limit=10')), 10);
      assert.equal(count(await t.get('/pets?limit=99')), 30);
    },
  },
  {
    name: 'list-created-never-listed-empty-store',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'As list-created-never-listed (lists show only the pets the store held when it started), on a store that started empty: every list is empty, getPet finds every pet.',
    settings: { seedPets: 0 },
    apply(s) {
      const created = new Set<bigint>();
      const addPet = s.addPet;
      s.addPet = async (newPet) => {
        const reply = await addPet(newPet);
        const id = reply.status === 201 && isJsonObject(reply.json) ? reply.json.id : undefined;
        if (typeof id === 'bigint') created.add(id);
        return reply;
      };
      const selectPets = s.selectPets;
      s.selectPets = ({ limit, status }) =>
        selectPets({ limit: Number.MAX_SAFE_INTEGER, status })
          .filter((pet) => !created.has(pet.id))
          .slice(0, limit);
    },
    probe: async (t) => {
      const id = field(await t.create({ name: 'a', categoryId: 1 }), 'id');
      assert.equal(count(await t.get('/pets')), 0);
      assert.equal(field(await t.get(`/pets/${id}`), 'name'), 'a');
    },
  },
  {
    name: 'list-500-with-a-pet-without-status',
    kind: 'fault',
    breaks: 'LIST-200-PETS',
    description:
      'A list that holds a pet stored without status ends in an exception (its status lower-cased for display): 500. Lists by status, getPet and the 201 answer are as they should be.',
    apply(s) {
      const listPets = s.listPets;
      s.listPets = async (req) => {
        const reply = await listPets(req);
        const pets = Array.isArray(reply.json) ? (reply.json as Record<string, unknown>[]) : [];
        return reply.status === 200 && pets.some((pet) => pet.status === undefined)
          ? s.errorReply(500, 'internal_error', "'NoneType' object has no attribute 'lower'")
          : reply;
      };
    },
    probeSeedPets: 4,
    probe: async (t) => {
      assert.equal(count(await t.get('/pets?limit=3')), 3);
      assertError(await t.get('/pets?limit=4'), 500);
      assert.equal(count(await t.get('/pets?status=sold')), 1);
    },
  },
];

/**
 * What `WHERE status = '<raw>'` selects: the string literal up to its first lone quote ('' is a
 * quote inside it), then what SQL reads after it: nothing or a comment (that literal), a
 * tautology closed by the statement's own quote (every status), anything else a syntax error.
 */
function sqlStringWhere(raw: string): string | 'every status' | 'syntax error' {
  const statement = `${raw}'`;
  let literal = '';
  let at = 0;
  for (; at < statement.length; at++) {
    if (statement[at] !== "'") literal += statement[at];
    else if (statement[at + 1] === "'") {
      literal += "'";
      at++;
    } else break;
  }
  const rest = statement.slice(at + 1);
  if (at >= statement.length) return 'syntax error';
  if (/^\s*(--.*)?$/s.test(rest)) return literal;
  if (/^\s*OR\s+'1'\s*=\s*'1'\s*(--.*)?$/is.test(rest)) return 'every status';
  return 'syntax error';
}
