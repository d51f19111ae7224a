/**
 * Benchmark (issue "Fast on two cores"): the full verdict against the bundled reference, timed
 * beside the bare floor of Playwright on the same machine.
 *
 * - The floor: a bare one-test Playwright run (scripts/bench-floor/): one test, one request to a
 *   tiny server this script starts on 127.0.0.1; nothing of the suite.
 * - The full run: the suite as `npm run conformance` runs it, with no target configured, so that
 *   it starts and checks the bundled reference: `node node_modules/@playwright/test/cli.js test`
 *   with CI=1 (npm's own start-up is left out of both).
 *
 * One warm-up of each (not counted), then N rounds alternating floor and full run. Printed: the
 * medians of wall time and of CPU time (user + sys of the run's processes, from the cutime and
 * cstime of /proc/self/stat, so Linux only: see childrenCpu for what it leaves out), the ratio of
 * the wall medians against the target, the median of the rounds' own ratios (each full run over
 * the floor run beside it: steadier when the machine's speed drifts between rounds), and the full
 * run's requests per verdict (from reports/conformance.json, left as the last full run wrote it).
 * The exit code is not the ratio's: it is non-zero only when a run fails.
 *
 * Where users feel it, against a target over a network: in each round the suite also checks a
 * reference this script starts (BASE_URL, as a user points it at staging), once as it is and once
 * with every answer delayed by 100 ms (the reference's latencyMs), each time a fresh one. The
 * answer-times on the critical path: (median wall with the delay - median wall without) / 0.1 s,
 * how many answers, one after another, the run waited for. A third run of each round reaches the
 * reference through a relay 100 ms away as a network is (network-delay.ts: a connection costs a
 * round trip, every piece of data half of one): (its median wall - the median without) / 0.1 s is
 * the round trips on the critical path, what the suite's connections cost included (information;
 * the target is the answer-times'). And once, after the rounds: the suite
 * behind the rate-limited variation's gateway (25 requests a second), its time beside the floor
 * that rate sets (requests processed / rate; selftest/staging.test.ts bounds it by 1.3 times that
 * plus a one-test run).
 *
 * It never contacts a configured target: the child's environment sets every variable the suite
 * reads, empty (its default), and dotenv never replaces a variable that is set; the child reads no
 * .env at all besides. Before any run, the settings the child will see are checked.
 *
 *   npm run benchmark                # 5 rounds
 *   BENCH_ROUNDS=3 npm run benchmark
 *   BENCH_REMOTE=0 npm run benchmark  # without the remote runs (the floor ratio only)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, devNull } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import dotenv from 'dotenv';
import { type ReferenceOptions, startReference } from '../reference/src/server.ts';
import { RATE_PER_SECOND } from '../reference/src/variants/conformant/variations.ts';
import { startDelayingRelay } from './network-delay.ts';
import { suiteVariables } from './suite-variables.ts';

export const target = 2.0;
/** The delay of every answer in the remote runs, and the most answer-times the critical path may hold. */
const delayMs = 100;
export const criticalPathTarget = 20;
const remoteKey = 'remote-5e0a1b';
const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const cli = join(projectRoot, 'node_modules/@playwright/test/cli.js');
const floorConfig = join(projectRoot, 'scripts/bench-floor/playwright.config.ts');
const summaryFile = join(projectRoot, 'reports/conformance.json');

/** Variables the child does not inherit: the suite's own families, dotenv's options, Node's. */
const notInherited = /^(CONFORMANCE_|FC_|DOTENV_)|^NODE_OPTIONS$/;

/** dotenv's reading of a switch (DOTENV_OVERRIDE and the like). */
const dotenvSwitch = (value: string | undefined) =>
  value !== undefined && !['false', '0', 'no', 'off', ''].includes(value.toLowerCase());

/**
 * The environment of every benchmark run: the caller's, less the suite's settings, with every
 * variable the suite reads set empty and every variable `dotenvFile` (a parsed .env) names set,
 * so dotenv has nothing to add. CI=1, as in CI; dotenv set not to override and to read no file.
 */
export function childEnvironment(
  parent: NodeJS.ProcessEnv,
  dotenvFile: Record<string, string> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && !notInherited.test(name)) env[name] = value;
  }
  // A variable the caller has set keeps its value: dotenv would not have replaced it either.
  for (const name of Object.keys(dotenvFile)) env[name] ??= '';
  for (const name of suiteVariables) env[name] = '';
  return {
    ...env,
    CI: '1',
    DOTENV_OVERRIDE: '0',
    DOTENV_CONFIG_OVERRIDE: '0',
    DOTENV_PATH: devNull,
    DOTENV_CONFIG_PATH: devNull,
  };
}

/**
 * Why a run in `env` could reach a configured target, or undefined when it can only start the
 * bundled reference: `env` as dotenv would leave it after loading each of `dotenvFiles` that
 * exists (the project's .env, say), checked as the suite does (settings.ts, usesReference).
 */
export function remoteTargetIn(
  env: Record<string, string>,
  dotenvFiles: string[],
): string | undefined {
  for (const name of ['DOTENV_OVERRIDE', 'DOTENV_CONFIG_OVERRIDE']) {
    if (dotenvSwitch(env[name])) return `${name} is on: a .env would replace the settings`;
  }
  const seen: Record<string, string | undefined> = { ...env };
  for (const file of dotenvFiles) {
    if (existsSync(file)) dotenv.populate(seen, dotenv.parse(readFileSync(file)));
  }
  for (const name of ['BASE_URL', 'CONFORMANCE_TARGETS']) {
    if (seen[name]) return `${name} would be "${seen[name]}", a configured target`;
  }
  return undefined;
}

/**
 * The CPU time (s, user + sys) of the children this process has reaped, each with the descendants
 * it reaped in turn: cutime and cstime of /proc/self/stat, updated as a child is reaped; undefined
 * off Linux. The bundled reference runs inside Playwright's main process, so its CPU is counted.
 */
function childrenCpu(ticksPerSecond: number): number | undefined {
  try {
    // After the command's closing parenthesis: field 3 (state) onwards; cutime, cstime are 16, 17.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

interface Measured {
  wallS: number;
  cpuS: number | undefined;
}

/** One Playwright run, its wall time (to its exit) and the CPU time of its process tree. */
async function timed(
  name: string,
  args: string[],
  env: Record<string, string>,
  ticks: number,
): Promise<Measured> {
  const cpuBefore = childrenCpu(ticks);
  const started = performance.now();
  // Both as `playwright test` starts them (npm run conformance), without npm.
  const child = spawn(process.execPath, [cli, 'test', ...args], {
    cwd: projectRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
  const closed = new Promise((resolve) => child.on('close', resolve));
  // 'exit' comes once the child is reaped, and with it its CPU time counted into cutime/cstime.
  const exit = await new Promise<string>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(signal ?? String(code)));
  });
  const wallS = (performance.now() - started) / 1000;
  const cpuAfter = childrenCpu(ticks);
  clearTimeout(timer);
  await closed;
  if (exit !== '0') throw new Error(`The ${name} run failed (exit ${exit}):\n${output}`);
  const cpuS = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { wallS, cpuS };
}

interface SummaryCounts {
  requests: number;
  petsCreated: number;
  requirements: number;
  advisories: number;
  verdict: string;
}

/** When the summary was last written (0: never), to tell a full run's summary from an older one. */
function summaryWritten(): number {
  return existsSync(summaryFile) ? statSync(summaryFile).mtimeMs : 0;
}

/** The counts of the full run's summary, which must have been written after `before`. */
function summaryOfRun(before: number): SummaryCounts {
  if (summaryWritten() <= before) throw new Error(`The full run wrote no ${summaryFile}`);
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  return {
    requests: summary.requests,
    petsCreated: summary.petsCreated,
    requirements: summary.totals.requirements.total,
    advisories: summary.totals.advisories.total,
    verdict: summary.verdict,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The tiny server of the floor: 200 and a few bytes of JSON to anything. */
async function startFloorServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The full suite against a reference started for it alone, as a remote target (BASE_URL): its
 * wall time, and the summary's requests and waits.
 */
async function remoteRun(
  name: string,
  reference: Omit<ReferenceOptions, 'apiKey'>,
  env: Record<string, string>,
  ticks: number,
  /** A network's round trip between the suite and the target (network-delay.ts), if any. */
  roundTripMs = 0,
): Promise<Measured & { counts: SummaryCounts & { throttled: number } }> {
  const target = await startReference({ ...reference, apiKey: remoteKey });
  const url = new URL(target.baseUrl);
  const relay = roundTripMs
    ? await startDelayingRelay({ host: url.hostname, port: Number(url.port) }, roundTripMs)
    : undefined;
  if (relay) url.host = relay.authority;
  try {
    const before = summaryWritten();
    const run = await timed(
      name,
      [],
      {
        ...env,
        BASE_URL: relay ? url.href.replace(/\/$/, '') : target.baseUrl,
        API_KEY: remoteKey,
      },
      ticks,
    );
    const counts = summaryOfRun(before);
    const throttled = Number(JSON.parse(readFileSync(summaryFile, 'utf8')).throttled ?? 0);
    return { ...run, counts: { ...counts, throttled } };
  } finally {
    await relay?.close();
    await target.close();
  }
}

async function main(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS || 5);
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(
      `BENCH_ROUNDS must be a whole number of at least 1 (got "${process.env.BENCH_ROUNDS}")`,
    );
  }
  const dotenvFile = join(projectRoot, '.env');
  const parsed = existsSync(dotenvFile) ? dotenv.parse(readFileSync(dotenvFile)) : {};
  const env = childEnvironment(process.env, parsed);
  const remote = remoteTargetIn(env, [dotenvFile, join(process.cwd(), '.env'), env.DOTENV_PATH!]);
  if (remote)
    throw new Error(`Refusing to run: ${remote}. The benchmark only checks the reference.`);
  const named = ['BASE_URL', 'CONFORMANCE_TARGETS'].filter(
    (name) => process.env[name] || parsed[name],
  );
  if (named.length > 0) {
    process.stderr.write(
      `${named.join(' and ')} of your environment or .env ignored: the benchmark runs against ` +
        'the bundled reference only\n',
    );
  }

  const ticks = clockTicks();
  const server = await startFloorServer();
  const floorEnv = { ...env, BENCH_FLOOR_URL: server.url };
  const floor = () => timed('floor', ['--config', floorConfig], floorEnv, ticks);
  const full = async () => {
    const before = summaryWritten();
    return { ...(await timed('full', [], env, ticks)), counts: summaryOfRun(before) };
  };

  const withRemote = process.env.BENCH_REMOTE !== '0';
  const near = () => remoteRun('remote', { latencyMs: 0 }, env, ticks);
  const far = () => remoteRun(`remote, ${delayMs} ms`, { latencyMs: delayMs }, env, ticks);
  const away = () => remoteRun(`remote, ${delayMs} ms away`, {}, env, ticks, delayMs);

  const floors: Measured[] = [];
  const fulls: (Measured & { counts: SummaryCounts })[] = [];
  const nears: Measured[] = [];
  const fars: Measured[] = [];
  const aways: Measured[] = [];
  let limited: Awaited<ReturnType<typeof remoteRun>> | undefined;
  try {
    process.stderr.write('warm-up: floor, full run (not counted)\n');
    await floor();
    await full();
    for (let round = 1; round <= rounds; round++) {
      floors.push(await floor());
      fulls.push(await full());
      const [a, b] = [floors.at(-1)!, fulls.at(-1)!];
      let line = `round ${round}/${rounds}: floor ${a.wallS.toFixed(2)} s, full ${b.wallS.toFixed(2)} s`;
      if (withRemote) {
        // Alternated too, the order flipped every round: neither side always follows the other.
        const order = round % 2 ? [near, far, away] : [away, far, near];
        for (const run of order) {
          (run === near ? nears : run === far ? fars : aways).push(await run());
        }
        line +=
          `, remote ${nears.at(-1)!.wallS.toFixed(2)} s, with ${delayMs} ms ` +
          `${fars.at(-1)!.wallS.toFixed(2)} s, ${delayMs} ms away ${aways.at(-1)!.wallS.toFixed(2)} s`;
      }
      process.stderr.write(`${line}\n`);
    }
    if (withRemote) {
      limited = await remoteRun('rate-limited', { variant: 'rate-limited' }, env, ticks);
      process.stderr.write(`rate-limited: ${limited.wallS.toFixed(2)} s\n`);
    }
  } finally {
    await server.close();
  }

  const cell = (seconds: number, width: number) => seconds.toFixed(2).padStart(width);
  const row = (name: string, runs: Measured[]) => {
    const wall = runs.map((run) => run.wallS);
    const cpu = runs.map((run) => run.cpuS);
    const cpuMedian = cpu.every((value) => value !== undefined) ? cell(median(cpu), 12) : 'n/a';
    const wallCells =
      cell(median(wall), 12) + cell(Math.min(...wall), 7) + cell(Math.max(...wall), 7);
    return name.padEnd(6) + wallCells + cpuMedian.padStart(12);
  };
  const ratio = median(fulls.map((run) => run.wallS)) / median(floors.map((run) => run.wallS));
  const roundRatios = fulls.map((run, index) => run.wallS / floors[index]!.wallS);
  const last = fulls.at(-1)!.counts;
  const verdicts = last.requirements + last.advisories;
  const requests = fulls.map((run) => run.counts.requests);
  const spread =
    Math.min(...requests) === Math.max(...requests)
      ? ''
      : ` (${Math.min(...requests)} to ${Math.max(...requests)} over the rounds)`;

  console.log(
    `floor: playwright test --config scripts/bench-floor/playwright.config.ts; full: playwright ` +
      `test (npm run conformance without npm's start-up), against the bundled reference; CI=1`,
  );
  // The ratio depends on Node's version (its TypeScript loader, its compile cache: Node 22.1 and
  // later, playwright.config.ts) and the cores.
  console.log(`Node ${process.version}, ${availableParallelism()} CPUs`);
  console.log(
    `${rounds} rounds, alternated, after one warm-up of each; seconds; CPU: user + sys of the ` +
      "processes each run reaps (the bundled reference included: it runs in Playwright's)",
  );
  console.log('run    wall median    min    max  CPU median');
  console.log(row('floor', floors));
  console.log(row('full', fulls));
  if (withRemote) {
    console.log(row('remote', nears));
    console.log(row('+100ms', fars));
    console.log(row('away', aways));
  }
  console.log(`ratio: ${ratio.toFixed(2)} (target <= ${target.toFixed(2)})`);
  console.log(
    `paired: ${median(roundRatios).toFixed(2)}, the median of the rounds' own ratios ` +
      `(${Math.min(...roundRatios).toFixed(2)} to ${Math.max(...roundRatios).toFixed(2)})`,
  );
  console.log(
    `full run: ${last.requests} requests${spread}, ${last.petsCreated} pets created, ` +
      `${verdicts} verdicts (${last.requirements} requirements + ${last.advisories} advisories, ` +
      `${last.verdict}): ${(last.requests / verdicts).toFixed(1)} requests per verdict`,
  );
  if (nears.length > 0) {
    const added = median(fars.map((run) => run.wallS)) - median(nears.map((run) => run.wallS));
    console.log(
      `critical path: ${(added / (delayMs / 1000)).toFixed(1)} answer-times (target <= ` +
        `${criticalPathTarget}): a remote target (BASE_URL, default settings), the median ` +
        `wall with every answer ${delayMs} ms later minus the median without, over ${delayMs} ms`,
    );
    const away = median(aways.map((run) => run.wallS)) - median(nears.map((run) => run.wallS));
    console.log(
      `network: ${(away / (delayMs / 1000)).toFixed(1)} round trips on the critical path: the ` +
        `same target ${delayMs} ms away as a network is (a connection costs a round trip, every ` +
        `piece of data half of one), the median wall minus the median without, over ${delayMs} ms`,
    );
  }
  if (limited) {
    const processed = limited.counts.requests - limited.counts.throttled;
    const floorS = processed / RATE_PER_SECOND;
    console.log(
      `rate-limited: ${limited.wallS.toFixed(2)} s behind a gateway of ${RATE_PER_SECOND} ` +
        `requests a second (${processed} processed, ${limited.counts.throttled} asked to wait): ` +
        `${(limited.wallS / floorS).toFixed(2)} times its floor of ${floorS.toFixed(2)} s ` +
        `(requests / rate; selftest/staging.test.ts: at most 1.3 times it plus a one-test run)`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
