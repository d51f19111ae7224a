/**
 * Redaction: the one place that removes the API key from text that may reach a report, a log or
 * the console. The client, the preflight, the reporters and the release bundle all call it.
 *
 * Which keys: the values of the environment variables named in CONFORMANCE_SECRET_VARS (set by
 * the run's settings as the configuration loads: API_KEY, each target's key variable, the client
 * key's passphrase), and the credentials in a proxy's URL (HTTPS_PROXY, HTTP_PROXY), so every
 * process of a run (runner, workers, reporters) redacts the same keys without importing the
 * settings. Each is replaced as the key is.
 *
 * What of a key, in two passes made once per key:
 * 1. the key and every token the suite derives from it (its near misses, near-misses.ts: a
 *    gateway may quote the token it refuses) in every form a run could write them: as sent,
 *    URL-encoded, base64 (a Basic credential), JSON-escaped. The key becomes <API_KEY>, a near
 *    miss its label (`<API_KEY> in upper case`). A near miss that holds the key (quoted,
 *    doubled, lengthened) reads as the key's replacement with what was added (`"<API_KEY>"`).
 * 2. then any run of 8 or more consecutive characters of the key, in any letter case (a key
 *    changed in a way no list foresaw, an answer cut short in an excerpt), found by one
 *    case-insensitive scan (runsRedactor). A run becomes <API_KEY> when it is as long as the
 *    key, and `<part of API_KEY>` otherwise.
 *
 * A key shorter than 8 characters is removed only where it stands alone, in its written forms,
 * without near misses or runs: cutting a 1-letter key out of every word would make the reports unreadable, and so short a key
 * keeps nothing secret anyway. A near miss shorter than 8 (the first half of a 12-character key)
 * is removed the same way, where it stands alone.
 */
import { nearMisses } from './near-misses.ts';

export const redactedKey = '<API_KEY>';
/** What replaces a run of a key's characters that is shorter than the key. */
export const redactedPart = '<part of API_KEY>';

/** Below this length a key, or a token, is removed only where it stands alone. */
export const SHORT_KEY = 8;

/** The variables that may name a forward proxy, with its credentials (http/proxy.ts). */
const proxyVariables = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'];

/**
 * The credentials in a proxy's URL, as secret as the key: its password (decoded, and as written),
 * and the base64 of `user:password`, the Proxy-Authorization it is sent as. Not `user:password`
 * itself: the user's name is no secret, and any run of 8 of its characters would be removed.
 */
export function proxySecrets(value: string): string[] {
  if (value === '') return [];
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
  } catch {
    return [];
  }
  if (url.password === '') return [];
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const password = decode(url.password);
  const basic = Buffer.from(`${decode(url.username)}:${password}`).toString('base64');
  return [password, url.password, basic];
}

/** The keys last read, and the variables' values they were read from. */
let lastKeys: { source: string; keys: readonly string[] } | undefined;

/**
 * The keys of this run, from the variables the settings named (API_KEY at least), and the
 * credentials of the proxies in the environment.
 */
export function runKeys(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  const names = (env.CONFORMANCE_SECRET_VARS ?? 'API_KEY').split(',').filter(Boolean);
  const named = names.map((name) => env[name] ?? '');
  const proxies = proxyVariables.map((name) => (env[name] ?? '').trim());
  // Asked for every string of every step a run reports: the keys are read again only when the
  // variables they come from change (a proxy's URL is parsed once, not once per string).
  const source = JSON.stringify([named, proxies]);
  if (lastKeys?.source === source) return lastKeys.keys;
  const values = [...named, ...proxies.flatMap(proxySecrets)];
  const keys = [...new Set(values.filter((key) => key !== ''))];
  lastKeys = { source, keys };
  return keys;
}

/** The forms in which a value could be written: as sent, URL-encoded, base64, JSON-escaped. */
export function writtenForms(value: string): string[] {
  const forms = [
    value,
    encodeURIComponent(value),
    Buffer.from(value).toString('base64'),
    Buffer.from(value).toString('base64url'),
    JSON.stringify(value).slice(1, -1),
  ];
  return [...new Set(forms)];
}

/** A text to remove and what takes its place. */
export interface SecretForm {
  form: string;
  replacement: string;
}

/**
 * Every form of a key and of its near misses, with its replacement, longest first. A near miss
 * that holds the key keeps only its encoded forms (URL, base64): written as sent, the key in it
 * is replaced already, and cutting its quotes away could break the JSON it stands in.
 */
export function secretForms(key: string): SecretForm[] {
  if (key === '') return [];
  const own = writtenForms(key).map((form) => ({ form, replacement: redactedKey }));
  if (key.length < SHORT_KEY) return own;
  const derived = nearMisses(key).flatMap(({ token, label }) =>
    writtenForms(token)
      .filter((form) => !form.includes(key))
      .map((form) => ({ form, replacement: label })),
  );
  const seen = new Set<string>();
  return [...own, ...derived]
    .filter(({ form }) => !seen.has(form) && seen.add(form))
    .sort((a, b) => b.form.length - a.form.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Redactor = (text: string) => string;

/** Made once per key: redaction runs on every string of every step and report of a run. */
const redactors = new Map<string, Redactor>();

/** Replaces every form at once: one regular expression, the longest alternative first. */
function formsRedactor(forms: SecretForm[]): Redactor {
  if (forms.length === 0) return (text) => text;
  const replacements = new Map(forms.map(({ form, replacement }) => [form, replacement]));
  const alternatives = forms.map(({ form }) => {
    const escaped = escapeRegExp(form);
    // A short form only where it stands alone (not inside a word, a path or an encoding).
    return form.length >= SHORT_KEY ? escaped : `(?<![\\w.~+/=-])${escaped}(?![\\w.~+/=-])`;
  });
  const pattern = new RegExp(alternatives.join('|'), 'g');
  return (text) => text.replace(pattern, (found) => replacements.get(found) ?? redactedKey);
}

const sameChar = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();

/** The length of the aligned blocks a run is found by: any run of 8 holds a whole one. */
const BLOCK = SHORT_KEY / 2;

/**
 * Replaces every run of 8 or more of the key's consecutive characters, in any letter case. One
 * case-insensitive scan for the key's 4-character blocks at 0, 4, 8…: every run of 8 holds one
 * whole, and the scan is several times faster than one for its 8-character windows. Each hit is
 * then extended both ways along the key; a run of 8 or more is replaced whole.
 */
function runsRedactor(key: string): Redactor {
  // Where each block starts in the key (a key may repeat itself), by its lower-case text.
  const starts = new Map<string, number[]>();
  for (let start = 0; start + BLOCK <= key.length; start += BLOCK) {
    const block = key.slice(start, start + BLOCK).toLowerCase();
    starts.set(block, [...(starts.get(block) ?? []), start]);
  }
  const pattern = new RegExp([...starts.keys()].map(escapeRegExp).join('|'), 'gi');
  return (text) => {
    pattern.lastIndex = 0;
    let out = '';
    let copied = 0;
    for (let hit = pattern.exec(text); hit; hit = pattern.exec(text)) {
      // The longest run through this hit, over every place its block has in the key; never
      // back into what is written out already.
      let [from, to] = [hit.index, hit.index];
      for (const start of starts.get(hit[0].toLowerCase()) ?? []) {
        let before = 0;
        while (
          hit.index - before > copied &&
          sameChar(text[hit.index - before - 1], key[start - before - 1])
        ) {
          before++;
        }
        let after = BLOCK;
        while (sameChar(text[hit.index + after], key[start + after])) after++;
        if (before + after > to - from) [from, to] = [hit.index - before, hit.index + after];
      }
      if (to - from < SHORT_KEY) {
        pattern.lastIndex = hit.index + 1;
        continue;
      }
      out += text.slice(copied, from) + (to - from >= key.length ? redactedKey : redactedPart);
      copied = pattern.lastIndex = to;
    }
    return copied === 0 ? text : out + text.slice(copied);
  };
}

/** The function that removes one key: every listed form first, then any run of it. */
function redactorOf(key: string): Redactor {
  const known = redactors.get(key);
  if (known) return known;
  const forms = formsRedactor(secretForms(key));
  const runs = key.length >= SHORT_KEY ? runsRedactor(key) : (text: string) => text;
  const redactor: Redactor = (text) => runs(forms(text));
  redactors.set(key, redactor);
  return redactor;
}

/** The text with every form of one key replaced by <API_KEY>, and its near misses by labels. */
export function redactKey(text: string, key: string): string {
  return redactorOf(key)(text);
}

/** The text with every form of every key of the run (or of the keys given) replaced. */
export function redact(text: string, keys: readonly string[] = runKeys()): string {
  // Longest first: a key that contains another is replaced whole.
  return [...keys].sort((a, b) => b.length - a.length).reduce(redactKey, text);
}

/** A copy of a JSON-like value with every string redacted. */
export function redactDeep<T>(value: T, keys: readonly string[] = runKeys()): T {
  if (typeof value === 'string') return redact(value, keys) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, keys)) as T;
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([name, item]) => [name, redactDeep(item, keys)]),
    ) as T;
  }
  return value;
}
