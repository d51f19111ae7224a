/**
 * `npm run merge -- <folder>`: merges the blob reports of a sharded run (each shard ran
 * `npm run conformance -- --shard=K/N` with the same CONFORMANCE_RUN_ID and left its blob report
 * in reports/blob/) into the report folder, exactly as one unsharded run would have written it:
 * conformance.json and .html (one verdict per requirement), Playwright's HTML report, JUnit XML
 * and JSON. The run's facts (target, run id, seed, settings) come from the blobs; merging needs
 * no target and no key.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const folder = process.argv[2];

if (!folder || !existsSync(folder) || !readdirSync(folder).some((name) => name.endsWith('.zip'))) {
  console.error(
    `Usage: npm run merge -- <folder holding every shard's blob report (*.zip)>\n` +
      `Each shard leaves its blob in reports/blob/ (or CONFORMANCE_REPORT_DIR/blob/); ` +
      `${folder ? `"${folder}" holds none.` : 'no folder was given.'}`,
  );
  process.exit(2);
}

const run = spawnSync(
  process.execPath,
  [
    `${projectRoot}node_modules/@playwright/test/cli.js`,
    'merge-reports',
    '--config',
    `${projectRoot}playwright.config.ts`,
    folder,
  ],
  { stdio: 'inherit', env: process.env },
);
process.exit(run.status ?? 1);
