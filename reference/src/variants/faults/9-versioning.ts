// Section 9, Versioning: faults in the deprecated getPet, which must be kept until its sunset.
import { afterOperation } from '../helpers.ts';
import { assertError } from '../probe.ts';
import type { Variant } from '../types.ts';

export const versioningFaults: Variant[] = [
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
    probeSeedPets: 1,
    probe: async (t) => assertError(await t.get('/pets/1'), 410),
  },
  {
    name: 'get-removed-early-every-id',
    kind: 'fault',
    breaks: 'GETPET-DEPRECATED-KEPT',
    description:
      'getPet answers 410 Gone with an Error body for every id, with the key: the route removed before the announced date.',
    apply(s) {
      afterOperation(s, 'getPet', (reply) =>
        reply.status === 401
          ? reply
          : s.errorReply(410, 'gone', 'getPet was removed; use GET /pets with the status filter'),
      );
    },
    probeSeedPets: 1,
    probe: async (t) => {
      for (const petId of ['1', '2', 'x']) assertError(await t.get(`/pets/${petId}`), 410);
      assertError(await t.get('/pets/1', {}), 401);
    },
  },
];
