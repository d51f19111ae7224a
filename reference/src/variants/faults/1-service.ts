// Section 1, What the service does: faults in the media type (MEDIA-JSON) and the base path
// (BASE-V1).
import assert from 'node:assert/strict';
import { afterOperation, everyReply } from '../helpers.ts';
import { AUTH, assertError, call, count, valid } from '../probe.ts';
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
    name: 'list-text-plain',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      'listPets answers (GET /pets, every status) are sent with Content-Type text/plain, body unchanged; the other operations are right.',
    apply(s) {
      afterOperation(s, 'listPets', (reply) => ({
        ...reply,
        headers: { ...reply.headers, 'content-type': 'text/plain' },
      }));
    },
    probeSeedPets: 2,
    probe: async (t) => {
      const listed = await t.get('/pets');
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get('content-type'), 'text/plain');
      assert.equal(count(listed), 2); // the body is still the JSON array
      for (const refused of [await t.get('/pets', {}), await t.get('/pets?limit=0')]) {
        assert.equal(refused.headers.get('content-type'), 'text/plain');
        assert.equal(typeof (refused.body as Record<string, unknown>).code, 'string');
      }
      assert.equal((await t.get('/pets/1')).headers.get('content-type'), 'application/json');
      assert.equal((await t.post(valid)).headers.get('content-type'), 'application/json');
    },
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
