/**
 * The conformance reporter: collects what each test checked and how it ended, then writes the
 * summary (reports/conformance.json and the self-contained reports/conformance.html) and prints
 * the closing lines: requirements passed, advisories, requests sent and pets created.
 *
 * It runs after the redacting reporter (report-redact.ts), and redacts what it writes once more.
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
import { renderSummaryHtml } from './summary-html.ts';
import {
  type AdvisoryNote,
  type ConfiguredFacts,
  type Outcome,
  type TestRecord,
  consoleSummary,
  factsKey,
  parseAdvisoryNote,
  summarize,
} from './summary.ts';
import { reportPaths } from './paths.ts';
import { redact, redactDeep } from './redaction.ts';

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

// eslint-disable-next-line no-control-regex
const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

function outcomeOf(test: TestCase, result: TestResult): Outcome {
  // An interrupted test (Ctrl-C, --max-failures) did not finish: it checked nothing.
  if (result.status === 'skipped' || result.status === 'interrupted') return 'skipped';
  return test.outcome() === 'expected' ? 'passed' : 'failed';
}

export function recordOf(test: TestCase, result: TestResult): TestRecord {
  const annotations: Annotation[] = result.annotations ?? test.annotations;
  const outcome = outcomeOf(test, result);
  const record: TestRecord = {
    project: test.parent.project()?.name ?? '',
    title: test.titlePath().slice(3).join(' › '),
    file: relative(projectRoot, test.location.file),
    line: test.location.line,
    requirements: idsAmong(test.tags),
    outcome,
    status: result.status,
    durationMs: result.duration,
    requests: sumOf(annotations, 'requests'),
    petsCreated: sumOf(annotations, 'pets created'),
    advisories: annotations
      .filter((annotation) => annotation.type === 'advisory')
      .map((annotation) => parseAdvisoryNote(annotation.description ?? ''))
      .filter((note): note is AdvisoryNote => note !== undefined),
  };
  if (outcome === 'failed') {
    record.errors = result.errors.map((error) => stripAnsi(error.message ?? String(error.value)));
    const exchanges = result.attachments.find((attachment) => attachment.name === 'exchanges');
    if (exchanges?.body) record.exchanges = exchanges.body.toString('utf8');
  }
  if (outcome === 'skipped') {
    const skip = annotations.find((annotation) => annotation.type === 'skip');
    const reason = skip?.description ?? (result.status === 'interrupted' ? 'interrupted' : '');
    if (reason) record.skipReason = reason;
  }
  return record;
}

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

  onBegin(config: FullConfig, _suite: Suite): void {
    this.startedAt = new Date();
    this.facts = config.metadata[factsKey] as ConfiguredFacts | undefined;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const record = recordOf(test, result);
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
        `Passed only on attempt ${result.retry + 1}, after failing: a flaky target or a flaky check. ` +
          'The failed attempt below shows what the target answered: if those answers break the ' +
          'interface document, the target is flaky; if they conform, the check is, and that is a ' +
          'bug of this suite.',
        ...(failedAttempt.errors ?? []),
      ];
      if (failedAttempt.exchanges) record.exchanges = failedAttempt.exchanges;
    }
    this.records[index] = record;
  }

  onEnd(result: FullResult): void {
    const summary = redactDeep(
      summarize(
        {
          target: '(unknown: the configuration gave no run facts)',
          runId: '',
          seed: 0,
          strict: false,
          petNamePrefix: '',
          ...this.facts,
          suiteVersion,
          startedAt: this.startedAt.toISOString(),
          finishedAt: new Date().toISOString(),
          status: result.status,
        },
        // Completion order varies with the workers: list tests as the files do.
        [...this.records].sort(
          (a, b) =>
            a.file.localeCompare(b.file) || a.line - b.line || a.project.localeCompare(b.project),
        ),
      ),
    );
    write(reportPaths.summaryJson, `${JSON.stringify(summary, null, 2)}\n`);
    write(reportPaths.summaryHtml, renderSummaryHtml(summary));
    console.log(`\n${consoleSummary(summary).join('\n')}`);
    const page = relative(process.cwd(), reportPaths.summaryHtml);
    console.log(`Summary: ${page.startsWith('..') ? reportPaths.summaryHtml : page}`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
