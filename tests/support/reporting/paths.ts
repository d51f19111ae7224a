/**
 * Where a run writes its reports: `reports/` at the project root, or CONFORMANCE_REPORT_DIR
 * (the project's own tests write to a temporary directory so they never touch `reports/`).
 * Read by the Playwright configuration, the reporters and the bundle script alike.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const reportDir = resolve(projectRoot, process.env.CONFORMANCE_REPORT_DIR || 'reports');

export const reportPaths = {
  /** Playwright's HTML report (a folder). */
  html: resolve(reportDir, 'html'),
  /** Playwright's JSON results. */
  results: resolve(reportDir, 'results.json'),
  /** JUnit XML, for CI systems. */
  junit: resolve(reportDir, 'junit.xml'),
  /** Our summary: one verdict per requirement. */
  summaryJson: resolve(reportDir, 'conformance.json'),
  /** The same as one self-contained page. */
  summaryHtml: resolve(reportDir, 'conformance.html'),
  /** The same as GitHub-flavoured Markdown, for a job summary or a pull-request comment. */
  summaryMd: resolve(reportDir, 'conformance.md'),
  /** A shields.io endpoint file: the verdict as a badge. */
  badge: resolve(reportDir, 'badge.json'),
  /** The Common Test Report Format, one test per check (playwright-ctrf-json-reporter). */
  ctrf: resolve(reportDir, 'ctrf.json'),
  /** A shard's blob report, for `npm run merge`. */
  blob: resolve(reportDir, 'blob'),
};

/**
 * The files that say a run's verdict, in the report folder: the command removes them before a
 * run, so that none of another run is read as this one's.
 */
export const verdictFiles = ['conformance.json', 'conformance.md', 'badge.json'];

/**
 * What Playwright's reports not chosen by CONFORMANCE_REPORTS left in the folder from an earlier
 * run: removed as a run starts, so no report of another run sits beside this run's summary.
 */
export function reportsNotChosen(chosen: readonly string[]): string[] {
  const byFormat: Record<string, string> = {
    html: reportPaths.html,
    json: reportPaths.results,
    junit: reportPaths.junit,
    ctrf: reportPaths.ctrf,
  };
  return Object.entries(byFormat)
    .filter(([format]) => !chosen.includes(format))
    .map(([, path]) => path);
}

/** Where one target's summary goes in a run of several targets. */
export function targetPaths(name: string) {
  const dir = resolve(reportDir, 'targets', name);
  return {
    summaryJson: resolve(dir, 'conformance.json'),
    summaryHtml: resolve(dir, 'conformance.html'),
    badge: resolve(dir, 'badge.json'),
  };
}
