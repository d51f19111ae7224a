/** Redaction: the API key's removal from text (tests/support/reporting/redaction.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { redactKey } from '../tests/support/reporting/redaction.ts';

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
