/**
 * `npm run bundle`: the release bundle of the last run in a checkout,
 * reports/conformance-report-<run id>.tar.gz (or in CONFORMANCE_REPORT_DIR, like the suite), with
 * the in-toto statement that lists its files. The installed command's `bundle` is the same
 * (cli/bundle.ts). Attach it to a release:
 *
 *   npm run conformance; npm run bundle
 *   gh release upload v1.2.3 reports/conformance-report-*.tar.gz reports/conformance.html
 */
import { bundleCommand } from '../cli/bundle.ts';
import { UsageError } from '../cli/usage.ts';
import { reportDir } from '../tests/support/reporting/paths.ts';

bundleCommand(reportDir).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof UsageError ? `npm run bundle: ${error.message}` : error);
    process.exit(error instanceof UsageError ? 3 : 1);
  },
);
