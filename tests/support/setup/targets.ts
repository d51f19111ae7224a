/**
 * The targets of a run. Without CONFORMANCE_TARGETS there is one: BASE_URL with API_KEY (or the
 * bundled reference). With it, a JSON file holds an array of targets, each
 * `{ "name", "baseUrl", "apiKeyEnv", "readOnly"?, "categoryIds"?, "strict"?, "workers"? }`,
 * where apiKeyEnv names the environment variable that holds the target's key: keys never go in
 * the file. Each target becomes a Playwright project of its own (playwright.config.ts), and all
 * run in parallel.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { catalogue } from '../../../requirements/catalogue.ts';
import { checkBaseUrl } from './base-url.ts';
import { SetupError } from './setup-error.ts';

export interface Target {
  /** The project's name; '' for the one target of BASE_URL. */
  name: string;
  /** Without trailing slashes, ending in /v1. */
  baseUrl: string;
  /** The environment variable that holds the target's key. */
  apiKeyEnv: string;
  /** Only checks that create nothing run against it. */
  readOnly: boolean;
  /** Flagged advisories fail its run. */
  strict: boolean;
  /** The categoryIds it accepts, as decimal strings (a project's options are JSON). */
  categoryIds?: string[];
  /**
   * The requirements whose failures the baseline tolerates on this target today
   * (CONFORMANCE_BASELINE): a test failing on those alone is marked expected, its worker kept.
   */
  baselined?: string[];
  /** Workers checking it at once, in a run of several targets (default 1). */
  workers?: number;
}

const where = 'in the environment or in .env (see .env.example)';

function fail(message: string): never {
  throw new SetupError('Configuration error', message);
}

function int64Strings(owner: string, values: unknown): string[] {
  if (!Array.isArray(values) || values.length === 0) {
    fail(`${owner}: categoryIds must be a non-empty array of int64 integers`);
  }
  return values.map((value) => {
    const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
    const exact = /^-?\d{1,19}$/.test(text) ? BigInt(text) : undefined;
    if (
      exact === undefined ||
      exact < -(2n ** 63n) ||
      exact > 2n ** 63n - 1n ||
      (typeof value === 'number' && !Number.isSafeInteger(value))
    ) {
      fail(
        `${owner}: categoryIds must hold int64 integers (got ${JSON.stringify(value)}; write ` +
          'those beyond 2^53 as strings, e.g. "9223372036854775807")',
      );
    }
    return exact.toString();
  });
}

const conformanceIds = new Set<string>(
  catalogue.requirements.filter((item) => item.kind !== 'advisory').map((item) => item.id),
);

/** Requirement IDs, each of the catalogue and none an advisory (advisories never fail a run). */
export function requirementIdList(owner: string, values: unknown): string[] {
  if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
    fail(`${owner} must be a list of requirement IDs (got ${JSON.stringify(values)})`);
  }
  const unknown = (values as string[]).filter((id) => !conformanceIds.has(id));
  if (unknown.length > 0) {
    fail(
      `${owner}: ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} no requirement of ` +
        'the catalogue (requirements/catalogue.json; advisories never fail a run)',
    );
  }
  return [...new Set(values as string[])];
}

/** The one target of BASE_URL (or of the bundled reference), checked. */
export function singleTarget(options: {
  baseUrl: string;
  remote: boolean;
  allowNonV1: boolean;
  categoryIds?: readonly bigint[];
  strict: boolean;
  readOnly: boolean;
}): Target {
  let baseUrl = options.baseUrl;
  if (options.remote) {
    const checked = checkBaseUrl(baseUrl, options.allowNonV1);
    baseUrl = checked.baseUrl;
    if (!process.env.API_KEY) {
      fail(
        'API_KEY is not set: BASE_URL points at a remote target, which needs its key. ' +
          `Set API_KEY ${where}.`,
      );
    }
    // Once per run, not once per worker: workers inherit the marker.
    if (checked.warning && !process.env.CONFORMANCE_NON_V1_WARNED) {
      console.warn(checked.warning);
      process.env.CONFORMANCE_NON_V1_WARNED = '1';
    }
  }
  const target: Target = {
    name: '',
    baseUrl,
    apiKeyEnv: 'API_KEY',
    readOnly: options.readOnly,
    strict: options.strict,
  };
  if (options.categoryIds) target.categoryIds = options.categoryIds.map(String);
  return target;
}

/** The targets listed in a CONFORMANCE_TARGETS file, each checked; their key variables redacted. */
export function loadTargets(
  file: string,
  defaults: { strict: boolean; readOnly: boolean },
): Target[] {
  const path = resolve(file);
  let listed: unknown;
  try {
    listed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`CONFORMANCE_TARGETS: ${path} is not a readable JSON file (${(error as Error).message})`);
  }
  if (!Array.isArray(listed) || listed.length === 0) {
    fail(`CONFORMANCE_TARGETS: ${path} must hold a non-empty JSON array of targets`);
  }
  const names = new Set<string>();
  const targets = listed.map((entry: unknown, index): Target => {
    const owner = `CONFORMANCE_TARGETS: target ${index + 1}`;
    if (entry === null || typeof entry !== 'object') fail(`${owner} is not an object`);
    const item = entry as Record<string, unknown>;
    const name = item.name;
    if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
      fail(`${owner}: "name" must be 1 to 64 letters, digits, ".", "-" or "_" (it names a folder)`);
    }
    if (names.has(name)) fail(`${owner}: the name "${name}" is taken by an earlier target`);
    names.add(name);
    const baseUrl = typeof item.baseUrl === 'string' ? item.baseUrl : '';
    const checked = checkBaseUrl(baseUrl, false);
    const apiKeyEnv = item.apiKeyEnv;
    if (typeof apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(apiKeyEnv)) {
      fail(`${owner} (${name}): "apiKeyEnv" must name the environment variable holding its key`);
    }
    if (!process.env[apiKeyEnv]) {
      fail(`${owner} (${name}): the variable ${apiKeyEnv} holding its key is not set ${where}`);
    }
    if ('apiKey' in item || 'key' in item) {
      fail(
        `${owner} (${name}): keys never go in the targets file; name the variable in "apiKeyEnv"`,
      );
    }
    for (const flag of ['readOnly', 'strict'] as const) {
      if (item[flag] !== undefined && typeof item[flag] !== 'boolean') {
        fail(`${owner} (${name}): "${flag}" must be true or false`);
      }
    }
    const target: Target = {
      name,
      baseUrl: checked.baseUrl,
      apiKeyEnv,
      readOnly: (item.readOnly as boolean | undefined) ?? defaults.readOnly,
      strict: (item.strict as boolean | undefined) ?? defaults.strict,
    };
    if (item.categoryIds !== undefined)
      target.categoryIds = int64Strings(`${owner} (${name})`, item.categoryIds);
    if (item.knownFailures !== undefined) {
      fail(
        `${owner} (${name}): "knownFailures" is replaced by the baseline (CONFORMANCE_BASELINE): ` +
          `list each as an entry with "target": "${name}" and its reason (docs/ci.md)`,
      );
    }
    if (item.workers !== undefined) {
      if (!Number.isSafeInteger(item.workers) || (item.workers as number) < 1) {
        fail(`${owner} (${name}): "workers" must be an integer of at least 1`);
      }
      target.workers = item.workers as number;
    }
    return target;
  });
  // Redaction removes every target's key from every report.
  process.env.CONFORMANCE_SECRET_VARS = [
    ...new Set([
      ...(process.env.CONFORMANCE_SECRET_VARS ?? '').split(','),
      ...targets.map((t) => t.apiKeyEnv),
    ]),
  ]
    .filter(Boolean)
    .join(',');
  return targets;
}
