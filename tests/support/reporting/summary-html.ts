/**
 * Renders the conformance summary as one self-contained HTML page (inline CSS and a few lines of
 * inline script, no external asset), meant to be attached to a release and read at a glance:
 * a verdict banner, a matrix of requirements by section, then every failed requirement with the
 * request and the answer that failed it, the full table (with the reason of every requirement
 * that was not decided), and the advisories on their own. With several targets, an overview page
 * shows targets × requirements, each cell linking to that target's failure.
 *
 * Every text from the run goes through `escapeHtml`: error messages quote response bodies.
 */
import type { Overview } from './overview.ts';
import {
  type AdvisoryResult,
  type RequirementResult,
  type Summary,
  type TestRef,
} from './summary.ts';
import { splitFailure } from './failure-text.ts';
import { summaryScript, summaryStyle } from './summary-style.ts';

export function escapeHtml(text: string | number | boolean): string {
  return String(text).replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

const e = escapeHtml;

type AnyVerdict = RequirementResult['verdict'] | AdvisoryResult['verdict'];

const icons: Record<AnyVerdict, string> = {
  passed: '✓',
  met: '✓',
  failed: '✗',
  flagged: '!',
  inconclusive: '?',
  blocked: '⊘',
  'not run': '–',
};

/** A CSS class for a verdict or outcome ('not run' → 'not-run', 'skipped' → 'not-run'). */
const tone = (verdict: string) => (verdict === 'skipped' ? 'not-run' : verdict.replace(' ', '-'));

const badge = (verdict: AnyVerdict) =>
  `<span class="badge ${tone(verdict)}">${icons[verdict]} ${e(verdict)}</span>`;

export const failureAnchor = (id: string) => `failure-${id}`;
const requirementAnchor = (id: string) => `req-${id}`;

/** Where a requirement's tile and verdict point: its failure, or its row in the table. */
function target(item: RequirementResult | AdvisoryResult): string {
  const failed = item.verdict === 'failed' && 'failures' in item && item.failures.length > 0;
  return `#${failed ? failureAnchor(item.id) : requirementAnchor(item.id)}`;
}

const where = (item: { file: string; line: number; project: string }) =>
  `${item.file}:${item.line}${item.project ? ` · ${item.project}` : ''}`;

function header(summary: Summary): string {
  const { requirements: counts } = summary.totals;
  const headline =
    summary.verdict === 'conformant'
      ? `Conformant: all ${counts.total} requirements passed`
      : summary.verdict === 'not conformant'
        ? `Not conformant: ${counts.failed} of ${counts.total} requirements failed`
        : `Incomplete: ${counts.passed} of ${counts.total} requirements passed, ${counts.total - counts.passed} undecided`;
  const seconds = (Date.parse(summary.finishedAt) - Date.parse(summary.startedAt)) / 1000;
  const facts: [string, string][] = [
    ['Target', summary.target],
    ['Interface version', summary.interfaceVersion],
    ['Suite version', summary.suiteVersion],
    ['Date', summary.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')],
    ['Duration', `${seconds.toFixed(1)} s`],
    ['fast-check seed', String(summary.seed)],
    ['Run id', summary.runId],
    ['Requests made', String(summary.requests)],
    [
      'Pets created',
      // A pet whose name cannot carry the run's marker (an empty name) is found by its id.
      summary.unmarkedPets?.length
        ? `${summary.petsCreated}; without the run's marker: ids ${summary.unmarkedPets.join(', ')}`
        : String(summary.petsCreated),
    ],
    [
      'Rate limiting',
      summary.throttled > 0
        ? `${summary.throttled} of ${summary.requests} requests refused (${(summary.refusedShare * 100).toFixed(1)}%); waited ${(summary.pausedMs / 1000).toFixed(1)} s`
        : 'none met',
    ],
    // Only when it happened (older summaries have no count).
    ...((summary.resent ?? 0) > 0
      ? [
          [
            'Sent again',
            `${summary.resent} requests: a kept-alive connection closed before the answer began`,
          ] as [string, string],
        ]
      : []),
    ['Strict mode', summary.strict ? 'on: flagged advisories fail' : 'off'],
    ...baselineFacts(summary),
    ['Gate', `exit ${summary.gate.code}: ${summary.gate.why}`],
    ['Scope', summary.scope.complete ? 'complete' : summary.scope.narrowedBy.join('; ')],
    ...Object.entries(summary.settings ?? {})
      .filter(([, value]) => value !== '' && value !== 0 && value !== false)
      .map(([name, value]): [string, string] => [`Setting ${name}`, String(value)]),
  ];
  const segments = (['passed', 'failed', 'inconclusive', 'blocked', 'not run'] as const)
    .filter((verdict) => counts[verdict] > 0)
    .map(
      (verdict) =>
        `<span class="${tone(verdict)}" style="flex:${counts[verdict]}" title="${counts[verdict]} ${verdict}">${counts[verdict]} ${e(verdict)}</span>`,
    )
    .join('');
  return `<header class="banner ${tone(summary.verdict)}">
  <p class="kicker">${e(summary.interface)} ${e(summary.interfaceVersion)} · conformance report${summary.targetName ? ` · target ${e(summary.targetName)}` : ''}</p>
  <h1>${e(headline)}</h1>
  <div class="bar" role="img" aria-label="${e(`${counts.passed} passed, ${counts.failed} failed, ${counts.inconclusive} inconclusive, ${counts.blocked} blocked, ${counts['not run']} not run`)}">${segments}</div>
  <dl class="facts">${facts.map(([name, value]) => `<div><dt>${e(name)}</dt><dd>${e(value)}</dd></div>`).join('')}</dl>
</header>`;
}

/** What the baseline tolerated (which changes no verdict), and what it lists that passed. */
function baselineFacts(summary: Summary): [string, string][] {
  const { baseline } = summary;
  if (!baseline.file) return [];
  const ids = (items: { requirement: string }[]) =>
    items.map(({ requirement }) => requirement).join(', ');
  return [
    ['Baseline (changes no verdict)', baseline.file],
    ...(baseline.tolerated.length
      ? [['Tolerated failures', ids(baseline.tolerated)] as [string, string]]
      : []),
    ...(baseline.fixed.length
      ? [['Baselined, but passed (remove)', ids(baseline.fixed)] as [string, string]]
      : []),
  ];
}

const toleratedMark = (item: RequirementResult | AdvisoryResult) =>
  'tolerated' in item && item.tolerated
    ? ` <span class="muted">(tolerated by the baseline${item.tolerated.until ? ` until ${e(item.tolerated.until)}` : ''}: ${e(item.tolerated.reason)})</span>`
    : '';

function tile(item: RequirementResult | AdvisoryResult): string {
  const reasons = 'reasons' in item ? item.reasons : [];
  const why = reasons.length ? ` (${reasons.join('; ')})` : '';
  const title = `${item.id} (§${item.section}), ${item.verdict}${why}: ${item.words}`;
  return `<a class="tile ${tone(item.verdict)}" href="${e(target(item))}" title="${e(title)}"><span class="icon">${icons[item.verdict]}</span>${e(item.id)}</a>`;
}

/** Document order: 1, 2, 4.1, 4.2, …, 9. */
function bySectionNumber(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? -1) !== (y[i] ?? -1)) return (x[i] ?? -1) - (y[i] ?? -1);
  }
  return 0;
}

function matrix(summary: Summary): string {
  const sections = [...new Set(summary.requirements.map((item) => item.section))].sort(
    bySectionNumber,
  );
  const rows = sections.map((section) => {
    const items = summary.requirements.filter((item) => item.section === section);
    return `<div class="row"><div class="section"><b>§${e(section)}</b> ${e(items[0]!.sectionTitle)}</div><div class="tiles">${items.map(tile).join('')}</div></div>`;
  });
  return `<section id="matrix"><h2>Requirements by section</h2>
<p class="legend">${badge('passed')} ${badge('failed')} ${badge('inconclusive')} ${badge('blocked')} ${badge('not run')} <span class="hint">A failed requirement links to the request that failed it; the others to the reason.</span></p>
<div class="matrix">${rows.join('')}</div></section>`;
}

function failureParts(message: string): string {
  const parts = splitFailure(message);
  const block = (label: string, text: string | undefined, kind: string) =>
    text === undefined || text === ''
      ? ''
      : `<div class="part ${kind}"><div class="label">${e(label)}</div><pre>${e(text)}</pre></div>`;
  return `<div class="error">${block('Request', parts.request, 'request')}${block('Expected', parts.expected, 'expected')}${block('Received', parts.received, 'received')}${block(parts.request ? 'What happened' : 'Error', parts.other, 'other')}</div>`;
}

/** One failed requirement: each check charged to it, with the request and the answer. */
function failure(item: RequirementResult, summary: Summary): string {
  const shown = item.failures.slice(0, 5);
  const checks = shown.map(({ test: index, message, source }) => {
    const test = summary.tests[index]!;
    const how =
      source === 'finding'
        ? `met by the check “${e(test.title)}”, which checks ${e(test.requirements.join(', '))}`
        : `the check “${e(test.title)}” failed`;
    const exchanges = test.exchanges
      ? `<details><summary>Every request of that check, with curl lines to repeat them</summary><pre>${e(clip(test.exchanges, 30_000))}</pre></details>`
      : '';
    return `<div class="charge"><p class="where">${how} · ${e(where(test))}</p>${failureParts(message)}${exchanges}</div>`;
  });
  const more =
    item.failures.length > shown.length
      ? `<p class="hint">and ${item.failures.length - shown.length} more (conformance.json lists them all)</p>`
      : '';
  return `<article class="failure" id="${e(failureAnchor(item.id))}">
  <h3>${badge('failed')} <a href="#${e(requirementAnchor(item.id))}">${e(item.id)}</a>${toleratedMark(item)} <span class="words">§${e(item.section)} ${e(item.words)}</span></h3>
  ${checks.join('')}${more}
</article>`;
}

const clip = (text: string, max: number) =>
  text.length <= max
    ? text
    : `${text.slice(0, max)}\n… (${text.length} characters in all; see the HTML report)`;

function failures(summary: Summary): string {
  const failed = summary.requirements.filter((item) => item.verdict === 'failed');
  if (failed.length === 0) return '';
  return `<section id="failures"><h2>Failures <span class="count">${failed.length}</span></h2>
${failed.map((item) => failure(item, summary)).join('\n')}</section>`;
}

function testList(refs: TestRef[]): string {
  if (refs.length === 0) return '<span class="muted">no test ran</span>';
  const items = refs.map((ref) => {
    const title = e(ref.title);
    const name = title;
    const reason =
      ref.outcome === 'skipped' || ref.outcome === 'blocked'
        ? ` <span class="reason">${e(ref.outcome)}${ref.skipReason ? `: ${e(ref.skipReason.replace(/^blocked: /, ''))}` : ''}</span>`
        : '';
    const icon = ref.outcome === 'passed' ? '✓' : ref.outcome === 'failed' ? '✗' : '–';
    return `<li class="${tone(ref.outcome)}" title="${e(where(ref))}"><span class="icon">${icon}</span> ${name}${reason}</li>`;
  });
  return `<ul class="tests">${items.join('')}</ul>`;
}

const order: Record<AnyVerdict, number> = {
  failed: 0,
  flagged: 1,
  blocked: 2,
  inconclusive: 3,
  'not run': 4,
  met: 5,
  passed: 5,
};

function byVerdict<T extends { verdict: AnyVerdict }>(items: T[]): T[] {
  return [...items].sort((a, b) => order[a.verdict] - order[b.verdict]);
}

function requirementRow(item: RequirementResult | AdvisoryResult): string {
  const findings =
    'findings' in item && item.findings.length
      ? `<ul class="findings">${item.findings.map((finding) => `<li>${e(finding)}</li>`).join('')}</ul>`
      : '';
  const source = item.source ? `<div class="muted">Source: ${e(item.source)}</div>` : '';
  const reasons =
    'reasons' in item && item.reasons.length
      ? `<ul class="reasons">${item.reasons.map((reason) => `<li>${e(reason)}</li>`).join('')}</ul>`
      : '';
  return `<tr id="${e(requirementAnchor(item.id))}" class="${tone(item.verdict)}" data-verdict="${e(tone(item.verdict))}">
  <td class="id"><b>${e(item.id)}</b>${toleratedMark(item)}<div class="muted">§${e(item.section)} ${e(item.sectionTitle)} · ${e(item.kind)}</div></td>
  <td><q>${e(item.words)}</q><div class="muted">Checked: ${e(item.checks)}</div>${source}${findings}${reasons}</td>
  <td class="verdict"><a href="${e(target(item))}">${badge(item.verdict)}</a></td>
  <td>${testList(item.tests)}</td>
</tr>`;
}

function table(items: (RequirementResult | AdvisoryResult)[]): string {
  return `<table><thead><tr><th>Requirement</th><th>The document's words</th><th>Verdict</th><th>Tests that checked it</th></tr></thead>
<tbody>${byVerdict(items).map(requirementRow).join('\n')}</tbody></table>`;
}

function requirementsTable(summary: Summary): string {
  const counts = summary.totals.requirements;
  const filters = (['failed', 'inconclusive', 'blocked', 'not run', 'passed'] as const)
    .filter((verdict) => counts[verdict] > 0)
    .map(
      (verdict) =>
        `<button type="button" data-filter="${tone(verdict)}">${e(verdict)} (${counts[verdict]})</button>`,
    )
    .join('');
  return `<section id="requirements"><h2>Every requirement <span class="count">${counts.total}</span></h2>
<p class="filters" hidden><button type="button" data-filter="" aria-pressed="true">all (${counts.total})</button>${filters}</p>
${table(summary.requirements)}</section>`;
}

function advisories(summary: Summary): string {
  if (summary.advisories.length === 0) return '';
  const counts = summary.totals.advisories;
  const line = (['met', 'flagged', 'failed', 'not run'] as const)
    .filter((verdict) => counts[verdict] > 0)
    .map((verdict) => `${counts[verdict]} ${verdict}`)
    .join(', ');
  return `<section id="advisories"><h2>Advisories <span class="count">${e(line)}</span></h2>
<p class="hint">What the HTTP standards expect beyond the interface document. They are not part of the conformance verdict; a flagged advisory fails only in strict mode (CONFORMANCE_STRICT=1).</p>
<p class="legend">${badge('met')} ${badge('flagged')} ${badge('failed')} ${badge('not run')}</p>
<div class="matrix"><div class="row"><div class="section"><b>HTTP</b> standards</div><div class="tiles">${summary.advisories.map(tile).join('')}</div></div></div>
${table(summary.advisories)}</section>`;
}

/** The summary page of one target; `root` leads from the page to the report folder. */
export function renderSummaryHtml(summary: Summary, root = ''): string {
  const title = `${summary.verdict} · ${summary.target} · ${summary.interface} ${summary.interfaceVersion}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${summaryStyle}</style>
</head>
<body>
${header(summary)}
<main>
${matrix(summary)}
${failures(summary)}
${requirementsTable(summary)}
${advisories(summary)}
</main>
<footer>petstore-conformance ${e(summary.suiteVersion)} · run ${e(summary.runId)} · Playwright status: ${e(summary.status)} · the pets this run created are named <code>${e(summary.petNamePrefix)}…</code> · Playwright's own report: <a href="${e(root)}html/index.html">html/index.html</a>${root ? ` · <a href="${e(root)}conformance.html">all targets</a>` : ''}</footer>
<script>${summaryScript}</script>
</body>
</html>
`;
}

/** The overview of a run against several targets: targets × requirements, one cell each. */
export function renderOverviewHtml(overview: Overview, summaries: Summary[]): string {
  const ids = summaries[0]?.requirements.map((item) => item.id) ?? [];
  const head = ids.map((id) => `<th class="rot"><span>${e(id)}</span></th>`).join('');
  const rows = summaries.map((summary) => {
    const page = `targets/${encodeURIComponent(summary.targetName)}/conformance.html`;
    const cells = summary.requirements.map((item) => {
      const anchor =
        item.verdict === 'failed' ? failureAnchor(item.id) : requirementAnchor(item.id);
      const why = item.reasons.length ? `: ${item.reasons.join('; ')}` : '';
      return `<td class="cell"><a class="tile ${tone(item.verdict)}" href="${e(`${page}#${anchor}`)}" title="${e(`${summary.targetName} · ${item.id}: ${item.verdict}${why}`)}">${icons[item.verdict]}</a></td>`;
    });
    return `<tr><th class="target"><a href="${e(page)}">${e(summary.targetName)}</a><div class="muted">${e(summary.target)}</div><div>${badge(summary.verdict === 'conformant' ? 'passed' : summary.verdict === 'not conformant' ? 'failed' : 'not run')} ${e(summary.verdict)}</div></th>${cells.join('')}</tr>`;
  });
  const tone0 = overview.verdict.replace(' ', '-');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(`${overview.verdict} · ${summaries.length} targets · ${overview.interface} ${overview.interfaceVersion}`)}</title>
<style>${summaryStyle}</style>
</head>
<body>
<header class="banner ${e(tone0)}">
  <p class="kicker">${e(overview.interface)} ${e(overview.interfaceVersion)} · conformance of ${summaries.length} targets · run ${e(overview.runId)} · seed ${e(overview.seed)}</p>
  <h1>${e(overview.line)}</h1>
</header>
<main>
<section id="overview"><h2>Targets × requirements</h2>
<p class="legend">${badge('passed')} ${badge('failed')} ${badge('inconclusive')} ${badge('blocked')} ${badge('not run')} <span class="hint">Each cell links to that target's failure, or to the requirement in its summary.</span></p>
<div class="scroll"><table class="overview"><thead><tr><th>Target</th>${head}</tr></thead>
<tbody>${rows.join('\n')}</tbody></table></div></section>
</main>
<footer>petstore-conformance · Playwright's own report: <a href="html/index.html">html/index.html</a></footer>
</body>
</html>
`;
}
