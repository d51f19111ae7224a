/**
 * Memory stays bounded whatever a target sends (issue 25). The suite runs as a user runs it,
 * under `/usr/bin/time -v`, against targets that answer, after a good preflight, with a gzip bomb
 * (1 MB inflating to 1 GiB), an endless chunked body and 200,000 nested arrays. Each answer must
 * fail its check with a message naming the limit and the operation, within seconds rather than the
 * request timeout, and the largest process of the run must stay under 500 MB. The gzip bomb and
 * the endless body come over https too, from a target whose certificate the run trusts through
 * NODE_EXTRA_CA_CERTS: the guard ends TLS to read them. The preflight, which makes its own
 * request, is guarded the same way.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Summary } from '../tests/support/reporting/summary.ts';
import {
  type MemoryTarget,
  memoryBehaviours,
  startMemoryTarget,
} from './support/memory-targets.ts';
import { preflight } from '../tests/support/setup/preflight-check.ts';
import { runSuite } from './support/playwright.ts';

const apiKey = 'memory-key-8d2b61f0c3';
const time = '/usr/bin/time';
/** The largest process of the run may hold this much (resident set), at most. */
const peakLimitBytes = 500 * 1024 * 1024;

/** What each answer must fail, and how (the https targets: as their http twin). */
const expected: Record<string, [requirement: string, message: RegExp]> = {
  'gzip-bomb': [
    'GET-200-PET',
    /no usable answer \(getPet\): the answer was larger than 10000000 bytes \(401, \d+ bytes of gzip decoded to more than 10000000 bytes; the suite stopped reading it\); CONFORMANCE_MAX_RESPONSE_BYTES sets the limit/,
  ],
  endless: [
    'GET-200-PET',
    /no usable answer \(getPet\): the answer was larger than 10000000 bytes \(401, more than 10000000 bytes of body were sent; the suite stopped reading it\); CONFORMANCE_MAX_RESPONSE_BYTES sets the limit/,
  ],
  nested: [
    'ERROR-SHAPE',
    /the body nests arrays and objects deeper than 1000 levels; the suite does not parse them/,
  ],
};
/** The targets of the run: every behaviour over http, the two largest over https. */
const targets = [
  ...memoryBehaviours.map((behaviour) => ({ name: behaviour, behaviour, scheme: 'http' as const })),
  ...['gzip-bomb', 'endless'].map((behaviour) => ({
    name: `https-${behaviour}`,
    behaviour,
    scheme: 'https' as const,
  })),
];

let target: MemoryTarget;
before(async () => {
  target = await startMemoryTarget();
});
after(async () => {
  await target.close();
});

test(
  'hostile answers: a gzip bomb, an endless body (http, https), deep nesting cost a failed check, not the memory',
  { skip: existsSync(time) ? false : `${time} is not installed` },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'conformance-memory-'));
    const targetsFile = join(dir, 'targets.json');
    const caFile = join(dir, 'ca.pem');
    writeFileSync(caFile, target.cert);
    writeFileSync(
      targetsFile,
      JSON.stringify(
        targets.map(({ name, behaviour, scheme }) => ({
          name,
          baseUrl: target.baseUrl(`after-preflight-${behaviour}`, scheme),
          apiKeyEnv: 'MEMORY_API_KEY',
        })),
      ),
    );
    try {
      const run = await runSuite(
        ['--grep', '@AUTH-BEFORE-EXISTENCE'],
        {
          CONFORMANCE_TARGETS: targetsFile,
          MEMORY_API_KEY: apiKey,
          API_KEY: '',
          CONFORMANCE_REPORTS: 'json',
          CONFORMANCE_REPORT_DIR: join(dir, 'reports'),
          CONFORMANCE_WORKERS: '3',
          // The https target's certificate, trusted as a user trusts a private CA.
          NODE_EXTRA_CA_CERTS: caFile,
          // Time enough to read an answer whole: the limit must stop it, not the timeout.
          CONFORMANCE_REQUEST_TIMEOUT_MS: '30000',
        },
        { wrapper: [time, '-v'], timeoutMs: 120_000 },
      );
      const shown = `\n--- output ---\n${run.output}`;
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.output);
      assert.ok(peak, `time -v reports the peak${shown}`);
      const peakBytes = Number(peak[1]) * 1024;
      assert.ok(
        peakBytes < peakLimitBytes,
        `the largest process held ${(peakBytes / 1e6).toFixed(0)} MB${shown}`,
      );
      assert.equal(run.exitCode, 1, shown);
      for (const { name, behaviour } of targets) {
        const summary = JSON.parse(
          readFileSync(join(dir, 'reports', 'targets', name, 'conformance.json'), 'utf8'),
        ) as Summary;
        const [requirement, message] = expected[behaviour]!;
        const failed = summary.requirements.find((item) => item.id === requirement);
        assert.equal(failed?.verdict, 'failed', `${name}: ${requirement}${shown}`);
        assert.match(failed!.failures.map((failure) => failure.message).join('\n'), message);
      }
      // Cut as it came, not after the request timeout (30 s), on a machine that may be busy.
      assert.doesNotMatch(run.output, /no answer within/, shown);
      assert.ok(run.durationMs < 60_000, `done after ${run.durationMs} ms${shown}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('preflight: a gzip bomb or an endless body is cut, and named, within seconds', async () => {
  for (const [behaviour, scheme] of [
    ['gzip-bomb', 'http'],
    ['endless', 'http'],
    ['gzip-bomb', 'https'],
    ['endless', 'https'],
  ] as const) {
    const started = Date.now();
    const before = process.memoryUsage().rss;
    const result = await preflight({
      baseUrl: target.baseUrl(behaviour, scheme),
      apiKey,
      timeoutMs: 10_000,
      // This process does not trust the https target's certificate (NODE_EXTRA_CA_CERTS is read
      // at start); the guard still ends TLS and reads the answer.
      insecureTls: scheme === 'https',
      maxResponseBytes: 10_000_000,
    });
    assert.equal(result.ok, false, `${scheme} ${behaviour}`);
    assert.match(
      result.ok ? '' : result.problem,
      /^not this interface: the answer was larger than 10000000 bytes\n.*\n {2}=> the answer was larger than 10000000 bytes \(401, .*; the suite stopped reading it\)/,
    );
    // Well before the request timeout, holding at most about the limit (a busy machine aside).
    const shown = `${scheme} ${behaviour}`;
    assert.ok(Date.now() - started < 8_000, `${shown}: cut after ${Date.now() - started} ms`);
    const grown = process.memoryUsage().rss - before;
    assert.ok(grown < 200_000_000, `${shown}: the process grew by ${grown} bytes`);
  }
});
