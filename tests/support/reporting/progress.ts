/**
 * Which checks of each target a run has ended: what the one check that must come after every
 * other one waits for (tests/stored-hostile-inputs.spec.ts: inputs a store may keep and then fail
 * on for every reader). The conformance reporter, in Playwright's main process, records how many
 * other checks of each target the run holds as it begins (its public onBegin sees every test that
 * will run, after --grep, files and --shard) and each that ends (onTestEnd), in small files per run
 * and target in the system's temporary folder; a worker reads them. Playwright hands out the files
 * in the order of their names, so that check, in the last file, starts once every other check was
 * handed out: what it waits for is at most one test of each other worker.
 */
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The file of the checks that wait for every other one; its name sorts after every other file. */
export const lastChecks = /stored-hostile-inputs\.spec\.[jt]s$/;

const progressDir = join(tmpdir(), 'petstore-conformance-progress');

const fileOf = (run: string, target: string, kind: 'planned' | 'ended') =>
  join(
    progressDir,
    `${run}-${createHash('sha256').update(target).digest('hex').slice(0, 12)}-${kind}`,
  );

/** As the run begins: how many checks of each target (by name) come before the last ones. */
export function recordPlanned(run: string, counts: ReadonlyMap<string, number>): void {
  mkdirSync(progressDir, { recursive: true });
  for (const [target, count] of counts) {
    writeFileSync(fileOf(run, target, 'planned'), String(count));
    writeFileSync(fileOf(run, target, 'ended'), '');
  }
}

/** A check of the target ended (a line per test id: a retry is the same check). */
export function recordEnded(run: string, target: string, testId: string): void {
  try {
    appendFileSync(fileOf(run, target, 'ended'), `${testId}\n`);
  } catch {
    // No plan was recorded for this run (a merge of shards replays results): nothing waits.
  }
}

/** How many checks of the target have not ended yet; undefined when the run recorded no plan. */
export function checksLeft(run: string, target: string): number | undefined {
  let planned: number;
  let ended: string;
  try {
    planned = Number(readFileSync(fileOf(run, target, 'planned'), 'utf8'));
    ended = readFileSync(fileOf(run, target, 'ended'), 'utf8');
  } catch {
    return undefined;
  }
  const distinct = new Set(ended.split('\n').filter(Boolean));
  return Math.max(0, planned - distinct.size);
}

/**
 * Removes a run's files, as it ends. `run` is the run's progress key (its id and its main process:
 * shards of one run on one machine share the id).
 */
export function removeProgress(run: string): void {
  try {
    for (const name of readdirSync(progressDir)) {
      if (name.startsWith(`${run}-`)) rmSync(join(progressDir, name), { force: true });
    }
  } catch {
    // Nothing was written.
  }
}
