/**
 * The conformance reporter: collects what each test checked and how it ended, then writes the
 * summary of each target (reports/conformance.json and the self-contained conformance.html; with
 * several targets, reports/targets/<name>/ each, and an overview in reports/), conformance.md and
 * badge.json, and prints the closing lines: requirements passed, the baseline, advisories,
 * requests sent and pets created.
 *
 * The run's status is the gate's (gate.ts), returned from onEnd: a requirement can fail through a
 * finding alone (another test's check met its deviation, and that test passed its own check), a
 * target's preflight can fail with its tests blocked, and a failure the baseline tolerates is one
 * Playwright counts as expected. So `npm run conformance` exits as the command does.
 *
 * It runs after the redacting reporter (and after the CTRF and JUnit reporters, whose files it
 * sets right: ctrf.ts, junit.ts), and redacts what it writes once more.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { idsAmong } from '../../../requirements/catalogue.ts';
import { badgeOf } from './badge.ts';
import { amendCtrf } from './ctrf.ts';
import { amendJunit } from './junit.ts';
import { runGate, statusOf } from './gate.ts';
import { renderOverviewHtml, renderSummaryHtml } from './summary-html.ts';
import { renderSummaryMd } from './summary-md.ts';
import {
  type AdvisoryNote,
  type ConfiguredFacts,
  type Outcome,
  type Selection,
  type Summary,
  type TestRecord,
  chargesOf,
  consoleSummary,
  factsKey,
  sharedTargetsKey,
  type TargetFacts,
  flakinessOf,
  notes,
  parseAdvisoryNote,
  parseIdNote,
  stripAnsi,
  summarize,
} from './summary.ts';
import { overviewOf } from './overview.ts';
import { reportPaths, targetPaths } from './paths.ts';
import { lastChecks, recordEnded, recordPlanned, removeProgress } from './progress.ts';
import { redact, redactDeep } from './redaction.ts';
import { selectionOf } from './scope.ts';

const projectRoot = fileURLToPath(new URL('../../../', import.meta.url));
const suiteVersion: string = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
).version;

type Annotation = { type: string; description?: string };

function sumOf(annotations: Annotation[], type: string): number {
  return annotations
    .filter((annotation) => annotation.type === type)
    .reduce((sum, annotation) => sum + Number(annotation.description ?? 0), 0);
}

function outcomeOf(test: TestCase, result: TestResult, skipReason?: string): Outcome {
  // An interrupted test (Ctrl-C, --max-failures) did not finish: it checked nothing.
  if (result.status === 'skipped' || result.status === 'interrupted') {
    return skipReason?.startsWith(notes.blockedPrefix) ? 'blocked' : 'skipped';
  }
  // By the status, not Playwright's expectation: a tolerated failure (marked expected) failed.
  return result.status === 'passed' ? 'passed' : 'failed';
}

const idNotes = (annotations: Annotation[], type: string) =>
  annotations
    .filter((annotation) => annotation.type === type)
    .map((annotation) => parseIdNote(annotation.description ?? ''))
    .filter((note): note is { id: string; reason: string } => note !== undefined)
    .map(({ id, reason }) => ({ requirement: id, reason }));

/**
 * The test's target and title: its project's name and the titles below its file; or, when the
 * targets share the workers, the name of its outermost group (vocabulary/checks.ts) and those below.
 */
function placeOf(test: TestCase, sharedTargets: boolean): { target: string; title: string } {
  const path = test.titlePath();
  if (sharedTargets) return { target: path[3] ?? '', title: path.slice(4).join(' › ') };
  return { target: test.parent.project()?.name ?? '', title: path.slice(3).join(' › ') };
}

export function recordOf(test: TestCase, result: TestResult, sharedTargets = false): TestRecord {
  const annotations: Annotation[] = result.annotations ?? test.annotations;
  const skip = annotations.find((annotation) => annotation.type === 'skip')?.description;
  const outcome = outcomeOf(test, result, skip);
  const requirements = idsAmong(test.tags);
  const errors =
    outcome === 'failed'
      ? result.errors.map((error) => stripAnsi(error.message ?? String(error.value)))
      : [];
  const findings = annotations
    .filter((annotation) => annotation.type === notes.finding)
    .map((annotation) => annotation.description ?? '');
  const { charges, stoppedBy } = chargesOf({ requirements, errors, findings });
  const { target, title } = placeOf(test, sharedTargets);
  const record: TestRecord = {
    project: target,
    title,
    file: relative(projectRoot, test.location.file),
    line: test.location.line,
    requirements,
    outcome,
    status: result.status,
    durationMs: result.duration,
    charges,
    inconclusive: idNotes(annotations, notes.inconclusive),
    notRun: idNotes(annotations, notes.notRun),
    requests: sumOf(annotations, 'requests'),
    petsCreated: sumOf(annotations, 'pets created'),
    throttled: sumOf(annotations, 'throttled'),
    pausedMs: sumOf(annotations, 'paused ms'),
    resent: sumOf(annotations, 'resent'),
    advisories: annotations
      .filter((annotation) => annotation.type === 'advisory')
      .map((annotation) => parseAdvisoryNote(annotation.description ?? ''))
      .filter((note): note is AdvisoryNote => note !== undefined),
  };
  if (stoppedBy !== undefined) record.stoppedBy = stoppedBy;
  // Failed beside a request that was blocked, not sent (vocabulary/together.ts): what the test
  // did not charge it could not decide.
  else if (outcome === 'failed' && skip?.startsWith(notes.blockedPrefix)) {
    record.stoppedBy = skip.slice(notes.blockedPrefix.length);
  }
  const unmarked = annotations
    .filter((annotation) => annotation.type === 'unmarked pet')
    .map((annotation) => annotation.description ?? '');
  if (unmarked.length > 0) record.unmarkedPets = unmarked;
  if (outcome === 'failed' && test.expectedStatus === 'failed') record.tolerated = true;
  if (outcome === 'failed') {
    record.errors = errors;
  }
  if (outcome === 'failed' || charges.length > 0) {
    const exchanges = result.attachments.find((attachment) => attachment.name === 'exchanges');
    if (exchanges?.body) record.exchanges = exchanges.body.toString('utf8');
  }
  if (outcome === 'skipped' || outcome === 'blocked') {
    const reason = skip ?? (result.status === 'interrupted' ? 'interrupted' : '');
    if (reason) record.skipReason = reason;
  }
  return record;
}

const badgeJson = (summaries: Summary[]) => `${JSON.stringify(badgeOf(summaries), null, 2)}\n`;

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, redact(text));
}

export default class ConformanceReporter implements Reporter {
  private readonly records: TestRecord[] = [];
  /** The latest attempt of each test, by test id. */
  private readonly attempts = new Map<string, TestRecord>();
  private startedAt = new Date();
  private facts?: ConfiguredFacts;

  /** The base address of each target, by its name (its project's, or its group's). */
  private readonly targets = new Map<string, string>();
  /** The tests the run selected of each target, by its name, and how (a shard, --grep). */
  private readonly selected = new Map<string, number>();
  private selection = { shard: '', grep: '', grepInvert: '' };
  /** The targets share the workers: each is its tests' outermost group, not a project. */
  private sharedTargets = false;

  onBegin(config: FullConfig, suite: Suite): void {
    this.startedAt = new Date();
    this.facts = config.metadata[factsKey] as ConfiguredFacts | undefined;
    const shared = config.metadata[sharedTargetsKey] as TargetFacts[] | undefined;
    this.sharedTargets = shared !== undefined;
    // How many checks of each target come before the last ones, which wait for them (progress.ts).
    const progressKey = this.facts?.progressKey;
    if (progressKey) {
      const counts = new Map<string, number>();
      for (const test of suite.allTests()) {
        if (lastChecks.test(test.location.file)) continue;
        const { target } = placeOf(test, this.sharedTargets);
        counts.set(target, (counts.get(target) ?? 0) + 1);
      }
      recordPlanned(progressKey, counts);
    }
    const targets =
      shared ??
      config.projects.map((project) => ({
        ...(project.use as { target?: Partial<TargetFacts> }).target,
        name: project.name,
      }));
    for (const target of targets) {
      if (target.baseUrl) this.targets.set(target.name, target.baseUrl);
    }
    for (const test of suite.allTests()) {
      const { target } = placeOf(test, this.sharedTargets);
      this.selected.set(target, (this.selected.get(target) ?? 0) + 1);
    }
    this.selection = {
      shard: config.shard ? `${config.shard.current}/${config.shard.total}` : '',
      ...selectionOf(config.argv ?? []),
    };
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const record = recordOf(test, result, this.sharedTargets);
    if (this.facts?.progressKey && !lastChecks.test(test.location.file)) {
      recordEnded(this.facts.progressKey, record.project, test.id);
    }
    const earlier = this.attempts.get(test.id);
    this.attempts.set(test.id, record);
    if (!earlier) {
      this.records.push(record);
      return;
    }
    // A retry (only when the user asked for --retries: the suite never retries). A check that
    // passes only on a second try still fails here, with the failed attempt kept as evidence.
    const index = this.records.indexOf(earlier);
    const failedAttempt = earlier.outcome === 'failed' ? earlier : undefined;
    if (test.outcome() === 'flaky' && failedAttempt) {
      record.outcome = 'failed';
      record.errors = [
        flakinessOf(failedAttempt, result.retry + 1),
        ...(failedAttempt.errors ?? []),
      ];
      record.charges = [...failedAttempt.charges, ...record.charges];
      if (failedAttempt.exchanges) record.exchanges = failedAttempt.exchanges;
    }
    this.records[index] = record;
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    if (this.facts?.progressKey) removeProgress(this.facts.progressKey);
    const facts = (name: string): Parameters<typeof summarize>[0] => ({
      target: '(unknown: the configuration gave no run facts)',
      runId: '',
      seed: 0,
      strict: false,
      petNamePrefix: '',
      ...this.facts,
      ...(name ? { target: this.targets.get(name) ?? name } : {}),
      suiteVersion,
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      status: result.status,
    });
    // Completion order varies with the workers: list tests as the files do.
    const records = [...this.records].sort(
      (a, b) =>
        a.file.localeCompare(b.file) || a.line - b.line || a.project.localeCompare(b.project),
    );
    const names = [
      ...new Set([...this.targets.keys(), ...records.map((record) => record.project)]),
    ];
    const several = names.length > 1 || (names.length === 1 && names[0] !== '');
    const selection = (name: string): Selection => ({
      ...this.selection,
      tests: this.selected.get(name) ?? 0,
    });
    const summaries: Summary[] = (names.length ? names : ['']).map((name) =>
      redactDeep(
        summarize(
          facts(name),
          records.filter((record) => record.project === name),
          name,
          selection(name),
        ),
      ),
    );
    // The gate decides the run's status: a requirement failed through findings alone, or a
    // target whose preflight failed (its tests blocked: also the shard that does not hold the
    // failing check), fails it; failures the baseline tolerates alone do not. A run that ran no
    // test (--list) keeps Playwright's status.
    const overview = several ? overviewOf(summaries) : undefined;
    const gate = overview?.gate ?? runGate(summaries);
    const status = records.length > 0 ? statusOf(gate, result.status) : result.status;
    for (const summary of summaries) summary.status = status;
    for (const summary of summaries) {
      const paths = several ? targetPaths(summary.targetName) : reportPaths;
      write(paths.summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
      write(paths.summaryHtml, renderSummaryHtml(summary, several ? '../../' : ''));
      if (several) write(targetPaths(summary.targetName).badge, badgeJson([summary]));
      console.log(`\n${consoleSummary(summary).join('\n')}`);
    }
    if (overview) {
      write(reportPaths.summaryJson, `${JSON.stringify(overview, null, 2)}\n`);
      write(reportPaths.summaryHtml, renderOverviewHtml(overview, summaries));
      console.log(`\n${overview.line}`);
    }
    write(reportPaths.summaryMd, renderSummaryMd(summaries, overview));
    write(reportPaths.badge, badgeJson(summaries));
    amendCtrf(reportPaths.ctrf);
    amendJunit(reportPaths.junit, summaries);
    const page = relative(process.cwd(), reportPaths.summaryHtml);
    // Playwright's own exit code is 0 or 1: a gate of 2 is the command's (and the action's).
    const whose = gate.code > 1 ? ' (petstore-conformance exits so; playwright test, 1)' : '';
    if (records.length > 0) console.log(`Gate: exit ${gate.code}, ${gate.why}.${whose}`);
    console.log(`Summary: ${page.startsWith('..') ? reportPaths.summaryHtml : page}`);
    return status !== result.status ? { status: status as FullResult['status'] } : undefined;
  }

  printsToStdio(): boolean {
    return true;
  }
}
