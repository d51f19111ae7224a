/**
 * `npm run merge -- <folder>`: merges the blob reports of a sharded run (each shard ran
 * `npm run conformance -- --shard=K/N` with the same CONFORMANCE_RUN_ID and left its blob report
 * in reports/blob/) into the report folder, exactly as one unsharded run would have written it:
 * conformance.json and .html (one verdict per requirement), Playwright's HTML report, JUnit XML
 * and JSON. The run's facts (target, run id, seed, settings) come from the blobs; merging needs
 * no target and no key. The installed command's `merge` is the same (cli/merge.ts).
 */
import { mergeReports } from '../cli/merge.ts';
import { UsageError } from '../cli/usage.ts';

mergeReports(process.argv[2]).then(
  (code) => process.exit(code ?? 1),
  (error: unknown) => {
    console.error(
      error instanceof UsageError ? `Usage: npm run merge -- <folder>\n${error.message}` : error,
    );
    process.exit(2);
  },
);
