/**
 * The baseline: the failures a team tolerates for now, each a requirement with a reason and, if
 * it likes, a date until which it is tolerated (CONFORMANCE_BASELINE, `--baseline`; read and
 * checked by setup/baseline.ts). It changes no verdict: a requirement that fails is failed,
 * listed or not. What it changes is the gate (gate.ts): a run whose every failure is listed, and
 * in date, exits 0. Judged here, per target, from that target's verdicts:
 * - tolerated: failed, and listed with an entry in date;
 * - new: failed, and not listed, or listed with an entry expired (named as such);
 * - fixed: listed, and passed: the entry must go, so that a fix cannot silently regress later;
 * - unchecked: listed, and neither failed nor passed this run (not run, blocked, inconclusive).
 * An entry without `target` covers every target of the run; with one, that target alone.
 */
import type { Verdict } from './summary.ts';

export interface BaselineEntry {
  /** A requirement ID of the catalogue (never an advisory). */
  requirement: string;
  /** Why it is tolerated: a ticket, who fixes it, when. */
  reason: string;
  /** The last day it is tolerated (YYYY-MM-DD); from the next day on it fails the gate again. */
  until?: string;
  /** The target it is tolerated on, in a run of several (a name of the targets file). */
  target?: string;
}

/** What the run was given: the file (as the user named it) and its entries. */
export interface Baseline {
  file: string;
  entries: BaselineEntry[];
}

/** The baseline file's shape: what `petstore-conformance baseline` prints. */
export interface BaselineFile {
  description?: string;
  failures: BaselineEntry[];
}

export interface BaselineResult {
  /** The file the run was given ('' when none). */
  file: string;
  /** Failed and tolerated, with the entry's reason and date. */
  tolerated: { requirement: string; reason: string; until?: string }[];
  /** Failed and not tolerated; `expired` when an entry listed it until an earlier day. */
  newFailures: { requirement: string; expired?: string }[];
  /** Listed, and passed: remove the entry. */
  fixed: { requirement: string; reason: string }[];
  /** Listed, and not decided this run: the entry is kept, neither used nor proved stale. */
  unchecked: { requirement: string; verdict: Verdict }[];
}

/** The entries that cover a target ('' for the one target of BASE_URL). */
export function entriesFor(baseline: Baseline | undefined, target: string): BaselineEntry[] {
  return (baseline?.entries ?? []).filter(
    (entry) => entry.target === undefined || entry.target === target,
  );
}

/** An entry is in date through its `until` day, judged on the run's date (YYYY-MM-DD). */
export const inDate = (entry: BaselineEntry, date: string) =>
  entry.until === undefined || date <= entry.until;

/** The requirements a target's failures are tolerated for on that date. */
export function toleratedIds(entries: readonly BaselineEntry[], date: string): string[] {
  return [
    ...new Set(
      entries.filter((entry) => inDate(entry, date)).map(({ requirement }) => requirement),
    ),
  ];
}

/** One target's verdicts judged against the entries that cover it, on the run's date. */
export function judgeBaseline(
  requirements: readonly { id: string; verdict: Verdict }[],
  entries: readonly BaselineEntry[],
  date: string,
  file = '',
): BaselineResult {
  const result: BaselineResult = { file, tolerated: [], newFailures: [], fixed: [], unchecked: [] };
  for (const { id, verdict } of requirements) {
    const listed = entries.filter((entry) => entry.requirement === id);
    const current = listed.find((entry) => inDate(entry, date));
    if (verdict === 'failed') {
      if (current) {
        result.tolerated.push({
          requirement: id,
          reason: current.reason,
          ...(current.until ? { until: current.until } : {}),
        });
      } else {
        const expired = listed
          .map((entry) => entry.until ?? '')
          .sort()
          .at(-1);
        result.newFailures.push({ requirement: id, ...(expired ? { expired } : {}) });
      }
    } else if (listed.length > 0 && verdict === 'passed') {
      result.fixed.push({ requirement: id, reason: listed[0]!.reason });
    } else if (listed.length > 0) {
      result.unchecked.push({ requirement: id, verdict });
    }
  }
  return result;
}

/**
 * The baseline a run's failures make (`petstore-conformance baseline`): an entry for each failed
 * requirement of each target, the reason and date of an entry that tolerated it kept, a new one
 * saying where it failed, for the team to replace with its own reason. Empty for a conformant run.
 */
export function baselineFrom(
  summaries: readonly {
    targetName: string;
    runId: string;
    startedAt: string;
    requirements: readonly {
      id: string;
      verdict: Verdict;
      tolerated?: { reason: string; until?: string };
    }[];
  }[],
): BaselineFile {
  const several = summaries.length > 1 || summaries.some(({ targetName }) => targetName !== '');
  const failures = summaries.flatMap((summary) =>
    summary.requirements
      .filter((item) => item.verdict === 'failed')
      .map((item): BaselineEntry => ({
        requirement: item.id,
        reason:
          item.tolerated?.reason ??
          `failed in run ${summary.runId} on ${summary.startedAt.slice(0, 10)}: say why it is tolerated, and who fixes it`,
        ...(item.tolerated?.until ? { until: item.tolerated.until } : {}),
        ...(several ? { target: summary.targetName } : {}),
      })),
  );
  return {
    description:
      'Failures the gate tolerates (petstore-conformance: docs/ci.md). Each entry: a requirement, ' +
      'why it is tolerated and, if you like, the last day it is ("until": "YYYY-MM-DD").',
    failures,
  };
}
