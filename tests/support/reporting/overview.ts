/**
 * The overview of a run against several targets: for each target, its verdict and the verdict of
 * every requirement, so a platform team reads targets × requirements at a glance
 * (reports/conformance.json and .html; each target's own summary is under reports/targets/).
 */
import { type Gate, runGate } from './gate.ts';
import type { Summary, Verdict } from './summary.ts';

export interface Overview {
  interface: string;
  interfaceVersion: string;
  runId: string;
  seed: number;
  /** not conformant when any target is; conformant when all are; incomplete otherwise. */
  verdict: Summary['verdict'];
  /** The closing line of the run. */
  line: string;
  /** The run's gate: the worst target's exit code, every target's new failures (`name › ID`). */
  gate: Gate;
  targets: {
    name: string;
    target: string;
    verdict: Summary['verdict'];
    totals: Summary['totals']['requirements'];
    /** The target's own gate: its exit code, alone. */
    exit: Gate['code'];
    /** Every test of the suite run to its end, every requirement checked. */
    complete: boolean;
    /** Relative to the report folder. */
    summary: string;
    requirements: Record<string, Verdict>;
  }[];
}

/** A failing target's name, marked when the baseline tolerates each of its failures. */
const failingName = (summary: Summary) =>
  summary.requirements.every((item) => item.verdict !== 'failed' || item.tolerated)
    ? `${summary.targetName} (every failure tolerated)`
    : summary.targetName;

export function overviewOf(summaries: Summary[]): Overview {
  const verdict = summaries.some((summary) => summary.verdict === 'not conformant')
    ? 'not conformant'
    : summaries.every((summary) => summary.verdict === 'conformant')
      ? 'conformant'
      : 'incomplete';
  const failing = summaries.filter((summary) => summary.verdict === 'not conformant');
  const first = summaries[0];
  return {
    interface: first?.interface ?? '',
    interfaceVersion: first?.interfaceVersion ?? '',
    runId: first?.runId ?? '',
    seed: first?.seed ?? 0,
    verdict,
    gate: runGate(summaries),
    line:
      `Targets: ${summaries.length - failing.length} of ${summaries.length} without a failed requirement` +
      `${failing.length ? ` (not conformant: ${failing.map(failingName).join(', ')})` : ''}.`,
    targets: summaries.map((summary) => ({
      name: summary.targetName,
      target: summary.target,
      verdict: summary.verdict,
      totals: summary.totals.requirements,
      exit: summary.gate.code,
      complete: summary.scope.complete,
      summary: `targets/${summary.targetName}/conformance.html`,
      requirements: Object.fromEntries(summary.requirements.map((item) => [item.id, item.verdict])),
    })),
  };
}

/** Whether a conformance.json holds the overview of several targets (else one target's summary). */
export function isOverview(value: unknown): value is Overview {
  return typeof value === 'object' && value !== null && Array.isArray((value as Overview).targets);
}
