/**
 * The command's exit codes, a CI system's branch points. The verdict comes from the summary the
 * run wrote (conformance.json), never from Playwright's exit code alone: a failed check that was
 * charged to no requirement, or a run cut short, must not read as a verdict it is not.
 */
import type { Overview } from '../tests/support/reporting/overview.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';

export const exitCodes = {
  /** Every requirement checked passed. */
  conformant: 0,
  /** At least one requirement failed. */
  notConformant: 1,
  /** The run could not decide: the preflight stopped it, a requirement was blocked or inconclusive, the run was cut short or wrote no summary. */
  incomplete: 2,
  /** A usage or configuration error: nothing was sent. */
  usage: 3,
} as const;

export type ExitCode = (typeof exitCodes)[keyof typeof exitCodes];

export interface Outcome {
  code: ExitCode;
  /** One line for the log: why this exit code. */
  why: string;
}

/** Which exit code one target's summary earns. */
export function outcomeOf(summary: Summary): Outcome {
  const who = summary.targetName ? `${summary.targetName}: ` : '';
  const counts = summary.totals.requirements;
  if (counts.failed > 0) {
    return {
      code: exitCodes.notConformant,
      why: `${who}not conformant (${counts.failed} of ${counts.total} requirements failed)`,
    };
  }
  const undecided = counts.blocked + counts.inconclusive;
  if (undecided > 0) {
    return {
      code: exitCodes.incomplete,
      why: `${who}incomplete (${counts.blocked} blocked, ${counts.inconclusive} inconclusive)`,
    };
  }
  if (summary.status !== 'passed' && summary.status !== 'failed') {
    return { code: exitCodes.incomplete, why: `${who}incomplete (the run ${summary.status})` };
  }
  if (counts.passed === 0) {
    // The preflight stopped the run, or nothing matched: no check ran, and the output says why.
    return { code: exitCodes.incomplete, why: `${who}incomplete (no requirement was checked)` };
  }
  // Requirements left out on purpose (read-only mode, --grep, restricted categories) are "not
  // run": the target kept every one that was checked, and the summary still says which were not.
  const leftOut = counts['not run'];
  return {
    code: exitCodes.conformant,
    why:
      leftOut > 0
        ? `${who}conformant in every requirement checked (${counts.passed} passed, ${leftOut} not run)`
        : `${who}conformant (${counts.passed} of ${counts.total} requirements passed)`,
  };
}

/** The worst of several targets' outcomes: a failure first, then an undecided target. */
export function worstOf(outcomes: Outcome[]): Outcome {
  const rank = (code: ExitCode) => [0, 2, 1, 3].indexOf(code);
  return outcomes.reduce((worst, next) => (rank(next.code) > rank(worst.code) ? next : worst));
}

export function isOverview(value: unknown): value is Overview {
  return typeof value === 'object' && value !== null && Array.isArray((value as Overview).targets);
}
