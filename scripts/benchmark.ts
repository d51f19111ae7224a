/**
 * Benchmark: the whole conformance run against the bundled reference, beside a one-test run,
 * measured in one go on the same machine (the one-test run is the fixed cost: Playwright start,
 * reference start, report writing). Target: the full suite within 2x the one-test time.
 *
 *   npm run benchmark            # 3 rounds of each, median reported
 *   BENCH_ROUNDS=5 npm run benchmark
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const cli = ['node_modules/@playwright/test/cli.js', 'test'];

function timed(args: string[]): {
  ms: number;
  requests: number;
  petsCreated: number;
  tests: number;
} {
  // The bundled reference is the target: no BASE_URL or API_KEY from the caller's shell.
  const env: NodeJS.ProcessEnv = { ...process.env, CI: '1' };
  delete env.BASE_URL;
  delete env.API_KEY;
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [...cli, ...args], { env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0)
    throw new Error(`playwright ${args.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  const summary = JSON.parse(readFileSync('reports/conformance.json', 'utf8'));
  return {
    ms,
    requests: summary.requests,
    petsCreated: summary.petsCreated,
    tests: summary.tests.length,
  };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const one: number[] = [];
const full: number[] = [];
let last = { ms: 0, requests: 0, petsCreated: 0, tests: 0 };
for (let round = 0; round < rounds; round++) {
  one.push(timed(['--grep', '@BASE-V1']).ms);
  last = timed([]);
  full.push(last.ms);
}
const ratio = median(full) / median(one);
console.log(`one-test run:   median ${median(one).toFixed(0)} ms over ${rounds} rounds`);
console.log(
  `full suite run: median ${median(full).toFixed(0)} ms over ${rounds} rounds (${last.tests} tests)`,
);
console.log(`ratio: ${ratio.toFixed(2)} (target <= 2.00)`);
console.log(`full run: ${last.requests} requests, ${last.petsCreated} pets created`);
