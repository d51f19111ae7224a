/**
 * Run settings, read once from the environment (and `.env`, via dotenv).
 * Every variable is documented in README.md and `.env.example`. A wrong setting stops the run as
 * the configuration loads, with one message naming the variable (SetupError): nothing is sent.
 *
 * This module is evaluated in Playwright's main process and again in every worker. Values that
 * must be identical everywhere (the run id, the generated key of the bundled reference) are
 * written back to process.env by the first evaluation, which workers inherit.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import 'dotenv/config';
import { checkBaseUrl } from './base-url.ts';
import type { ConfiguredFacts } from '../reporting/summary.ts';
import { SetupError } from './setup-error.ts';

const env = process.env;

function intSetting(name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new SetupError(
      'Configuration error',
      `${name} must be an integer >= ${min} (got "${raw}"); see .env.example`,
    );
  }
  return value;
}

function boolSetting(name: string): boolean {
  const raw = env[name] ?? '';
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['', '0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new SetupError(
    'Configuration error',
    `${name} must be 1 or 0 (got "${raw}"); see .env.example`,
  );
}

/** True when no BASE_URL is configured: the suite starts and targets the bundled reference. */
export const usesReference = !env.BASE_URL;

// Redaction (reporting/redaction.ts) removes the values of these variables from every report, in
// every process of the run.
env.CONFORMANCE_SECRET_VARS = [
  ...new Set(['API_KEY', ...(env.CONFORMANCE_SECRET_VARS ?? '').split(',')]),
]
  .filter(Boolean)
  .join(',');

env.CONFORMANCE_RUN_ID ||= randomBytes(4).toString('hex');
// One fast-check seed for the whole run, shown in the report, so any failure can be replayed.
env.FC_SEED ||= String(randomBytes(4).readInt32LE());
if (usesReference) {
  // Neither address nor key is a secret here: the reference is started for this run only. The
  // port lies below Linux's ephemeral range (32768-60999): a port in it may be held by an
  // outgoing connection of an earlier run, and listening on it would fail.
  env.REFERENCE_PORT ||= String(20000 + (process.pid % 12000));
  env.API_KEY ||= `reference-${randomBytes(8).toString('hex')}`;
}

const referenceBasePath = '/api/v1';

/** The target's base address; a remote one is checked before anything is sent. */
function targetBaseUrl(): string {
  if (usesReference) return `http://127.0.0.1:${env.REFERENCE_PORT}${referenceBasePath}`;
  const checked = checkBaseUrl(env.BASE_URL ?? '', boolSetting('CONFORMANCE_ALLOW_NON_V1_BASE'));
  if (!env.API_KEY) {
    throw new SetupError(
      'Configuration error',
      'API_KEY is not set: BASE_URL points at a remote target, which needs its key. ' +
        'Set API_KEY in the environment or in .env (see .env.example).',
    );
  }
  // Once per run, not once per worker: workers inherit the marker.
  if (checked.warning && !env.CONFORMANCE_NON_V1_WARNED) {
    console.warn(checked.warning);
    env.CONFORMANCE_NON_V1_WARNED = '1';
  }
  return checked.baseUrl;
}

export const settings = {
  /** Base address of the target, ending in the version segment /v1, at any path depth. */
  baseUrl: targetBaseUrl(),
  apiKey: env.API_KEY ?? '',
  runId: env.CONFORMANCE_RUN_ID,
  referencePort: Number(env.REFERENCE_PORT),
  referenceBasePath,
  /** No answer within this many milliseconds fails the request (and names it). */
  requestTimeoutMs: intSetting('CONFORMANCE_REQUEST_TIMEOUT_MS', 10_000, 1),
  /** Upper bound for one test, all of its requests included. */
  testTimeoutMs: intSetting('CONFORMANCE_TEST_TIMEOUT_MS', 60_000, 1),
  /** At most this many pets are created on one target in one run. */
  maxPets: intSetting('CONFORMANCE_MAX_PETS', 400),
  // A remote target keeps workers waiting on the network; the bundled reference shares this
  // machine's cores with them, and a worker more than the cores only costs its start-up.
  workers: intSetting(
    'CONFORMANCE_WORKERS',
    usesReference ? Math.max(2, availableParallelism()) : 4,
    1,
  ),
  /** Only checks that create nothing run; the others are reported as skipped, with the reason. */
  readOnly: boolSetting('CONFORMANCE_READONLY'),
  /** Accept a TLS certificate the system does not trust (self-signed): test environments only. */
  insecureTls: boolSetting('CONFORMANCE_INSECURE_TLS'),
  /** A larger answer fails its request instead of being parsed. */
  maxResponseBytes: intSetting('CONFORMANCE_MAX_RESPONSE_BYTES', 10_000_000, 1),
  /** Upper bound for the whole run, preflight included (Playwright's globalTimeout). */
  runTimeoutMs: intSetting('CONFORMANCE_RUN_TIMEOUT_MS', 15 * 60_000, 1),
  /** Flagged advisories (HTTP-standard expectations beyond the document) fail the run. */
  strict: env.CONFORMANCE_STRICT === '1',
  /** fast-check: the seed of the run, the path of a counterexample to replay, runs per property. */
  fcSeed: Number(env.FC_SEED),
  fcPath: env.FC_PATH || undefined,
  fcRuns: intSetting('FC_RUNS', 20, 1),
};

/** Every pet the suite creates has a name starting with this, so staging owners can find them. */
export const petNamePrefix = `petstore-conformance:${settings.runId}:`;

/** What the reports need to know of the run, kept in the configuration's metadata (see summary.ts). */
export const runFacts: ConfiguredFacts = {
  target: settings.baseUrl,
  runId: settings.runId,
  seed: settings.fcSeed,
  strict: settings.strict,
  petNamePrefix,
};
