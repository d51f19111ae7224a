/**
 * Removing the API key from text that may reach a report, a log or the console.
 *
 * The key is removed in every form a run could write it: as sent, URL-encoded, and base64 (a
 * Basic credential). A key shorter than 8 characters is removed only where it stands alone:
 * cutting a 1-letter key out of every word would make the reports unreadable, and so short a key
 * keeps nothing secret anyway.
 */
export const redactedKey = '<API_KEY>';

const SHORT_KEY = 8;

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

/** The text with every form of the key replaced by <API_KEY>. */
export function redactKey(text: string, key: string): string {
  return secretForms(key).reduce(
    (out, form) =>
      form.length >= SHORT_KEY
        ? out.split(form).join(redactedKey)
        : out.replace(
            new RegExp(`(?<![\\w.~+/=-])${escapeRegExp(form)}(?![\\w.~+/=-])`, 'g'),
            redactedKey,
          ),
    text,
  );
}
