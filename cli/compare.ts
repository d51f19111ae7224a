/**
 * `petstore-conformance compare <earlier> <later>`: what a release changed, requirement by
 * requirement, from two runs' conformance.json (one target's summary, or the overview of a run of
 * several targets, compared target by target). Non-zero only when something newly failed.
 */
import { readFileSync } from 'node:fs';
import type { Summary, Verdict } from '../tests/support/reporting/summary.ts';
import { exitCodes } from '../tests/support/reporting/gate.ts';
import { isOverview } from '../tests/support/reporting/overview.ts';
import { UsageError } from './usage.ts';

/** Each requirement's verdict, keyed `ID` (or `target › ID` in a run of several targets). */
function verdictsOf(path: string): Map<string, Verdict> {
  let written: unknown;
  try {
    written = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path} is not a readable JSON file (${(error as Error).message})`);
  }
  if (isOverview(written)) {
    return new Map(
      written.targets.flatMap((target) =>
        Object.entries(target.requirements).map(([id, verdict]) => [
          `${target.name} › ${id}`,
          verdict,
        ]),
      ),
    );
  }
  const requirements = (written as Partial<Summary>).requirements;
  if (!Array.isArray(requirements)) {
    throw new UsageError(`${path} is not a conformance summary (conformance.json)`);
  }
  return new Map(requirements.map((item) => [item.id, item.verdict]));
}

export interface Comparison {
  newlyFailed: string[];
  newlyPassed: string[];
  stillFailing: string[];
  /** Any other change of verdict, as `ID: earlier → later`. */
  otherwise: string[];
}

export function compareVerdicts(
  earlier: Map<string, Verdict>,
  later: Map<string, Verdict>,
): Comparison {
  const result: Comparison = { newlyFailed: [], newlyPassed: [], stillFailing: [], otherwise: [] };
  for (const id of new Set([...earlier.keys(), ...later.keys()])) {
    const [before, after] = [earlier.get(id), later.get(id)];
    if (after === 'failed') {
      (before === 'failed' ? result.stillFailing : result.newlyFailed).push(id);
    } else if (after === 'passed' && before !== 'passed') {
      result.newlyPassed.push(id);
    } else if (before !== after) {
      result.otherwise.push(`${id}: ${before ?? 'absent'} → ${after ?? 'absent'}`);
    }
  }
  return result;
}

export function compare(earlierFile: string, laterFile: string): number {
  const result = compareVerdicts(verdictsOf(earlierFile), verdictsOf(laterFile));
  const section = (title: string, ids: string[]) =>
    console.log(`${title} (${ids.length})${ids.map((id) => `\n  ${id}`).join('')}`);
  section('Newly failed', result.newlyFailed);
  section('Newly passed', result.newlyPassed);
  section('Still failing', result.stillFailing);
  if (result.otherwise.length > 0) section('Otherwise changed', result.otherwise);
  return result.newlyFailed.length > 0 ? exitCodes.notConformant : exitCodes.conformant;
}
