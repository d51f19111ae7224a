/**
 * The diagnosis table (tests/support/vocabulary/diagnosis.ts) is well formed, and the inputs are
 * read as the document reads them (vocabulary/inputs.ts): every request a check sends is charged
 * by what it is, so these readings decide which requirement a 5xx or a refusal is charged to.
 * The table's behaviour against targets is proved by the mutation self-test.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diagnosisTable } from '../tests/support/vocabulary/diagnosis.ts';
import {
  readLimit,
  readNewPetBody,
  readPetId,
  readStatusFilter,
} from '../tests/support/vocabulary/inputs.ts';
import type { SentRequest } from '../tests/support/http/response.ts';

test('the table: unique row ids, prose for every row, logic for every row that reads a deviation', () => {
  const ids = diagnosisTable.map((row) => row.id);
  assert.deepEqual(ids, [...new Set(ids)], 'row ids are unique');
  for (const row of diagnosisTable) {
    assert.ok(row.when.length > 10 && row.implies.length > 5, `${row.id}: prose`);
    if (row.reads === 'answer' || row.reads === 'preflight') {
      assert.ok(row.appliedIn, `${row.id}: where the rule is applied`);
    } else assert.equal(typeof row.conclude, 'function', `${row.id}: its logic`);
  }
});

test('count-ids-given-twice: a list short by no more than the creates given a taken id is blocked, not charged', async () => {
  const row = diagnosisTable.find((each) => each.id === 'count-ids-given-twice')!;
  const conclude = (givenAgain: number, count: number, more = false) =>
    row.conclude!(
      { answer: undefined, query: {}, count, expected: 99, more } as never,
      { controls: { api: { options: { state: { idsGivenAgain: () => givenAgain } } } } } as never,
    );
  // The Ruby audit's id race in a store keyed by id: 14 pets short, 14 creates given taken ids.
  const blocked = await conclude(14, 85);
  assert.ok(blocked && 'blocked' in blocked, JSON.stringify(blocked));
  assert.match(blocked.blocked, /85 pets listed, not 99, and 14 create\(s\)/);
  assert.equal(await conclude(13, 85), undefined, 'more missing than ids given again');
  assert.equal(await conclude(0, 98), undefined, 'no id given again');
  assert.equal(await conclude(14, 100, true), undefined, 'too many is never explained so');
});

const post = (body: string | Buffer, contentType = 'application/json'): SentRequest => {
  const bytes = Buffer.from(body);
  const request: SentRequest = {
    method: 'POST',
    path: '/pets',
    url: 'http://127.0.0.1/v1/pets',
    auth: 'Bearer <API_KEY>',
    body: bytes.toString(),
    contentType,
  };
  if (!bytes.equals(Buffer.from(bytes.toString()))) request.notUtf8 = true;
  return request;
};
const reading = (request: SentRequest) => {
  const read = readNewPetBody(request);
  return read.kind === 'invalid' ? read.requirement : read.kind;
};

test('a createPet body is read as the document reads it', () => {
  const cases: [string | Buffer, string][] = [
    ['{"name":"a","categoryId":7}', 'valid'],
    ['{"name":"a","categoryId":7,"status":"sold","extra":1}', 'valid'],
    ['{"name":"a","categoryId":7.0}', 'open'],
    ['\ufeff{"name":"a","categoryId":7}', 'open'],
    ['', 'CREATE-400-BODY'],
    ['7', 'CREATE-400-BODY'],
    ['[{"name":"a","categoryId":7}]', 'CREATE-400-BODY'],
    ['{"name":"a","categoryId":7', 'CREATE-400-BODY'],
    ['{"name":"a","categoryId":7} trailing', 'CREATE-400-BODY'],
    // A key given twice: which value a reader takes is unpredictable (RFC 8259 §4).
    ['{"name":"a","categoryId":7,"categoryId":"x"}', 'open'],
    [Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'CREATE-400-BODY'],
    ['{"Name":"a","categoryId":7}', 'CREATE-400-REQUIRED'],
    ['{"name":"a"}', 'CREATE-400-REQUIRED'],
    ['{"name":42,"categoryId":7}', 'CREATE-400-NAME-TYPE'],
    ['{"name":"a","categoryId":"7"}', 'CREATE-400-CATEGORYID-TYPE'],
    ['{"name":"a","categoryId":7.5}', 'CREATE-400-CATEGORYID-TYPE'],
    ['{"name":"a","categoryId":9223372036854775808}', 'CREATE-400-CATEGORYID-RANGE'],
    ['{"name":"a","categoryId":1e400}', 'CREATE-400-CATEGORYID-RANGE'],
    ['{"name":"a","categoryId":7,"status":"SOLD"}', 'CREATE-400-STATUS'],
    ['{"name":"a","categoryId":7,"status":null}', 'CREATE-400-STATUS'],
  ];
  for (const [body, expected] of cases) {
    assert.equal(reading(post(body)), expected, String(body));
  }
  assert.equal(reading(post('{"name":"a","categoryId":7}', 'text/plain')), 'open');
});

test('limit, status and petId are read as the document reads them', () => {
  for (const raw of ['1', '20', '100']) assert.equal(readLimit(raw).kind, 'valid', raw);
  for (const raw of ['0', '101', '05', '1.5', 'abc', '', ' 1', '1e2']) {
    assert.equal(readLimit(raw).kind, 'invalid', raw);
  }
  for (const raw of ['available', 'pending', 'sold']) {
    assert.equal(readStatusFilter(raw).kind, 'valid', raw);
  }
  for (const raw of ['SOLD', 'null', '', "sold'"]) {
    assert.equal(readStatusFilter(raw).kind, 'invalid', raw);
  }
  const petId = (segment: string) =>
    readPetId({ method: 'GET', path: `/pets/${segment}`, url: '', auth: '' }).kind;
  for (const segment of ['1', '-9223372036854775808', '9223372036854775807', '0']) {
    assert.equal(petId(segment), 'valid', segment);
  }
  for (const segment of ['abc', '1.5', '9223372036854775808', '0x1', '%201', '1%00', '%']) {
    assert.equal(petId(segment), 'invalid', segment);
  }
  assert.equal(petId('007'), 'open');
});
