/**
 * The conformance reporter: turns test results into verdicts per requirement of the catalogue,
 * writes them to reports/conformance.json and prints a short summary, with the number of
 * requests sent and pets created.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { settings } from './config.ts';
import { catalogue, requirementIds } from './requirements.ts';

type Verdict = 'passed' | 'failed' | 'not run';

interface TestRecord {
  project: string;
  title: string;
  file: string;
  requirements: string[];
  outcome: 'passed' | 'failed' | 'skipped';
  error?: string;
  requests: number;
  petsCreated: number;
}

function annotationNumber(annotations: { type: string; description?: string }[], type: string) {
  return annotations
    .filter((annotation) => annotation.type === type)
    .reduce((sum, annotation) => sum + Number(annotation.description ?? 0), 0);
}

export default class ConformanceReporter implements Reporter {
  private readonly records: TestRecord[] = [];
  private startedAt = new Date();

  onBegin(_config: FullConfig, _suite: Suite): void {
    this.startedAt = new Date();
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const annotations = result.annotations ?? test.annotations;
    const outcome =
      result.status === 'skipped' ? 'skipped' : test.outcome() === 'expected' ? 'passed' : 'failed';
    const record: TestRecord = {
      project: test.parent.project()?.name ?? '',
      title: test.titlePath().slice(3).join(' › '),
      file: test.location.file,
      requirements: requirementIds(test.tags),
      outcome,
      requests: annotationNumber(annotations, 'requests'),
      petsCreated: annotationNumber(annotations, 'pets created'),
    };
    const message = result.errors[0]?.message;
    if (outcome === 'failed' && message) record.error = message;
    this.records.push(record);
  }

  onEnd(result: FullResult): void {
    const requests = this.records.reduce((sum, record) => sum + record.requests, 0);
    const petsCreated = this.records.reduce((sum, record) => sum + record.petsCreated, 0);
    const requirements = catalogue.requirements.map((requirement) => {
      const tests = this.records.filter((record) => record.requirements.includes(requirement.id));
      const ran = tests.filter((record) => record.outcome !== 'skipped');
      const verdict: Verdict =
        ran.length === 0
          ? 'not run'
          : ran.some((record) => record.outcome === 'failed')
            ? 'failed'
            : 'passed';
      return {
        ...requirement,
        verdict,
        tests: tests.map(({ title, outcome, project }) => ({ title, outcome, project })),
      };
    });
    const summary = {
      interface: catalogue.interface,
      interfaceVersion: catalogue.interfaceVersion,
      target: settings.baseUrl,
      runId: settings.runId,
      startedAt: this.startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      status: result.status,
      requests,
      petsCreated,
      petNamePrefix: `petstore-conformance:${settings.runId}:`,
      requirements,
      tests: this.records,
    };
    mkdirSync('reports', { recursive: true });
    writeFileSync('reports/conformance.json', `${JSON.stringify(summary, null, 2)}\n`);

    const count = (verdict: Verdict) =>
      requirements.filter((item) => item.verdict === verdict).length;
    const failed = requirements.filter((item) => item.verdict === 'failed').map((item) => item.id);
    console.log(
      `\nConformance: ${count('passed')} of ${requirements.length} requirements passed, ` +
        `${count('failed')} failed, ${count('not run')} not run${failed.length ? ` (failed: ${failed.join(', ')})` : ''}.`,
    );
    console.log(
      `Requests sent: ${requests}; pets created: ${petsCreated} (names start with "${summary.petNamePrefix}").`,
    );
  }

  printsToStdio(): boolean {
    return true;
  }
}
