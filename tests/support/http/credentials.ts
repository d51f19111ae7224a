/**
 * Credentials the suite sends besides the key: wrong ones that must each be refused with 401
 * (section 5). Their labels describe them for reports and never hold the key.
 */
import type { Credentials } from './client.ts';

/** Wrong credentials that must each be refused with 401 (section 5). */
export function invalidCredentials(apiKey: string): Credentials[] {
  return [
    { authorization: 'Bearer not-the-key-0123456789', label: 'Bearer <a wrong key>' },
    { authorization: `Basic ${apiKey}`, label: 'Basic <API_KEY>' },
    { authorization: apiKey, label: '<API_KEY> (no scheme)' },
    { authorization: 'Bearer ', label: 'Bearer (empty token)' },
    { authorization: `Bearer ${apiKey}x`, label: 'Bearer <API_KEY>x (characters appended)' },
  ];
}
