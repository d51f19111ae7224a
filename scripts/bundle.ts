/**
 * The release bundle: one file, reports/conformance-report-<run id>.tar.gz, holding the summary
 * (conformance.html, conformance.json), the JUnit XML and Playwright's HTML report of the last
 * run, under one folder. Attach it to a release:
 *
 *   npm run conformance; npm run bundle
 *   gh release upload v1.2.3 reports/conformance-report-*.tar.gz
 *
 * Reads and writes CONFORMANCE_REPORT_DIR when it is set, like the suite.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { reportDir, reportPaths } from '../tests/support/reporting/paths.ts';
import { type TarEntry, fileEntry, folderEntries, tar } from './tar.ts';

const wanted = [reportPaths.summaryHtml, reportPaths.summaryJson, reportPaths.junit];
const missing = [...wanted, reportPaths.html].filter((path) => !existsSync(path));
if (missing.length > 0) {
  console.error(
    `Nothing to bundle: ${missing.map((path) => relative(process.cwd(), path)).join(', ')} ` +
      'missing. Run the suite first (npm run conformance).',
  );
  process.exit(1);
}

const { runId } = JSON.parse(readFileSync(reportPaths.summaryJson, 'utf8')) as { runId: string };
const root = `conformance-report-${runId}`;
const entries: TarEntry[] = [
  { path: root, type: 'directory', mtime: new Date() },
  ...wanted.map((file) => fileEntry(file, `${root}/${basename(file)}`)),
  ...folderEntries(reportPaths.html, `${root}/html`),
];
const bundle = `${reportDir}/${root}.tar.gz`;
writeFileSync(bundle, gzipSync(tar(entries), { level: 9 }));

const shown = relative(process.cwd(), bundle);
console.log(
  `Bundle: ${shown.startsWith('..') ? bundle : shown} (${entries.length} entries). ` +
    `Open ${root}/conformance.html after extracting it.`,
);
