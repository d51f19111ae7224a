// Section 4.2, Add an animal (createPet): faults in the 201 answer, persistence and the 400
// validation of the body.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseInt64 } from '../../int64.ts';
import { JsonNumber, isJsonObject, parseJson } from '../../json.ts';
import { ok, refuse, type Reply, type Service } from '../../service.ts';
import { isPetStatus, type Pet, type PetStatus } from '../../store.ts';
import {
  afterOperation,
  bodyReadWith,
  afterValidation,
  beforeValidation,
  categoryIdLiteral,
  decodedBy,
  editBody,
  renderedAs,
  without,
} from '../helpers.ts';
import {
  firstValue,
  json5AsJson,
  rawControlsEscaped,
  lenientNumbers,
  utf16AfterMark,
  utf8WithSurrogates,
  withReplacementCharacters,
} from '../lenient-json.ts';
import {
  AUTH,
  INT64_MAX,
  INT64_MIN,
  JSON_TYPE,
  assertError,
  count,
  each,
  field,
  statusOf,
  valid,
} from '../probe.ts';
import type { Variant } from '../types.ts';

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** A run of whitespace with something other than whitespace on both sides. */
const INNER_WHITESPACE = /(?<=\S)\s+(?=\S)/g;

/** The NewPet fields, which Go's encoding/json fills from keys that differ only in case. */
const NEWPET_FIELDS = ['name', 'categoryId', 'status'];

/** How many pets the capped cache keeps (store-capped-newest-60). */
const CACHE_CAP = 60;
/** The round trip between reading the store file and writing it back (create-overlapping-writes-lost). */
const WRITE_WINDOW_MS = 5;

/** The nesting a recursive JSON reader survives (create-json-depth-500): Python's recursion limit. */
const RECURSION_LIMIT = 1000;

/** How deep a JSON text nests arrays and objects (brackets inside strings not counted). */
function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

/** Lists and getPet served from `pets()`, the variant's own table, oldest first. */
function servedFrom(s: Service, pets: () => readonly Pet[]): void {
  s.findPet = (id) => pets().find((pet) => pet.id === id);
  s.selectPets = ({ limit, status }) =>
    (status === undefined ? pets() : pets().filter((pet) => pet.status === status)).slice(0, limit);
}

/**
 * A status string that `passes` is taken and stored as sent, whether a PetStatus or not (the
 * other fields still checked): a status check of the fault's own.
 */
function storedStatusIf(s: Service, passes: (status: string) => boolean): void {
  const validate = s.validateNewPet;
  s.validateNewPet = (body) => {
    if (!isJsonObject(body) || typeof body.status !== 'string' || !passes(body.status)) {
      return validate(body);
    }
    const status = body.status;
    const checked = validate({ ...body, status: 'available' });
    return checked.ok ? ok({ ...checked.value, status: status as PetStatus }) : checked;
  };
}

/** A 201 reply whose body went through edit (other replies unchanged). */
const editCreated =
  (edit: (body: Record<string, unknown>) => unknown) =>
  (reply: Reply): Reply =>
    reply.status === 201 ? editBody(reply, edit) : reply;

export const createPetFaults: Variant[] = [
  {
    name: 'create-200',
    kind: 'fault',
    breaks: 'CREATE-201-PET',
    description: 'A created pet is answered 200 instead of 201.',
    apply(s) {
      afterOperation(s, 'createPet', (reply) =>
        reply.status === 201 ? { ...reply, status: 200 } : reply,
      );
    },
    probe: async (t) => assert.equal(await statusOf(t.post(valid)), 200),
  },
  {
    name: 'create-echo-drops-status',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'The 201 body omits status (the stored pet keeps it).',
    apply(s) {
      afterOperation(
        s,
        'createPet',
        editCreated((body) => without(body, 'status')),
      );
    },
    probe: async (t) => {
      assert.equal(
        field(await t.create({ name: 'a', categoryId: 1, status: 'sold' }), 'status'),
        undefined,
      );
      assert.equal(field(await t.get('/pets/1'), 'status'), 'sold');
    },
  },
  {
    name: 'zero-values-omitted',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      "Pets rendered by protobuf's JSON mapping, which leaves out every field at its zero value: the status available (the enum's first value), a categoryId of 0 and an empty name are missing from the 201 answer, getPet and every list.",
    apply(s) {
      renderedAs(
        s,
        (pet) => pet.status === 'available' || pet.categoryId === 0n || pet.name === '',
        (rendered) =>
          Object.fromEntries(
            Object.entries(rendered).filter(
              ([key, value]) =>
                !(key === 'status' && value === 'available') &&
                !(key === 'categoryId' && value === 0n) &&
                value !== '',
            ),
          ),
      );
    },
    probe: async (t) => {
      const created = await t.create({ name: 'a', categoryId: 1, status: 'available' });
      assert.equal(field(created, 'status'), undefined);
      assert.equal(field(created, 'name'), 'a');
      assert.equal(field(await t.create({ name: '', categoryId: 0 }), 'name'), undefined);
      assert.equal(field(await t.get('/pets/2'), 'categoryId'), undefined);
      assert.equal(
        field(await t.create({ name: 'b', categoryId: 1, status: 'sold' }), 'status'),
        'sold',
      );
      assert.deepEqual((await t.get('/pets?status=available')).body, [
        { id: 1n, name: 'a', categoryId: 1n },
      ]);
    },
  },
  {
    name: 'create-empty-name-null',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'An empty name is stored as NULL (as Oracle stores \'\'): the pet comes back with "name": null in the 201 answer, through getPet and in lists.',
    apply(s) {
      renderedAs(
        s,
        (pet) => pet.name === '',
        (rendered) => ({ ...rendered, name: null }),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: '', categoryId: 1 }), 'name'), null);
      assert.equal(field(await t.get('/pets/1'), 'name'), null);
      assert.equal(field(await t.create({ name: 'a', categoryId: 1 }), 'name'), 'a');
      const listed = (await t.get('/pets')).body as Record<string, unknown>[];
      assert.deepEqual(
        listed.map((pet) => pet.name),
        [null, 'a'],
      );
    },
  },
  {
    name: 'stored-empty-name-null',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'An empty name is stored as NULL, but the 201 answer is built from the request: it shows "", and getPet and every list show "name": null.',
    apply(s) {
      renderedAs(
        s,
        (pet) => pet.name === '',
        (rendered) => ({ ...rendered, name: null }),
      );
      afterOperation(
        s,
        'createPet',
        editCreated((body) => (body.name === null ? { ...body, name: '' } : body)),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: '', categoryId: 1 }), 'name'), '');
      assert.equal(field(await t.get('/pets/1'), 'name'), null);
      assert.equal(((await t.get('/pets')).body as Record<string, unknown>[])[0]!.name, null);
    },
  },
  {
    name: 'stored-name-numeric-affinity',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'Names go in a column of numeric affinity (SQLite: a declared type such as STRING): a name that reads as a number ("007", "1e3") is stored as that number, but the 201 answer is built from the request: getPet and every list show "name": 7.',
    apply(s) {
      const numeric = (name: string) =>
        /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(name.trim());
      renderedAs(
        s,
        (pet) => numeric(pet.name),
        (rendered) => {
          const number = Number(rendered.name);
          return { ...rendered, name: Number.isInteger(number) ? BigInt(number) : number };
        },
      );
      // The 201 answer shows the name as the request had it.
      afterOperation(
        s,
        'createPet',
        editCreated((body) => {
          const stored = typeof body.id === 'bigint' ? s.store.get(body.id) : undefined;
          return stored ? { ...body, name: stored.name } : body;
        }),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: '007', categoryId: 1 }), 'name'), '007');
      assert.equal(String(field(await t.get('/pets/1'), 'name')), '7');
      assert.equal(field(await t.create({ name: 'Rex 7', categoryId: 1 }), 'name'), 'Rex 7');
      assert.equal(field(await t.get('/pets/2'), 'name'), 'Rex 7');
    },
  },
  {
    name: 'create-echo-name-trimmed',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'The 201 body carries the name "normalised for display": trimmed and lower-cased (the stored pet keeps the name as sent).',
    apply(s) {
      afterOperation(
        s,
        'createPet',
        editCreated((body) =>
          typeof body.name === 'string' ? { ...body, name: body.name.trim().toLowerCase() } : body,
        ),
      );
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: ' Rex ', categoryId: 1 }), 'name'), 'rex');
      assert.equal(field(await t.get('/pets/1'), 'name'), ' Rex ');
    },
  },
  {
    name: 'create-not-persisted',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description: '201 with the new pet, but nothing is stored.',
    apply(s) {
      s.savePet = () => {};
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.post(valid)), 201);
      assertError(await t.get('/pets/1'), 404);
    },
  },
  {
    name: 'store-capped-newest-60',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'A cache that keeps only the newest 60 pets: each pet saved beyond that silently evicts the oldest, after its 201 (getPet then answers 404, lists leave it out).',
    apply(s) {
      const pets: Pet[] = [];
      s.savePet = (pet) => {
        pets.push(pet);
        if (pets.length > CACHE_CAP) pets.shift();
      };
      servedFrom(s, () => pets);
    },
    probeSeedPets: 60,
    probe: async (t) => {
      assert.equal(await statusOf(t.post(valid)), 201);
      assertError(await t.get('/pets/1'), 404);
      assert.equal(field(await t.get('/pets/2'), 'id'), 2n);
      assert.deepEqual(each(await t.get('/pets?limit=100'), 'id').length, 60);
    },
  },
  {
    name: 'create-overlapping-writes-lost',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'The store is a file each create reads, appends its pet to, and writes back whole after a 5 ms round trip: of two creates in flight at once, both answered 201, the last writer wins and the other pet is lost.',
    apply(s) {
      let file: readonly Pet[] = [];
      // Seeds and other clients write directly, one at a time.
      s.savePet = (pet) => {
        file = [...file, pet];
      };
      servedFrom(s, () => file);
      s.addPet = async (newPet) => {
        const read = file;
        const pet: Pet = { id: await s.nextId(), ...newPet };
        await sleep(WRITE_WINDOW_MS);
        file = [...read, pet];
        return {
          status: 201,
          headers: { location: `${s.config.basePath}/pets/${pet.id}` },
          json: s.renderPet(pet),
        };
      };
    },
    probe: async (t) => {
      // Twelve creates at once, not two: on a loaded machine two requests can reach the store
      // more than the round trip apart, and then neither overwrites the other.
      const creates = Array.from({ length: 12 }, (_, index) =>
        t.create({ name: `pet-${index}`, categoryId: index + 1 }),
      );
      const answers = await Promise.all(creates);
      assert.deepEqual(
        answers.map((answer) => answer!.status),
        answers.map(() => 201),
      );
      const kept = count(await t.get('/pets?limit=100'));
      assert.ok(kept >= 1 && kept < 12, `${kept} of 12 pets kept`);
      const reads = await Promise.all(answers.map((_, index) => t.get(`/pets/${index + 1}`)));
      assert.equal(reads.filter((read) => read.status === 404).length, 12 - kept);
      assert.equal(await statusOf(t.post(valid)), 201);
      assert.equal(count(await t.get('/pets?limit=100')), kept + 1);
    },
  },
  {
    name: 'list-name-trimmed',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'List answers show each name trimmed of surrounding whitespace (only lists: the 201 answer and getPet are exact).',
    apply(s) {
      const renderPets = s.renderPets;
      s.renderPets = (pets) => renderPets(pets.map((pet) => ({ ...pet, name: pet.name.trim() })));
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: ' Rex\t', categoryId: 1 }), 'name'), ' Rex\t');
      assert.equal(field(await t.get('/pets/1'), 'name'), ' Rex\t');
      assert.deepEqual(each(await t.get('/pets'), 'name'), ['Rex']);
    },
  },
  {
    name: 'create-name-optional',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A missing name is accepted and stored as "".',
    apply(s) {
      beforeValidation(s, (body) => (Object.hasOwn(body, 'name') ? body : { ...body, name: '' }));
    },
    probe: async (t) => assert.equal(field(await t.post('{"categoryId":1}'), 'name'), ''),
  },
  {
    name: 'create-categoryid-optional',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A missing categoryId is accepted and stored as 0.',
    apply(s) {
      beforeValidation(s, (body) =>
        Object.hasOwn(body, 'categoryId') ? body : { ...body, categoryId: new JsonNumber('0') },
      );
    },
    probe: async (t) => assert.equal(field(await t.post('{"name":"a"}'), 'categoryId'), 0n),
  },
  {
    name: 'create-missing-422',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A body missing name or categoryId is answered 422 (Error status 422), not 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) =>
        isJsonObject(body) && !(Object.hasOwn(body, 'name') && Object.hasOwn(body, 'categoryId'))
          ? refuse(s.errorReply(422, 'unprocessable_entity', 'name and categoryId are required'))
          : validate(body);
    },
    probe: async (t) => assertError(await t.post('{"name":"a"}'), 422),
  },
  {
    name: 'create-keys-case-insensitive',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description:
      'Keys are matched as Go\'s encoding/json does: a field takes its exact key, else any key equal to it but for case ("Name", "CATEGORYID"), so a body lacking "name" is added.',
    apply(s) {
      beforeValidation(s, (body) => {
        const filled = { ...body };
        for (const field of NEWPET_FIELDS) {
          if (Object.hasOwn(body, field)) continue;
          const key = Object.keys(body).find((key) => key.toLowerCase() === field.toLowerCase());
          if (key !== undefined) filled[field] = body[key];
        }
        return filled;
      });
    },
    probe: async (t) => {
      assert.equal(field(await t.post('{"Name":"a","categoryId":1}'), 'name'), 'a');
      assert.equal(field(await t.post('{"name":"a","CATEGORYID":2}'), 'categoryId'), 2n);
      assert.equal(field(await t.post('{"name":"a","categoryId":1,"NAME":"b"}'), 'name'), 'a');
      assertError(await t.post('{"categoryId":1}'), 400);
    },
  },
  {
    name: 'create-name-coerced',
    kind: 'fault',
    breaks: 'CREATE-400-NAME-TYPE',
    description: 'A name that is not a string (number, null, object) is accepted through String().',
    apply(s) {
      beforeValidation(s, (body) =>
        Object.hasOwn(body, 'name') && typeof body.name !== 'string'
          ? { ...body, name: String(body.name) }
          : body,
      );
    },
    probe: async (t) => assert.equal(field(await t.post('{"name":5,"categoryId":1}'), 'name'), '5'),
  },
  {
    name: 'create-categoryid-string-coerced',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-TYPE',
    description: 'A categoryId written as a numeric string ("7") is accepted as 7.',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.categoryId === 'string' && /^-?[0-9]{1,30}$/.test(body.categoryId)
          ? { ...body, categoryId: new JsonNumber(String(BigInt(body.categoryId))) }
          : body,
      );
    },
    probe: async (t) =>
      assert.equal(field(await t.post('{"name":"a","categoryId":"7"}'), 'categoryId'), 7n),
  },
  {
    name: 'create-categoryid-fraction-truncated',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-TYPE',
    description:
      "A categoryId with a fraction (7.5) is truncated to an integer (7) and accepted, exactly (Java's BigDecimal.longValue()): an integral 9007199254740993.0 stays exact.",
    apply(s) {
      categoryIdLiteral(s, (literal) => /^(-?[0-9]+)\.[0-9]+$/.exec(literal)?.[1]);
    },
    probe: async (t) => {
      assert.equal(field(await t.post('{"name":"a","categoryId":7.5}'), 'categoryId'), 7n);
      assert.equal(
        field(await t.post('{"name":"a","categoryId":9007199254740993.0}'), 'categoryId'),
        9007199254740993n,
      );
    },
  },
  {
    name: 'create-categoryid-wrapped',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-RANGE',
    description:
      'Integer categoryIds outside int64 are wrapped with BigInt.asIntN(64) (2^63 becomes -2^63).',
    apply(s) {
      categoryIdLiteral(s, (literal) =>
        /^-?[0-9]{19,1000}$/.test(literal)
          ? BigInt.asIntN(64, BigInt(literal)).toString()
          : undefined,
      );
    },
    probe: async (t) =>
      assert.equal(
        field(await t.create({ name: 'a', categoryId: INT64_MAX + 1n }), 'categoryId'),
        INT64_MIN,
      ),
  },
  {
    name: 'create-status-unchecked',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description: 'Any status string is stored as sent; a null status is stored as absent.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        if (!isJsonObject(body) || !Object.hasOwn(body, 'status')) return validate(body);
        const checked = validate(without(body, 'status'));
        if (!checked.ok || typeof body.status !== 'string') return checked;
        return ok({ ...checked.value, status: body.status as PetStatus });
      };
    },
    probe: async (t) => {
      assert.equal(
        field(await t.create({ name: 'a', categoryId: 1, status: 'lost' }), 'status'),
        'lost',
      );
      assert.equal(await statusOf(t.create({ name: 'a', categoryId: 1, status: null })), 201);
    },
  },
  {
    name: 'create-status-case-insensitive',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'status is matched case-insensitively and stored lower-cased ("SOLD" becomes sold).',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.status === 'string' ? { ...body, status: body.status.toLowerCase() } : body,
      );
    },
    probe: async (t) =>
      assert.equal(
        field(await t.create({ name: 'a', categoryId: 1, status: 'SOLD' }), 'status'),
        'sold',
      ),
  },
  {
    name: 'create-media-type-exact',
    kind: 'fault',
    breaks: 'CREATE-201-PET',
    description:
      'The request media type is compared as a string, Content-Type === "application/json": a NewPet sent as application/json; charset=utf-8 is refused with 415.',
    apply(s) {
      const readJsonBody = s.readJsonBody;
      s.readJsonBody = (req) =>
        req.contentType !== undefined && req.contentType !== 'application/json'
          ? Promise.resolve(
              refuse(s.errorReply(415, 'unsupported_media_type', 'Send application/json')),
            )
          : readJsonBody(req);
    },
    probe: async (t) => {
      assertError(
        await t.post(valid, { ...AUTH, 'content-type': 'application/json; charset=utf-8' }),
        415,
      );
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'create-status-object-lookup',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'status is checked as a JavaScript service does with a plain object, status in { available: 1, pending: 1, sold: 1 }: "constructor", "toString" or "__proto__" pass as names every object has, and are stored.',
    apply(s) {
      const known: Record<string, number> = { available: 1, pending: 1, sold: 1 };
      storedStatusIf(s, (status) => status in known);
    },
    probe: async (t) => {
      for (const status of ['constructor', '__proto__'])
        assert.equal(field(await t.create({ name: 'a', categoryId: 1, status }), 'status'), status);
      for (const status of ['', 'adopted'])
        assertError(await t.create({ name: 'a', categoryId: 1, status }), 400);
    },
  },
  {
    name: 'create-status-falsy-skipped',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'status is checked only when truthy, if status and status not in STATUSES (Python; JavaScript\'s if (status && ...)): "" passes as absent, and is stored.',
    apply(s) {
      storedStatusIf(s, (status) => !status || isPetStatus(status));
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: 'a', categoryId: 1, status: '' }), 'status'), '');
      for (const status of ['constructor', 'adopted'])
        assertError(await t.create({ name: 'a', categoryId: 1, status }), 400);
    },
  },
  {
    name: 'create-status-loose-true',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      "status is checked by loose comparison (PHP's in_array without strict, JavaScript's ==): true equals every word, passes, and is stored.",
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        if (!isJsonObject(body) || body.status !== true) return validate(body);
        const checked = validate({ ...body, status: 'available' });
        return checked.ok
          ? ok({ ...checked.value, status: true as unknown as PetStatus })
          : checked;
      };
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.post('{"name":"a","categoryId":1,"status":true}')), 201);
      assertError(await t.post('{"name":"a","categoryId":1,"status":false}'), 400);
      assertError(await t.create({ name: 'a', categoryId: 1, status: 'adopted' }), 400);
    },
  },
  {
    name: 'create-status-array-coerced',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description: 'A status given as a one-element array of a PetStatus (["sold"]) is taken as it.',
    apply(s) {
      beforeValidation(s, (body) =>
        Array.isArray(body.status) && body.status.length === 1 && isPetStatus(body.status[0])
          ? { ...body, status: body.status[0] }
          : body,
      );
    },
    probe: async (t) => {
      const created = await t.post('{"name":"a","categoryId":1,"status":["sold"]}');
      assert.equal(created.status, 201);
      assert.equal(field(created, 'status'), 'sold');
      assertError(await t.post('{"name":"a","categoryId":1,"status":["lost"]}'), 400);
      assertError(await t.post('{"name":"a","categoryId":1,"status":["sold","sold"]}'), 400);
    },
  },
  {
    name: 'create-malformed-500',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description: 'The body is parsed without a try: malformed JSON (or no body) answers 500.',
    apply(s) {
      s.parseBody = (text) => ok(parseJson(text));
    },
    probe: async (t) => {
      const answer = await t.post('{');
      assert.equal(answer.status, 500);
      assert.equal(field(answer, 'code'), 'internal_error');
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'create-non-object-500',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      'A body that is null, an array, a string or a number answers 500 (a property read on a non-object).',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        if (!isJsonObject(body)) {
          const what = body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body;
          throw new TypeError(`Cannot destructure properties of ${what} (reading 'name')`);
        }
        return validate(body);
      };
    },
    probe: async (t) => {
      for (const body of ['null', '[]', '"a"', '1'])
        assert.equal(await statusOf(t.post(body)), 500);
    },
  },
  {
    name: 'create-json-depth-500',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description: `The body is read by a recursive reader that meets its recursion limit past ${RECURSION_LIMIT} levels (Python's json.loads): the error it raises is no parse error, and a body nested deeper answers 500.`,
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => {
        if (nestingDepth(text) > RECURSION_LIMIT) {
          throw new RangeError('maximum recursion depth exceeded while decoding a JSON array');
        }
        return parseBody(text);
      };
    },
    probe: async (t) => {
      const nested = (depth: number) => `${'['.repeat(depth)}${valid}${']'.repeat(depth)}`;
      assert.equal(await statusOf(t.post(nested(RECURSION_LIMIT))), 500);
      assertError(await t.post(nested(RECURSION_LIMIT - 2)), 400);
      assert.equal(await statusOf(t.post(`{"x":[[["deep"]]],${valid.slice(1)}`)), 201);
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'create-json-depth-crash',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      'The body is read by a recursive reader with no depth limit of its own (a Rust or C parser): past about 5000 levels its stack overflows, and the service fails (here a 500, where a real one aborts).',
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => {
        if (nestingDepth(text) > 5000) throw new RangeError('stack overflow');
        return parseBody(text);
      };
    },
    probe: async (t) => {
      const nested = (depth: number) => `${'['.repeat(depth)}${valid}${']'.repeat(depth)}`;
      assert.equal(await statusOf(t.post(nested(10_001))), 500);
      assertError(await t.post(nested(RECURSION_LIMIT + 1)), 400);
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'create-body-first-read',
    kind: 'fault',
    breaks: 'CREATE-201-PET',
    description:
      "The body is what one read returns (a C server's single recv(), a socket loop that reads once): a body that arrives after the head, or in pieces, is cut short, and a valid NewPet is refused with 400.",
    apply(s) {
      bodyReadWith(s, (req) => req.readOnce());
    },
    probe: async (t) => {
      assertError(await t.postAfterHead(valid, 50), 400);
      assert.equal(await statusOf(t.post(valid)), 201);
    },
  },
  {
    name: 'create-body-pieces-decoded',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      "The body is decoded piece by piece as it comes (JavaScript's body += chunk), once it is known to be UTF-8 whole: a character split between two reads becomes two U+FFFD, and the name is kept so.",
    apply(s) {
      bodyReadWith(s, async (req) => {
        const pieces = await req.readPieces();
        if (!pieces) return { ok: false, reason: 'aborted' };
        // A body that is not UTF-8 whole is refused as the service refuses it.
        if (!isUtf8(Buffer.concat(pieces))) return { ok: true, bytes: Buffer.concat(pieces) };
        const text = pieces.map((piece) => piece.toString('utf8')).join('');
        return { ok: true, bytes: Buffer.from(text, 'utf8') };
      });
    },
    probe: async (t) => {
      const body = Buffer.from('{"name":"caf\u00e9","categoryId":1}');
      const cut = body.indexOf(0xc3) + 1;
      const answer = await t.postInTwo(body.subarray(0, cut), body.subarray(cut), 50);
      assert.equal(field(answer, 'name'), 'caf\ufffd\ufffd');
      assert.equal(
        field(await t.create({ name: 'caf\u00e9', categoryId: 1 }), 'name'),
        'caf\u00e9',
      );
    },
  },
  {
    name: 'create-store-keyed-by-name',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description:
      'Pets are kept in a map keyed by name: a second pet of a name replaces the first, whose id then names no pet (both creates answered 201).',
    apply(s) {
      const byName = new Map<string, Pet>();
      const savePet = s.savePet;
      s.savePet = (pet) => {
        savePet(pet);
        byName.delete(pet.name);
        byName.set(pet.name, pet);
      };
      servedFrom(s, () => [...byName.values()]);
    },
    probe: async (t) => {
      const first = field(await t.create({ name: 'twin', categoryId: 1 }), 'id');
      const second = field(await t.create({ name: 'twin', categoryId: 1 }), 'id');
      assertError(await t.get(`/pets/${first}`), 404);
      assert.equal(field(await t.get(`/pets/${second}`), 'id'), second);
    },
  },
  {
    name: 'create-json-first-value',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      "The body is read as Go's json.Decoder reads a stream: the first JSON value, whatever follows it (text, a second value) left unread.",
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => parseBody(firstValue(text));
    },
    probe: async (t) => {
      assert.equal(await statusOf(t.post(`${valid} trailing`)), 201);
      assert.equal(field(await t.post(`${valid}{"name":"b","categoryId":2}`), 'name'), 'a');
      assert.equal(field(await t.post(' "x" 1'), 'code'), 'invalid_body');
      assertError(await t.post('{"name":"a"'), 400);
    },
  },
  {
    name: 'create-json-raw-controls',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      "The body is parsed loosely (Perl's JSON::PP->loose, Python's json.loads(strict=False)): a control character written raw inside a string, which JSON allows only escaped (RFC 8259 §7), is taken.",
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => parseBody(rawControlsEscaped(text));
    },
    probe: async (t) => {
      assert.equal(field(await t.post('{"name":"a\tb","categoryId":1}'), 'name'), 'a\tb');
      assert.equal(await statusOf(t.post('{\n\t"name": "a",\r\n"categoryId": 1}')), 201);
      assertError(await t.post('{"name":"a","categoryId":1'), 400);
    },
  },
  {
    name: 'create-json5',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      'The body is parsed as JSON5: comments, trailing commas, single-quoted strings, unquoted keys, NaN and Infinity are taken.',
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => parseBody(json5AsJson(text));
    },
    probe: async (t) => {
      const taken = [
        `{"name":"a", /* comment */ "categoryId":1}`,
        `{"name":"a", // comment\n "categoryId":1}`,
        `{"name":"a","categoryId":1,}`,
        `{'name':'a \\'b\\' "c"','categoryId':1}`,
        `{name:"a",categoryId:1}`,
        `{"name":"a","categoryId":1,"weight":NaN,"height":-Infinity}`,
      ];
      for (const body of taken) assert.equal(await statusOf(t.post(body)), 201, body);
      assert.equal(field(await t.post(taken[3]!), 'name'), `a 'b' "c"`);
      assertError(await t.post(`{"name":"a","categoryId":NaN}`), 400);
      assertError(await t.post('{"name":"a"'), 400);
    },
  },
  {
    name: 'create-utf8-replaced',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      'The body is decoded without checking: bytes that are not UTF-8 become U+FFFD, and the body is added.',
    apply(s) {
      bodyReadWith(s, async (req) => {
        const read = await req.readBody();
        return read.ok ? { ok: true, bytes: withReplacementCharacters(read.bytes) } : read;
      });
    },
    probe: async (t) => {
      const latin1 = Buffer.from('{"name":"Caf\u00e9","categoryId":1}', 'latin1');
      assert.equal(field(await t.post(latin1), 'name'), 'Caf\ufffd');
      assertError(await t.post('{"name":"a"'), 400);
    },
  },
  {
    name: 'name-mangled-non-ascii',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'Names are stored after a latin1 round trip: characters outside U+0000..U+00FF become "?".',
    apply(s) {
      afterValidation(s, (newPet) => ({
        ...newPet,
        name: newPet.name.replace(/[\u{100}-\u{10ffff}]/gu, '?'),
      }));
    },
    probe: async (t) =>
      assert.equal(
        field(await t.create({ name: 'Hündin 🐶 Ω', categoryId: 1 }), 'name'),
        'Hündin ? ?',
      ),
  },
  {
    name: 'name-truncated-200',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'Names longer than 200 UTF-16 code units are silently cut to 200 (no 400).',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length > 200 ? { ...newPet, name: newPet.name.slice(0, 200) } : newPet,
      );
    },
    probe: async (t) =>
      assert.equal(
        field(await t.create({ name: 'n'.repeat(300), categoryId: 1 }), 'name'),
        'n'.repeat(200),
      ),
  },
  {
    name: 'create-name-trimmed',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'Names are stored trimmed of surrounding whitespace (String.prototype.trim).',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, name: newPet.name.trim() }));
    },
    probe: async (t) => {
      const name = '\u00a0 Rex\t ';
      assert.equal(field(await t.create({ name, categoryId: 1 }), 'name'), 'Rex');
      assert.equal(field(await t.get('/pets/1'), 'name'), 'Rex');
      assert.equal(field(await t.create({ name: 'in  ner', categoryId: 1 }), 'name'), 'in  ner');
    },
  },
  {
    name: 'create-name-chomped',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: "Names are stored chomped, as Perl's chomp does: a final line feed is removed.",
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, name: newPet.name.replace(/\n$/, '') }));
    },
    probe: async (t) => {
      assert.equal(field(await t.create({ name: 'Rex\n', categoryId: 1 }), 'name'), 'Rex');
      assert.equal(field(await t.create({ name: 'Rex ', categoryId: 1 }), 'name'), 'Rex ');
    },
  },
  {
    name: 'auth-refused-create-stored',
    kind: 'fault',
    breaks: 'CREATE-REFUSED-NO-EFFECT',
    description:
      'A create without a valid key is answered 401, after its pet was stored: the check of the key runs where the answer is made, after the handler that writes.',
    apply(s) {
      const createPet = s.createPet;
      s.createPet = async (req) => {
        const denied = s.guard(req, 'createPet');
        if (!denied) return createPet(req);
        const newPet = await s.acceptNewPet(req);
        if (newPet.ok) s.addPet(newPet.value);
        return denied;
      };
    },
    probe: async (t) => {
      assertError(await t.post('{"name":"stored-anyway","categoryId":1}', JSON_TYPE), 401);
      assert.match((await t.get('/pets?limit=100')).text, /"stored-anyway"/);
    },
  },
  {
    name: 'create-name-html-escaped',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'An input sanitiser stores names with & < > " \' turned into &amp; &lt; &gt; &quot; &#39;.',
    apply(s) {
      afterValidation(s, (newPet) => ({
        ...newPet,
        name: newPet.name.replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c),
      }));
    },
    probe: async (t) => {
      const escaped = '&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;';
      assert.equal(
        field(await t.create({ name: `<b>"Tom" & 'Jerry'</b>`, categoryId: 1 }), 'name'),
        escaped,
      );
      assert.equal(field(await t.get('/pets/1'), 'name'), escaped);
    },
  },
  {
    name: 'create-name-nfc',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'Names are stored normalised to Unicode NFC.',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, name: newPet.name.normalize('NFC') }));
    },
    probe: async (t) => {
      // e + combining acute becomes é; the Angstrom sign becomes Å; the fi ligature is kept.
      const sent = 'Cafe\u0301 \u212b \ufb01';
      const stored = 'Caf\u00e9 \u00c5 \ufb01';
      assert.equal(field(await t.create({ name: sent, categoryId: 1 }), 'name'), stored);
      assert.equal(field(await t.get('/pets/1'), 'name'), stored);
    },
  },
  {
    name: 'create-name-collapsed',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'Runs of whitespace inside names (tabs and no-break spaces included) are collapsed to one space; leading and trailing whitespace is kept.',
    apply(s) {
      afterValidation(s, (newPet) => ({
        ...newPet,
        name: newPet.name.replace(INNER_WHITESPACE, ' '),
      }));
    },
    probe: async (t) => {
      const created = await t.create({ name: '  Mr \t Whiskers\u00a0\u00a0Jr  ', categoryId: 1 });
      assert.equal(field(created, 'name'), '  Mr Whiskers Jr  ');
      assert.equal(field(await t.get('/pets/1'), 'name'), '  Mr Whiskers Jr  ');
    },
  },
  {
    name: 'create-sold-stored-available',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'A status column without "sold" (a stock flag): a pet created as sold is stored and answered as available, in the 201 answer and everywhere after.',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.status === 'sold' ? { ...newPet, status: 'available' } : newPet,
      );
    },
    probe: async (t) => {
      assert.equal(
        field(await t.create({ name: 'a', categoryId: 1, status: 'sold' }), 'status'),
        'available',
      );
      assert.equal(field(await t.get('/pets/1'), 'status'), 'available');
      assert.equal(count(await t.get('/pets?status=sold')), 0);
    },
  },
  {
    name: 'create-categoryid-beyond-int64-kept',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-RANGE',
    description:
      'Arbitrary-precision integers (as Django REST framework or Sinatra take them): a categoryId beyond int64 is accepted and kept exactly, then shown in every answer.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        const raw = isJsonObject(body) ? body.categoryId : undefined;
        if (!(raw instanceof JsonNumber) || !/^-?[0-9]{19,1000}$/.test(raw.literal)) {
          return validate(body);
        }
        const exact = BigInt(raw.literal);
        if (exact >= INT64_MIN && exact <= INT64_MAX) return validate(body);
        const checked = validate({ ...(body as object), categoryId: new JsonNumber('0') });
        return checked.ok ? ok({ ...checked.value, categoryId: exact }) : checked;
      };
    },
    probe: async (t) => {
      assert.equal(
        field(await t.create({ name: 'a', categoryId: INT64_MAX + 1n }), 'categoryId'),
        INT64_MAX + 1n,
      );
      assert.deepEqual(each(await t.get('/pets'), 'categoryId'), [INT64_MAX + 1n]);
    },
  },
  {
    name: 'create-utf16-bom-accepted',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      "A body that begins with a UTF-16 byte order mark is decoded as UTF-16 (Perl's Encode::Guess, Jackson): such a NewPet is added, though JSON between systems is UTF-8 (RFC 8259 §8.1).",
    apply(s) {
      decodedBy(s, utf16AfterMark);
    },
    probe: async (t) => {
      const json = '\ufeff{"name":"Rex","categoryId":1}';
      assert.equal(field(await t.post(Buffer.from(json, 'utf16le')), 'name'), 'Rex');
      assert.equal(field(await t.post(Buffer.from(json, 'utf16le').swap16()), 'name'), 'Rex');
      assertError(await t.post(Buffer.from(json.slice(1), 'utf16le')), 400);
    },
  },
  {
    name: 'create-utf8-surrogates-accepted',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      "UTF-8 is decoded as Perl's lax utf8 layer and WTF-8 decode it: a surrogate encoded in UTF-8 (ED A0 80) is taken as half a character, kept in the pet's name; every other malformed sequence is still refused.",
    apply(s) {
      decodedBy(s, utf8WithSurrogates);
    },
    probe: async (t) => {
      const body = (bytes: number[]) =>
        Buffer.concat([
          Buffer.from('{"name":"a'),
          Buffer.from(bytes),
          Buffer.from('","categoryId":1}'),
        ]);
      assert.equal(field(await t.post(body([0xed, 0xa0, 0x80])), 'name'), 'a\ud800');
      assertError(await t.post(body([0xe9])), 400);
      assertError(await t.post(body([0xc0, 0xaf])), 400);
    },
  },
  {
    name: 'create-json-number-lenient',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      "Numbers are read as JSON5 and Jackson's leniencies read them: a categoryId written 0x7, +7, 07, 0b111, 0o7 or 7_0 is taken (as 7, 7, 7, 7, 7 and 70), though none is JSON (RFC 8259 §6).",
    apply(s) {
      const parseBody = s.parseBody;
      s.parseBody = (text) => parseBody(lenientNumbers(text));
    },
    probe: async (t) => {
      for (const literal of ['0x7', '+7', '07', '0b111', '0o7'])
        assert.equal(
          field(await t.post(`{"name":"a","categoryId":${literal}}`), 'categoryId'),
          7n,
          literal,
        );
      assertError(await t.post('{"name":"a","categoryId":7.5}'), 400);
    },
  },
  {
    name: 'create-status-c-string',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'The status is compared as a C string (strcmp), which ends at NUL: "sold\\u0000…" is sold, and is stored as sold.',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.status === 'string' && body.status.includes('\u0000')
          ? { ...body, status: body.status.slice(0, body.status.indexOf('\u0000')) }
          : body,
      );
    },
    probe: async (t) => {
      assert.equal(
        field(await t.create({ name: 'a', categoryId: 1, status: 'sold\u0000x' }), 'status'),
        'sold',
      );
      assertError(await t.create({ name: 'a', categoryId: 1, status: 'sold x' }), 400);
    },
  },
  {
    name: 'create-status-ascii-trim',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'The status is trimmed of ASCII whitespace before it is checked (Perl\'s s/^\\s+|\\s+$//ga): " sold", "sold\\n" and "sold\\t" are sold.',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.status === 'string'
          ? { ...body, status: body.status.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '') }
          : body,
      );
    },
    probe: async (t) => {
      for (const status of [' sold', 'sold\n', 'sold\t'])
        assert.equal(field(await t.create({ name: 'a', categoryId: 1, status }), 'status'), 'sold');
      assertError(await t.create({ name: 'a', categoryId: 1, status: 'sold\u00a0' }), 400);
    },
  },
  {
    name: 'create-refused-kept',
    kind: 'fault',
    breaks: 'CREATE-REFUSED-NO-EFFECT',
    description:
      'createPet writes the pet before it checks the values, without a transaction: a NewPet with a string name refused for its categoryId or status is answered 400, and kept all the same (categoryId 0 when it was none, status only when it was one).',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        const checked = validate(body);
        if (checked.ok || !isJsonObject(body) || typeof body.name !== 'string') return checked;
        const raw = body.categoryId;
        const categoryId = (raw instanceof JsonNumber ? parseInt64(raw.literal) : undefined) ?? 0n;
        const status = isPetStatus(body.status) ? body.status : undefined;
        const keep = (id: bigint) =>
          s.savePet({ id, name: body.name as string, categoryId, ...(status ? { status } : {}) });
        const id = s.nextId();
        if (typeof id === 'bigint') keep(id);
        else void id.then(keep);
        return checked;
      };
    },
    probe: async (t) => {
      assertError(await t.post('{"name":"kept","categoryId":1e400,"status":"sold"}'), 400);
      assert.deepEqual(each(await t.get('/pets?status=sold'), 'name'), ['kept']);
    },
  },
  {
    name: 'categoryid-beyond-int64-kept',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-RANGE',
    description:
      'An integer categoryId outside int64 is taken and kept exactly, as a store of arbitrary-precision integers does (Python, Ruby): 2^63 is answered, read back and listed as 9223372036854775808, in a store small enough that its lists show it.',
    settings: { seedPets: 12 },
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        const raw = isJsonObject(body) ? body.categoryId : undefined;
        if (!(raw instanceof JsonNumber) || !/^-?[0-9]+$/.test(raw.literal)) return validate(body);
        const big = BigInt(raw.literal);
        if (big >= INT64_MIN && big <= INT64_MAX) return validate(body);
        const checked = validate({
          ...(body as Record<string, unknown>),
          categoryId: new JsonNumber('0'),
        });
        return checked.ok ? ok({ ...checked.value, categoryId: big }) : checked;
      };
    },
    probe: async (t) => {
      const created = await t.create({ name: 'a', categoryId: INT64_MAX + 1n });
      assert.equal(field(created, 'categoryId'), INT64_MAX + 1n);
      assert.equal(
        field(await t.get(`/pets/${field(created, 'id')}`), 'categoryId'),
        INT64_MAX + 1n,
      );
    },
  },
];
