// Section 2, Resources and their fields: faults in PetStatus, the Pet shape, Pet ids (int64,
// unique, assigned by the service) and the NewPet fields (categoryId int64, status optional).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { INT64_MAX, INT64_MIN, parseInt64 } from '../../int64.ts';
import { JsonNumber, isJsonObject } from '../../json.ts';
import { ok, refuse, type Service } from '../../service.ts';
import { isPetStatus, type NewPet, type Pet, type PetStatus } from '../../store.ts';
import {
  afterOperation,
  afterValidation,
  categoryIdLiteral,
  editBody,
  renderedAs,
  without,
} from '../helpers.ts';
import {
  type ProbeTarget,
  TWO_53_PLUS_1,
  assertError,
  count,
  each,
  field,
  valid,
} from '../probe.ts';
import type { Variant } from '../types.ts';

/** How long the racy id assignment "waits for the database" between read and write. */
const ID_RACE_WINDOW_MS = 2;
const TWO_53 = 2n ** 53n;
/** A double keeps only 53 bits: the JSON.parse / JavaScript-number fate of an int64. */
const throughDouble = (value: bigint): bigint => BigInt(Number(value));

/** The id a create body carries, when it is a JSON integer within int64. */
function idInBody(body: unknown): bigint | undefined {
  return isJsonObject(body) && body.id instanceof JsonNumber
    ? parseInt64(body.id.literal)
    : undefined;
}

/**
 * Id assignment reads the counter, awaits a "database round trip", then writes counter+1:
 * concurrent creates get the same id.
 */
function racyIds(s: Service): void {
  let lastId = s.config.firstId - 1n;
  s.nextId = async () => {
    const current = lastId;
    await sleep(ID_RACE_WINDOW_MS);
    lastId = current + 1n;
    return lastId;
  };
}

/** The distinct ids twenty creates sent at once were answered with. */
async function idsOfTwentyAtOnce(t: ProbeTarget): Promise<Set<unknown>> {
  const created = await Promise.all(
    Array.from({ length: 20 }, (_, i) => t.create({ name: `r${i}`, categoryId: i })),
  );
  return new Set(created.map((answer) => field(answer, 'id')));
}

/**
 * Mass assignment: a valid create body's id becomes the new pet's id when `takes(id)` says so.
 * The ids the service assigns itself skip ids already taken, so that they stay unique.
 */
function idsFromBody(s: Service, takes: (id: bigint) => boolean): void {
  const asked = new WeakMap<NewPet, bigint>();
  const validate = s.validateNewPet;
  s.validateNewPet = (body) => {
    const checked = validate(body);
    const id = idInBody(body);
    if (checked.ok && id !== undefined) asked.set(checked.value, id);
    return checked;
  };
  const nextId = s.nextId;
  s.nextId = async () => {
    let id = await nextId();
    while (s.findPet(id) !== undefined) id = await nextId();
    return id;
  };
  const addPet = s.addPet;
  s.addPet = async (newPet) => {
    const id = asked.get(newPet);
    if (id === undefined || !takes(id)) return addPet(newPet);
    // The clean addPet's 201, with the body's id instead of one from nextId.
    const pet: Pet = { id, ...newPet };
    s.savePet(pet);
    return {
      status: 201,
      headers: { location: `${s.config.basePath}/pets/${id}` },
      json: s.renderPet(pet),
    };
  };
}

/**
 * The variant's own pet table, where saving a pet under a taken id replaces that pet, in place:
 * getPet, the list and the status filter (which scans the table) all show the new one.
 */
function replacingTable(s: Service): void {
  const pets: Pet[] = [];
  const position = new Map<bigint, number>();
  s.savePet = (pet) => {
    const at = position.get(pet.id);
    if (at === undefined) position.set(pet.id, pets.push(pet) - 1);
    else pets[at] = pet;
  };
  s.findPet = (id) => {
    const at = position.get(id);
    return at === undefined ? undefined : pets[at];
  };
  s.selectPets = ({ limit, status }) =>
    (status === undefined ? pets : pets.filter((pet) => pet.status === status)).slice(0, limit);
}

export const resourceFaults: Variant[] = [
  {
    name: 'create-id-race',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      'Id assignment reads the counter, awaits a "database round trip", then writes counter+1: concurrent creates get the same id.',
    apply: racyIds,
    probe: async (t) => {
      const distinct = await idsOfTwentyAtOnce(t);
      assert.ok(distinct.size < 20, `${distinct.size} distinct ids`);
    },
  },
  {
    name: 'create-id-race-keyed-store',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      'The id race of create-id-race, in a store keyed by id (a hash, a table whose id is its key): a pet created under an id another create had replaces it, so the store holds fewer pets than were created (201).',
    apply(s) {
      replacingTable(s);
      racyIds(s);
    },
    probe: async (t) => {
      const distinct = await idsOfTwentyAtOnce(t);
      assert.ok(distinct.size < 20, `${distinct.size} distinct ids`);
      assert.equal(count(await t.get('/pets?limit=100')), distinct.size);
    },
  },
  {
    name: 'create-id-from-body',
    kind: 'fault',
    breaks: 'PET-ID-ASSIGNED',
    description:
      'Mass assignment: a create body carrying an integer id that no pet has gets that id; otherwise the service assigns one (skipping ids taken).',
    apply(s) {
      idsFromBody(s, (id) => s.findPet(id) === undefined);
    },
    probeSeedPets: 2,
    probe: async (t) => {
      const chosen = await t.create({ name: 'chosen', categoryId: 1, id: 4n });
      assert.equal(chosen.status, 201);
      assert.equal(field(chosen, 'id'), 4n);
      assert.equal(field(await t.get('/pets/4'), 'name'), 'chosen');
      // A taken id is left alone: the pet gets one of the service's, the owner is unchanged.
      assert.equal(field(await t.create({ name: 'taken', categoryId: 1, id: 1n }), 'id'), 3n);
      assert.equal(field(await t.get('/pets/1'), 'name'), 'Seed pet 1');
      assert.equal(field(await t.post(valid), 'id'), 5n);
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n, 2n, 4n, 3n, 5n]);
    },
  },
  {
    name: 'create-id-overwrites',
    kind: 'fault',
    breaks: 'PET-ID-ASSIGNED',
    description:
      'Mass assignment: a create body carrying an integer id gets that id even when a pet has it, and that pet is replaced (getPet and lists show the new one).',
    apply(s) {
      replacingTable(s);
      idsFromBody(s, () => true);
    },
    probeSeedPets: 3,
    probe: async (t) => {
      const intruder = await t.create({ name: 'intruder', categoryId: 9, id: 2n, status: 'sold' });
      assert.equal(intruder.status, 201);
      assert.equal(field(intruder, 'id'), 2n);
      assert.deepEqual((await t.get('/pets/2')).body, intruder.body);
      const listed = await t.get('/pets');
      assert.deepEqual(each(listed, 'id'), [1n, 2n, 3n]);
      assert.deepEqual(each(listed, 'name'), ['Seed pet 1', 'intruder', 'Seed pet 3']);
      // Seed pet 2 was pending: its bucket no longer holds it, the new status's does.
      assert.deepEqual((await t.get('/pets?status=pending')).body, []);
      assert.deepEqual(each(await t.get('/pets?status=sold'), 'id'), [2n, 3n]);
      assert.equal(field(await t.create({ name: 'n', categoryId: 1, id: 5n }), 'id'), 5n);
      assert.equal(field(await t.post(valid), 'id'), 4n);
      assert.equal(field(await t.post(valid), 'id'), 6n);
    },
  },
  {
    name: 'create-status-required',
    kind: 'fault',
    breaks: 'NEWPET-STATUS-OPTIONAL',
    description: 'A NewPet without status is refused with 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) =>
        isJsonObject(body) && !Object.hasOwn(body, 'status')
          ? refuse(s.errorReply(400, 'invalid_body', 'status is required'))
          : validate(body);
    },
    probe: async (t) => assertError(await t.post(valid), 400),
  },
  {
    name: 'create-default-status-invalid',
    kind: 'fault',
    breaks: 'PETSTATUS-ENUM',
    description: 'A pet created without status is stored and returned with status "new".',
    apply(s) {
      afterValidation(s, (newPet) =>
        isPetStatus(newPet.status) ? newPet : { ...newPet, status: 'new' as PetStatus },
      );
    },
    probe: async (t) => assert.equal(field(await t.post(valid), 'status'), 'new'),
  },
  {
    name: 'create-no-id',
    kind: 'fault',
    breaks: 'PET-SHAPE',
    description: 'The 201 body lacks the id.',
    apply(s) {
      afterOperation(s, 'createPet', (reply) =>
        reply.status === 201 ? editBody(reply, (body) => without(body, 'id')) : reply,
      );
    },
    probe: async (t) => {
      const created = await t.post(valid);
      assert.equal(created.status, 201);
      assert.equal(typeof field(created, 'name'), 'string');
      assert.equal(field(created, 'id'), undefined);
    },
  },
  {
    name: 'id-rounded-above-2p53',
    kind: 'fault',
    breaks: 'PET-ID-INT64',
    description:
      'Ids start at 2^53+1 and are written through a double (rounded) in every body; stored exactly.',
    settings: { firstId: TWO_53 + 1n },
    apply(s) {
      const renderPet = s.renderPet;
      s.renderPet = (pet) => ({
        ...(renderPet(pet) as Record<string, unknown>),
        id: Number(pet.id),
      });
    },
    probe: async (t) => {
      const answer = await t.post(valid);
      assert.equal(field(answer, 'id'), TWO_53_PLUS_1 - 1n);
      assert.equal(answer.headers.get('location'), `/api/v1/pets/${TWO_53_PLUS_1}`);
    },
  },
  {
    name: 'id-path-as-double',
    kind: 'fault',
    breaks: 'PET-ID-INT64',
    description:
      'Ids start at 2^53+1 (exact in bodies), but the petId path parameter goes through Number() before the lookup: odd ids miss or hit a neighbour.',
    settings: { firstId: TWO_53 + 1n },
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        const id = parsePetId(raw);
        return id.ok ? ok(throughDouble(id.value)) : id;
      };
    },
    probe: async (t) => {
      assert.equal(field(await t.post(valid), 'id'), TWO_53_PLUS_1);
      assertError(await t.get(`/pets/${TWO_53_PLUS_1}`), 404);
    },
  },
  {
    name: 'categoryid-rounded',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'categoryIds go through a double (JSON.parse semantics): values beyond 2^53 are rounded.',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, categoryId: throughDouble(newPet.categoryId) }));
    },
    probe: async (t) =>
      assert.equal(
        field(await t.create({ name: 'a', categoryId: TWO_53_PLUS_1 }), 'categoryId'),
        TWO_53_PLUS_1 - 1n,
      ),
  },
  {
    name: 'categoryid-rounded-mid-range',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'categoryIds are exact at the int64 bounds and for |x| <= 2^53+16, rounded through a double elsewhere: only generated inputs find it, not the fixed examples.',
    apply(s) {
      afterValidation(s, (newPet) => {
        const c = newPet.categoryId;
        const special = c === INT64_MIN || c === INT64_MAX || (c < 0n ? -c : c) <= TWO_53 + 16n;
        return special ? newPet : { ...newPet, categoryId: throughDouble(c) };
      });
    },
    probe: async (t) => {
      for (const categoryId of [INT64_MAX, INT64_MIN, TWO_53_PLUS_1, -TWO_53_PLUS_1]) {
        assert.equal(field(await t.create({ name: 'x', categoryId }), 'categoryId'), categoryId);
      }
      assert.equal(
        field(await t.create({ name: 'x', categoryId: 2n ** 60n + 1n }), 'categoryId'),
        2n ** 60n,
      );
    },
  },
  {
    name: 'categoryid-safe-integer-cap',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'A validator capped at the safe-integer range (Number.isSafeInteger, a schema maximum of 2^53-1): categoryIds beyond ±(2^53-1) are refused with 400.',
    apply(s) {
      afterValidation(s, (newPet) => {
        const c = newPet.categoryId;
        return (c < 0n ? -c : c) < TWO_53
          ? newPet
          : refuse(s.errorReply(400, 'invalid_body', 'categoryId must be a safe integer'));
      });
    },
    probe: async (t) => {
      const safe = TWO_53 - 1n;
      for (const categoryId of [safe, -safe]) {
        assert.equal(field(await t.create({ name: 'x', categoryId }), 'categoryId'), categoryId);
      }
      for (const categoryId of [TWO_53, -TWO_53, INT64_MAX]) {
        assertError(await t.create({ name: 'x', categoryId }), 400);
      }
    },
  },
  {
    name: 'list-categoryid-rounded',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'List answers (only lists: the 201 answer and getPet are exact) write categoryIds through a double: values beyond 2^53 come back rounded, 2^63-1 as 9223372036854775808 (outside int64).',
    apply(s) {
      const renderPets = s.renderPets;
      s.renderPets = (pets) =>
        renderPets(pets.map((pet) => ({ ...pet, categoryId: throughDouble(pet.categoryId) })));
    },
    probe: async (t) => {
      const sent = [INT64_MAX, TWO_53_PLUS_1, INT64_MIN, 7n];
      for (const categoryId of sent) {
        const created = await t.create({ name: 'c', categoryId });
        assert.equal(field(created, 'categoryId'), categoryId);
        assert.equal(field(await t.get(`/pets/${field(created, 'id')}`), 'categoryId'), categoryId);
      }
      assert.deepEqual(each(await t.get('/pets'), 'categoryId'), [
        2n ** 63n,
        TWO_53_PLUS_1 - 1n,
        INT64_MIN,
        7n,
      ]);
    },
  },
  {
    name: 'status-omitted-null',
    kind: 'fault',
    breaks: 'PETSTATUS-ENUM',
    description:
      'A nullable status column rendered as is: a pet stored without status is answered with "status": null (in the 201 answer, through getPet and in lists), where the document allows none or a PetStatus.',
    apply(s) {
      renderedAs(
        s,
        (pet) => pet.status === undefined,
        (rendered) => ({ ...rendered, status: null }),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.post(valid), 'status'), null);
      assert.equal(field(await t.get('/pets/1'), 'status'), null);
      assert.deepEqual(each(await t.get('/pets'), 'status'), [null]);
    },
  },
  {
    name: 'status-omitted-null-small-store',
    kind: 'fault',
    breaks: 'PETSTATUS-ENUM',
    description:
      'As status-omitted-null ("status": null for a pet stored without status, everywhere), in a store small enough that its lists show the pets just created, as a fresh staging does.',
    settings: { seedPets: 12 },
    apply(s) {
      renderedAs(
        s,
        (pet) => pet.status === undefined,
        (rendered) => ({ ...rendered, status: null }),
      );
    },
    probeSeedPets: 4,
    probe: async (t) => {
      const id = field(await t.create({ name: 'a', categoryId: 1 }), 'id');
      assert.equal(field(await t.get(`/pets/${id}`), 'status'), null);
      assert.deepEqual(each(await t.get('/pets'), 'status'), [
        'available',
        'pending',
        'sold',
        null,
        null,
      ]);
    },
  },
  {
    name: 'get-wrapped-object',
    kind: 'fault',
    breaks: 'PET-SHAPE',
    description:
      'getPet answers the pet wrapped in an object, {"pet": {...}}, as a serializer with a root key does (the 201 answer and lists are as they should be).',
    apply(s) {
      afterOperation(s, 'getPet', (reply) =>
        reply.status === 200 ? { ...reply, json: { pet: reply.json } } : reply,
      );
    },
    probeSeedPets: 1,
    probe: async (t) => assert.equal((field(await t.get('/pets/1'), 'pet') as Pet).id, 1n),
  },
  {
    name: 'ids-as-strings',
    kind: 'fault',
    breaks: 'PET-ID-INT64',
    description:
      'Every id is written as a JSON string ("id": "12"), as protobuf\'s JSON mapping writes an int64, in the 201 answer, through getPet and in lists.',
    apply(s) {
      renderedAs(
        s,
        () => true,
        (rendered) => ({ ...rendered, id: String(rendered.id) }),
      );
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.equal(field(await t.get('/pets/1'), 'id'), '1');
      assert.deepEqual(each(await t.get('/pets'), 'id'), ['1']);
    },
  },
  {
    name: 'categoryid-as-string',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'Every categoryId is written as a JSON string ("categoryId": "7"), as protobuf\'s JSON mapping writes an int64, in the 201 answer, through getPet and in lists.',
    apply(s) {
      renderedAs(
        s,
        () => true,
        (rendered) => ({ ...rendered, categoryId: String(rendered.categoryId) }),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: 'a', categoryId: 7n }), 'categoryId'), '7');
      assert.deepEqual(each(await t.get('/pets'), 'categoryId'), ['7']);
    },
  },
  {
    name: 'create-ids-all-zero',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      'Every 201 answer carries id 0 (the id column read before the insert), though each pet is stored under an id of its own.',
    apply(s) {
      afterOperation(s, 'createPet', (reply) =>
        reply.status === 201 ? editBody(reply, (body) => ({ ...body, id: 0n })) : reply,
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.post(valid), 'id'), 0n);
      assert.equal(field(await t.post(valid), 'id'), 0n);
      assert.deepEqual(each(await t.get('/pets'), 'id'), [1n, 2n]);
    },
  },
  {
    name: 'id-counter-double-stuck',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      "The id counter is a double (JavaScript's number) that starts near 2^53: past 2^53, adding 1 changes nothing, and every new pet gets id 2^53, each stored beside the others.",
    settings: { firstId: 2n ** 53n - 40n },
    apply(s) {
      let counter: number | undefined;
      const nextId = s.nextId;
      s.nextId = async () => {
        counter ??= Number(await nextId());
        const id = BigInt(counter);
        counter += 1;
        return id;
      };
    },
    probe: async (t) => {
      const ids: unknown[] = [];
      for (let i = 0; i < 42; i++) ids.push(field(await t.post(valid), 'id'));
      assert.equal(ids[0], 2n ** 53n - 40n);
      assert.deepEqual(ids.slice(-2), [2n ** 53n, 2n ** 53n]);
    },
  },
  {
    name: 'categoryid-integral-as-double',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      "A categoryId written with a fraction or an exponent that is integral (7.0, 7e0) is taken, read as a double (Ruby's Float, Python's float): exact up to 2^53, 9007199254740993.0 stored as 9007199254740992.",
    apply(s) {
      categoryIdLiteral(s, (literal) => {
        const number = Number(literal);
        return /[.eE]/.test(literal) && Number.isInteger(number)
          ? BigInt(number).toString()
          : undefined;
      });
    },
    probe: async (t) => {
      assert.equal(field(await t.post('{"name":"a","categoryId":7.0}'), 'categoryId'), 7n);
      assert.equal(
        field(await t.post('{"name":"a","categoryId":9007199254740993.0}'), 'categoryId'),
        9007199254740992n,
      );
      assertError(await t.post('{"name":"a","categoryId":7.5}'), 400);
    },
  },
];
