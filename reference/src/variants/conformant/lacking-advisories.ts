// Conformant variations that each lack one HTTP-standard extra (an advisory of the catalogue):
// the suite must pass them, flag the advisory, and fail them only in strict mode.
import assert from 'node:assert/strict';
import type { Reply, Service } from '../../service.ts';
import { everyReply } from '../helpers.ts';
import { KEY, assertError, count, valid } from '../probe.ts';
import type { Variant } from '../types.ts';
import { variations } from './variations.ts';

function withoutHeaders(service: Service, names: string[]): void {
  everyReply(service, (reply): Reply => {
    const headers = { ...reply.headers };
    for (const name of names) delete headers[name];
    return { ...reply, headers };
  });
}

const lacksOne: Variant[] = [
  {
    name: 'no-www-authenticate',
    kind: 'conformant',
    lacks: ['ADV-WWW-AUTHENTICATE'],
    description: '401 answers carry no WWW-Authenticate header.',
    apply: (s) => withoutHeaders(s, ['www-authenticate']),
    probe: async (t) => {
      const refused = await t.get('/pets', {});
      assertError(refused, 401);
      assert.equal(refused.headers.get('www-authenticate'), null);
    },
  },
  {
    name: 'bearer-case-sensitive',
    kind: 'conformant',
    lacks: ['ADV-BEARER-CASE-INSENSITIVE'],
    description: 'The Bearer scheme is matched case-sensitively: "bearer <key>" gets 401.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        authorization !== undefined &&
        /^bearer /i.test(authorization) &&
        !authorization.startsWith('Bearer ')
          ? 'invalid'
          : authenticate(authorization);
    },
    probe: async (t) => {
      assertError(await t.get('/pets', { authorization: `bearer ${KEY}` }), 401);
      assert.equal((await t.get('/pets', { authorization: `Bearer ${KEY}` })).status, 200);
    },
  },
  {
    name: 'no-location',
    kind: 'conformant',
    lacks: ['ADV-LOCATION'],
    description: '201 answers carry no Location header.',
    apply: (s) => withoutHeaders(s, ['location']),
    probe: async (t) => {
      const created = await t.post(valid);
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('location'), null);
    },
  },
  {
    name: 'no-deprecation-headers',
    kind: 'conformant',
    lacks: ['ADV-DEPRECATION-HEADERS'],
    description: 'getPet answers carry no Deprecation, Sunset or Link headers.',
    apply: (s) => withoutHeaders(s, ['deprecation', 'sunset', 'link']),
    probeSeedPets: 1,
    probe: async (t) => {
      const read = await t.get('/pets/1');
      assert.equal(read.status, 200);
      for (const name of ['deprecation', 'sunset', 'link'])
        assert.equal(read.headers.get(name), null);
    },
  },
];

/** The one that lacks them all: the four above, and limits clamped instead of refused. */
const clamped = variations.find((variant) => variant.name === 'limits-clamped')!;
/** The variations no-advisories is made of: a run of it covers each of them. */
export const noAdvisoriesParts = [...lacksOne, clamped].map((variant) => variant.name);
const noAdvisories: Variant = {
  name: 'no-advisories',
  kind: 'conformant',
  lacks: [...lacksOne, clamped].flatMap((variant) => variant.lacks ?? []),
  description: `None of the HTTP-standard extras: ${[...lacksOne, clamped].map((variant) => variant.name).join(', ')} at once.`,
  apply(s) {
    for (const variant of [...lacksOne, clamped]) variant.apply?.(s);
  },
  probeSeedPets: 1,
  probe: async (t) => {
    const refused = await t.get('/pets', {});
    assertError(refused, 401);
    assert.equal(refused.headers.get('www-authenticate'), null);
    assertError(await t.get('/pets', { authorization: `bearer ${KEY}` }), 401);
    assert.equal((await t.post(valid)).headers.get('location'), null);
    const read = await t.get('/pets/1');
    assert.equal(read.status, 200);
    for (const name of ['deprecation', 'sunset', 'link'])
      assert.equal(read.headers.get(name), null);
    assert.equal(count(await t.get('/pets?limit=500')), 2);
  },
};

export const lackingAdvisories: Variant[] = [...lacksOne, noAdvisories];
