/**
 * `petstore-conformance baseline <conformance.json>`: prints the baseline a run's failures make
 * (reporting/baseline.ts), to start one (`> baseline.json`) or to bring one up to date: a failure
 * already tolerated keeps its entry's reason and date, a fixed one drops out. For a run of several
 * targets, each target's summary is read from beside the overview (targets/<name>/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { baselineFrom } from '../tests/support/reporting/baseline.ts';
import { exitCodes } from '../tests/support/reporting/gate.ts';
import { isOverview } from '../tests/support/reporting/overview.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import { UsageError } from './usage.ts';

function readSummary(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`${path} is not a readable JSON file (${(error as Error).message})`);
  }
}

/** The summaries of a conformance.json: its own, or each target's beside an overview. */
export function summariesOf(path: string): Summary[] {
  const written = readSummary(path);
  if (isOverview(written)) {
    return written.targets.map((target) => {
      const file = join(dirname(path), target.summary.replace(/\.html$/, '.json'));
      if (!existsSync(file))
        throw new UsageError(`${file}: the summary of ${target.name} is missing`);
      return readSummary(file) as Summary;
    });
  }
  if (!Array.isArray((written as Partial<Summary>).requirements)) {
    throw new UsageError(`${path} is not a conformance summary (conformance.json)`);
  }
  return [written as Summary];
}

export function baseline(path: string): number {
  process.stdout.write(`${JSON.stringify(baselineFrom(summariesOf(path)), null, 2)}\n`);
  return exitCodes.conformant;
}
