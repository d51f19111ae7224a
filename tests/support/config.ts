/**
 * Run settings, read once from the environment (and `.env`, via dotenv).
 * Every variable is documented in README.md and `.env.example`.
 *
 * This module is evaluated in Playwright's main process and again in every worker. Values that
 * must be identical everywhere (the run id, the generated key of the bundled reference) are
 * written back to process.env by the first evaluation, which workers inherit.
 */
import { randomBytes } from 'node:crypto';
import 'dotenv/config';

const env = process.env;

function intSetting(name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min} (got "${raw}"); see .env.example`);
  }
  return value;
}

/** True when no BASE_URL is configured: the suite starts and targets the bundled reference. */
export const usesReference = !env.BASE_URL;

env.CONFORMANCE_RUN_ID ||= randomBytes(4).toString('hex');
// One fast-check seed for the whole run, shown in the report, so any failure can be replayed.
env.FC_SEED ||= String(randomBytes(4).readInt32LE());
if (usesReference) {
  // Neither address nor key is a secret here: the reference is started for this run only.
  env.REFERENCE_PORT ||= String(41000 + (process.pid % 8000));
  env.API_KEY ||= `reference-${randomBytes(8).toString('hex')}`;
}

const referenceBasePath = '/api/v1';

export const settings = {
  /** Base address of the target, ending in the version segment /v1, at any path depth. */
  baseUrl: (env.BASE_URL ?? `http://127.0.0.1:${env.REFERENCE_PORT}${referenceBasePath}`).replace(
    /\/+$/,
    '',
  ),
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
  workers: intSetting('CONFORMANCE_WORKERS', 4, 1),
  /** fast-check: the seed of the run, the path of a counterexample to replay, runs per property. */
  fcSeed: Number(env.FC_SEED),
  fcPath: env.FC_PATH || undefined,
  fcRuns: intSetting('FC_RUNS', 20, 1),
};

/** Every pet the suite creates has a name starting with this, so staging owners can find them. */
export const petNamePrefix = `petstore-conformance:${settings.runId}:`;
