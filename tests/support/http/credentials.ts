/**
 * Credentials the suite sends besides the key: wrong ones that must each be refused with 401
 * (section 5). Besides a plainly wrong key and wrong schemes, the near misses careful attackers
 * try, because comparisons go wrong in those places: another letter case (a case-insensitive
 * collation), the key cut short (a comparison over what was sent only), lengthened, one
 * character changed, quoted, doubled. Their labels describe them and never hold the key.
 */
import { type Credentials, authorizationName, lowerCaseAuthorizationName } from './client.ts';

/** How a near miss differs from the key. */
export type NearMissKind = 'case' | 'shortened' | 'lengthened' | 'changed' | 'quoted';

/** A near miss of the key: the token sent, a label that never holds the key, and its kind. */
export interface NearMiss {
  token: string;
  label: string;
  kind: NearMissKind;
}

/** The key changed slightly in every way that a faulty comparison could still accept. */
export function nearMisses(key: string): NearMiss[] {
  const swapCase = (text: string) =>
    [...text]
      .map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase()))
      .join('');
  const changeOne = (text: string, index: number) => {
    const char = text[index] ?? 'a';
    const other = char === 'a' ? 'b' : char === '0' ? '1' : /[0-9]/.test(char) ? '0' : 'a';
    return `${text.slice(0, index)}${other}${text.slice(index + 1)}`;
  };
  const half = Math.max(1, Math.floor(key.length / 2));
  const candidates: NearMiss[] = [
    { token: key.toUpperCase(), label: '<API_KEY> in upper case', kind: 'case' },
    { token: key.toLowerCase(), label: '<API_KEY> in lower case', kind: 'case' },
    { token: swapCase(key), label: '<API_KEY> with every letter case swapped', kind: 'case' },
    { token: key.slice(0, -1), label: '<API_KEY> without its last character', kind: 'shortened' },
    { token: key.slice(1), label: '<API_KEY> without its first character', kind: 'shortened' },
    { token: key.slice(0, half), label: 'the first half of <API_KEY>', kind: 'shortened' },
    { token: `${key}x`, label: '<API_KEY> with a character appended', kind: 'lengthened' },
    { token: `x${key}`, label: '<API_KEY> with a character prepended', kind: 'lengthened' },
    {
      token: changeOne(key, key.length - 1),
      label: '<API_KEY> with its last character changed',
      kind: 'changed',
    },
    {
      token: changeOne(key, 0),
      label: '<API_KEY> with its first character changed',
      kind: 'changed',
    },
    { token: `"${key}"`, label: '<API_KEY> in double quotes', kind: 'quoted' },
    { token: `${key}${key}`, label: '<API_KEY> twice', kind: 'lengthened' },
  ];
  // A change that leaves the key as it is (a key without letters has no case) is no near miss.
  const seen = new Set<string>([key]);
  return candidates.filter(({ token }) => token !== '' && !seen.has(token) && seen.add(token));
}

/**
 * Wrong credentials that must each be refused with 401 (section 5). `few`: the plainly wrong
 * ones and one near miss of each kind (case, shortened, lengthened, one changed), for the
 * operations after the first: a key comparison is rarely written twice, and every request counts
 * against a rate-limited target.
 */
export function invalidCredentials(apiKey: string, few = false): Credentials[] {
  const near = nearMisses(apiKey);
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
 * The key under each spelling of the header's name a target must accept (section 5; header names
 * are case-insensitive, RFC 9110 §5.1): the document's `Authorization`, and the lower-case one
 * every HTTP/2 client sends. A target that reads names case-sensitively refuses one of them.
 */
export function keyUnderEachName(apiKey: string): Credentials[] {
  return [authorizationName, lowerCaseAuthorizationName].map((name) => ({
    authorization: `Bearer ${apiKey}`,
    label: 'Bearer <API_KEY>',
    name,
  }));
}
