/**
 * Proves the reports: runs the suite, with a distinctive API key, against four reference
 * targets, one that passes (clean, behind a gateway that echoes every credential it is given),
 * one that fails (list-default-10), one that hangs (hang-getPet, with a short request timeout)
 * and one flaky (a proxy that breaks the default limit once, run with --retries=1), and in one
 * run against two targets behind echoing gateways that break a rule (ERROR-SHAPE), so that
 * their failures print the echoes of the key and its near misses: one with that key, one with a
 * lower-case hex key. Each writes to its own temporary folders. Then:
 *  - every report is there (conformance.md, badge.json and ctrf.json too), and the summary's
 *    verdicts match the target;
 *  - a check that passes only on a retry fails the run, and the report says the target was flaky;
 *  - no run of 8 of a key's characters, in any letter case, nor a key or near miss encoded,
 *    appears in any file of the reports or test-results (zips and embedded archives opened), in
 *    a release bundle and its statement, or in any console output (support/leak-scan.ts);
 *  - the summary page, opened in a real browser, shows every requirement of the catalogue and
 *    links a failed requirement to the request that failed;
 *  - the console says why a requirement failed when no failed test did (a check's finding);
 *  - a body cut short by a Content-Length counted in characters says so;
 *  - a failure's text shows control characters, sent or answered, as \\xHH (a log or terminal
 *    acts on them), and its curl line repeats such a body exactly, through printf.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type ReferenceHandle, startReference } from '../reference/src/server.ts';
import {
  type Summary,
  type TestRecord,
  consoleSummary,
  flakinessOf,
  summarize,
} from '../tests/support/reporting/summary.ts';
import { curlCommand, requestLine, responseLine } from '../tests/support/reporting/failure-text.ts';
import { amendJunit } from '../tests/support/reporting/junit.ts';
import { ApiResponse } from '../tests/support/http/response.ts';
import { listBodyProblems } from '../tests/support/vocabulary/attribution.ts';
import { catalogue } from '../requirements/catalogue.ts';
import { browserUnavailable, receivedOf, withBrowser } from './support/browser.ts';
import { startEchoingTarget } from './support/echoing-target.ts';
import { type Leak, filesUnder, leakForms, scanBytes, scanFolder } from './support/leak-scan.ts';
import { startFlakyTarget } from './support/flaky-target.ts';
import { spawnNode, spawnPlaywright } from './support/playwright.ts';
import { execFileSync } from 'node:child_process';

/**
 * Mixed case, so that its upper case differs; no word of 8 letters in it, which the reports
 * would hold for other reasons (a run of 8 of a key's characters is a leak).
 */
const apiKey = 'k7Hq2xZ4pL9wRm3V-tB8nYc5D';
/** Lower-case hex: its upper case is the same key to a target that compares case-insensitively. */
const hexKey = '3f9a0c7e1b2d4a6f8e0c1b3d5f7a9e2c';
const forms = leakForms(apiKey);
const hexForms = leakForms(hexKey);
/** The checks that meet 401s to near misses, 400s and 404s, and ERROR-SHAPE's own. */
const echoedChecks = '@AUTH-401-INVALID|@ERROR-SHAPE|@CREATE-400-REQUIRED|@GET-404-UNKNOWN';

interface Run {
  name: string;
  dir: string;
  reports: string;
  handle: ReferenceHandle;
  exitCode: number;
  output: string;
  summary: Summary;
}

async function suiteAgainst(
  name: string,
  variant: string,
  args: string[],
  env: Record<string, string> = {},
  /** Puts something in front of the reference (a flaky proxy): the run's target. */
  through?: (baseUrl: string) => Promise<{ baseUrl: string; close(): Promise<void> }>,
): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), `conformance-reports-${name}-`));
  const reports = join(dir, 'reports');
  const reference = await startReference({ apiKey, variant });
  const front = through ? await through(reference.baseUrl) : undefined;
  const handle: ReferenceHandle = front
    ? {
        ...reference,
        baseUrl: front.baseUrl,
        close: async () => {
          await front.close();
          await reference.close();
        },
      }
    : reference;
  try {
    const { exitCode, output } = await spawnPlaywright(
      ['--output', join(dir, 'test-results'), ...args],
      {
        ...env,
        BASE_URL: handle.baseUrl,
        API_KEY: apiKey,
        FC_SEED: '20261121',
        CONFORMANCE_REPORT_DIR: reports,
      },
      90_000,
    );
    const summaryFile = join(reports, 'conformance.json');
    assert.ok(
      existsSync(summaryFile),
      `${name}: no conformance.json (exit ${exitCode})\n${output}`,
    );
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Summary;
    return { name, dir, reports, handle, exitCode, output, summary };
  } catch (error) {
    // after() closes the runs that were made; a run that was not must close its servers here.
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

const verdictOf = (run: Pick<Run, 'summary'>, id: string) =>
  run.summary.requirements.find((item) => item.id === id)?.verdict;

/** A run of several targets: each one's summary, by name. */
interface TargetsRun extends Omit<Run, 'summary' | 'handle'> {
  summaries: Record<string, Summary>;
  close(): Promise<void>;
}

/**
 * One run of the echoed checks against two targets (CONFORMANCE_TARGETS, each key in a variable
 * of its own): clean references with the mixed-case key and the hex key, each behind a gateway
 * that echoes every credential and drops `code` from its Errors.
 */
async function suiteAgainstEchoingTargets(): Promise<TargetsRun> {
  const dir = mkdtempSync(join(tmpdir(), 'conformance-reports-echoing-'));
  const reports = join(dir, 'reports');
  const servers: { close(): Promise<void> }[] = [];
  const close = async () => {
    for (const server of servers.reverse()) await server.close();
  };
  const keys: Record<string, [string, string]> = {
    'mixed-case': ['ECHO_MIXED_KEY', apiKey],
    hex: ['ECHO_HEX_KEY', hexKey],
  };
  try {
    const targets = [];
    for (const [name, [apiKeyEnv, key]] of Object.entries(keys)) {
      const reference = await startReference({ apiKey: key });
      servers.push(reference);
      const gateway = await startEchoingTarget(reference.baseUrl, { breaking: true });
      servers.push(gateway);
      targets.push({ name, baseUrl: gateway.baseUrl, apiKeyEnv });
    }
    const targetsFile = join(dir, 'targets.json');
    writeFileSync(targetsFile, JSON.stringify(targets));
    const { exitCode, output } = await spawnPlaywright(
      ['--output', join(dir, 'test-results'), '--grep', echoedChecks],
      {
        CONFORMANCE_TARGETS: targetsFile,
        ECHO_MIXED_KEY: apiKey,
        ECHO_HEX_KEY: hexKey,
        API_KEY: '',
        FC_SEED: '20261121',
        CONFORMANCE_REPORT_DIR: reports,
      },
      90_000,
    );
    const summaries: Record<string, Summary> = {};
    for (const name of Object.keys(keys)) {
      const file = join(reports, 'targets', name, 'conformance.json');
      assert.ok(
        existsSync(file),
        `echoing ${name}: no conformance.json (exit ${exitCode})\n${output}`,
      );
      summaries[name] = JSON.parse(readFileSync(file, 'utf8')) as Summary;
    }
    return { name: 'echoing', dir, reports, exitCode, output, summaries, close };
  } catch (error) {
    await close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

describe('reports', { timeout: 120_000 }, () => {
  let passing: Run;
  let failing: Run;
  let hanging: Run;
  let flaky: Run;
  let echoing: TargetsRun;
  let bundleOutput = '';
  let echoingBundleOutput = '';

  before(async () => {
    const started = Date.now();
    [passing, failing, hanging, flaky, echoing] = await Promise.all([
      suiteAgainst('passing', 'clean', [], {}, startEchoingTarget),
      suiteAgainst('failing', 'list-default-10', ['--grep', '@LIST-LIMIT-DEFAULT']),
      suiteAgainst('hanging', 'hang-getPet', ['--grep', '@GET-200-PET'], {
        CONFORMANCE_REQUEST_TIMEOUT_MS: '1500',
      }),
      suiteAgainst(
        'flaky',
        'clean',
        ['--retries=1', '--grep', '@LIST-LIMIT-DEFAULT'],
        {},
        startFlakyTarget,
      ),
      suiteAgainstEchoingTargets(),
    ]);
    const bundle = async (reports: string) => {
      const { exitCode: code, output } = await spawnNode(['--import', 'tsx', 'scripts/bundle.ts'], {
        CONFORMANCE_REPORT_DIR: reports,
      });
      assert.equal(code, 0, `npm run bundle failed:\n${output}`);
      return output;
    };
    [bundleOutput, echoingBundleOutput] = await Promise.all([
      bundle(failing.reports),
      bundle(echoing.reports),
    ]);
    console.log(
      `five suite runs and two bundles in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  });

  after(async () => {
    for (const each of [passing, failing, hanging, flaky].filter(Boolean)) {
      await each.handle.close();
      rmSync(each.dir, { recursive: true, force: true });
    }
    if (echoing) {
      await echoing.close();
      rmSync(echoing.dir, { recursive: true, force: true });
    }
  });

  test('every report is written, with verdicts that match the target', () => {
    for (const each of [passing, failing, hanging]) {
      for (const file of [
        'html/index.html',
        'results.json',
        'junit.xml',
        'conformance.json',
        'conformance.html',
        'conformance.md',
        'badge.json',
        'ctrf.json',
      ]) {
        assert.ok(existsSync(join(each.reports, file)), `${each.name}: ${file} missing`);
      }
      const { summary } = each;
      assert.equal(summary.interfaceVersion, '1.0.0');
      assert.equal(summary.seed, 20261121);
      assert.equal(summary.target, each.handle.baseUrl);
      assert.match(summary.suiteVersion, /^\d+\.\d+\.\d+/);
    }
    assert.equal(passing.exitCode, 0, passing.output);
    assert.equal(
      passing.summary.verdict,
      'conformant',
      JSON.stringify(
        passing.summary.requirements
          .filter((item) => item.verdict !== 'passed')
          .map(({ id, verdict, reasons }) => ({ id, verdict, reasons })),
      ),
    );
    assert.ok(passing.summary.requests > 0 && passing.summary.petsCreated > 0);
    assert.notEqual(failing.exitCode, 0);
    assert.equal(verdictOf(failing, 'LIST-LIMIT-DEFAULT'), 'failed');
    assert.equal(failing.summary.verdict, 'not conformant');
    assert.notEqual(hanging.exitCode, 0);
    assert.equal(verdictOf(hanging, 'GET-200-PET'), 'failed');
    assert.match(passing.output, /Conformance: (\d+) of \1 requirements passed/);
    const normative = catalogue.requirements.filter((item) => item.kind !== 'advisory');
    assert.equal(passing.summary.requirements.length, normative.length);
  });

  test('a check that passes only on a retry fails, and the failed attempt names the flaky target', () => {
    assert.notEqual(flaky.exitCode, 0, 'failOnFlakyTests: a flaky check fails the run');
    assert.equal(verdictOf(flaky, 'LIST-LIMIT-DEFAULT'), 'failed');
    const [record] = flaky.summary.tests.filter((each) => each.outcome === 'failed');
    assert.ok(record, JSON.stringify(flaky.summary.tests));
    assert.match(
      record.errors?.[0] ?? '',
      /^Passed only on attempt 2, after failing: a flaky target\. .* break LIST-LIMIT-DEFAULT/,
    );
    // The failed attempt's own failure, in the layout of failure-text.ts (its wording is the
    // docs' example, which docs.test.ts holds to what the suite prints: not copied here).
    assert.match(record.errors?.[1] ?? '', /^(Error: )?\[LIST-LIMIT-DEFAULT\] GET \S+\/pets \(/);
    assert.match(record.exchanges ?? '', /=> 200 application\/json/);
  });

  test('a failed attempt that names no requirement makes the check the flaky one', () => {
    const note = flakinessOf({ errors: ['Error: Test timeout of 60000ms exceeded.'] }, 2);
    assert.match(note, /a flaky check\. .*\(Test timeout of 60000ms exceeded\.\)/);
    assert.match(flakinessOf({ errors: ['[CREATE-ECHO] POST …'] }, 3), /attempt 3.*flaky target/);
  });

  test('the summary page is one file: no external script, style, image or frame', () => {
    for (const each of [passing, failing, hanging]) {
      const page = readFileSync(join(each.reports, 'conformance.html'), 'utf8');
      assert.doesNotMatch(page, /<(script|link|img|iframe|object|embed)\b[^>]*\b(src|href)=/i);
      assert.doesNotMatch(page, /url\(\s*['"]?(https?:)?\/\//i);
      assert.doesNotMatch(page, /@import/i);
    }
  });

  test('the release bundle holds the summary, its Markdown, the badge, CTRF, the JUnit XML, the HTML report and the statement', () => {
    const runId = failing.summary.runId;
    const bundle = join(failing.reports, `conformance-report-${runId}.tar.gz`);
    assert.ok(existsSync(bundle), bundleOutput);
    const wanted = [
      'conformance.html',
      'conformance.json',
      'conformance.md',
      'badge.json',
      'ctrf.json',
      'junit.xml',
      'html/index.html',
      'conformance.intoto.json',
    ].map((name) => `conformance-report-${runId}/${name}`);
    const listing = scanBytes(readFileSync(bundle), bundle, wanted);
    assert.equal(listing.length, wanted.length, 'every expected path inside the tarball');
    // A run of several targets: the overview's files at the top, each target's summary too.
    for (const name of ['conformance.md', 'badge.json', 'ctrf.json', 'targets/hex/badge.json']) {
      assert.ok(existsSync(join(echoing.reports, name)), `echoing: ${name} missing`);
    }
  });

  test('a gateway that echoes credentials: conformant, it passes; breaking a rule, its failures show the echoes, redacted', () => {
    // Conformant, it passes: the passing run went through such a gateway (checked above).
    assert.notEqual(echoing.exitCode, 0, echoing.output);
    for (const [name, summary] of Object.entries(echoing.summaries)) {
      const failed = summary.requirements.filter((item) => item.verdict === 'failed');
      assert.deepEqual(
        failed.map((item) => item.id),
        ['ERROR-SHAPE'],
        name,
      );
      // Each echo as a failure shows it (quoted in the body, the body quoted in the summary's
      // JSON): a near miss under its label, the key as <API_KEY>.
      const shown = JSON.stringify(summary).replace(/\\+"/g, '"');
      for (const echo of [
        'invalid credentials "Bearer <API_KEY> in upper case"',
        'invalid credentials "Bearer <API_KEY> without its last character"',
        'invalid credentials "Bearer the first half of <API_KEY>"',
        '(credentials "Bearer <API_KEY>")',
      ]) {
        assert.ok(shown.includes(echo), `${name}: ${echo}`);
      }
    }
  });

  test('the scan finds a secret in every form it looks for', () => {
    // Base64 at any alignment: `Basic <base64>` as a browser would send it, in a JSON attachment.
    for (const prefix of ['', 'u:', 'user:']) {
      const encoded = Buffer.from(`${prefix}${apiKey}`).toString('base64');
      assert.notDeepEqual(scanBytes(Buffer.from(`Basic ${encoded}`), 'sample', forms), []);
    }
    // Inside the zip that Playwright's HTML report embeds: the target's host is in there (each
    // request's step is subtitled with host and path).
    const host = new URL(passing.handle.baseUrl).host;
    const embedded = scanFolder(join(passing.reports, 'html'), [host]);
    assert.ok(embedded.some((leak) => leak.where.includes('(embedded zip)')));
    // Any run of 8 of the key's characters, in any letter case; a near miss encoded.
    for (const sample of [
      `invalid "${apiKey.slice(3, 11).toUpperCase()}"`,
      `${hexKey.toUpperCase()}`,
      Buffer.from(`x${hexKey.toUpperCase()}`).toString('base64'),
    ]) {
      assert.notDeepEqual(
        [
          ...scanBytes(Buffer.from(sample), 'sample', forms),
          ...scanBytes(Buffer.from(sample), 'sample', hexForms),
        ],
        [],
        sample,
      );
    }
  });

  test('the API key is in no file the runs wrote and in none of their output', () => {
    const leaks: Leak[] = [];
    for (const each of [passing, failing, hanging, flaky]) {
      leaks.push(...scanFolder(each.dir, forms));
      leaks.push(...scanBytes(Buffer.from(each.output), `${each.name}: console output`, forms));
    }
    leaks.push(...scanBytes(Buffer.from(bundleOutput), 'bundle: console output', forms));
    for (const keyForms of [forms, hexForms]) {
      leaks.push(...scanFolder(echoing.dir, keyForms));
      leaks.push(...scanBytes(Buffer.from(echoing.output), 'echoing: console output', keyForms));
      leaks.push(
        ...scanBytes(Buffer.from(echoingBundleOutput), 'echoing bundle: output', keyForms),
      );
    }
    assert.deepEqual(leaks, []);
    // The echoing run's bundle was scanned with the rest of its folder.
    assert.ok(filesUnder(echoing.reports).some((file) => file.endsWith('.tar.gz')));
    // The hanging run did hit the case Playwright logs headers for: a request timeout.
    assert.match(hanging.output, /GET \S+\/pets\/\S+ \(Authorization: Bearer <API_KEY>\)/);
  });

  test('in a browser, the summary shows every requirement and links failures to their request', async (t) => {
    const unavailable = browserUnavailable();
    if (unavailable) {
      console.log(`skipped: ${unavailable}`);
      t.skip(unavailable);
      return;
    }
    await withBrowser(async (context) => {
      const page = context.pages()[0] ?? (await context.newPage());
      const requested: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${join(failing.reports, 'conformance.html')}`);

      assert.match(await page.locator('h1').innerText(), /^Not conformant: 1 of \d+/);
      const tiles = await page.locator('.matrix .tile').allInnerTexts();
      const shown = new Set(tiles.map((text) => text.replace(/^\W+/, '').trim()));
      const missing = catalogue.requirements.filter((item) => !shown.has(item.id));
      assert.deepEqual(missing, [], 'every requirement of the catalogue has a tile');

      const tile = page.locator('.tile.failed', { hasText: 'LIST-LIMIT-DEFAULT' });
      const href = await tile.getAttribute('href');
      assert.equal(href, '#failure-LIST-LIMIT-DEFAULT');
      await tile.click();
      const failure = page.locator(href!);
      assert.ok(await failure.isVisible(), 'the failure is shown');
      assert.equal(new URL(page.url()).hash, href);
      const request = await failure.locator('.part.request pre').first().innerText();
      assert.equal(request, `GET ${failing.handle.baseUrl}/pets (Authorization: Bearer <API_KEY>)`);
      // What came back, as the summary recorded it (not its wording, which docs.test.ts holds).
      const received = receivedOf(failing.summary, 'LIST-LIMIT-DEFAULT');
      assert.ok(
        (await failure.locator('.part.received').first().innerText()).includes(received),
        `the failure shows what came back:\n${received}`,
      );

      // The hanging target's failure names the request that got no answer.
      await page.goto(`file://${join(hanging.reports, 'conformance.html')}`);
      await page.locator('.tile.failed', { hasText: 'GET-200-PET' }).click();
      const timedOut = page.locator(new URL(page.url()).hash);
      assert.match(
        await timedOut.locator('.part.request pre').first().innerText(),
        /^GET \S+\/pets\/\d+ \(Authorization: Bearer <API_KEY>\)$/,
      );
      assert.match(
        await timedOut.locator('.part.received').first().innerText(),
        /no usable answer after \d+ ms: no answer within 1500 ms/,
      );

      await page.goto(`file://${join(failing.reports, 'conformance.html')}`);
      const screenshot = join(tmpdir(), 'conformance-summary.png');
      await page.screenshot({ path: screenshot, fullPage: true });
      console.log(`screenshot of the summary page: ${screenshot}`);
      assert.deepEqual(
        requested.filter((url) => !url.startsWith('file:')),
        [],
        'the page loads nothing',
      );
      assert.deepEqual(errors, [], 'no script error');
    });
  });
});

test('a failure shows control characters as \\xHH, and its curl line sends them exactly', () => {
  const body = '{"name":"a\u0000b\\\\c\u001b[31m\u0085"}';
  const request = { method: 'POST', path: '/pets', url: 'http://t/v1/pets', auth: 'none', body };
  assert.equal(
    requestLine(request).split('\n')[1],
    '  body: {"name":"a\\x00b\\\\c\\x1B[31m\\x85"}',
  );
  const answer = {
    request,
    status: 400,
    headers: {},
    text: 'bad\r\u001b]0;title\u0007',
    durationMs: 1,
  };
  assert.match(responseLine(answer), /\n {2}bad\\x0D\\x1B\]0;title\\x07$/);
  // The command line holds no control character; what printf hands curl is the body, byte for byte.
  const command = curlCommand(request);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(command, /[\u0000-\u001f\u007f-\u009f]/);
  const printf = command.slice(0, command.indexOf(' | curl'));
  const bytes = execFileSync('bash', ['-c', printf]);
  assert.deepEqual(bytes, Buffer.from(body, 'utf8'));
});

/** The summary of a run whose one test passed, its check charging PETSTATUS-ENUM a finding. */
function summaryWithFinding(message: string) {
  const record: TestRecord = {
    project: '',
    title: 'a list',
    file: 'tests/listPets.spec.ts',
    line: 1,
    requirements: ['LIST-200-PETS'],
    outcome: 'passed',
    status: 'passed',
    durationMs: 1,
    charges: [{ requirement: 'PETSTATUS-ENUM', message, source: 'finding' }],
    inconclusive: [],
    notRun: [],
    requests: 1,
    petsCreated: 0,
    throttled: 0,
    pausedMs: 0,
    advisories: [],
  };
  const facts = {
    target: 'http://t/v1',
    runId: 'r',
    seed: 1,
    strict: false,
    petNamePrefix: 'conformance-r-',
    suiteVersion: '0',
    startedAt: '2026-11-29T00:00:00Z',
    finishedAt: '2026-11-29T00:00:01Z',
    status: 'passed',
  };
  return summarize(facts, [record]);
}

test('the console says why a requirement failed when only a finding of a passing check did', () => {
  const message =
    '[PETSTATUS-ENUM] GET http://t/v1/pets (Authorization: Bearer <API_KEY>)\nExpected: 200 with Pets\nReceived: 200\n  - status null';
  const lines = consoleSummary(summaryWithFinding(message)).join('\n');
  assert.match(lines, /\(failed: PETSTATUS-ENUM\)/);
  assert.match(
    lines,
    /\n {2}PETSTATUS-ENUM failed: \[PETSTATUS-ENUM\] GET http:\/\/t\/v1\/pets .*\n {4}Expected: 200 with Pets\n {4}Received: 200\n {4} {2}- status null/,
  );
});

test('JUnit fails the requirement a finding of a passing check charged, in a requirements suite', () => {
  const summary = summaryWithFinding(
    '[PETSTATUS-ENUM] GET http://t/v1/pets?x=<&> (Authorization: Bearer <API_KEY>)',
  );
  const dir = mkdtempSync(join(tmpdir(), 'junit-'));
  const file = join(dir, 'junit.xml');
  // As Playwright's JUnit reporter writes it: the check passed.
  writeFileSync(
    file,
    '<testsuites id="" name="" tests="1" failures="0" skipped="0" errors="0" time="1">\n' +
      '<testsuite name="listPets.spec.ts" tests="1" failures="0" skipped="0" time="1" errors="0">\n' +
      '<testcase name="a list" classname="listPets.spec.ts" time="1"></testcase>\n</testsuite>\n</testsuites>\n',
  );
  amendJunit(file, [summary]);
  const xml = readFileSync(file, 'utf8');
  rmSync(dir, { recursive: true });
  const normative = summary.requirements.length;
  const notPassed = summary.requirements.filter((item) => item.verdict !== 'passed');
  const skipped = notPassed.filter((item) => item.verdict !== 'failed').length;
  assert.match(
    xml,
    new RegExp(`^<testsuites [^>]*tests="${1 + normative}" failures="1" skipped="${skipped}"`),
  );
  assert.equal(xml.match(/classname="requirements"/g)?.length, normative);
  assert.match(
    xml,
    /<testcase name="PETSTATUS-ENUM \(§2\)[^"]*" classname="requirements" time="0">\n<failure message="PETSTATUS-ENUM failed: \[PETSTATUS-ENUM\] GET http:\/\/t\/v1\/pets\?x=&lt;&amp;&gt;/,
  );
  assert.equal(xml.match(/<failure /g)?.length, 1);
  assert.ok(xml.trimEnd().endsWith('</testsuite>\n</testsuites>'));
});

test('a body quoted in a failure shows its numbers as sent: exact, not quoted', () => {
  const request = { method: 'GET', path: '/pets', url: 'http://t/v1/pets', auth: 'key' };
  const text = '{"code":"bad_request","message":"no","status":400,"id":9223372036854775807}';
  const answer = new ApiResponse(request, 200, {}, text, 1, 'listPets');
  const [problem] = listBodyProblems(answer).problems;
  assert.equal(problem?.text, `the body is not an array of Pets but ${text}`);
});

test('a body cut at a Content-Length counted in characters, not bytes, says so', () => {
  const whole = '[{"id":1,"name":"caf\u00e9 Rex","categoryId":7}]';
  // What a client reads of it when the length was counted in characters: one byte short.
  const cut = Buffer.from(whole).subarray(0, whole.length).toString('utf8');
  const request = { method: 'GET', path: '/pets', url: 'http://t/v1/pets', auth: 'none' };
  const answer = (text: string, length: number) =>
    new ApiResponse(request, 200, { 'content-length': String(length) }, text, 1, 'listPets');
  const body = answer(cut, Buffer.byteLength(cut)).body;
  assert.ok(!body.ok && /Content-Length counted in characters, not UTF-8 bytes/.test(body.problem));
  // Cut elsewhere than at its Content-Length, or all ASCII: no such guess.
  const other = answer(cut, Buffer.byteLength(cut) + 1).body;
  assert.ok(!other.ok && !/Content-Length/.test(other.problem));
  const ascii = answer('[{"id":1', 8).body;
  assert.ok(!ascii.ok && !/Content-Length/.test(ascii.problem));
});
