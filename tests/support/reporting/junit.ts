/**
 * junit.xml is written by Playwright's JUnit reporter (listed before the conformance reporter): one
 * test case per check. A check that passed may still have found another requirement's deviation
 * (a finding), and then no test case fails though the verdict does: a CI page that reads JUnit
 * would show a failing run green. So, as the conformance reporter ends, one test suite per target
 * is added, `requirements`, with a test case per requirement of the catalogue: failed with its
 * first charged check's message, skipped when blocked, inconclusive or not run (with why), passed
 * otherwise. The root's counts are raised to match. The file is redacted again as it is written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { redact } from './redaction.ts';
import type { Summary } from './summary.ts';

const escape = (text: string): string =>
  text
    // Characters XML 1.0 cannot hold at all (control characters but tab, newline, return).
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** The `requirements` test suite of one target's summary. */
function requirementsSuite(summary: Summary): {
  xml: string;
  tests: number;
  failures: number;
  skipped: number;
} {
  let failures = 0;
  let skipped = 0;
  const cases = summary.requirements.map((requirement) => {
    const name = escape(`${requirement.id} (§${requirement.section}): ${requirement.words}`);
    const head = `<testcase name="${name}" classname="requirements" time="0">`;
    if (requirement.verdict === 'failed') {
      failures++;
      const first = requirement.failures[0]?.message ?? 'failed';
      const tolerated = requirement.tolerated ? ' (tolerated by the baseline)' : '';
      const message = escape(`${requirement.id} failed${tolerated}: ${first.split('\n', 1)[0]}`);
      return `${head}\n<failure message="${message}" type="requirement">${escape(first)}</failure>\n</testcase>`;
    }
    if (requirement.verdict !== 'passed') {
      skipped++;
      const why = escape(`${requirement.verdict}: ${requirement.reasons.join('; ')}`);
      return `${head}\n<skipped message="${why}"/>\n</testcase>`;
    }
    return `${head}</testcase>`;
  });
  const name = escape(summary.targetName ? `requirements: ${summary.targetName}` : 'requirements');
  const xml =
    `<testsuite name="${name}" timestamp="${summary.finishedAt}" hostname="" tests="${cases.length}" ` +
    `failures="${failures}" skipped="${skipped}" time="0" errors="0">\n${cases.join('\n')}\n</testsuite>`;
  return { xml, tests: cases.length, failures, skipped };
}

/** Adds each target's `requirements` suite to the JUnit report at `file`; no file, nothing. */
export function amendJunit(file: string, summaries: readonly Summary[]): void {
  if (!existsSync(file) || summaries.length === 0) return;
  const text = readFileSync(file, 'utf8');
  const end = text.lastIndexOf('</testsuites>');
  if (end < 0) return;
  const suites = summaries.map(requirementsSuite);
  const add = (attribute: string, by: number) => (root: string) =>
    root.replace(
      new RegExp(`( ${attribute}=")(\\d+)(")`),
      (_, open: string, value: string, close: string) => `${open}${Number(value) + by}${close}`,
    );
  const sum = (pick: (suite: (typeof suites)[number]) => number) =>
    suites.reduce((total, suite) => total + pick(suite), 0);
  const root = /<testsuites\b[^>]*>/.exec(text);
  if (!root) return;
  const amendedRoot = [
    add(
      'tests',
      sum((suite) => suite.tests),
    ),
    add(
      'failures',
      sum((suite) => suite.failures),
    ),
    add(
      'skipped',
      sum((suite) => suite.skipped),
    ),
  ].reduce((value, step) => step(value), root[0]);
  const body = text.slice(root.index + root[0].length, end);
  const amended =
    text.slice(0, root.index) +
    amendedRoot +
    body +
    suites.map((suite) => suite.xml).join('\n') +
    '\n' +
    text.slice(end);
  writeFileSync(file, redact(amended));
}
