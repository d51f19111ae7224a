// Section 7, Errors: faults in the Error body (its shape and its status field), and 5xx answers
// no other rule covers (NO-5XX).
import assert from 'node:assert/strict';
import { isJsonObject } from '../../json.ts';
import { refuse } from '../../service.ts';
import { afterOperation, afterValidation, beforeListing, everyReply, without } from '../helpers.ts';
import { assertError, count, field, statusOf } from '../probe.ts';
import type { Variant } from '../types.ts';

/** A low surrogate no high one comes before: half a character, which some encoders fail on. */
const LONE_LOW_SURROGATE = /(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a reply's body is a pet, or a list holding one, whose name has a lone low surrogate. */
function holdsLoneLowSurrogate(json: unknown): boolean {
  const pets = Array.isArray(json) ? json : [json];
  return pets.some(
    (pet) => isJsonObject(pet) && typeof pet.name === 'string' && LONE_LOW_SURROGATE.test(pet.name),
  );
}

export const errorFaults: Variant[] = [
  {
    name: 'error-missing-code',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: 'Error bodies lack the code field.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (status, code, message) =>
        without(renderError(status, code, message) as Record<string, unknown>, 'code');
    },
    probe: async (t) => {
      const refused = await t.get('/pets', {});
      assert.equal(refused.status, 401);
      assert.equal(typeof field(refused, 'message'), 'string');
      assert.equal(field(refused, 'code'), undefined);
    },
  },
  {
    name: 'error-status-string',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: 'Error.status is written as a string ("401") instead of an integer.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (status, code, message) => ({
        ...(renderError(status, code, message) as Record<string, unknown>),
        status: String(status),
      });
    },
    probe: async (t) => assert.equal(field(await t.get('/pets', {}), 'status'), '401'),
  },
  {
    name: 'auth-401-no-body',
    kind: 'fault',
    breaks: 'ERROR-SHAPE',
    description: '401 is answered with an empty body (no Error); the status is right.',
    apply(s) {
      const unauthorized = s.unauthorized;
      s.unauthorized = (outcome) => ({ ...unauthorized(outcome), json: undefined });
    },
    probe: async (t) => {
      const answer = await t.get('/pets', {});
      assert.equal(answer.status, 401);
      assert.equal(answer.text, '');
    },
  },
  {
    name: 'error-status-mismatch',
    kind: 'fault',
    breaks: 'ERROR-STATUS-FIELD',
    description: 'Error.status is always 400, whatever the HTTP status.',
    apply(s) {
      const renderError = s.renderError;
      s.renderError = (_status, code, message) => renderError(400, code, message);
    },
    probe: async (t) => assert.equal(field(await t.get('/pets', {}), 'status'), 400n),
  },
  {
    name: 'create-long-name-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      'A name longer than 1,000 characters overflows a database column, and the error surfaces as a 500.',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length > 1000
          ? refuse(s.errorReply(500, 'internal_error', 'value too long for column "name"'))
          : newPet,
      );
    },
    probe: async (t) => {
      assertError(await t.create({ name: 'n'.repeat(1001), categoryId: 1 }), 500);
      assert.equal(await statusOf(t.create({ name: 'n'.repeat(1000), categoryId: 1 })), 201);
    },
  },
  {
    name: 'create-name-over-255-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      "A name longer than 255 characters overflows a VARCHAR(255) column in strict SQL mode, and the error surfaces as a 500 (a 400 would be the target's right: names have no documented size limit).",
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length > 255
          ? refuse(s.errorReply(500, 'internal_error', "Data too long for column 'name' at row 1"))
          : newPet,
      );
    },
    probe: async (t) => {
      assertError(await t.create({ name: 'n'.repeat(256), categoryId: 1 }), 500);
      assert.equal(await statusOf(t.create({ name: 'n'.repeat(255), categoryId: 1 })), 201);
    },
  },
  {
    name: 'server-error-1-in-40',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      'One request in 40 is answered 500, whatever it asked (a database connection dropped now and then): the same request sent again is answered as it should be.',
    apply(s) {
      let replies = 0;
      everyReply(s, (reply) =>
        ++replies % 40 === 0
          ? s.errorReply(500, 'internal_error', 'server closed the connection unexpectedly')
          : reply,
      );
    },
    probe: async (t) => {
      for (let i = 1; i < 40; i++) assert.equal(await statusOf(t.get('/pets')), 200);
      assertError(await t.get('/pets'), 500);
      assert.equal(await statusOf(t.get('/pets')), 200);
    },
  },
  {
    name: 'cold-start-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      "The first request after a start is answered 500 (the database's connection pool is not up yet), every later one as it should be: the preflight's own request meets it.",
    apply(s) {
      let started = false;
      everyReply(s, (reply) => {
        if (started) return reply;
        started = true;
        return s.errorReply(500, 'internal_error', 'connection pool not ready');
      });
    },
    probe: async (t) => {
      assertError(await t.get('/pets'), 500);
      assert.equal(await statusOf(t.get('/pets')), 200);
      assert.equal(await statusOf(t.get('/pets')), 200);
    },
  },
  {
    name: 'lone-low-surrogate-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      'A name holding a lone low surrogate (\\udc00) is stored, but the encoder, which takes a lone high one, fails on it: the create answers 500, and so does every list (and getPet) that holds the pet.',
    apply(s) {
      for (const operation of ['createPet', 'listPets', 'getPet'] as const) {
        afterOperation(s, operation, (reply) =>
          reply.status < 300 && holdsLoneLowSurrogate(reply.json)
            ? s.errorReply(500, 'internal_error', 'UnicodeEncodeError: surrogates not allowed')
            : reply,
        );
      }
    },
    probe: async (t) => {
      const low = await t.post('{"name":"a\\udc00","categoryId":1}');
      assertError(low, 500);
      assertError(await t.get('/pets'), 500);
      assertError(await t.get('/pets/1'), 500);
      assert.equal(
        field(await t.post('{"name":"b\\ud800","categoryId":1,"status":"sold"}'), 'name'),
        'b\ud800',
      );
      assert.equal((await t.get('/pets?status=sold')).status, 200);
    },
  },
  {
    name: 'list-query-array-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      "Express's query parser (qs): limit or status named twice, or written limit[]=5 or status[a]=sold, arrives as an array or an object, and the handler's status.trim() throws a TypeError: 500 (after the key is checked). A parameter given once is read as the clean reference reads it.",
    apply(s) {
      beforeListing(s, (req) => {
        const names = req.query
          .split('&')
          .map((pair) => decodeURIComponent(pair.split('=')[0]!))
          .filter((name) => /^(limit|status)(\[|$)/.test(name));
        const structured = names.some(
          (name, index) => name.includes('[') || names.indexOf(name) !== index,
        );
        if (structured) throw new TypeError('status.trim is not a function');
        return undefined;
      });
    },
    probeSeedPets: 3,
    probe: async (t) => {
      for (const query of [
        'status=sold&status=sold',
        'limit[]=5',
        'status[a]=sold',
        'limit=1&limit=2',
      ])
        assert.equal(await statusOf(t.get(`/pets?${query}`)), 500);
      assertError(await t.get('/pets?status[]=sold', {}), 401);
      assert.equal(count(await t.get('/pets?limit=2&status=available')), 1);
      assert.equal(count(await t.get('/pets?limits=2')), 3);
    },
  },
  {
    name: 'list-status-brackets-500',
    kind: 'fault',
    breaks: 'NO-5XX',
    description:
      "A status given in PHP's array form (status[]=sold, status[a]=sold) reaches a string function as an array: a TypeError, 500.",
    apply(s) {
      const listPets = s.listPets;
      s.listPets = async (req) => {
        const keys = [...new URLSearchParams(req.query).keys()];
        if (!s.guard(req, 'listPets') && keys.some((key) => /^status\[/.test(key)))
          throw new TypeError(
            'strtolower(): Argument #1 ($string) must be of type string, array given',
          );
        return listPets(req);
      };
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.get('/pets?status[]=sold')), 500);
      assert.equal(await statusOf(t.get('/pets?status=sold&status=sold')), 400);
      assert.equal(await statusOf(t.get('/pets?status=sold')), 200);
    },
  },
];
