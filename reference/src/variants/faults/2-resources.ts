// Section 2, Resources and their fields: faults in PetStatus, the Pet shape, Pet ids (int64,
// unique) and the NewPet fields (categoryId int64, status optional).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { INT64_MAX, INT64_MIN } from '../../int64.ts';
import { isJsonObject } from '../../json.ts';
import { ok, refuse } from '../../service.ts';
import { isPetStatus, type PetStatus } from '../../store.ts';
import { afterOperation, afterValidation, editBody, without } from '../helpers.ts';
import { TWO_53_PLUS_1, assertError, field, valid } from '../probe.ts';
import type { Variant } from '../types.ts';

/** How long the racy id assignment "waits for the database" between read and write. */
const ID_RACE_WINDOW_MS = 2;
const TWO_53 = 2n ** 53n;
/** A double keeps only 53 bits: the JSON.parse / JavaScript-number fate of an int64. */
const throughDouble = (value: bigint): bigint => BigInt(Number(value));

export const resourceFaults: Variant[] = [
  {
    name: 'create-id-race',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      'Id assignment reads the counter, awaits a "database round trip", then writes counter+1: concurrent creates get the same id.',
    apply(s) {
      let lastId = s.config.firstId - 1n;
      s.nextId = async () => {
        const current = lastId;
        await sleep(ID_RACE_WINDOW_MS);
        lastId = current + 1n;
        return lastId;
      };
    },
    probe: async (t) => {
      const created = await Promise.all(
        Array.from({ length: 20 }, (_, i) => t.create({ name: `r${i}`, categoryId: i })),
      );
      const distinct = new Set(created.map((answer) => field(answer, 'id')));
      assert.ok(distinct.size < 20, `${distinct.size} distinct ids`);
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
    probe: async (t) => assert.equal(field(await t.post(valid), 'id'), undefined),
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
];
