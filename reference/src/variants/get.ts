// Faults in getPet (sections 4.3 and 9).
import { afterOperation } from './helpers.ts';
import type { Variant } from './types.ts';

export const getVariants: Variant[] = [
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
  },
  {
    name: 'get-removed-early',
    kind: 'fault',
    breaks: 'GETPET-DEPRECATED-KEPT',
    description: 'getPet answers 410 Gone with an Error body: removed before the announced date.',
    apply(s) {
      afterOperation(s, 'getPet', (reply) =>
        reply.status === 200
          ? s.errorReply(410, 'gone', 'getPet was removed; use GET /pets with the status filter')
          : reply,
      );
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
  },
  {
    name: 'hang-getPet',
    kind: 'fault',
    breaks: 'GET-200-PET',
    description: 'getPet never answers: the request is left open (close() still ends it).',
    apply(s) {
      s.getPet = () => new Promise(() => {});
    },
  },
];
