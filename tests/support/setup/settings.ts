/**
 * Run settings, read once from the environment (and `.env`, via dotenv).
 * Every variable is documented in docs/configuration.md and `.env.example`. A wrong setting stops
 * the run as the configuration loads, with one message naming the variable (SetupError): nothing
 * is sent.
 *
 * This module is evaluated in Playwright's main process and again in every worker. Values that
 * must be identical everywhere (the run id, the seed, the generated key of the bundled reference)
 * are written back to process.env by the first evaluation, which workers inherit.
 */
import { createHash, createPrivateKey, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createSecureContext } from 'node:tls';
import 'dotenv/config';
import { type Proxies, type Proxy, parseProxy, proxyVariables } from '../http/proxy.ts';
import type { ClientCertificate } from '../http/target-tls.ts';
import type { ConfiguredFacts } from '../reporting/summary.ts';
import { entriesFor, toleratedIds } from '../reporting/baseline.ts';
import { loadBaseline } from './baseline.ts';
import { SetupError } from './setup-error.ts';
import { type Target, loadTargets, singleTarget } from './targets.ts';

const env = process.env;
const hint = 'see .env.example';

function fail(message: string): never {
  throw new SetupError('Configuration error', message);
}

function intSetting(name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\s*-?\d+\s*$/.test(raw) || !Number.isSafeInteger(value) || value < min) {
    fail(`${name} must be an integer >= ${min} (got "${raw}"); ${hint}`);
  }
  return value;
}

function numberSetting(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    fail(`${name} must be a number above 0 (got "${raw}"); ${hint}`);
  }
  return value;
}

const truths = ['1', 'true', 'yes'];
const falsehoods = ['', '0', 'false', 'no'];

/** A switch: 1/0, true/false or yes/no, in any letter case. */
export function boolSetting(name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (truths.includes(raw)) return true;
  if (falsehoods.includes(raw)) return false;
  fail(`${name} must be 1 or 0 (also true/false, yes/no; got "${env[name]}"); ${hint}`);
}

/** The int64 values of a comma-separated list, checked. */
export function int64List(name: string, raw: string): bigint[] {
  const values = raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (values.length === 0) fail(`${name} lists no categoryId (got "${raw}"); ${hint}`);
  return values.map((value) => {
    const parsed = /^-?\d{1,19}$/.test(value) ? BigInt(value) : undefined;
    if (parsed === undefined || parsed < -(2n ** 63n) || parsed > 2n ** 63n - 1n) {
      fail(`${name} must be a comma-separated list of int64 integers (got "${value}"); ${hint}`);
    }
    return parsed;
  });
}

/** `playwright merge-reports` loads this configuration too: it needs no target and no key. */
export const merging = process.argv.includes('merge-reports');

/** True when no target is configured: the suite starts and targets the bundled reference. */
export const usesReference = !env.BASE_URL && !env.CONFORMANCE_TARGETS && !merging;

// Redaction (reporting/redaction.ts) removes the values of these variables from every report, in
// every process of the run; targets add theirs (targets.ts).
env.CONFORMANCE_SECRET_VARS = [
  ...new Set([
    'API_KEY',
    'CONFORMANCE_CLIENT_KEY_PASSPHRASE',
    ...(env.CONFORMANCE_SECRET_VARS ?? '').split(','),
  ]),
]
  .filter(Boolean)
  .join(',');

const runIdGiven = Boolean(env.CONFORMANCE_RUN_ID);
const runId = env.CONFORMANCE_RUN_ID || randomBytes(4).toString('hex');
if (!/^[A-Za-z0-9_-]{1,12}$/.test(runId)) {
  fail(
    `CONFORMANCE_RUN_ID must be 1 to 12 letters, digits, "-" or "_" (got "${runId}"): it goes ` +
      `into every pet's name; ${hint}`,
  );
}
env.CONFORMANCE_RUN_ID = runId;
// The run's main process, which its workers inherit: shards of one run on one machine share the
// run id, and each keeps its own record of the checks it has ended (reporting/progress.ts).
env.CONFORMANCE_RUN_PROCESS ||= String(process.pid);

// One fast-check seed for the whole run, shown in the report, so any failure can be replayed.
// Shards of one run (the same CONFORMANCE_RUN_ID) get the same seed without being told.
env.FC_SEED ||= String(
  runIdGiven
    ? createHash('sha256').update(runId).digest().readInt32LE()
    : randomBytes(4).readInt32LE(),
);
if (
  !/^-?\d+$/.test(env.FC_SEED) ||
  Number(env.FC_SEED) < -(2 ** 31) ||
  Number(env.FC_SEED) >= 2 ** 31
) {
  fail(`FC_SEED must be an integer from -2147483648 to 2147483647 (got "${env.FC_SEED}"); ${hint}`);
}
if (env.FC_PATH !== undefined && env.FC_PATH !== '' && !/^\d+(:\d+)*$/.test(env.FC_PATH)) {
  fail(`FC_PATH must be a counterexample path such as 3:0:1 (got "${env.FC_PATH}"); ${hint}`);
}

if (usesReference) {
  // Neither address nor key is a secret here: the reference is started for this run only. The
  // port lies below Linux's ephemeral range (32768-60999): a port in it may be held by an
  // outgoing connection of an earlier run, and listening on it would fail.
  env.REFERENCE_PORT ||= String(20000 + (process.pid % 12000));
  // No word of 8 letters in it: redaction removes any run of 8 of a key's characters.
  env.API_KEY ||= `ref-${randomBytes(8).toString('hex')}`;
}

const referenceBasePath = '/api/v1';

/** The date the run takes as today (CONFORMANCE_DATE): getPet's removal, the baseline's dates. */
function todaySetting(): Date {
  const raw = env.CONFORMANCE_DATE;
  if (!raw) return new Date();
  const date = new Date(`${raw}T12:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(date.getTime())) {
    fail(`CONFORMANCE_DATE must be a date as YYYY-MM-DD (got "${raw}"); ${hint}`);
  }
  return date;
}

/** The first of these variables that is set (not empty), and its value. */
function firstSet(names: readonly string[]): [string, string] | undefined {
  for (const name of names) {
    const value = (env[name] ?? '').trim();
    if (value !== '') return [name, value];
  }
  return undefined;
}

/** HTTPS_PROXY, HTTP_PROXY, NO_PROXY (lower case first, as curl): see http/proxy.ts. */
function proxiesSetting(): Proxies | undefined {
  const read = (names: readonly string[]): Proxy | undefined => {
    const given = firstSet(names);
    if (!given) return undefined;
    const proxy = parseProxy(given[1]);
    // The message names the variable, never its value: it may hold a password.
    if (typeof proxy === 'string') fail(`${given[0]} ${proxy}; ${hint}`);
    return proxy;
  };
  const https = read(proxyVariables.https);
  const http = read(proxyVariables.http);
  if (!https && !http) return undefined;
  const proxies: Proxies = { noProxy: firstSet(proxyVariables.noProxy)?.[1] ?? '' };
  if (https) proxies.https = https;
  if (http) proxies.http = http;
  return proxies;
}

/** CONFORMANCE_CLIENT_CERT and _KEY (PEM files), _KEY_PASSPHRASE: checked to load together. */
function clientCertificateSetting(): ClientCertificate | undefined {
  const certFile = env.CONFORMANCE_CLIENT_CERT ?? '';
  const keyFile = env.CONFORMANCE_CLIENT_KEY ?? '';
  const passphrase = env.CONFORMANCE_CLIENT_KEY_PASSPHRASE ?? '';
  if (certFile === '' && keyFile === '') {
    if (passphrase !== '')
      fail(`CONFORMANCE_CLIENT_KEY_PASSPHRASE is set without CONFORMANCE_CLIENT_KEY; ${hint}`);
    return undefined;
  }
  if (certFile === '' || keyFile === '') {
    fail(
      'CONFORMANCE_CLIENT_CERT and CONFORMANCE_CLIENT_KEY go together: the certificate and its ' +
        `key, each a PEM file; ${hint}`,
    );
  }
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      fail(
        `${name} names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}: ${file}); ${hint}`,
      );
    }
  };
  const certificate: ClientCertificate = {
    cert: read('CONFORMANCE_CLIENT_CERT', certFile),
    key: read('CONFORMANCE_CLIENT_KEY', keyFile),
  };
  if (passphrase !== '') certificate.passphrase = passphrase;
  // Loaded once here, so that a wrong file or passphrase stops the run before any request. The
  // messages name the variables, never the key or the passphrase.
  try {
    createPrivateKey({ key: certificate.key, format: 'pem', passphrase });
  } catch {
    fail(
      passphrase === '' && /ENCRYPTED/.test(certificate.key)
        ? `CONFORMANCE_CLIENT_KEY is encrypted: set CONFORMANCE_CLIENT_KEY_PASSPHRASE; ${hint}`
        : `CONFORMANCE_CLIENT_KEY is not a PEM private key${passphrase === '' ? '' : ', or CONFORMANCE_CLIENT_KEY_PASSPHRASE does not decrypt it'}; ${hint}`,
    );
  }
  try {
    createSecureContext(certificate);
  } catch {
    fail(
      `CONFORMANCE_CLIENT_CERT is not a PEM certificate for the key in CONFORMANCE_CLIENT_KEY; ${hint}`,
    );
  }
  return certificate;
}

/** Playwright's reports a run writes beside the summary, which is always written. */
export const reportFormats = ['html', 'json', 'junit', 'ctrf'] as const;
export type ReportFormat = (typeof reportFormats)[number];

/** CONFORMANCE_REPORTS: a comma-separated list of reportFormats, or none; unset: all of them. */
function reportsSetting(): ReportFormat[] {
  const raw = (env.CONFORMANCE_REPORTS ?? '').trim().toLowerCase();
  if (raw === '') return [...reportFormats];
  if (raw === 'none') return [];
  const given = raw.split(',').map((part) => part.trim());
  const unknown = given.filter((part) => !(reportFormats as readonly string[]).includes(part));
  if (unknown.length > 0 || given.length === 0) {
    fail(
      `CONFORMANCE_REPORTS must list ${reportFormats.join(', ')} (comma-separated) or be none ` +
        `(got "${env.CONFORMANCE_REPORTS}"); ${hint}`,
    );
  }
  return reportFormats.filter((format) => given.includes(format));
}

const categoryIds = env.CONFORMANCE_CATEGORY_IDS
  ? int64List('CONFORMANCE_CATEGORY_IDS', env.CONFORMANCE_CATEGORY_IDS)
  : undefined;
// The known failures of earlier versions are the baseline's entries now: one mechanism, not two.
if ((env.CONFORMANCE_KNOWN_FAILURES ?? '').trim() !== '') {
  fail(
    'CONFORMANCE_KNOWN_FAILURES is replaced by the baseline (CONFORMANCE_BASELINE): a JSON file ' +
      'whose entries each give a requirement, the reason it is tolerated and, if you like, until ' +
      'when. `petstore-conformance baseline <conformance.json>` writes one from a run (docs/ci.md)',
  );
}
const strict = boolSetting('CONFORMANCE_STRICT');
const readOnly = boolSetting('CONFORMANCE_READONLY');
/**
 * CONFORMANCE_SHARED_STORE: other clients read the target's store. The hostile inputs a store may
 * keep and then fail on for every reader (a name holding NUL, control characters or half a
 * character) are then left out, and the requirements they check are reported as not run, with
 * why; without it they are sent after every other check (tests/stored-hostile-inputs.spec.ts).
 */
const sharedStore = boolSetting('CONFORMANCE_SHARED_STORE');

/** The targets of the run: CONFORMANCE_TARGETS' file, or the one of BASE_URL (or the reference). */
function targetsOfRun(): Target[] {
  if (merging) return [];
  if (env.CONFORMANCE_TARGETS) {
    return loadTargets(env.CONFORMANCE_TARGETS, { strict, readOnly });
  }
  const baseUrl = usesReference
    ? `http://127.0.0.1:${env.REFERENCE_PORT}${referenceBasePath}`
    : (env.BASE_URL ?? '');
  return [
    singleTarget({
      baseUrl,
      remote: !usesReference,
      allowNonV1: boolSetting('CONFORMANCE_ALLOW_NON_V1_BASE'),
      categoryIds,
      strict,
      readOnly,
    }),
  ];
}

const targets = targetsOfRun();
const today = todaySetting();

/**
 * CONFORMANCE_BASELINE: the failures the gate tolerates (reporting/baseline.ts). Each target learns
 * the requirements tolerated on it today, so that a failure of those alone keeps its worker
 * (vocabulary/baselined.ts); the reports get the whole baseline through the run's facts.
 */
function baselineSetting() {
  const file = (env.CONFORMANCE_BASELINE ?? '').trim();
  if (file === '' || merging) return undefined;
  const baseline = loadBaseline(
    file,
    targets.map(({ name }) => name),
  );
  const date = today.toISOString().slice(0, 10);
  for (const target of targets) {
    const ids = toleratedIds(entriesFor(baseline, target.name), date);
    if (ids.length > 0) target.baselined = ids;
  }
  return baseline;
}

const baseline = baselineSetting();

/**
 * CONFORMANCE_SHARE_WORKERS, with several targets: the run's workers check every target, a group
 * of tests per target, instead of a project per target with workers of its own. A worker costs a
 * second or more of CPU to start, and Playwright never lends one to another project: a hundred
 * targets with four workers each start four hundred. Shared, the run starts its few, and a
 * target's tests of one section run side by side, up to the run's workers (vocabulary/checks.ts).
 */
function shareWorkersSetting(): boolean {
  const shared = boolSetting('CONFORMANCE_SHARE_WORKERS');
  if (!shared || targets.length < 2) return false;
  const own = targets.filter((target) => target.workers !== undefined).map(({ name }) => name);
  if (own.length > 0) {
    fail(
      `CONFORMANCE_SHARE_WORKERS: every target is checked by the run's workers (CONFORMANCE_WORKERS), ` +
        `so a target's own "workers" means nothing (given for ${own.join(', ')}); ${hint}`,
    );
  }
  return true;
}

/**
 * How many shards the run is split into, and which this is (`--shard=K/N`). Playwright's main
 * process reads it from the command and hands it to its workers, whose command does not carry it.
 */
function shardOfRun(): { current: number; total: number } {
  const flag = process.argv.find((arg) => arg.startsWith('--shard'));
  const given = flag?.includes('=')
    ? flag.split('=')[1]
    : flag
      ? process.argv[process.argv.indexOf(flag) + 1]
      : undefined;
  if (given !== undefined) env.CONFORMANCE_SHARD_OF_RUN = given;
  const match = /^(\d+)\/(\d+)$/.exec(given ?? env.CONFORMANCE_SHARD_OF_RUN ?? '');
  return match ? { current: Number(match[1]), total: Number(match[2]) } : { current: 1, total: 1 };
}

export const settings = {
  targets,
  /** Several targets, every worker checking each (CONFORMANCE_SHARE_WORKERS). */
  shareWorkers: shareWorkersSetting(),
  /** The base address of the first target (the only one without CONFORMANCE_TARGETS). */
  baseUrl: targets[0]?.baseUrl ?? '',
  apiKey: env.API_KEY ?? '',
  runId,
  /** This run's process on this machine: its record of the checks ended (reporting/progress.ts). */
  progressKey: `${runId}-${env.CONFORMANCE_RUN_PROCESS}`,
  referencePort: Number(env.REFERENCE_PORT),
  referenceBasePath,
  /** No answer within this many milliseconds fails the request (and names it). */
  requestTimeoutMs: intSetting('CONFORMANCE_REQUEST_TIMEOUT_MS', 10_000, 1),
  /** Upper bound for one test, all of its requests included. */
  testTimeoutMs: intSetting('CONFORMANCE_TEST_TIMEOUT_MS', 60_000, 1),
  /** At most this many create requests on one target in one run, all shards together. */
  maxPets: intSetting('CONFORMANCE_MAX_PETS', 400),
  shard: shardOfRun(),
  // A remote target keeps workers waiting on the network. The bundled reference answers in
  // Playwright's main process, beside the runner and the reporters: that process gets a core, the
  // workers the others (on two cores one worker is as fast as two, with a fifth less CPU).
  workers: intSetting(
    'CONFORMANCE_WORKERS',
    usesReference ? Math.max(1, availableParallelism() - 1) : 4,
    1,
  ),
  /** Only checks that create nothing run; the others are reported as skipped, with the reason. */
  readOnly,
  /** Other clients read the store: the hostile inputs a store may keep are left out. */
  sharedStore,
  /** Accept a TLS certificate the system does not trust (self-signed): test environments only. */
  insecureTls: boolSetting('CONFORMANCE_INSECURE_TLS'),
  /** How the guard reaches a target: a client certificate (mutual TLS), forward proxies. */
  connection: {
    clientCertificate: merging ? undefined : clientCertificateSetting(),
    proxies: merging ? undefined : proxiesSetting(),
  },
  /** A larger answer fails its request instead of being parsed. */
  maxResponseBytes: intSetting('CONFORMANCE_MAX_RESPONSE_BYTES', 10_000_000, 1),
  /** Upper bound for the whole run, preflight included (Playwright's globalTimeout). */
  runTimeoutMs: intSetting('CONFORMANCE_RUN_TIMEOUT_MS', 15 * 60_000, 1),
  /** Requests a second, across the run's workers, per target (0, unset: as fast as answers come). */
  pace: numberSetting('CONFORMANCE_RATE', 0),
  /** The run waits at most this long in all for a target that asks it to (429, 503). */
  maxWaitMs: intSetting('CONFORMANCE_MAX_WAIT_S', 300, 0) * 1000,
  /** Playwright's reports written beside the summary (each costs time as tests end). */
  reports: reportsSetting(),
  /** Flagged advisories (HTTP-standard expectations beyond the document) fail the run. */
  strict,
  /** The categoryIds the target accepts (CONFORMANCE_CATEGORY_IDS), when it declared them. */
  categoryIds,
  /** The date the run takes as today. */
  today,
  /** fast-check: the seed of the run, the path of a counterexample to replay, runs per property. */
  fcSeed: Number(env.FC_SEED),
  fcPath: env.FC_PATH || undefined,
  /** A sequence of commands (fc.commands) replays with its replay path too. */
  fcReplayPath: env.FC_REPLAY_PATH || undefined,
  fcRuns: intSetting('FC_RUNS', 20, 1),
};

/** Every pet the suite creates has this in its name, so staging owners can find them. */
export const petNamePrefix = `conformance-${settings.runId}-`;

/**
 * CONFORMANCE_NAME_MAX_BYTES: the longest name, in UTF-8 bytes, that the suite makes for itself
 * and every target must take (default 32). The document leaves names' size limits open (section
 * 8), so a target whose names are shorter sets it. Room is left for the run's marker and a tail
 * of eight (vocabulary/names.ts): a shorter CONFORMANCE_RUN_ID makes the marker shorter.
 */
const nameRoom = Buffer.byteLength(petNamePrefix) + 8;
export const nameMaxBytes = intSetting('CONFORMANCE_NAME_MAX_BYTES', 32, 1);
if (nameMaxBytes < nameRoom) {
  fail(
    `CONFORMANCE_NAME_MAX_BYTES=${nameMaxBytes} leaves no room for the run's marker ` +
      `(${petNamePrefix}, ${nameRoom - 8} bytes) and a tail of 8 that makes each name unique: ` +
      `it must be ${nameRoom} or more, or set a shorter CONFORMANCE_RUN_ID; ${hint}`,
  );
}

/** What the reports need to know of the run, kept in the configuration's metadata (see summary.ts). */
export const runFacts: ConfiguredFacts = {
  target: settings.baseUrl,
  runId: settings.runId,
  progressKey: settings.progressKey,
  seed: settings.fcSeed,
  strict: settings.strict,
  petNamePrefix,
  settings: {
    readOnly: settings.readOnly,
    sharedStore: settings.sharedStore,
    maxPets: settings.maxPets,
    shards: settings.shard.total,
    requestTimeoutMs: settings.requestTimeoutMs,
    testTimeoutMs: settings.testTimeoutMs,
    pace: settings.pace,
    maxWaitS: settings.maxWaitMs / 1000,
    categoryIds: settings.categoryIds?.join(',') ?? '',
    nameMaxBytes,
    date: settings.today.toISOString().slice(0, 10),
    fcRuns: settings.fcRuns,
  },
  ...(baseline ? { baseline } : {}),
};
