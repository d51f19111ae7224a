/**
 * Keeps the API key out of every report, as a reporter listed first in the configuration (the
 * text itself is redacted by redaction.ts).
 *
 * Why a reporter: Playwright records each request of the `request` fixture as a step of its own,
 * and when a request fails (a timeout, a refused connection) that step's error carries the call
 * log, which lists every request header in the clear, `authorization` included
 * (microsoft/playwright#31717). The client scrubs the error it rethrows, but the step keeps the
 * raw one, and the HTML report shows it. Playwright has no public option to leave a request out
 * of the steps, so this reporter rewrites the key out of every step error, test error, attachment
 * (its body, or the file of a text attachment: error-context.md), annotation and captured
 * output before the HTML, JSON and JUnit reporters (which all read the same result objects, when
 * the run ends) write anything. A trace cannot be redacted: the preflight refuses traces
 * (setup/preflight.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type {
  Reporter,
  TestCase,
  TestError,
  TestResult,
  TestStep,
} from '@playwright/test/reporter';
import { redact, redactDeep } from './redaction.ts';

function redactError(error: TestError | undefined): void {
  for (let current = error; current; current = current.cause) {
    for (const field of ['message', 'stack', 'snippet', 'value'] as const) {
      const text = current[field];
      if (text !== undefined) current[field] = redact(text);
    }
  }
}

type Attachment = TestResult['attachments'][number];
type Annotation = TestResult['annotations'][number];

/** Attachments written to a file whose text a report copies (Playwright's error-context.md). */
const textType = /^text\/|[/+]json\b/;

function redactAttachments(attachments: Attachment[]): void {
  for (const attachment of attachments) {
    if (attachment.body) attachment.body = Buffer.from(redact(attachment.body.toString('utf8')));
    else if (attachment.path && textType.test(attachment.contentType)) redactFile(attachment.path);
  }
}

/**
 * A text attachment the worker wrote to a file: the failure's error-context.md holds the error
 * as the test saw it, unredacted, and the HTML report copies the file when the run ends.
 */
function redactFile(path: string): void {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return; // Gone already: nothing to copy into a report either.
  }
  const redacted = redact(text);
  if (redacted !== text) writeFileSync(path, redacted);
}

function redactAnnotations(annotations: Annotation[]): void {
  for (const annotation of annotations) {
    if (annotation.description) annotation.description = redact(annotation.description);
  }
}

function redactOutput(chunks: (string | Buffer)[]): void {
  chunks.forEach((chunk, index) => (chunks[index] = redact(chunk.toString())));
}

function redactStep(step: TestStep): void {
  redactError(step.error);
  redactAttachments(step.attachments);
  redactAnnotations(step.annotations);
  if (step.params) step.params = redactDeep(step.params);
}

export default class RedactingReporter implements Reporter {
  onStepEnd(_test: TestCase, _result: TestResult, step: TestStep): void {
    redactStep(step);
  }

  onTestEnd(_test: TestCase, result: TestResult): void {
    // Again over the whole tree: a step may end after the test (a request cut by a timeout).
    const visit = (step: TestStep) => (redactStep(step), step.steps.forEach(visit));
    result.steps.forEach(visit);
    result.errors.forEach(redactError);
    redactError(result.error);
    redactAttachments(result.attachments);
    redactAnnotations(result.annotations);
    redactOutput(result.stdout);
    redactOutput(result.stderr);
  }

  onError(error: TestError): void {
    redactError(error);
  }

  printsToStdio(): boolean {
    return false;
  }
}
