/**
 * The near misses of a key: the tokens the 401 checks send (http/credentials.ts) because
 * comparisons go wrong in those places: another letter case (a case-insensitive collation), the
 * key cut short (a comparison over what was sent only), lengthened, one character changed,
 * quoted, doubled; and the tokens the hostile-input sweep derives from the key
 * (requirements/hostile-inputs.ts: the key followed by a no-break space, spelled in fullwidth
 * forms, percent-encoded...), each as sent and, where its bytes are UTF-8, as the text they say.
 * Each is as secret as the key (a gateway may quote the token it refuses), so redaction
 * (redaction.ts) removes every one of them, under its label, from this same list. Their labels
 * describe them and never hold the key.
 */
import { derivedTokens } from '../../../requirements/hostile-inputs.ts';

/** How a near miss differs from the key; `hostile`: the hostile-input sweep sends it. */
export type NearMissKind = 'case' | 'shortened' | 'lengthened' | 'changed' | 'quoted' | 'hostile';

/** UTF-8 bytes, sent as a Latin-1 string of them, read back as the text they say (or not). */
function asUtf8Text(sent: string): string | undefined {
  if (!/[\u0080-\u00ff]/.test(sent)) return undefined;
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(sent, 'latin1'));
  return decoded === sent ? undefined : decoded;
}

/** The sweep's tokens: as sent, and as the text a server decoding UTF-8 reads. */
function hostileTokens(key: string): NearMiss[] {
  return derivedTokens(key).flatMap(({ token, label }) => {
    const text = asUtf8Text(token);
    return [
      { token, label, kind: 'hostile' as const },
      ...(text
        ? [{ token: text, label: `${label}, read as UTF-8`, kind: 'hostile' as const }]
        : []),
    ];
  });
}

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
  return [...candidates, ...hostileTokens(key)].filter(
    ({ token }) => token !== '' && !seen.has(token) && seen.add(token),
  );
}
