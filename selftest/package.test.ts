/**
 * The suite as its users get it: `npm pack` (which builds dist/ through prepack), the tarball
 * installed into an empty folder outside the checkout, and its command run there, as a team that
 * never cloned this repository runs it. Each exit code a CI system branches on is met once:
 * 0 against `serve` and for a merge, 1 against a faulty target (the broken requirement named),
 * 2 when the preflight stops the run, 3 for a bad setting and for a key on the command line.
 * Reports land in the current folder, never inside node_modules; `.env` is read from the current
 * folder; two shards merge into one run's reports; `compare` tells what changed between two
 * summaries.
 *
 * The gate with a baseline (issue 42), each on a run the file makes anyway: the faulty target
 * with an empty baseline exits 1; with a baseline listing its deviation (two targets, the entry
 * scoped to the faulty one) 0; the conformant bundled reference with that baseline 1, the entry
 * named as fixed. conformance.md, ctrf.json (valid against CTRF's schema, from the `ctrf`
 * package) and badge.json agree with conformance.json; the key is in none of them. `bundle`, then
 * `verify`: 0 for a complete run, 1 with one file of the bundle changed, 2 for a --grep run's.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schema as ctrfSchema } from 'ctrf';
import { create, extract } from 'tar';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import { suiteVariables } from '../scripts/suite-variables.ts';
import { leakForms, scanFolder } from './support/leak-scan.ts';
import { type ProcessResult, projectRoot, spawnNode } from './support/playwright.ts';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const home = mkdtempSync(join(tmpdir(), 'petstore-package-'));
const user = join(home, 'user');
const bin = join(user, 'node_modules/petstore-conformance/dist/cli/main.js');
const installed = join(user, 'node_modules/petstore-conformance');
const version: string = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version;

/** A baseline that tolerates the faulty target's deviation (and nothing else). */
const tolerateDefault = (target?: string) => ({
  failures: [
    {
      requirement: 'LIST-LIMIT-DEFAULT',
      reason: 'PET-42: the default page size is 10 until the next release',
      until: '2099-12-31',
      ...(target ? { target } : {}),
    },
  ],
});

interface Written {
  verdict: string;
  gate: { code: number; why: string; newFailures: string[] };
  totals: { requirements: { failed: number; passed: number; total: number } };
  requirements: { id: string; verdict: string; words: string }[];
  tests: { outcome: string }[];
}

const validateCtrf = (() => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(ctrfSchema);
})();

/**
 * The reports a run wrote beside conformance.json, each held to it: conformance.md's verdict line
 * and failed requirements, badge.json's message, ctrf.json valid and one test per check with the
 * failures conformance.json counts.
 */
function reportsAgree(dir: string): Written {
  const read = (name: string) => readFileSync(join(user, dir, name), 'utf8');
  const summary = JSON.parse(read('conformance.json')) as Written;
  const counts = summary.totals.requirements;
  const markdown = read('conformance.md');
  assert.ok(
    markdown.includes(
      `**${summary.verdict}**: ${counts.passed} of ${counts.total} requirements passed`,
    ),
    `${dir}/conformance.md: the verdict line\n${markdown}`,
  );
  assert.ok(markdown.includes(`**Gate: exit ${summary.gate.code}**`), markdown);
  for (const item of summary.requirements.filter((one) => one.verdict === 'failed')) {
    assert.match(
      markdown,
      new RegExp(`\\| \`${item.id}\` §[\\d.]+ \\| failed`),
      `${dir}: ${item.id}`,
    );
  }
  const badge = JSON.parse(read('badge.json')) as {
    schemaVersion: number;
    message: string;
    color: string;
  };
  assert.equal(badge.schemaVersion, 1);
  assert.deepEqual(
    [badge.message, badge.color],
    counts.failed > 0
      ? [`${counts.failed} of ${counts.total} failed`, 'red']
      : ['conformant', 'brightgreen'],
  );
  const ctrf = JSON.parse(read('ctrf.json'));
  const valid = validateCtrf(ctrf);
  assert.ok(valid, `${dir}/ctrf.json: ${JSON.stringify(validateCtrf.errors?.slice(0, 3))}`);
  const tests = (ctrf as { results: { tests: { status: string; tags: string[] }[] } }).results
    .tests;
  assert.equal(tests.length, summary.tests.length, 'one CTRF test per check');
  assert.equal(
    tests.filter((test) => test.status === 'failed').length,
    summary.tests.filter((test) => test.outcome === 'failed').length,
    'the same failed checks: a failure the baseline tolerates too',
  );
  assert.ok(
    tests.every((test) => test.tags.some((tag) => /^@[A-Z]/.test(tag))),
    'requirement IDs as tags',
  );
  return summary;
}

let tarball = '';
let packed: { path: string }[] = [];
let faulty: ReferenceHandle;
const faultyKey = 'pkg-fault-key-7c2d91';

/** The installed command, in the user's folder; killed after a minute. */
function command(args: string[], env: Record<string, string> = {}): Promise<ProcessResult> {
  return spawnNode([bin, ...args], { CI: '1', ...env }, 60_000, [], user);
}

before(async () => {
  const out = execFileSync(npm, ['pack', '--json', '--pack-destination', home], {
    cwd: projectRoot,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // npm prints prepack's own output before the JSON on stdout.
  const [report] = JSON.parse(out.slice(out.indexOf('\n[') + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  tarball = join(home, report!.filename);
  packed = report!.files;
  mkdirSync(user);
  execFileSync(npm, ['init', '-y'], { cwd: user, stdio: 'ignore' });
  // The dependencies come from npm's cache where `npm ci` left them: offline when it can be.
  execFileSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], {
    cwd: user,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  faulty = await startReference({ apiKey: faultyKey, variant: 'list-default-10' });
});

after(async () => {
  await faulty?.close();
  rmSync(home, { recursive: true, force: true });
});

test('the tarball carries the built suite, the reference, the schemas, the catalogue and the docs, and no self-test, under 5 MB', () => {
  const paths = packed.map((file) => file.path);
  for (const wanted of [
    'dist/cli/main.js',
    'dist/playwright.config.js',
    'dist/tests/listPets.spec.js',
    'dist/reference/src/server.js',
    'dist/requirements/catalogue.json',
    'dist/schemas/Pet.json',
    'README.md',
    'docs/configuration.md',
  ]) {
    assert.ok(paths.includes(wanted), `${wanted} is not in the tarball`);
  }
  const strays = paths.filter((path) => /^(selftest|scripts)\/|\.ts$/.test(path));
  assert.deepEqual(strays, [], 'self-tests, scripts or TypeScript sources in the tarball');
  assert.ok(statSync(tarball).size < 5 * 1024 * 1024, `${tarball} is 5 MB or more`);
});

test('--version and --help', async () => {
  const shown = await command(['--version']);
  assert.equal(shown.exitCode, 0, shown.output);
  assert.equal(shown.output.trim(), version);
  const help = await command(['--help']);
  assert.equal(help.exitCode, 0, help.output);
  for (const option of [
    '--base-url',
    '--read-only',
    '--report-dir',
    '--grep',
    '--targets',
    '--share-workers',
  ]) {
    assert.ok(help.output.includes(option), `--help does not name ${option}`);
  }
  for (const line of ['0  conformant', '1  not conformant', '2  incomplete', '3  a usage']) {
    assert.ok(help.output.includes(line), `--help does not explain exit code "${line}"`);
  }
});

test('against the bundled reference, with a baseline listing a requirement it passes: exit 1, the entry named as fixed; the reports in the current folder, nothing inside node_modules', async () => {
  writeFileSync(join(user, 'tolerate-default.json'), JSON.stringify(tolerateDefault()));
  const run = await command(['--baseline', 'tolerate-default.json']);
  assert.equal(run.exitCode, 1, run.output);
  assert.match(run.output, /Conformance: (\d+) of \1 requirements passed\./);
  assert.match(
    run.output,
    /petstore-conformance: exit 1, the baseline is out of date: LIST-LIMIT-DEFAULT passed \(fixed: remove it from tolerate-default\.json\)/,
  );
  for (const report of ['conformance.json', 'conformance.html', 'html/index.html', 'junit.xml']) {
    assert.ok(existsSync(join(user, 'conformance-reports', report)), `no ${report}`);
  }
  const summary = reportsAgree('conformance-reports');
  assert.equal(summary.verdict, 'conformant');
  assert.match(
    readFileSync(join(user, 'conformance-reports', 'conformance.md'), 'utf8'),
    /`LIST-LIMIT-DEFAULT` \*\*passed\*\*: fixed/,
  );
  for (const stray of ['reports', 'test-results', 'conformance-reports']) {
    assert.ok(!existsSync(join(installed, stray)), `the run wrote ${stray} inside node_modules`);
  }
});

test('against a faulty target with an empty baseline: exit 1, the new failure named first; its reports agree, the key nowhere', async () => {
  writeFileSync(join(user, 'empty-baseline.json'), JSON.stringify({ failures: [] }));
  const run = await command(
    [
      '--base-url',
      faulty.baseUrl,
      '--report-dir',
      'faulty',
      // One worker, as every run here (spawnNode's CONFORMANCE_WORKERS): a second costs about 2 s
      // of CPU to start, and nothing asserted depends on how many check the target.
      '--workers',
      '1',
      '--baseline',
      'empty-baseline.json',
    ],
    { API_KEY: faultyKey },
  );
  assert.equal(run.exitCode, 1, run.output);
  assert.match(run.output, /1 failed \(failed: LIST-LIMIT-DEFAULT\)/);
  assert.match(
    run.output,
    /petstore-conformance: exit 1, not conformant: new failures LIST-LIMIT-DEFAULT \(1 of \d+ requirements failed\)/,
  );
  const summary = reportsAgree('faulty');
  assert.deepEqual(summary.gate.newFailures, ['LIST-LIMIT-DEFAULT']);
  // Its bundle, scanned with the rest of the folder.
  const bundled = await command(['bundle', '--report-dir', 'faulty']);
  assert.equal(bundled.exitCode, 0, bundled.output);
  const forms = leakForms(faultyKey);
  assert.deepEqual(scanFolder(join(user, 'faulty'), forms), []);
  for (const output of [run.output, bundled.output]) {
    assert.ok(!output.includes(faultyKey), 'the key is in the output');
  }
  // The baseline the run makes lists its one failure.
  const made = await command(['baseline', join(user, 'faulty', 'conformance.json')]);
  assert.equal(made.exitCode, 0, made.output);
  assert.deepEqual(
    (JSON.parse(made.output) as { failures: { requirement: string }[] }).failures.map(
      (entry) => entry.requirement,
    ),
    ['LIST-LIMIT-DEFAULT'],
  );
});

test('compare: what the faulty target newly fails, exit 1; the other way round, newly passed, exit 0', async () => {
  const [clean, broken] = ['conformance-reports', 'faulty'].map((dir) =>
    join(user, dir, 'conformance.json'),
  );
  const worse = await command(['compare', clean!, broken!]);
  assert.equal(worse.exitCode, 1, worse.output);
  assert.match(worse.output, /Newly failed \(1\)\n {2}LIST-LIMIT-DEFAULT\n/);
  const better = await command(['compare', broken!, clean!]);
  assert.equal(better.exitCode, 0, better.output);
  assert.match(better.output, /Newly failed \(0\)\nNewly passed \(1\)\n {2}LIST-LIMIT-DEFAULT\n/);
});

test("several targets sharing the workers (--targets, --share-workers), the faulty one's deviation in the baseline: a summary each, exit 0", async () => {
  const cleanKey = 'pkg-many-key-2b';
  const clean = await startReference({ apiKey: cleanKey });
  try {
    writeFileSync(
      join(user, 'targets.json'),
      JSON.stringify([
        { name: 'clean', baseUrl: clean.baseUrl, apiKeyEnv: 'CLEAN_KEY' },
        { name: 'faulty', baseUrl: faulty.baseUrl, apiKeyEnv: 'FAULTY_KEY' },
      ]),
    );
    writeFileSync(join(user, 'tolerate-faulty.json'), JSON.stringify(tolerateDefault('faulty')));
    const run = await command(
      [
        '--targets',
        'targets.json',
        '--share-workers',
        '--report-dir',
        'many',
        '--baseline',
        'tolerate-faulty.json',
      ],
      { CLEAN_KEY: cleanKey, FAULTY_KEY: faultyKey },
    );
    assert.equal(run.exitCode, 0, run.output);
    assert.match(
      run.output,
      /exit 0, 2 targets, the worst faulty: not conformant, every failure tolerated by tolerate-faulty\.json: LIST-LIMIT-DEFAULT until 2099-12-31/,
    );
    const summaryOf = (name: string) =>
      JSON.parse(readFileSync(join(user, 'many', 'targets', name, 'conformance.json'), 'utf8')) as {
        verdict: string;
        requirements: { id: string; verdict: string }[];
      };
    assert.equal(summaryOf('clean').verdict, 'conformant', run.output);
    assert.deepEqual(
      summaryOf('faulty')
        .requirements.filter((item) => item.verdict === 'failed')
        .map((item) => item.id),
      ['LIST-LIMIT-DEFAULT'],
    );
    for (const key of [cleanKey, faultyKey]) {
      assert.deepEqual(scanFolder(join(user, 'many'), leakForms(key)), []);
      assert.ok(!run.output.includes(key), 'a key is in the output');
    }
  } finally {
    await clean.close();
  }
});

test('two shards of one run, then merge: the reports of one run, exit 0', async () => {
  const shared = await startReference({ apiKey: 'pkg-shard-key-4', seedPets: 120 });
  try {
    const shard = (part: string) =>
      command(['--base-url', shared.baseUrl, '--shard', part, '--report-dir', `shard-${part[0]}`], {
        API_KEY: 'pkg-shard-key-4',
        CONFORMANCE_RUN_ID: 'pkgshard',
      });
    const [first, second] = [await shard('1/2'), await shard('2/2')];
    for (const run of [first, second]) assert.notEqual(run.exitCode, 1, run.output);
    const blobs = join(user, 'blobs');
    mkdirSync(blobs);
    for (const part of ['1', '2']) {
      for (const name of readdirSync(join(user, `shard-${part}`, 'blob'))) {
        copyFileSync(join(user, `shard-${part}`, 'blob', name), join(blobs, name));
      }
    }
    const merged = await command(['merge', blobs, '--report-dir', 'merged']);
    assert.equal(merged.exitCode, 0, merged.output);
    assert.match(merged.output, /Conformance: (\d+) of \1 requirements passed\./);
    assert.ok(existsSync(join(user, 'merged', 'conformance.html')));
  } finally {
    await shared.close();
  }
});

test('a preflight stop: exit 2', async () => {
  // A port that was listening a moment ago and is closed now: nothing answers there.
  const gone = await startReference({ apiKey: 'gone-key-1' });
  await gone.close();
  const run = await command(['--base-url', gone.baseUrl, '--report-dir', 'stopped'], {
    API_KEY: 'gone-key-1',
  });
  assert.equal(run.exitCode, 2, run.output);
  assert.match(run.output, /Preflight failed: the target is unreachable/);
});

test('a bad setting, a key on the command line, an unknown option: exit 3, nothing sent', async () => {
  let requests = 0;
  const listener = createServer((_, response) => {
    requests += 1;
    response.end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/api/v1`;
  try {
    const badRate = await command(['--base-url', target], {
      API_KEY: 'pkg-any-key-31',
      CONFORMANCE_RATE: '-1',
    });
    assert.equal(badRate.exitCode, 3, badRate.output);
    assert.match(badRate.output, /CONFORMANCE_RATE must be a number above 0/);
    const keyed = await command(['--base-url', target, '--api-key', 'cmdline-key-55']);
    assert.equal(keyed.exitCode, 3, keyed.output);
    assert.match(keyed.output, /--api-key is refused: .*process lists.*API_KEY/s);
    const unknown = await command(['--base-url', target, '--no-such-option']);
    assert.equal(unknown.exitCode, 3, unknown.output);
    assert.match(unknown.output, /Unknown option '--no-such-option'/);
    assert.equal(requests, 0, 'a request reached the target');
  } finally {
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  }
});

test('serve, then runs against it: with the target in .env, and of one requirement: exit 0', async () => {
  const server = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--base-path', '/deep/x/v1'],
    {
      cwd: user,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  try {
    let said = '';
    const banner = await new Promise<string>((resolve, reject) => {
      server.stdout.on('data', (chunk) => {
        said += chunk;
        if (/API key: \S+\n/.test(said)) resolve(said);
      });
      server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${said}`)));
    });
    const url = /listening at (\S+)/.exec(banner)![1]!;
    const key = /API key: (\S+)/.exec(banner)![1]!;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/deep\/x\/v1$/);
    writeFileSync(join(user, '.env'), `BASE_URL=${url}\nAPI_KEY=${key}\n`);
    // No setting of the suite in the environment at all (an empty one is one dotenv never
    // replaces): the target and key come from .env alone.
    const unset = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !suiteVariables.includes(name)),
    );
    const fromEnv = await new Promise<ProcessResult>((resolve) => {
      const started = Date.now();
      const child = spawn(process.execPath, [bin, '--report-dir', 'served'], {
        cwd: user,
        env: { ...unset, CI: '1', FORCE_COLOR: '0', CONFORMANCE_WORKERS: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ exitCode: code ?? -1, output, durationMs: Date.now() - started });
      });
    });
    assert.equal(fromEnv.exitCode, 0, fromEnv.output);
    const summary = JSON.parse(readFileSync(join(user, 'served/conformance.json'), 'utf8'));
    assert.equal(summary.target, url);
    // One requirement's checks: the others are not run, on purpose, and that is no failure.
    const one = await command(
      ['--base-url', url, '--grep', '@LIST-LIMIT-DEFAULT', '--report-dir', 'one'],
      {
        API_KEY: key,
      },
    );
    assert.equal(one.exitCode, 0, one.output);
    assert.match(
      one.output,
      /exit 0, conformant in every requirement checked \(1 passed, \d+ not run\)/,
    );
    const badge = JSON.parse(readFileSync(join(user, 'one', 'badge.json'), 'utf8'));
    assert.deepEqual([badge.message, badge.color], ['partial', 'lightgrey']);
  } finally {
    server.kill('SIGTERM');
    rmSync(join(user, '.env'), { force: true });
  }
});

test('bundle, then verify: exit 0 for a complete run, 1 with one file changed, 2 for a --grep run', async () => {
  const bundleOf = async (dir: string) => {
    const made = await command(['bundle', '--report-dir', dir]);
    assert.equal(made.exitCode, 0, made.output);
    const path = made.output.split('\n')[0]!.trim();
    assert.match(path, new RegExp(`^${dir}/conformance-report-\\w+\\.tar\\.gz$`), made.output);
    return path;
  };
  const complete = await bundleOf('conformance-reports');
  const intact = await command(['verify', complete]);
  assert.equal(intact.exitCode, 0, intact.output);
  assert.match(intact.output, /intact, \d+ files match/);
  assert.match(intact.output, /conformant \(\d+ of \d+ requirements passed\)/);
  const statement = JSON.parse(
    readFileSync(join(user, 'conformance-reports', 'conformance.intoto.json'), 'utf8'),
  );
  assert.equal(statement._type, 'https://in-toto.io/Statement/v1');
  assert.equal(statement.predicateType, 'https://in-toto.io/attestation/test-result/v0.1');
  assert.equal(statement.predicate.result, 'PASSED');
  assert.ok(statement.subject.some((one: { name: string }) => one.name === 'conformance.json'));

  // The same bundle with one byte of its summary page changed.
  const unpacked = join(home, 'unpacked');
  mkdirSync(unpacked);
  await extract({ file: join(user, complete), cwd: unpacked });
  const [root] = readdirSync(unpacked);
  const page = join(unpacked, root!, 'conformance.html');
  writeFileSync(page, readFileSync(page, 'utf8').replace('<h1>', '<h1> '));
  const changed = join(home, 'changed.tar.gz');
  await create({ gzip: true, file: changed, cwd: unpacked }, [root!]);
  const altered = await command(['verify', changed]);
  assert.equal(altered.exitCode, 1, altered.output);
  assert.match(altered.output, /not intact: conformance\.html: changed/);

  const partial = await command(['verify', await bundleOf('one')]);
  assert.equal(partial.exitCode, 2, partial.output);
  assert.match(
    partial.output,
    /intact, but not a complete run: --grep @LIST-LIMIT-DEFAULT; 1 of the suite's \d+ tests selected/,
  );
});
