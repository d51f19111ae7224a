/**
 * Redaction: the one place that removes the API key from text that may reach a report, a log or
 * the console. The client, the preflight, the reporters and the release bundle all call it.
 *
 * Which keys: the values of the environment variables named in CONFORMANCE_SECRET_VARS (set by
 * the run's settings as the configuration loads: API_KEY, and each target's key variable), so
 * every process of a run (runner, workers, reporters) redacts the same keys without importing
 * the settings.
 *
 * The key is removed in every form a run could write it: as sent, URL-encoded, and base64 (a
 * Basic credential). A key shorter than 8 characters is removed only where it stands alone:
 * cutting a 1-letter key out of every word would make the reports unreadable, and so short a key
 * keeps nothing secret anyway.
 */
export const redactedKey = '<API_KEY>';

const SHORT_KEY = 8;

/** The keys of this run, from the variables the settings named (API_KEY at least). */
export function runKeys(env: NodeJS.ProcessEnv = process.env): string[] {
  const names = (env.CONFORMANCE_SECRET_VARS ?? 'API_KEY').split(',').filter(Boolean);
  return [...new Set(names.map((name) => env[name] ?? '').filter((key) => key !== ''))];
}

/** The forms in which a key could be written, longest first. */
export function secretForms(key: string): string[] {
  if (key === '') return [];
  const forms = [
    key,
    encodeURIComponent(key),
    Buffer.from(key).toString('base64'),
    Buffer.from(key).toString('base64url'),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Redactor = (text: string) => string;

/** Made once per key: redaction runs on every string of every step and report of a run. */
const redactors = new Map<string, Redactor>();

/** The function that replaces every form of one key, longest form first. */
function redactorOf(key: string): Redactor {
  const known = redactors.get(key);
  if (known) return known;
  const steps = secretForms(key).map((form): Redactor => {
    if (form.length >= SHORT_KEY) {
      return (text) => (text.includes(form) ? text.split(form).join(redactedKey) : text);
    }
    const alone = new RegExp(`(?<![\\w.~+/=-])${escapeRegExp(form)}(?![\\w.~+/=-])`, 'g');
    return (text) => (text.includes(form) ? text.replace(alone, redactedKey) : text);
  });
  const redactor: Redactor = (text) => steps.reduce((out, step) => step(out), text);
  redactors.set(key, redactor);
  return redactor;
}

/** The text with every form of one key replaced by <API_KEY>. */
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
