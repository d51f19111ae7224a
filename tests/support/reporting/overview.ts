/**
 * The overview of a run against several targets: for each target, its verdict and the verdict of
 * every requirement, so a platform team reads targets × requirements at a glance
 * (reports/conformance.json and .html; each target's own summary is under reports/targets/).
 */
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
  targets: {
    name: string;
    target: string;
    verdict: Summary['verdict'];
    totals: Summary['totals']['requirements'];
    /** Relative to the report folder. */
    summary: string;
    requirements: Record<string, Verdict>;
  }[];
}

/** A failing target's name, marked when each of its failures is listed as known. */
const failingName = (summary: Summary) =>
  summary.requirements.every((item) => item.verdict !== 'failed' || item.known)
    ? `${summary.targetName} (known failures only)`
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
    line:
      `Targets: ${summaries.length - failing.length} of ${summaries.length} without a failed requirement` +
      `${failing.length ? ` (not conformant: ${failing.map(failingName).join(', ')})` : ''}.`,
    targets: summaries.map((summary) => ({
      name: summary.targetName,
      target: summary.target,
      verdict: summary.verdict,
      totals: summary.totals.requirements,
      summary: `targets/${summary.targetName}/conformance.html`,
      requirements: Object.fromEntries(summary.requirements.map((item) => [item.id, item.verdict])),
    })),
  };
}
