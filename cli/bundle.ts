/**
 * `petstore-conformance bundle` (and `npm run bundle` in a checkout: scripts/bundle.ts): packs the
 * last run's reports in the report folder into one file there,
 * conformance-report-<run id>.tar.gz, under one folder: the summary (conformance.html, .json,
 * .md), badge.json, ctrf.json, the JUnit XML, Playwright's HTML report and, for several targets,
 * each target's summary, whichever the run wrote; and the in-toto statement that lists each of
 * them with its digest (statement.ts), also left beside them as conformance.intoto.json. Nothing
 * else: no blob, no scratch folder, no key (the reports are written redacted).
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { create } from 'tar';
import { UsageError } from './usage.ts';
import { summariesOf } from './baseline.ts';
import { type Subject, sha256, statementName, statementOf } from './statement.ts';

/** The report files and folders a bundle holds, when the run wrote them. */
const reports = [
  'conformance.html',
  'conformance.json',
  'conformance.md',
  'badge.json',
  'ctrf.json',
  'junit.xml',
  'html',
  'targets',
];

/** Every file under `path` (a file or a folder), relative to `root`, '/'-separated, sorted. */
function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full)
    .sort()
    .flatMap((name) => filesUnder(root, posix.join(path, name)));
}

/** Where the run's GitHub Actions job is, when the bundle is made in one. */
function runUrl(): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = process.env;
  return server && repo && run ? `${server}/${repo}/actions/runs/${run}` : undefined;
}

/** Bundles the reports in `reportDir`; returns the bundle's path. */
export async function bundle(reportDir: string): Promise<string> {
  const missing = ['conformance.json', 'conformance.html'].filter(
    (name) => !existsSync(join(reportDir, name)),
  );
  if (missing.length > 0) {
    throw new UsageError(
      `nothing to bundle in ${reportDir}: ${missing.join(', ')} missing. Run the suite first ` +
        '(with --report-dir for another folder).',
    );
  }
  const summaries = summariesOf(join(reportDir, 'conformance.json'));
  const root = `conformance-report-${summaries[0]?.runId ?? 'run'}`;
  const files = reports
    .filter((name) => existsSync(join(reportDir, name)))
    .flatMap((name) => filesUnder(reportDir, name));
  const subject: Subject[] = files.map((name) => ({
    name,
    digest: { sha256: sha256(readFileSync(join(reportDir, name))) },
  }));
  const statement = statementOf(summaries, subject, runUrl());
  writeFileSync(join(reportDir, statementName), `${JSON.stringify(statement, null, 2)}\n`);
  const file = join(reportDir, `${root}.tar.gz`);
  rmSync(file, { force: true });
  await create({ gzip: { level: 9 }, file, cwd: reportDir, prefix: root, portable: true }, [
    ...files,
    statementName,
  ]);
  return file;
}

/**
 * The command: bundles, and prints the bundle's path alone on standard output (for a script to
 * take), how to open and check it on standard error.
 */
export async function bundleCommand(reportDir: string): Promise<number> {
  const file = await bundle(reportDir);
  const shown = relative(process.cwd(), file).startsWith('..')
    ? file
    : relative(process.cwd(), file);
  console.log(shown);
  console.error(
    `Open ${posix.basename(file, '.tar.gz')}/conformance.html after extracting it; check it ` +
      `with: petstore-conformance verify ${shown}`,
  );
  return 0;
}
