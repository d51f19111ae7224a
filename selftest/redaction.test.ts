/**
 * Redaction: the API key's removal from text (tests/support/reporting/redaction.ts): in every
 * form, with every near miss the suite sends, and any run of 8 of its characters in any case.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nearMisses } from '../tests/support/reporting/near-misses.ts';
import { redactKey, redactedKey, redactedPart } from '../tests/support/reporting/redaction.ts';

test('a key is removed as sent, URL-encoded and base64-encoded', () => {
  const key = 'k3y/with+odd=chars';
  const text = [
    `authorization: Bearer ${key}`,
    `?key=${encodeURIComponent(key)}`,
    `Basic ${Buffer.from(key).toString('base64')}`,
    `Bearer ${key}x`,
  ].join('\n');
  const redacted = redactKey(text, key);
  assert.equal(
    redacted,
    [
      'authorization: Bearer <API_KEY>',
      '?key=<API_KEY>',
      'Basic <API_KEY>',
      'Bearer <API_KEY>x',
    ].join('\n'),
  );
});

test('a very short key is removed where it stands alone, not from inside words', () => {
  assert.equal(
    redactKey('await fetch: authorization: Bearer k\n"k" /work/k', 'k'),
    'await fetch: authorization: Bearer <API_KEY>\n"<API_KEY>" /work/k',
  );
});

test('no key, nothing removed', () => {
  assert.equal(redactKey('Bearer ', ''), 'Bearer ');
});

/** Every run of 8 or more of the key's characters, in any case, in `text`. */
const runsOf = (text: string, key: string) => {
  const lower = text.toLowerCase();
  const found: string[] = [];
  for (let start = 0; start + 8 <= key.length; start++) {
    const window = key.slice(start, start + 8).toLowerCase();
    if (lower.includes(window)) found.push(window);
  }
  return found;
};

for (const key of ['conformance-secret-7Hq2xZ4pL9wR', '3f9a0c7e1b2d4a6f8e0c1b3d5f7a9e2c']) {
  test(`every near miss the suite sends is removed under its label, in every form (${key.length} chars)`, () => {
    for (const { token, label } of nearMisses(key)) {
      const forms = [
        token,
        encodeURIComponent(token),
        Buffer.from(token).toString('base64'),
        Buffer.from(token).toString('base64url'),
        JSON.stringify(token).slice(1, -1),
      ];
      for (const form of forms) {
        const echoed = `{"message": "invalid API key ${form}"}`;
        const redacted = redactKey(echoed, key);
        assert.deepEqual(runsOf(redacted, key), [], `${label}: ${redacted}`);
        assert.doesNotMatch(redacted, new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        // Where the near miss holds the key (quoted, doubled), it reads as the key with what
        // was added; elsewhere as its label.
        if (!form.includes(key)) assert.ok(redacted.includes(label), `${label}: ${redacted}`);
      }
    }
    // The label of what was sent, as the request line shows it.
    assert.equal(redactKey(`Bearer ${key.toUpperCase()}`, key), 'Bearer <API_KEY> in upper case');
  });

  test(`any run of 8 or more of the key's characters goes, in any letter case (${key.length} chars)`, () => {
    const mixed = [...key].map((char, index) => (index % 3 ? char.toUpperCase() : char)).join('');
    const samples = [
      `${key.slice(3, 11)}`,
      `excerpt: "${key.slice(0, 20)}…"`,
      `${mixed} and ${key.slice(5).toUpperCase()}`,
      `${key.slice(2, 12)}${key.slice(14)}`,
      `${key}${key.slice(0, 9)}`,
    ];
    for (const sample of samples) {
      const redacted = redactKey(sample, key);
      assert.deepEqual(runsOf(redacted, key), [], `${sample} -> ${redacted}`);
    }
    assert.equal(redactKey(`[${mixed}]`, key), `[${redactedKey}]`, 'the whole key, another case');
    assert.equal(redactKey(`(${key.slice(4, 14)})`, key), `(${redactedPart})`, 'a part of it');
    // Seven characters of it are not a run: left as they are.
    assert.equal(redactKey(`(${key.slice(4, 11)})`, key), `(${key.slice(4, 11)})`);
  });
}

test('a JSON text stays JSON: every replacement is a plain string', () => {
  const key = 'conformance-secret-7Hq2xZ4pL9wR';
  const values = nearMisses(key).map(({ token }) => token);
  const text = JSON.stringify({ key, values, half: key.slice(0, 12) });
  const parsed = JSON.parse(redactKey(text, key)) as { key: string; values: string[] };
  assert.equal(parsed.key, redactedKey);
  assert.ok(parsed.values.includes('"<API_KEY>"'), 'quoted: the key replaced in its quotes');
});

test('a key that repeats itself is still cut out whole', () => {
  const key = 'abcdabcdabcdabcdXY';
  assert.equal(redactKey(`>${key.toUpperCase()}<`, key), '><API_KEY> in upper case<');
  assert.equal(redactKey(`>${key.slice(4).toUpperCase()}Q<`, key), `>${redactedPart}Q<`);
  assert.deepEqual(runsOf(redactKey(`abcdabcdXY abcdabc`, key), key), []);
});
