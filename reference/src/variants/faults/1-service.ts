// Section 1, What the service does: faults in the media type (MEDIA-JSON) and the base path
// (BASE-V1).
import assert from 'node:assert/strict';
import { isJsonObject, serializeJson } from '../../json.ts';
import type { Reply } from '../../service.ts';
import { afterOperation, everyReply } from '../helpers.ts';
import { AUTH, JSON_TYPE, assertError, call, count, exact, valid } from '../probe.ts';
import type { Variant } from '../types.ts';

/**
 * A reply whose JSON body goes out as text, `before` and `after` it, still as application/json:
 * the JSON garbled on its way out (other replies unchanged).
 */
function garbled(reply: Reply, before: string, after = ''): Reply {
  if (reply.json === undefined || reply.text !== undefined) return reply;
  return {
    ...reply,
    headers: { ...reply.headers, 'content-type': 'application/json' },
    text: `${before}${serializeJson(reply.json)}${after}`,
  };
}

const NOT_FOUND_PAGE =
  '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>' +
  '<body><h1>Not Found</h1><p>The requested resource was not found.</p></body></html>\n';
const BAD_REQUEST_PAGE =
  '<!DOCTYPE html>\n<html><head><title>400 Bad Request</title></head>' +
  '<body><h1>Bad Request</h1><p>Your browser sent a request that this server could not understand.</p></body></html>\n';

/** What PHP prints, with html_errors on, for a warning raised after the headers went out. */
const PHP_WARNING =
  '<br />\n<b>Warning</b>:  Undefined array key "status" in <b>/var/www/html/api/pets.php</b> ' +
  'on line <b>42</b><br />\n';

/** A proxy's own page (a cached sign-in page), served in place of some answers. */
const PROXY_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Sign in</h1>' +
  '<p>Your session has expired. Please sign in again.</p><form action="/login"></form></body></html>\n';
/** One answer in this many with status 200 is the proxy's page, the first one included. */
const PROXY_EVERY = 6;

/** A header's value as received (names are case-insensitive), or '' when absent. */
function headerOf(rawHeaders: readonly string[], name: string): string {
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]!.toLowerCase() === name) return rawHeaders[index + 1] ?? '';
  }
  return '';
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** A JSON value as Jackson's XmlMapper writes it: a list's items as <item>, a field as its tag. */
function asXml(value: unknown, tag: string): string {
  if (Array.isArray(value))
    return `<${tag}>${value.map((item) => asXml(item, 'item')).join('')}</${tag}>`;
  if (isJsonObject(value)) {
    const fields = Object.entries(value).map(([key, field]) => asXml(field, key));
    return `<${tag}>${fields.join('')}</${tag}>`;
  }
  return `<${tag}>${String(value).replace(/[&<>]/g, (char) => XML_ESCAPES[char]!)}</${tag}>`;
}

/** A GET's body as bytes: fetch's text() would drop a byte order mark. */
async function rawBody(url: string, init: RequestInit = { headers: AUTH }) {
  const response = await fetch(url, init);
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

export const serviceFaults: Variant[] = [
  {
    name: 'content-length-characters',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      "Every JSON answer's Content-Length counts the characters of its text (JavaScript's string length, Python's len() of a str), not its bytes: an answer holding a non-ASCII name runs past its declared length, whatever the operation.",
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : {
              ...reply,
              headers: {
                ...reply.headers,
                'content-length': String(serializeJson(reply.json).length),
              },
            },
      );
    },
    probe: async (t) => {
      // A reader that trusts the length (fetch) gets the text cut one byte short: é is two.
      const created = await t.create({ name: 'caf\u00e9', categoryId: 1 });
      assert.equal(Number(created.headers.get('content-length')), Buffer.byteLength(created.text));
      assert.throws(() => JSON.parse(created.text));
      assert.equal(
        exact((await t.create({ name: 'cafe', categoryId: 1 })).text) !== undefined,
        true,
      );
    },
  },
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
    name: 'answers-latin-1',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      'Every JSON body is written as Latin-1 (Node’s res.end(text, "binary"), a servlet container’s default ISO-8859-1), still as application/json: each character’s low byte, so é is the byte E9 and a character beyond Latin-1 is mangled.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : {
              ...reply,
              headers: { ...reply.headers, 'content-type': 'application/json' },
              bytes: Buffer.from(serializeJson(reply.json), 'latin1'),
            },
      );
    },
    probe: async (t) => {
      const created = await rawBody(`${t.handle.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...AUTH, ...JSON_TYPE },
        body: '{"name":"Café","categoryId":1}',
      });
      assert.equal(created.status, 201);
      assert.ok(created.bytes.includes(Buffer.from('Caf\u00e9', 'latin1')));
    },
  },
  {
    name: 'json-bom',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      'Every JSON body starts with a UTF-8 byte order mark (EF BB BF), as a PHP file saved with one sends it; Content-Type stays application/json.',
    apply(s) {
      everyReply(s, (reply) => garbled(reply, '\uFEFF'));
    },
    probeSeedPets: 2,
    probe: async (t) => {
      const base = t.handle.baseUrl;
      const answers = [
        await rawBody(`${base}/pets`),
        await rawBody(`${base}/pets`, { headers: {} }),
        await rawBody(`${base}/pets`, {
          method: 'POST',
          headers: { ...AUTH, ...JSON_TYPE },
          body: valid,
        }),
      ];
      assert.deepEqual(
        answers.map(({ status }) => status),
        [200, 401, 201],
      );
      for (const { bytes } of answers) {
        assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
        assert.throws(() => JSON.parse(bytes.toString('utf8')));
        exact(bytes.subarray(3).toString('utf8')); // the rest is the clean JSON
      }
      assert.equal((exact(answers[0]!.bytes.subarray(3).toString('utf8')) as unknown[]).length, 2);
      assert.equal((await t.get('/pets')).headers.get('content-type'), 'application/json');
    },
  },
  {
    name: 'php-warning-before-json',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      "Every createPet answer (201, 400, 401) has a PHP warning printed before its JSON (html_errors: `<br />\\n<b>Warning</b>: …`); Content-Type stays application/json, and the other operations' answers are clean.",
    apply(s) {
      afterOperation(s, 'createPet', (reply) => garbled(reply, PHP_WARNING));
    },
    probe: async (t) => {
      for (const [answer, status] of [
        [await t.post(valid), 201],
        [await t.post('{"name":"a"}'), 400],
        [await t.post(valid, JSON_TYPE), 401],
      ] as const) {
        assert.equal(answer.status, status);
        assert.equal(answer.headers.get('content-type'), 'application/json');
        assert.ok(answer.text.startsWith(PHP_WARNING), answer.text);
        assert.equal(answer.body, undefined); // not JSON
        exact(answer.text.slice(PHP_WARNING.length)); // the rest is the clean JSON
      }
      assertError(await t.get('/pets/999'), 404);
    },
  },
  {
    name: 'proxy-html-some-answers',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description: `A proxy serves its own HTML page (a cached sign-in page, 200, text/html) in place of one answer in ${PROXY_EVERY} with status 200, the very first included; every other answer is the service's.`,
    apply(s) {
      let answers200 = 0;
      everyReply(s, (reply) =>
        reply.status === 200 && answers200++ % PROXY_EVERY === 0
          ? {
              status: 200,
              headers: { 'content-type': 'text/html; charset=utf-8' },
              text: PROXY_PAGE,
            }
          : reply,
      );
    },
    probeSeedPets: 2,
    probe: async (t) => {
      const first = await t.get('/pets');
      assert.equal(first.status, 200);
      assert.match(first.headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(first.text, PROXY_PAGE);
      // The next answers with status 200 are the service's, up to the next page.
      for (let index = 1; index < PROXY_EVERY; index++) {
        const answer = await t.get(index % 2 ? '/pets' : '/pets/1');
        assert.equal(answer.status, 200);
        assert.equal(answer.headers.get('content-type'), 'application/json');
      }
      assert.equal((await t.get('/pets')).text, PROXY_PAGE);
      // Other statuses are never replaced.
      assertError(await t.get('/pets', {}), 401);
      assertError(await t.get('/pets/999'), 404);
      assert.equal((await t.post(valid)).status, 201);
    },
  },
  {
    name: 'accept-xml-negotiated',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      'Content negotiation as Spring does it with jackson-dataformat-xml on its classpath: a request whose Accept header names application/xml gets its answer (every status) as XML, application/xml; every other request gets JSON.',
    apply(s) {
      const handle = s.handle;
      s.handle = async (req) => {
        const reply = await handle(req);
        const wantsXml = /application\/xml/i.test(headerOf(req.rawHeaders, 'accept'));
        if (!wantsXml || reply.json === undefined || reply.text !== undefined) return reply;
        const root = Array.isArray(reply.json) ? 'List' : reply.status < 300 ? 'Pet' : 'Error';
        return {
          ...reply,
          headers: { ...reply.headers, 'content-type': 'application/xml' },
          text: `<?xml version="1.0" encoding="UTF-8"?>${asXml(reply.json, root)}`,
        };
      };
    },
    probeSeedPets: 1,
    probe: async (t) => {
      const xml = { ...AUTH, accept: 'application/xml' };
      const listed = await t.get('/pets', xml);
      assert.equal(listed.status, 200);
      assert.equal(listed.headers.get('content-type'), 'application/xml');
      assert.match(listed.text, /^<\?xml .*<List><item><id>1<\/id>/);
      const refused = await t.get('/pets', { accept: 'application/xml' });
      assert.equal(refused.status, 401);
      assert.match(refused.text, /<Error><code>/);
      assert.equal(
        (await t.get('/pets', { ...AUTH, accept: 'text/html' })).headers.get('content-type'),
        'application/json',
      );
      assert.equal(count(await t.get('/pets')), 1);
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
  {
    name: 'error-html-404',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      '404 answers are an HTML page (text/html) instead of an Error: no JSON at all, which breaks the media type (whose shape it should have had cannot be judged).',
    apply(s) {
      everyReply(s, (reply) =>
        reply.status === 404
          ? {
              status: 404,
              headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
              text: NOT_FOUND_PAGE,
            }
          : reply,
      );
    },
    probe: async (t) =>
      assert.match((await t.get('/nowhere')).headers.get('content-type') ?? '', /^text\/html/),
  },
  {
    name: 'error-html-400',
    kind: 'fault',
    breaks: 'MEDIA-JSON',
    description:
      "A create body that is not JSON (the invalid_json 400s) is answered by the framework's HTML 400 page (text/html); every other answer is unchanged.",
    apply(s) {
      afterOperation(s, 'createPet', (reply) =>
        reply.status === 400 && isJsonObject(reply.json) && reply.json.code === 'invalid_json'
          ? {
              status: 400,
              headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' },
              text: BAD_REQUEST_PAGE,
            }
          : reply,
      );
    },
    probe: async (t) => {
      for (const body of ['{', '', '{"name":"a",}']) {
        const refused = await t.post(body);
        assert.equal(refused.status, 400);
        assert.equal(refused.headers.get('content-type'), 'text/html; charset=utf-8');
        assert.match(refused.text, /^<!DOCTYPE html>/);
      }
      assertError(await t.post('{}'), 400);
      assertError(await t.post('[]'), 400);
      assertError(await t.get('/pets', {}), 401);
      assert.equal((await t.post(valid)).status, 201);
    },
  },
];
