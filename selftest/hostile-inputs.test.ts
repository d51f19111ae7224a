/**
 * The hostile-input catalogue (requirements/hostile-inputs.json) keeps its shape, and what it
 * expands to is what its docs say: every class reaches every slot it goes into on every run
 * (whatever the seed), every member of a cell over the runs' seeds, each case sends the bytes its
 * member says, the inputs a store may keep only in the last phase, and every token the sweep
 * derives from the key is one redaction knows (reporting/near-misses.ts).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  type Bases,
  type HostileCatalogue,
  type HostileRequest,
  allCases,
  casesOf,
  catalogueProblems,
  cellViews,
  hostileInputsFile,
  hostileInputs,
  nameBytesLimit,
  slotIds,
} from '../requirements/hostile-inputs.ts';
import { isUtf8 } from 'node:buffer';
import type { SentRequest } from '../tests/support/http/client.ts';
import { nearMisses } from '../tests/support/reporting/near-misses.ts';
import { atMost, together } from '../tests/support/vocabulary/together.ts';
import {
  listQueryOf,
  openQueryPart,
  readLimit,
  readNewPetBody,
  readPetId,
  readStatusFilter,
} from '../tests/support/vocabulary/inputs.ts';

const bases = (seed: number): Bases => ({
  key: 'conformance-secret-7Hq2xZ4pL9wR',
  petId: 17n,
  marker: 'conformance-abcd1234-',
  categoryId: 7n,
  seed,
});
const seeds = [0, 1, 2, 3, 5, 8, 13, 20261121, -7];

test('a sweep keeps at most its limit of requests in flight, and its answers in order', async () => {
  let inFlight = 0;
  let most = 0;
  const tasks = Array.from({ length: 20 }, (_, index) => async () => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, 1 + (index % 3)));
    inFlight--;
    return index;
  });
  assert.deepEqual(
    await together(atMost(3, tasks)),
    tasks.map((_, index) => index),
  );
  assert.equal(most, 3);
});

test('the catalogue is well formed: every slot of every class placed or said n/a, with a reason', () => {
  assert.deepEqual(catalogueProblems(hostileInputs), []);
});

test('each class is proved by faults of the reference that some real parser makes with it', async () => {
  const { variants } = await import('../reference/src/variants/index.ts');
  const faults = new Set(variants.filter((v) => v.kind === 'fault').map((v) => v.name));
  for (const item of hostileInputs.classes) {
    for (const name of item.provedBy) assert.ok(faults.has(name), `${item.id}: no fault ${name}`);
  }
});

test('a malformed catalogue is refused, each mistake named', () => {
  const copy = JSON.parse(readFileSync(hostileInputsFile, 'utf8')) as HostileCatalogue;
  const item = copy.classes[0]!;
  item.slots.token = 'not applicable';
  delete (item.slots as Partial<typeof item.slots>).scheme;
  item.slots.petId = { place: 'encode' };
  item.slots.limit = { place: 'after', members: ['no-such-member'], only: 'why' };
  item.members.push({ id: 'twice', why: 'x', text: 'a', bytes: '00' });
  const problems = catalogueProblems(copy).join('\n');
  for (const expected of [
    'whitespace/token: say "n/a: why"',
    'whitespace: slot scheme is neither placed nor said n/a',
    'whitespace/petId: slot petId takes no encode placement',
    'whitespace/limit: no member no-such-member',
    'whitespace/twice: give exactly one of',
  ]) {
    assert.ok(problems.includes(expected), `${expected} in:\n${problems}`);
  }
});

/** The (class, slot) pairs a case carries. */
const carriedCells = (cases: ReturnType<typeof allCases>) =>
  new Set(cases.flatMap((made) => made.carried.map((carried) => `${carried.class} ${made.slot}`)));

test('every run sends every class into every slot it goes into, whatever the seed', () => {
  const cells = cellViews()
    .filter((view) => view.placements.some((placement) => placement.members.length > 0))
    .map((view) => `${view.item.id} ${view.slot.id}`);
  assert.ok(cells.length > 50, `${cells.length} cells`);
  for (const seed of seeds) {
    const carried = carriedCells(allCases(bases(seed)));
    assert.deepEqual(
      cells.filter((cell) => !carried.has(cell)),
      [],
      `seed ${seed}`,
    );
  }
});

test('over the seeds, every member of a cell is sent in it (the rotation reaches each)', () => {
  const sent = new Set<string>();
  for (let seed = 0; seed < 400; seed++) {
    for (const made of allCases(bases(seed))) {
      for (const carried of made.carried) {
        for (const member of carried.members) sent.add(`${carried.class} ${made.slot} ${member}`);
      }
    }
  }
  const missing: string[] = [];
  for (const view of cellViews()) {
    for (const placement of view.placements) {
      for (const member of placement.members) {
        const key = `${view.item.id} ${view.slot.id} ${member.id}`;
        // A spelling that changes nothing in the value (no digit in it) is not sent, rightly.
        if (!sent.has(key) && placement.place !== 'spelled') missing.push(key);
      }
    }
  }
  assert.deepEqual(missing, []);
});

test('the same seed sends the same cases; labels are unique and of one width', () => {
  const once = allCases(bases(42));
  assert.deepEqual(
    allCases(bases(42)).map((made) => made.label + made.description),
    once.map((made) => made.label + made.description),
  );
  const labels = once.map((made) => made.label);
  assert.equal(new Set(labels).size, labels.length);
  assert.ok(
    labels.every((label) => /^[hs][0-9a-z]{2}$/.test(label)),
    labels.join(),
  );
});

const bodyOf = (request: HostileRequest) =>
  request.operation === 'createPet' ? request.body : Buffer.alloc(0);

test('each case sends the bytes its member says', () => {
  const cases = allCases(bases(0));
  const find = (slot: string, member: string) =>
    cases.find(
      (made) =>
        made.slot === slot && made.carried.some((carried) => carried.members.includes(member)),
    );
  const token = find('token', 'nbsp')!.request;
  assert.ok('credentials' in token);
  assert.equal(token.credentials.authorization, `Bearer ${bases(0).key}\u00a0`, 'one Latin-1 byte');
  assert.match(
    bodyOf(find('body', 'utf-16le-bom')!.request).subarray(0, 4).toString('hex'),
    /^fffe7b00/,
  );
  assert.ok(bodyOf(find('body', 'surrogate')!.request).includes(Buffer.from([0xed, 0xa0, 0x80])));
  const petId = find('petId', 'fraction')!.request;
  assert.ok('segment' in petId && petId.segment === '17.0');
  const status = find('status', 'sql-quote')!.request;
  assert.ok('query' in status && status.query.includes('%27'));
  assert.ok(bodyOf(find('name', 'lone-high-surrogate')!.request).toString().includes('\\ud800'));
});

/** A case's request as the client records it, for the document's reading (vocabulary/inputs.ts). */
function sentOf(request: HostileRequest): SentRequest | undefined {
  const base = { method: 'GET', url: '', auth: 'Bearer <API_KEY>' };
  if (request.operation === 'getPet') return { ...base, path: `/pets/${request.segment}` };
  if (request.operation === 'listPets')
    return 'query' in request ? { ...base, path: `/pets?${request.query}` } : undefined;
  const sent: SentRequest = {
    ...base,
    method: 'POST',
    path: '/pets',
    body: request.body.toString(),
    contentType: 'application/json',
  };
  if (!isUtf8(request.body)) sent.notUtf8 = true;
  return sent;
}

// The sweep holds a case to its slot's rule (vocabulary/hostile.ts): a refusal where the document
// refuses the input, either answer where it leaves it open, a Pet where it must be taken. The
// catalogue and the document's reading must agree on every seed, or a conformant target fails.
test('every case is read by the document as its slot says: refused, left open, or a NewPet to take', () => {
  for (const seed of seeds) {
    for (const each of allCases(bases(seed))) {
      const sent = sentOf(each.request);
      if (!sent) continue;
      const where = `seed ${seed}, ${each.label} (${each.slot}: ${each.description})`;
      // A petId is invalid, but an existing id moved by 2^32 (a valid one, which no pet has) or
      // percent-encoded (that pet's); a status is invalid, but one percent-encoded (sold).
      if (each.slot === 'petId')
        assert.equal(
          readPetId(sent).kind,
          ['GET-404-UNKNOWN', 'GET-200-PET'].includes(each.rule) ? 'valid' : 'invalid',
          where,
        );
      // A query in another form (a parameter named twice, with brackets) is left open.
      else if (each.placement === 'form') assert.notEqual(openQueryPart(sent), undefined, where);
      else if (each.slot === 'limit')
        assert.equal(readLimit(listQueryOf(sent).limit).kind, 'invalid', where);
      else if (each.slot === 'status')
        assert.equal(
          readStatusFilter(listQueryOf(sent).status).kind,
          each.rule === 'LIST-STATUS-FILTER' ? 'valid' : 'invalid',
          where,
        );
      else {
        const reading = readNewPetBody(sent).kind;
        // A name, or the ordinary NewPet in pieces: a NewPet to take.
        if (each.slot === 'name' || each.rule === 'CREATE-201-PET')
          assert.equal(reading, 'valid', where);
        else if (each.allowed) assert.notEqual(reading, 'invalid', where);
        else assert.notEqual(reading, 'valid', where);
      }
    }
  }
});

test("a name case of the sweep stays within the name slot's 40 bytes", () => {
  for (const seed of seeds) {
    for (const made of allCases(bases(seed)).filter(
      (each) => each.slot === 'name' && !each.stored,
    )) {
      if (made.placement === 'fill') continue;
      const request = made.request;
      assert.ok(request.operation === 'createPet' && request.sent);
      assert.ok(Buffer.byteLength(request.sent.name) <= nameBytesLimit, request.sent.name);
    }
  }
});

test('what a store may keep goes last, and only that', () => {
  const stored = new Set(
    hostileInputs.classes.flatMap((item) =>
      item.members.filter((member) => member.stored).map((member) => member.id),
    ),
  );
  const storedCells = new Set(
    cellViews()
      .filter((view) => view.cell?.stored)
      .map((view) => `${view.item.id} ${view.slot.id}`),
  );
  for (const seed of seeds) {
    for (const made of allCases(bases(seed))) {
      const keeps = ['name', 'pet-status'].includes(made.slot) || made.placement === 'inside';
      const holds = made.carried.some((carried) => carried.members.some((id) => stored.has(id)));
      const cell = made.carried.some((carried) => storedCells.has(`${carried.class} ${made.slot}`));
      assert.equal(made.stored, cell || (keeps && holds), `${made.slot} ${made.description}`);
    }
  }
  assert.deepEqual(
    casesOf(bases(0), { slots: slotIds, stored: true, prefix: 's' }).map(
      (made) => made.request.operation,
    ),
    casesOf(bases(0), { slots: slotIds, stored: true, prefix: 's' }).map(() => 'createPet'),
  );
});

test('no case sends the key itself, and redaction knows every token derived from it', () => {
  for (const key of [bases(0).key, 'mut-key-5f1c0e', '3f9a0c7e1b2d4a6f8e0c1b3d5f7a9e2c']) {
    const known = new Set(nearMisses(key).map((miss) => miss.token));
    for (let seed = 0; seed < 10; seed++) {
      for (const made of allCases({ ...bases(seed), key })) {
        const request = made.request;
        if (!('credentials' in request)) continue;
        const { name, authorization } = request.credentials;
        if (name !== 'Authorization') continue;
        assert.notEqual(authorization, `Bearer ${key}`, made.description);
        const token = made.slot === 'token' ? authorization.slice('Bearer '.length) : authorization;
        // A word sent instead of the key is derived from nothing secret: no need to redact it.
        if (made.slot === 'token' && made.placement === 'instead') {
          assert.ok(!token.includes(key), made.description);
          continue;
        }
        assert.ok(
          known.has(token),
          `${made.description}: ${JSON.stringify(token)} is no near miss`,
        );
      }
    }
  }
});
