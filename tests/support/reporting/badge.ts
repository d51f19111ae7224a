/**
 * badge.json: a shields.io endpoint file (https://shields.io/badges/endpoint-badge), so a
 * README can show the verdict of the last run: "conformant" (green) only for a complete run;
 * "N of M failed" (red) when requirements failed, M the catalogue's requirements; "incomplete"
 * (grey) for a run that could not decide (stopped, blocked, inconclusive); "partial" (grey) for a
 * run narrowed by a filter, a shard or read-only mode. A failure the baseline tolerates is a
 * failure here too: the badge shows the verdict, not the gate.
 */
import type { Summary } from './summary.ts';

export interface Badge {
  schemaVersion: 1;
  label: string;
  message: string;
  color: 'brightgreen' | 'red' | 'lightgrey';
}

const label = 'Pet Store conformance';

/** The badge of a run: of its one target, or of several (a requirement failed on any counts). */
export function badgeOf(summaries: readonly Summary[]): Badge {
  const badge = (message: string, color: Badge['color']): Badge => ({
    schemaVersion: 1,
    label,
    message,
    color,
  });
  const failed = new Set(
    summaries.flatMap((summary) =>
      summary.requirements.filter((item) => item.verdict === 'failed').map((item) => item.id),
    ),
  );
  const total = summaries[0]?.totals.requirements.total ?? 0;
  if (failed.size > 0) return badge(`${failed.size} of ${total} failed`, 'red');
  const undecided = summaries.some(
    (summary) =>
      summary.scope.stopped ||
      summary.totals.requirements.blocked + summary.totals.requirements.inconclusive > 0 ||
      summary.tests.length === 0,
  );
  if (summaries.length === 0 || undecided) return badge('incomplete', 'lightgrey');
  if (summaries.every((summary) => summary.scope.complete && summary.verdict === 'conformant')) {
    return badge('conformant', 'brightgreen');
  }
  return badge('partial', 'lightgrey');
}
