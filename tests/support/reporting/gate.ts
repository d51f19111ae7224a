/**
 * The gate: the one decision a CI system acts on, made here once, from the summaries the run
 * wrote. The conformance reporter writes it into conformance.json (`gate`) and returns Playwright
 * the status it implies (so `npm run conformance` exits as the command does); the command exits
 * with its code. Never from Playwright's exit code alone: a failed check charged to no
 * requirement, or a run cut short, must not read as a verdict it is not.
 *
 * The verdict is not the gate: a requirement that failed is failed, and the target not
 * conformant, whatever the baseline says (baseline.ts). The gate lets the failures the baseline
 * tolerates pass, and stops on anything else:
 *  1 a failure not tolerated (a new one, or one whose entry expired), named first; an entry
 *    whose requirement passed (fixed: remove it); an advisory failed in strict mode;
 *  2 the run could not decide: a requirement blocked or inconclusive, the run cut short, nothing
 *    checked;
 *  0 otherwise: conformant in every requirement checked, or every failure tolerated.
 */
import type { BaselineResult } from './baseline.ts';
import type { Summary } from './summary.ts';

export const exitCodes = {
  /** Every requirement checked passed (or failed as the baseline tolerates). */
  conformant: 0,
  /** A requirement failed that the baseline does not tolerate, or the baseline is out of date. */
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

export interface Gate extends Outcome {
  /** The failures the baseline does not tolerate (`target › ID` in a run of several targets). */
  newFailures: string[];
}

type Judged = Pick<
  Summary,
  'targetName' | 'totals' | 'status' | 'strict' | 'advisories' | 'requirements'
> & { baseline: BaselineResult };

const list = (items: string[]) => items.join(', ');

/** Which exit code one target's summary earns, and why. */
export function gateOf(summary: Judged): Gate {
  const who = summary.targetName ? `${summary.targetName}: ` : '';
  const counts = summary.totals.requirements;
  const { baseline } = summary;
  const newFailures = baseline.newFailures.map(({ requirement }) => requirement);
  const gate = (code: ExitCode, why: string): Gate => ({ code, why: `${who}${why}`, newFailures });
  const fixed = baseline.fixed.map(({ requirement }) => requirement);
  const file = baseline.file || 'the baseline';
  const failed = `${counts.failed} of ${counts.total} requirements failed`;
  if (newFailures.length > 0) {
    const named = baseline.newFailures.map(({ requirement, expired }) =>
      expired ? `${requirement} (its baseline entry expired on ${expired})` : requirement,
    );
    const parts = [
      `new failures ${list(named)}`,
      ...(baseline.tolerated.length > 0
        ? [`tolerated ${list(baseline.tolerated.map(({ requirement }) => requirement))}`]
        : []),
      ...(fixed.length > 0 ? [`fixed ${list(fixed)} (remove from ${file})`] : []),
    ];
    return gate(exitCodes.notConformant, `not conformant: ${parts.join('; ')} (${failed})`);
  }
  if (fixed.length > 0) {
    return gate(
      exitCodes.notConformant,
      `the baseline is out of date: ${list(fixed)} passed (fixed: remove ${fixed.length > 1 ? 'them' : 'it'} from ${file})`,
    );
  }
  const strictFailures = summary.strict
    ? summary.advisories.filter((item) => item.verdict === 'failed').map((item) => item.id)
    : [];
  if (strictFailures.length > 0) {
    return gate(
      exitCodes.notConformant,
      `advisories failed in strict mode (CONFORMANCE_STRICT): ${list(strictFailures)}`,
    );
  }
  const undecided = counts.blocked + counts.inconclusive;
  if (undecided > 0) {
    return gate(
      exitCodes.incomplete,
      `incomplete (${counts.blocked} blocked, ${counts.inconclusive} inconclusive)`,
    );
  }
  if (summary.status !== 'passed' && summary.status !== 'failed') {
    return gate(exitCodes.incomplete, `incomplete (the run ${summary.status})`);
  }
  if (counts.passed === 0 && counts.failed === 0) {
    // The preflight stopped the run, or nothing matched: no check ran, and the output says why.
    return gate(exitCodes.incomplete, 'incomplete (no requirement was checked)');
  }
  if (baseline.tolerated.length > 0) {
    const tolerated = baseline.tolerated.map(
      ({ requirement, until }) => `${requirement}${until ? ` until ${until}` : ''}`,
    );
    return gate(
      exitCodes.conformant,
      `not conformant, every failure tolerated by ${file}: ${list(tolerated)} (${failed})`,
    );
  }
  // Requirements left out on purpose (read-only mode, --grep, restricted categories) are "not
  // run": the target kept every one that was checked, and the summary still says which were not.
  const leftOut = counts['not run'];
  return gate(
    exitCodes.conformant,
    leftOut > 0
      ? `conformant in every requirement checked (${counts.passed} passed, ${leftOut} not run)`
      : `conformant (${counts.passed} of ${counts.total} requirements passed)`,
  );
}

/** The worst of several outcomes: a failure first, then an undecided one, then a usage error. */
export function worstOf<T extends Outcome>(outcomes: T[]): T {
  const rank = (code: ExitCode) => [0, 2, 1, 3].indexOf(code);
  return outcomes.reduce((worst, next) => (rank(next.code) > rank(worst.code) ? next : worst));
}

/** The run's gate: its one target's, or the worst of several targets', all new failures named. */
export function runGate(gates: { targetName: string; gate: Gate }[]): Gate {
  if (gates.length === 0) {
    return {
      code: exitCodes.incomplete,
      why: 'incomplete (no target was checked)',
      newFailures: [],
    };
  }
  const newFailures = gates.flatMap(({ targetName, gate }) =>
    gate.newFailures.map((id) => (targetName ? `${targetName} › ${id}` : id)),
  );
  if (gates.length === 1) return { ...gates[0]!.gate, newFailures };
  // Of targets with the same code, a not conformant one (its failures tolerated) says more.
  const failing = gates.filter(({ gate }) => gate.why.includes('not conformant'));
  const worst = worstOf([...failing, ...gates].map(({ gate }) => gate));
  return { code: worst.code, why: `${gates.length} targets, the worst ${worst.why}`, newFailures };
}

/** The Playwright status a gate implies: the run fails unless the gate lets it pass. */
export function statusOf(gate: Gate, playwright: string): string {
  if (gate.code === exitCodes.conformant) return playwright === 'failed' ? 'passed' : playwright;
  return playwright === 'passed' ? 'failed' : playwright;
}
