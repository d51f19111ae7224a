/**
 * Checks the configured BASE_URL before anything is sent, so that a typo is one clear line and
 * not forty failing tests. Paths are appended to it as text, so it must be a plain http(s)
 * address: no query, no fragment.
 */
import { SetupError } from './setup-error.ts';

const where = 'in the environment or in .env (see .env.example)';
const example = 'e.g. https://staging.example.com/petstore/api/v1';

export interface CheckedBaseUrl {
  /** Without trailing slashes. */
  baseUrl: string;
  /** Set when the path does not end in /v1 and CONFORMANCE_ALLOW_NON_V1_BASE=1 allows it. */
  warning?: string;
}

/** The address as it may be shown: user information (a password, maybe a key) masked. */
export function shownUrl(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@');
}

export function checkBaseUrl(raw: string, allowNonV1: boolean): CheckedBaseUrl {
  const shown = shownUrl(raw);
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SetupError(
      'Configuration error',
      `BASE_URL "${shown}" is not an http:// or https:// address. Set BASE_URL to the target's ` +
        `base address, ending in /v1 (${example}), ${where}; leave it unset to check the bundled reference.`,
    );
  }
  if (url.search || url.hash || /[?#]/.test(raw)) {
    throw new SetupError(
      'Configuration error',
      `BASE_URL "${shown}" carries a query or a fragment. Set BASE_URL to the plain base address, ` +
        `ending in /v1 (${example}), ${where}.`,
    );
  }
  const baseUrl = raw.replace(/\/+$/, '');
  if (/\/v1$/.test(url.pathname.replace(/\/+$/, ''))) return { baseUrl };
  const problem =
    `BASE_URL "${shown}" does not end in /v1: the interface's paths are relative to a base ` +
    `address ending in the version segment v1 (${example}).`;
  if (!allowNonV1) {
    throw new SetupError(
      'Configuration error',
      `${problem} Fix BASE_URL ${where}, or set CONFORMANCE_ALLOW_NON_V1_BASE=1 to check this ` +
        'address anyway.',
    );
  }
  return {
    baseUrl,
    warning: `Warning: ${problem} Checking it anyway (CONFORMANCE_ALLOW_NON_V1_BASE=1); the BASE-V1 check will fail.`,
  };
}
