/**
 * Verdicts: what a check does with the problems attribution.ts charged. Problems of the test's own
 * requirements (its tags) fail the test, with a message that names them. Problems of other
 * requirements are findings: annotations the reporter charges to those requirements, so that
 * one deviation fails its own requirement and not every check that met it. A check left with
 * nothing to judge (its answer missing, or not what it needs) blocks the test: it is skipped with
 * the reason, and counts for none of its requirements.
 *
 * Matchers call `settle` from a plain `expect(…)`; spec files never use `expect.soft`, whose
 * failures would swallow a block.
 */
import { test } from '@playwright/test';
import { type RequirementId, idsAmong } from '../../../requirements/catalogue.ts';
import { type ExchangeView, checkFailure } from '../reporting/failure-text.ts';
import { notes } from '../reporting/summary.ts';
import type { Problem } from './attribution.ts';

/** The requirements the running test checks: its tags (none outside a test). */
export function ownRequirements(): RequirementId[] {
  try {
    return idsAmong(test.info().tags);
  } catch {
    return [];
  }
}

/** The requirement a test's checks are charged to unless they say otherwise: its first tag. */
export function primaryRequirement(): RequirementId {
  const [first] = ownRequirements();
  if (!first) throw new Error('A check ran outside a test tagged with req(…)');
  return first;
}

/** One answer judged: what was expected of it and the problems found. */
export interface Judged {
  exchange: ExchangeView;
  expected: string;
  problems: Problem[];
}

export interface MatcherResult {
  pass: boolean;
  message: () => string;
  name: string;
}

/** Records a finding on the running test once: a problem of another requirement, with its answer. */
function recordFinding(exchange: ExchangeView, expected: string, problem: Problem): void {
  const annotations = test.info().annotations;
  const description = checkFailure({
    requirements: [problem.requirement],
    exchange,
    expected,
    problems: [problem.text],
  });
  const head = description.split('\n', 1)[0]!;
  const seen = annotations.some(
    (note) =>
      note.type === notes.finding &&
      note.description?.startsWith(head) &&
      note.description.includes(problem.text),
  );
  if (!seen) annotations.push({ type: notes.finding, description });
}

/**
 * The matcher result for judged answers: own problems fail (one block per answer, naming the
 * requirements charged); other problems are recorded as findings; with no own problem but a
 * blocking one, the test is skipped as blocked.
 */
export function settle(name: string, judged: Judged[]): MatcherResult {
  const own = new Set<string>(ownRequirements());
  const failing: string[] = [];
  const blocking: string[] = [];
  // A request never sent judges nothing; the check is blocked on it unless another of its
  // answers failed.
  const unsent = judged.find(({ exchange }) => exchange.notSent !== undefined)?.exchange;
  for (const { exchange, expected, problems: found } of judged) {
    if (exchange.notSent !== undefined) continue;
    // A body that is not UTF-8 is MEDIA-JSON's (attribution.ts, mediaProblems): the names in it
    // cannot be read, and are not compared (the diagnosis row answer-not-utf8).
    const problems = exchange.notUtf8 ? found.filter((problem) => !problem.readsText) : found;
    const mine = problems.filter((problem) => own.has(problem.requirement));
    for (const problem of problems) {
      if (own.has(problem.requirement)) continue;
      recordFinding(exchange, expected, problem);
      if (problem.blocks) blocking.push(`${problem.requirement} failed: ${problem.text}`);
    }
    if (mine.length === 0) continue;
    failing.push(
      checkFailure({
        requirements: [...new Set(mine.map((problem) => problem.requirement))],
        exchange,
        expected,
        problems: mine.map((problem) => problem.text),
      }),
    );
  }
  // Nothing of its own failed, but the answer it needed is not there: the check cannot judge,
  // and the requirement that failed is charged (by the finding above), not this one.
  if (failing.length === 0 && unsent) block(unsent.notSent!);
  if (failing.length === 0 && blocking.length > 0) block([...new Set(blocking)].join('; '));
  return { name, pass: failing.length === 0, message: () => failing.join('\n\n') };
}

/** This test ran, but cannot decide `id`: it shows as inconclusive, with the reason. */
export function inconclusive(id: RequirementId, reason: string): void {
  test.info().annotations.push({ type: notes.inconclusive, description: `${id}: ${reason}` });
}

/** This test leaves `id` unchecked on purpose: it shows as not run, with the reason. */
export function notRun(id: RequirementId, reason: string): void {
  test.info().annotations.push({ type: notes.notRun, description: `${id}: ${reason}` });
}

/** Skips the test as blocked: a precondition outside its requirements failed. */
export function block(reason: string): never {
  test.skip(true, `${notes.blockedPrefix}${reason}`);
  throw new Error('unreachable: test.skip throws');
}
