/**
 * Credentials the suite sends besides the key: wrong ones that must each be refused with 401
 * (section 5). Besides a plainly wrong key and wrong schemes, the near misses of the key
 * (reporting/near-misses.ts: one list, which redaction removes from every report too).
 */
import {
  type Credentials,
  authorizationName,
  lowerCaseAuthorizationName,
  upperCaseAuthorizationName,
} from './client.ts';
import { type NearMissKind, nearMisses } from '../reporting/near-misses.ts';

/**
 * Wrong credentials that must each be refused with 401 (section 5). `few`: the plainly wrong
 * ones and one near miss of each kind (case, shortened, lengthened, one changed), for the
 * operations after the first: a key comparison is rarely written twice, and every request counts
 * against a rate-limited target.
 */
export function invalidCredentials(apiKey: string, few = false): Credentials[] {
  // The hostile-input sweep's tokens are the sweep's to send (vocabulary/hostile.ts).
  const near = nearMisses(apiKey).filter(({ kind }) => kind !== 'hostile');
  // The first near miss of each of these kinds (a key without letters has none of case).
  const fewKinds = new Set<NearMissKind>(['case', 'shortened', 'lengthened', 'changed']);
  const chosen = few
    ? near.filter(({ kind }) => fewKinds.has(kind) && fewKinds.delete(kind))
    : near;
  return [
    { authorization: 'Bearer not-the-key-0123456789', label: 'Bearer <a wrong key>' },
    { authorization: `Basic ${apiKey}`, label: 'Basic <API_KEY>' },
    { authorization: apiKey, label: '<API_KEY> (no scheme)' },
    { authorization: 'Bearer ', label: 'Bearer (empty token)' },
    ...chosen.map(({ token, label }) => ({
      authorization: `Bearer ${token}`,
      label: `Bearer ${label}`,
    })),
  ];
}

/**
 * The key where the document does not put it, with no Authorization header: a request without
 * the key (section 5), to be answered 401. Frameworks offer API-key schemes that read it there
 * (OpenAPI's apiKey in a header), and a target that turned one on beside Bearer takes it.
 */
export function keyElsewhere(apiKey: string): Credentials[] {
  return [
    { name: 'X-API-Key', authorization: apiKey, label: '<API_KEY> in X-API-Key, no Authorization' },
  ];
}

/**
 * The key under each spelling of the header's name a target must accept (section 5; header names
 * are case-insensitive, RFC 9110 §5.1): the document's `Authorization`, the lower-case one every
 * HTTP/2 client sends, and `AUTHORIZATION`, which a lookup of the two usual spellings misses. A
 * target that reads names case-sensitively refuses one of them.
 */
export function keyUnderEachName(apiKey: string): Credentials[] {
  return [authorizationName, lowerCaseAuthorizationName, upperCaseAuthorizationName].map(
    (name) => ({
      authorization: `Bearer ${apiKey}`,
      label: 'Bearer <API_KEY>',
      name,
    }),
  );
}
