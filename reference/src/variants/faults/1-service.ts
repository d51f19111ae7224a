// Section 1, What the service does: faults in the media type (MEDIA-JSON) and the base path
// (BASE-V1).
import assert from 'node:assert/strict';
import { everyReply } from '../helpers.ts';
import { AUTH, assertError, call } from '../probe.ts';
import type { Variant } from '../types.ts';

export const serviceFaults: Variant[] = [
  {
    name: 'media-text-plain',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description: 'Every JSON body is sent with Content-Type text/plain.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : { ...reply, headers: { ...reply.headers, 'content-type': 'text/plain' } },
      );
    },
    probe: async (t) =>
      assert.equal((await t.get('/pets')).headers.get('content-type'), 'text/plain'),
  },
  {
    name: 'base-path-ignored',
    kind: 'fault',
    breaks: 'BASE-V1',
    description:
      'The routes live at the host root (/pets), not under the announced base path (404 Error there).',
    settings: { mountPath: '' },
    probeSeedPets: 1,
    probe: async (t) => {
      assert.match(t.handle.baseUrl, /\/api\/v1$/);
      assertError(await t.get('/pets'), 404);
      assert.equal(
        (await call(`http://127.0.0.1:${t.handle.port}/pets/1`, { headers: AUTH })).status,
        200,
      );
    },
  },
];
