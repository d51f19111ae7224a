/**
 * conformance.md: the summary as GitHub-flavoured Markdown, for the places CI shows (a job's
 * step summary, a pull-request comment). The verdict line, the gate, a table of the requirements
 * that failed or were left undecided (each with the document's words and the first failing
 * request, or the reason), what the baseline tolerated and what it lists that passed, and the
 * advisories flagged. Short by design: conformance.html has every check, request and answer.
 *
 * Everything it shows comes from the summaries, already redacted; the file is redacted again as
 * it is written. Cells are escaped for a table: a `|` would end the cell, a line break the row.
 */
import { splitFailure } from './failure-text.ts';
import type { Overview } from './overview.ts';
import type { RequirementResult, Summary } from './summary.ts';

/** One line of at most `max` characters. */
function line(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A table cell's text: no `|`, no HTML, no emphasis, one line. */
const cell = (text: string, max = 240) =>
  line(text, max).replace(/[\\|<>*_`[\]]/g, (char) => `\\${char}`);

/** Inline code, also in a table cell (where GitHub ends a cell at any unescaped `|`). */
const code = (text: string, max = 240) =>
  `\`${line(text, max).replace(/`/g, "'").replace(/\|/g, '\\|')}\``;

const marks: Record<Summary['verdict'], string> = {
  conformant: '✅',
  'not conformant': '❌',
  incomplete: '⚠️',
};

function verdictLine(summary: Summary): string {
  const counts = summary.totals.requirements;
  const others = (['failed', 'inconclusive', 'blocked', 'not run'] as const)
    .filter((verdict) => counts[verdict] > 0)
    .map((verdict) => `${counts[verdict]} ${verdict}`);
  return (
    `${marks[summary.verdict]} **${summary.verdict}**: ${counts.passed} of ${counts.total} ` +
    `requirements passed${others.length ? `, ${others.join(', ')}` : ''}`
  );
}

function facts(summary: Summary): string {
  return [
    `target ${code(summary.target)}`,
    `${summary.interface} ${summary.interfaceVersion}`,
    `suite ${summary.suiteVersion}`,
    `run ${code(summary.runId)}`,
    summary.startedAt.slice(0, 10),
    summary.scope.complete
      ? 'complete run'
      : `partial run (${summary.scope.narrowedBy.join('; ')})`,
  ].join(' · ');
}

/** What a requirement shows in the table's last column: the first failing request, or why. */
function evidence(item: RequirementResult): string {
  const first = item.failures[0];
  if (!first) return cell(item.reasons.join('; ') || item.verdict);
  const parts = splitFailure(first.message);
  // The problems are the answer's lines starting `- `; a request that got no answer says why.
  const lines = `${parts.received ?? ''}\n${parts.other ?? ''}`.split('\n');
  const problem =
    lines.find((line) => /^\s*- /.test(line))?.replace(/^\s*- /, '') ??
    lines.map((line) => line.trim()).find(Boolean);
  const request = parts.request?.split('\n')[0];
  const text = request
    ? `${code(request, 160)}${problem ? `: ${cell(problem, 200)}` : ''}`
    : cell(first.message.split('\n')[0] ?? '');
  const more = item.failures.length > 1 ? ` (and ${item.failures.length - 1} more)` : '';
  return `${text}${more}`;
}

function requirementsTable(summary: Summary): string[] {
  const open = summary.requirements.filter((item) =>
    ['failed', 'blocked', 'inconclusive'].includes(item.verdict),
  );
  if (open.length === 0) return [];
  const newIds = new Set(summary.baseline.newFailures.map(({ requirement }) => requirement));
  const rows = open.map((item) => {
    const state =
      item.verdict !== 'failed'
        ? item.verdict
        : item.tolerated
          ? 'failed (tolerated)'
          : newIds.has(item.id) && summary.baseline.file
            ? 'failed (new)'
            : 'failed';
    return `| ${code(item.id)} §${item.section} | ${state} | ${cell(item.words)} | ${evidence(item)} |`;
  });
  return [
    '| Requirement | Verdict | The document says | First failing request, or why |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

function baselineSection(summary: Summary): string[] {
  const { baseline } = summary;
  if (!baseline.file) return [];
  const lines = [`**Baseline** ${code(baseline.file)}:`, ''];
  if (baseline.tolerated.length > 0) {
    lines.push(
      '| Tolerated failure | Until | Reason |',
      '| --- | --- | --- |',
      ...baseline.tolerated.map(
        ({ requirement, until, reason }) =>
          `| ${code(requirement)} | ${until ?? 'no end date'} | ${cell(reason)} |`,
      ),
      '',
    );
  }
  for (const { requirement, expired } of baseline.newFailures.filter((one) => one.expired)) {
    lines.push(
      `- ${code(requirement)} failed, and its entry expired on ${expired}: no longer tolerated.`,
    );
  }
  for (const { requirement } of baseline.fixed) {
    lines.push(`- ${code(requirement)} **passed**: fixed. Remove its entry from the baseline.`);
  }
  for (const { requirement, verdict } of baseline.unchecked) {
    lines.push(`- ${code(requirement)} ${verdict} this run: its entry is kept.`);
  }
  if (lines.length === 2) lines.push('No entry covers a requirement of this run.');
  return [...lines, ''];
}

function advisoriesSection(summary: Summary): string[] {
  const flagged = summary.advisories.filter(
    (item) => item.verdict === 'flagged' || item.verdict === 'failed',
  );
  if (flagged.length === 0) return [];
  return [
    `**Advisories flagged** (HTTP standards beyond the document; not part of the verdict${summary.strict ? ', but failing in strict mode' : ''}):`,
    '',
    ...flagged.map(
      (item) =>
        `- ${code(item.id)} (${cell(item.source ?? '', 80)}): ${cell(item.findings[0] ?? item.words)}`,
    ),
    '',
  ];
}

/** One target's part: its verdict, gate, the table, the baseline and the advisories. */
function targetPart(summary: Summary, heading: string): string[] {
  return [
    `${heading} ${verdictLine(summary)}`,
    '',
    facts(summary),
    '',
    `**Gate: exit ${summary.gate.code}**: ${cell(summary.gate.why, 600)}.`,
    '',
    ...requirementsTable(summary),
    ...baselineSection(summary),
    ...advisoriesSection(summary),
  ];
}

const footer =
  '<sub>conformance.html shows every failure with its request and answer; conformance.json has every check.</sub>';

/** conformance.md of a run: one target's summary, or the overview of several and each target. */
export function renderSummaryMd(summaries: Summary[], overview?: Overview): string {
  if (!overview) {
    const [summary] = summaries;
    return `${[`## Pet Store conformance`, '', ...targetPart(summary!, '###'), footer].join('\n')}\n`;
  }
  const rows = summaries.map(
    (summary) =>
      `| ${cell(summary.targetName)} | ${code(summary.target)} | ${marks[summary.verdict]} ${summary.verdict} | ${summary.totals.requirements.passed} of ${summary.totals.requirements.total} | ${summary.gate.code} |`,
  );
  return `${[
    '## Pet Store conformance',
    '',
    `${overview.line} **Gate: exit ${overview.gate.code}**: ${cell(overview.gate.why, 600)}.`,
    '',
    '| Target | Address | Verdict | Passed | Exit |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...summaries.flatMap((summary) => targetPart(summary, `### ${cell(summary.targetName)}:`)),
    footer,
  ].join('\n')}\n`;
}
