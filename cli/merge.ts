/**
 * `petstore-conformance merge <folder>`: the blob reports of a sharded run (each machine ran
 * `--shard K/N` with the same CONFORMANCE_RUN_ID and left its blob in <report dir>/blob/) merged
 * into the report folder, as one unsharded run would have written it. Needs no target and no key.
 * `npm run merge` in a checkout is the same (scripts/merge.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { gateOfRun, removeVerdicts, report, settingsOf } from './check.ts';
import { runPlaywright } from './suite.ts';
import { UsageError } from './usage.ts';

/** Runs Playwright's merge-reports on the folder; resolves to Playwright's exit code. */
export async function mergeReports(folder: string | undefined): Promise<number | null> {
  if (
    !folder ||
    !existsSync(folder) ||
    !readdirSync(folder).some((name) => name.endsWith('.zip'))
  ) {
    throw new UsageError(
      "merge takes the folder holding every shard's blob report (*.zip); each shard leaves its " +
        `blob in <report dir>/blob/. ${folder ? `"${folder}" holds none.` : 'No folder was given.'}`,
    );
  }
  return runPlaywright('merge-reports', [folder]);
}

/** The command's merge: the reports under --report-dir (or ./conformance-reports), its exit code the verdict's. */
export async function merge(folder: string | undefined, reportDir?: string): Promise<number> {
  await settingsOf({ reportDir, playwrightArgs: [] });
  removeVerdicts(process.env.CONFORMANCE_REPORT_DIR!);
  const exited = await mergeReports(folder);
  return report(gateOfRun(process.env.CONFORMANCE_REPORT_DIR!), exited);
}
