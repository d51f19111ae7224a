// Section 4.3, Get an animal (getPet): faults in finding the pet, 404 and the petId check.
import assert from 'node:assert/strict';
import { afterOperation } from '../helpers.ts';
import { AUTH, field, statusOf } from '../probe.ts';
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
    name: 'hang-getPet',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description: 'getPet never answers: the request is left open (close() still ends it).',
    apply(s) {
      s.getPet = () => new Promise(() => {});
    },
    probeSeedPets: 1,
    probe: async (t) => {
      const pending = fetch(`${t.handle.baseUrl}/pets/1`, { headers: AUTH });
      const settled = pending.then(
        () => 'answered',
        () => 'failed',
      );
      assert.equal(
        await Promise.race([settled, new Promise((r) => setTimeout(r, 200, 'open'))]),
        'open',
      );
      const started = performance.now();
      await t.handle.close();
      assert.ok(performance.now() - started < 1000);
      assert.equal(await settled, 'failed');
    },
  },
];
