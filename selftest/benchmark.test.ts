/**
 * The benchmark (scripts/benchmark.ts) never reaches a configured target: whatever the caller's
 * shell or .env names, its runs see no BASE_URL, no key and no targets file, so the suite starts
 * and checks the bundled reference. Checked on the environment it builds for its runs, through
 * dotenv itself (the way the suite loads .env), and on the list of variables it sets, against
 * every variable the suite reads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import dotenv from 'dotenv';
import { childEnvironment, remoteTargetIn } from '../scripts/benchmark.ts';
import { suiteVariables } from '../scripts/suite-variables.ts';
import { projectRoot } from './support/playwright.ts';

const staging = 'https://staging.example.com/v1';
const dotenvText = [
  `BASE_URL=${staging}`,
  'API_KEY=staging-key-5d1c',
  'CONFORMANCE_TARGETS=targets.json',
  'CONFORMANCE_WORKERS=1',
  'STAGING_KEY=other-key-77a0',
].join('\n');

const folder = mkdtempSync(join(tmpdir(), 'benchmark-env-'));
const dotenvFile = join(folder, '.env');
writeFileSync(dotenvFile, dotenvText);
after(() => rmSync(folder, { recursive: true, force: true }));

/** A caller whose shell names a target too, and asks dotenv to override. */
const shell: NodeJS.ProcessEnv = {
  PATH: process.env.PATH,
  HOME: '/home/someone',
  BASE_URL: staging,
  API_KEY: 'shell-key-0b2e',
  FC_SEED: '42',
  CONFORMANCE_STRICT: '1',
  DOTENV_OVERRIDE: 'true',
  NODE_OPTIONS: '--require ./somewhere.cjs',
};
const built = childEnvironment(shell, dotenv.parse(dotenvText));

test('the runs see every setting of the suite set, empty: no target, no key', () => {
  for (const name of suiteVariables) assert.equal(built[name], '', `${name} is set, empty`);
  assert.equal(built.BASE_URL, '');
  assert.equal(built.API_KEY, '');
  assert.equal(built.CONFORMANCE_TARGETS, '');
  assert.equal(built.STAGING_KEY, '', 'what else the .env names is set too, empty');
  assert.equal(built.PATH, process.env.PATH, 'the rest of the environment is inherited');
  assert.equal(built.NODE_OPTIONS, undefined, 'no NODE_OPTIONS of the caller');
  assert.equal(built.CI, '1');
});

test('dotenv, not overriding, leaves them empty', () => {
  const env: Record<string, string | undefined> = { ...built };
  dotenv.config({ path: dotenvFile, processEnv: env, override: false, quiet: true });
  assert.equal(env.BASE_URL, '');
  assert.equal(env.API_KEY, '');
  assert.equal(env.CONFORMANCE_TARGETS, '');
  assert.equal(env.CONFORMANCE_WORKERS, '');
});

// The runs read no .env file (DOTENV_PATH); without that, the empty settings alone suffice.
const readingDotenv = { ...built };
delete readingDotenv.DOTENV_PATH;
delete readingDotenv.DOTENV_CONFIG_PATH;
for (const [how, env] of [
  ['as built', built],
  ['reading the .env', readingDotenv],
] as const) {
  test(`a run loading .env as the suite does (dotenv/config) sees no target: ${how}`, () => {
    // In a folder holding the staging .env, with DOTENV_OVERRIDE=true in the caller's shell.
    const config = createRequire(import.meta.url).resolve('dotenv/config');
    const names = ['BASE_URL', 'API_KEY', 'CONFORMANCE_TARGETS', 'STAGING_KEY'];
    const run = spawnSync(
      process.execPath,
      [
        '--require',
        config,
        '-e',
        `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => process.env[n])))`,
      ],
      { cwd: folder, env, encoding: 'utf8' },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), ['', '', '', '']);
  });
}

test('the check before any run accepts that environment and refuses a leaky one', () => {
  assert.equal(remoteTargetIn(built, [dotenvFile]), undefined);
  // The benchmark as it was: BASE_URL deleted from the environment, so .env fills it in.
  const deleted: Record<string, string> = { PATH: process.env.PATH ?? '' };
  assert.match(remoteTargetIn(deleted, [dotenvFile]) ?? '', /BASE_URL would be/);
  assert.match(remoteTargetIn({ ...built, DOTENV_OVERRIDE: 'yes' }, []) ?? '', /DOTENV_OVERRIDE/);
  assert.match(remoteTargetIn({ ...built, CONFORMANCE_TARGETS: 't.json' }, []) ?? '', /TARGETS/);
});

test('every variable the suite reads is among those the benchmark sets', () => {
  const sources = [
    'playwright.config.ts',
    '.env.example',
    ...['tests', 'reference'].flatMap((dir) =>
      readdirSync(join(projectRoot, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(ts|cjs|js)$/.test(file))
        .map((file) => join(dir, file)),
    ),
  ];
  // Set for the reference by the configuration (PORT, BASE_PATH), or by the benchmark itself;
  // Node's compile cache folder (NODE_COMPILE_CACHE) is Node's, set for the workers; Playwright
  // sets TEST_WORKER_INDEX in each of its workers.
  const handled = new Set([
    ...suiteVariables,
    'PORT',
    'BASE_PATH',
    'CI',
    'NODE_OPTIONS',
    'NODE_COMPILE_CACHE',
    'TEST_WORKER_INDEX',
  ]);
  const read = new Set<string>();
  for (const file of sources) {
    const text = readFileSync(join(projectRoot, file), 'utf8');
    for (const pattern of [
      /\b(?:CONFORMANCE|FC)_[A-Z0-9_]+\b/g,
      /\benv\.([A-Z][A-Z0-9_]*)\b/g,
      /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g,
    ]) {
      for (const match of text.matchAll(pattern)) read.add(match[1] ?? match[0]);
    }
  }
  const missing = [...read].filter((name) => !handled.has(name));
  assert.deepEqual(missing, [], 'add them to suiteVariables in scripts/suite-variables.ts');
});
