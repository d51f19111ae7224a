// Section 5, Authentication: faults in the Bearer check, the 401 answer and the order of checks.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { JSON_TYPE, KEY, assertError, statusOf, valid } from '../probe.ts';
import { decodeUtf8 } from '../../json.ts';
import type { ServiceRequest } from '../../service.ts';
import { bodyReadFirst } from '../helpers.ts';
import type { Variant } from '../types.ts';

/**
 * Perl's \\s under Unicode rules, at either end of a string: what a Perl service trims a token by
 * (JavaScript's \\s lacks U+0085 and has U+FEFF, which Perl's has not).
 */
const PERL_SPACE =
  /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/gu;

/**
 * Java's Character.isWhitespace at either end of a string, what String.strip() removes: Unicode's
 * spaces but the no-break ones (U+00A0, U+2007, U+202F), line and paragraph separators, controls.
 */
const JAVA_SPACE =
  // eslint-disable-next-line no-control-regex
  /^[\t\n\v\f\r\u001c-\u0020\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]+|[\t\n\v\f\r\u001c-\u0020\u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]+$/gu;

/** The token of a Bearer Authorization value, any scheme case; undefined for other schemes. */
const bearerToken = (authorization: string | undefined): string | undefined =>
  /^bearer +(.*)$/is.exec(authorization ?? '')?.[1];

/**
 * The Authorization fields of a request whose name is spelled exactly `name`, joined as http.ts
 * joins them; undefined when there is none: what a lookup by the name as sent finds.
 */
function authorizationSpelled(req: ServiceRequest, name: string): string | undefined {
  const values = req.rawHeaders.filter(
    (_, index) => index % 2 === 1 && req.rawHeaders[index - 1] === name,
  );
  return values.length > 0 ? values.join(', ') : undefined;
}

/** The values of the request's fields named `name`, in any case (`name` in lower case). */
function fieldValues(req: ServiceRequest, name: string): string[] {
  return req.rawHeaders.filter(
    (_, index) => index % 2 === 1 && req.rawHeaders[index - 1]!.toLowerCase() === name,
  );
}

/** A cookie the request carries, by its name; undefined when it carries none of that name. */
function cookieOf(req: ServiceRequest, name: string): string | undefined {
  for (const pair of fieldValues(req, 'cookie').join('; ').split(/; */)) {
    const [key, ...value] = pair.split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The same request, as seen by a lookup of the Authorization field under one spelling only. */
const readingOnly = (req: ServiceRequest, name: string): ServiceRequest => ({
  ...req,
  authorization: authorizationSpelled(req, name),
});

export const authFaults: Variant[] = [
  {
    name: 'header-name-case-sensitive',
    kind: 'fault',
    breaks: 'AUTH-BEARER',
    description:
      "The Authorization header is looked up by its name exactly as spelled `Authorization` (as PHP's getallheaders() keeps it): the key sent under `authorization` (every HTTP/2 client, many proxies) counts as missing.",
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) => guard(readingOnly(req, 'Authorization'), operation);
    },
    probe: async (t) => {
      const key = `Bearer ${KEY}`;
      assert.equal(await statusOf(t.getAsWritten('/pets', { Authorization: key })), 200);
      assertError(await t.getAsWritten('/pets', { authorization: key }), 401);
      assertError(await t.getAsWritten('/pets', { AUTHORIZATION: key }), 401);
    },
  },
  {
    name: 'header-name-lower-case-only',
    kind: 'fault',
    breaks: 'AUTH-BEARER',
    description:
      'The Authorization header is looked up only under the lower-case name `authorization` (code written behind an HTTP/2 gateway, or for a proxy that lower-cases names, reading the fields as sent): the key sent as the document spells it, `Authorization`, counts as missing.',
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) => guard(readingOnly(req, 'authorization'), operation);
    },
    probe: async (t) => {
      const key = `Bearer ${KEY}`;
      assert.equal(await statusOf(t.getAsWritten('/pets', { authorization: key })), 200);
      assertError(await t.getAsWritten('/pets', { Authorization: key }), 401);
    },
  },
  {
    name: 'header-name-two-spellings',
    kind: 'fault',
    breaks: 'AUTH-BEARER',
    description:
      "The Authorization header is looked up as `Authorization`, then as `authorization`, each spelled exactly (PHP's getallheaders() keeps names as sent): the key under any other spelling (`AUTHORIZATION`, `authorIZATION`) counts as missing.",
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) => {
        const found =
          authorizationSpelled(req, 'Authorization') ?? authorizationSpelled(req, 'authorization');
        return guard({ ...req, authorization: found }, operation);
      };
    },
    probe: async (t) => {
      const key = `Bearer ${KEY}`;
      assert.equal(await statusOf(t.getAsWritten('/pets', { Authorization: key })), 200);
      assert.equal(await statusOf(t.getAsWritten('/pets', { authorization: key })), 200);
      assertError(await t.getAsWritten('/pets', { AUTHORIZATION: key }), 401);
      assertError(await t.getAsWritten('/pets', { authorIZATION: key }), 401);
    },
  },
  {
    name: 'auth-skipped-createPet',
    kind: 'fault',
    breaks: 'AUTH-401-MISSING',
    description: 'createPet performs no authentication check at all.',
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) => (operation === 'createPet' ? undefined : guard(req, operation));
    },
    probe: async (t) => assert.equal(await statusOf(t.post(valid, JSON_TYPE)), 201),
  },
  {
    name: 'auth-key-in-x-api-key',
    kind: 'fault',
    breaks: 'AUTH-401-MISSING',
    description:
      'A second API-key scheme beside Bearer, as frameworks offer one: the key in an X-API-Key header is accepted with no Authorization header at all.',
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) =>
        fieldValues(req, 'x-api-key').includes(s.config.apiKey) ? undefined : guard(req, operation);
    },
    probe: async (t) => assert.equal(await statusOf(t.get('/pets', { 'x-api-key': KEY })), 200),
  },
  {
    name: 'auth-session-cookie',
    kind: 'fault',
    breaks: 'AUTH-401-MISSING',
    description:
      'A login session beside the key, as session-auth frameworks keep one: every answer to a request with the key sets a session cookie (Set-Cookie: sid=…; HttpOnly; Path=/), and a request carrying that cookie is taken as authenticated, with no key or a wrong one.',
    apply(s) {
      const sessions = new Set<string>();
      const guard = s.guard;
      s.guard = (req, operation) =>
        sessions.has(cookieOf(req, 'sid') ?? '') ? undefined : guard(req, operation);
      const handle = s.handle;
      s.handle = async (req) => {
        const reply = await handle(req);
        if (s.authenticate(req.authorization) !== 'ok') return reply;
        const sid = randomBytes(12).toString('hex');
        sessions.add(sid);
        return {
          ...reply,
          headers: { ...reply.headers, 'set-cookie': `sid=${sid}; HttpOnly; Path=/` },
        };
      };
    },
    probe: async (t) => {
      const keyed = await t.get('/pets');
      const cookie = (keyed.headers.get('set-cookie') ?? '').split(';')[0]!;
      assert.match(cookie, /^sid=[0-9a-f]{24}$/);
      assert.equal(await statusOf(t.get('/pets', { cookie })), 200);
      assert.equal(await statusOf(t.get('/pets', { cookie, authorization: 'Bearer x' })), 200);
      assertError(await t.get('/pets', {}), 401);
      assertError(await t.get('/pets', { cookie: 'sid=0123456789abcdef01234567' }), 401);
    },
  },
  {
    name: 'auth-any-token',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description: 'Any non-empty Bearer token is accepted.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        bearerToken(authorization) ? 'ok' : authenticate(authorization);
    },
    probe: async (t) =>
      assert.equal(await statusOf(t.get('/pets', { authorization: 'Bearer x' })), 200),
  },
  {
    name: 'auth-403-invalid',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description: 'A wrong key is answered 403 with an Error body (status 403) instead of 401.',
    apply(s) {
      const unauthorized = s.unauthorized;
      s.unauthorized = (outcome) =>
        outcome === 'invalid'
          ? s.errorReply(403, 'forbidden', 'The API key is not valid')
          : unauthorized(outcome);
    },
    probe: async (t) => assertError(await t.get('/pets', { authorization: 'Bearer x' }), 403),
  },
  {
    name: 'auth-prefix-match',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description: 'A token that starts with the key is accepted (the key with characters appended).',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        bearerToken(authorization)?.startsWith(s.config.apiKey)
          ? 'ok'
          : authenticate(authorization);
    },
    probe: async (t) =>
      assert.equal(await statusOf(t.get('/pets', { authorization: `Bearer ${KEY}x` })), 200),
  },
  {
    name: 'auth-token-second-word',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      "After the scheme Bearer, the token is the header's second word (authorization.split(' ')[1]): the key followed by a space and anything else is accepted.",
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        authorization?.startsWith('Bearer ') && authorization.split(' ')[1] === s.config.apiKey
          ? 'ok'
          : authenticate(authorization);
    },
    probe: async (t) =>
      assert.equal(await statusOf(t.get('/pets', { authorization: `Bearer ${KEY} x` })), 200),
  },
  {
    name: 'auth-key-object-lookup',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      'The token is looked up in a plain object of keys, if (keys[token]): "constructor", "toString" or "__proto__" find what every object inherits, and pass.',
    apply(s) {
      const keys: Record<string, boolean> = { [s.config.apiKey]: true };
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const token = bearerToken(authorization);
        return token !== undefined && keys[token] ? 'ok' : authenticate(authorization);
      };
    },
    probe: async (t) => {
      for (const token of ['constructor', '__proto__'])
        assert.equal(await statusOf(t.get('/pets', { authorization: `Bearer ${token}` })), 200);
      assertError(await t.get('/pets', { authorization: 'Bearer other' }), 401);
    },
  },
  {
    name: 'auth-key-case-insensitive',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      'The token is compared with the key case-insensitively (as a case-insensitive database collation would): the key in upper or lower case is accepted.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        bearerToken(authorization)?.toLowerCase() === s.config.apiKey.toLowerCase()
          ? 'ok'
          : authenticate(authorization);
    },
    probe: async (t) => {
      for (const key of [KEY.toUpperCase(), 'SelfTest-Key', KEY])
        assert.equal(await statusOf(t.get('/pets', { authorization: `Bearer ${key}` })), 200, key);
      assertError(await t.get('/pets', { authorization: `Bearer ${KEY}x` }), 401);
    },
  },
  {
    name: 'auth-key-prefix-accepted',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      'A non-empty token that the key starts with is accepted (the comparison runs over what was sent only): the key with its last characters cut off is accepted.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const token = bearerToken(authorization);
        return token && s.config.apiKey.startsWith(token) ? 'ok' : authenticate(authorization);
      };
    },
    probe: async (t) => {
      for (const key of [KEY.slice(0, -1), KEY.slice(0, 3), KEY])
        assert.equal(await statusOf(t.get('/pets', { authorization: `Bearer ${key}` })), 200, key);
      assertError(await t.get('/pets', { authorization: 'Bearer ' }), 401);
      assertError(await t.get('/pets', { authorization: `Bearer ${KEY}x` }), 401);
    },
  },
  {
    name: 'auth-scheme-ignored',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      'The key is accepted under any scheme or none ("Basic <key>", "<key>"): only the last word is compared.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        authorization?.split(' ').pop() === s.config.apiKey ? 'ok' : authenticate(authorization);
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.get('/pets', { authorization: `Basic ${KEY}` })), 200);
      assert.equal(await statusOf(t.get('/pets', { authorization: KEY })), 200);
    },
  },
  {
    name: 'auth-validation-first',
    kind: 'fault',
    breaks: 'AUTH-BEFORE-VALIDATION',
    description: 'createPet reads and validates the body before checking the credentials.',
    apply(s) {
      s.createPet = async (req) => {
        const newPet = await s.acceptNewPet(req);
        if (!newPet.ok) return newPet.reply;
        return s.guard(req, 'createPet') ?? s.addPet(newPet.value);
      };
    },
    probe: async (t) => assertError(await t.post('{}', JSON_TYPE), 400),
  },
  {
    name: 'auth-existence-first',
    kind: 'fault',
    breaks: 'AUTH-BEFORE-EXISTENCE',
    description: 'getPet looks the pet up (404) before checking the credentials.',
    apply(s) {
      const getPet = s.getPet;
      s.getPet = async (req, rawPetId) => {
        const id = s.parsePetId(rawPetId);
        if (id.ok && s.findPet(id.value) === undefined) {
          return s.errorReply(404, 'not_found', `No pet with id ${id.value}`);
        }
        return getPet(req, rawPetId);
      };
    },
    probe: async (t) => assertError(await t.get('/pets/9', {}), 404),
  },
  {
    name: 'auth-token-utf8-strip',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      "The header is read again as UTF-8 and the token stripped as Java's String.strip() strips: the key followed by an ideographic space (U+3000) or a line separator (U+2028) is accepted; a no-break space is not stripped.",
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const token = bearerToken(authorization);
        const decoded = token === undefined ? '' : Buffer.from(token, 'latin1').toString('utf8');
        return decoded.replace(JAVA_SPACE, '') === s.config.apiKey
          ? 'ok'
          : authenticate(authorization);
      };
    },
    probe: async (t) => {
      for (const after of ['\u3000', '\u2028'])
        assert.equal(
          await statusOf(
            t.get('/pets', {
              authorization: Buffer.from(`Bearer ${KEY}${after}`, 'utf8').toString('latin1'),
            }),
          ),
          200,
        );
      assertError(await t.get('/pets', { authorization: `Bearer ${KEY}\u00a0` }), 401);
    },
  },
  {
    name: 'auth-token-c-string',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      "The HTTP layer takes control characters in header values (as Java's HttpServer and Python's http.server do), and the token is compared as a C string (strcmp), which ends at NUL: the key followed by NUL and anything is accepted.",
    settings: { lenientParser: true },
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const token = bearerToken(authorization);
        const cString = token?.includes('\u0000') ? token.slice(0, token.indexOf('\u0000')) : token;
        return cString === s.config.apiKey ? 'ok' : authenticate(authorization);
      };
    },
    probe: async (t) => {
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}\u0000x`), 200);
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}\u000bx`), 401);
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}x`), 401);
    },
  },
  {
    name: 'auth-token-ascii-strip',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      "The HTTP layer takes control characters in header values, and the token is stripped as Ruby's strip and PHP's trim() strip (tab, line feed, vertical tab, form feed, carriage return, space, NUL): the key followed by a vertical tab is accepted, though a vertical tab is no HTTP whitespace and the token sent is not the key.",
    settings: { lenientParser: true },
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const stripped = bearerToken(authorization)?.replace(
          /^[\t\n\v\f\r \0]+|[\t\n\v\f\r \0]+$/g,
          '',
        );
        return stripped === s.config.apiKey ? 'ok' : authenticate(authorization);
      };
    },
    probe: async (t) => {
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}\u000b`), 200);
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}\u000bx`), 401);
      assert.equal(await t.rawGet('/pets', `Bearer ${KEY}x`), 401);
    },
  },
  {
    name: 'auth-token-unicode-trim',
    kind: 'fault',
    breaks: 'AUTH-401-INVALID',
    description:
      "The token is trimmed as Perl's \\s trims under Unicode rules, the header read as Latin-1 bytes (Mojolicious): the key followed by a no-break space (one byte, A0) or a next line (85) is accepted, though it is not HTTP whitespace and the token sent is not the key.",
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) => {
        const token = bearerToken(authorization);
        return token !== undefined && token.replace(PERL_SPACE, '') === s.config.apiKey
          ? 'ok'
          : authenticate(authorization);
      };
    },
    probe: async (t) => {
      for (const after of ['\u00a0', '\u0085'])
        assert.equal(
          await statusOf(t.getAsWritten('/pets', { Authorization: `Bearer ${KEY}${after}` })),
          200,
        );
      assertError(await t.getAsWritten('/pets', { Authorization: `Bearer ${KEY}x` }), 401);
    },
  },
  {
    name: 'create-encoding-before-auth',
    kind: 'fault',
    breaks: 'AUTH-BEFORE-VALIDATION',
    description:
      'createPet decodes the body as UTF-8 before it checks the credentials: a body that is not UTF-8 is answered 400 with a key or without one (every other check still comes after authentication).',
    apply(s) {
      const createPet = s.createPet;
      s.createPet = (req) =>
        bodyReadFirst(
          req,
          (bytes) =>
            decodeUtf8(bytes) === undefined
              ? s.errorReply(400, 'invalid_json', 'The request body is not UTF-8')
              : undefined,
          createPet,
        );
    },
    probe: async (t) => {
      const latin1 = Buffer.from('{"name":"Caf\u00e9","categoryId":1}', 'latin1');
      assertError(await t.post(latin1, JSON_TYPE), 400);
      assertError(await t.post('{"name": ', JSON_TYPE), 401);
    },
  },
  {
    name: 'get-petid-dot-unrouted',
    kind: 'fault',
    breaks: 'AUTH-BEFORE-VALIDATION',
    description:
      "The petId placeholder stops at a dot, as Mojolicious' format detection does: /pets/1.5 matches no route, and no route means no authentication, so it is answered 404 with a key or without one.",
    apply(s) {
      const dispatch = s.dispatch;
      s.dispatch = async (req) =>
        /^\/pets\/[^/]*\./.test(req.path ?? '')
          ? s.errorReply(404, 'not_found', 'No resource at this path')
          : dispatch(req);
    },
    probeSeedPets: 1,
    probe: async (t) => {
      assertError(await t.get('/pets/1.5', {}), 404);
      assertError(await t.get('/pets/1.5'), 404);
      assertError(await t.get('/pets/1', {}), 401);
      assertError(await t.get('/pets/abc', {}), 401);
    },
  },
  {
    name: 'auth-skipped-getPet',
    kind: 'fault',
    breaks: 'AUTH-401-MISSING',
    description:
      'getPet is served without a key (a read taken for public), whatever Authorization header comes: none, a wrong key, another scheme.',
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) => (operation === 'getPet' ? undefined : guard(req, operation));
    },
    probeSeedPets: 1,
    probe: async (t) => assert.equal(await statusOf(t.get('/pets/1', {})), 200),
  },
  {
    name: 'auth-missing-header-500',
    kind: 'fault',
    breaks: 'AUTH-401-MISSING',
    description:
      'A request without an Authorization header ends in an exception (the header split on a space, undefined.split): 500, before anything else; a wrong key is refused with 401 as it should be.',
    apply(s) {
      const guard = s.guard;
      s.guard = (req, operation) =>
        req.authorization === undefined
          ? s.errorReply(
              500,
              'internal_error',
              "Cannot read properties of undefined (reading 'split')",
            )
          : guard(req, operation);
    },
    probe: async (t) => {
      assertError(await t.get('/pets', {}), 500);
      assertError(await t.get('/pets', { authorization: 'Bearer x' }), 401);
    },
  },
];
