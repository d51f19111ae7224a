/**
 * ctrf.json, the Common Test Report Format, is written by its maintained Playwright reporter
 * (playwright-ctrf-json-reporter, listed before the conformance reporter): one test per check,
 * the requirements it checks as its tags (`@LIST-LIMIT-DEFAULT`). One thing is set right here, as
 * the conformance reporter ends: a failure the baseline tolerates is marked expected so that
 * Playwright keeps its worker, and the CTRF reporter reports an expected failure as passed. Its
 * `rawStatus` (Playwright's) says failed, and so does its summary's count: the test's status is
 * set back to failed, so that ctrf.json shows the run's verdicts as every other report does.
 * And one thing the reporter (0.0.29) writes as an older draft had it: a test's `suite`, one
 * string joined by ' > ', where CTRF's schema (the `ctrf` package's, which that reporter itself
 * depends on) has the list of suite titles; it is split back into that list. The file is redacted
 * again as it is written back.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { redact } from './redaction.ts';

interface CtrfTest {
  status: string;
  rawStatus?: string;
  suite?: string | string[];
  extra?: Record<string, unknown>;
}

const failedStatuses = ['failed', 'timedOut', 'interrupted'];

/**
 * Sets each tolerated failure of the CTRF report at `file` back to failed, each suite as the
 * schema's list; no file, nothing.
 */
export function amendCtrf(file: string): void {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { results?: { tests?: CtrfTest[] } };
  for (const test of report.results?.tests ?? []) {
    if (test.status === 'passed' && failedStatuses.includes(test.rawStatus ?? '')) {
      test.status = 'failed';
      test.extra = { ...test.extra, toleratedByBaseline: true };
    }
    if (typeof test.suite === 'string') {
      const titles = test.suite.split(' > ').filter(Boolean);
      if (titles.length > 0) test.suite = titles;
      else delete test.suite;
    }
  }
  writeFileSync(file, redact(`${JSON.stringify(report, null, 2)}\n`));
}
