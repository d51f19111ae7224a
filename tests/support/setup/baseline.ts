/**
 * The baseline file (CONFORMANCE_BASELINE, the command's --baseline), read and checked as the
 * configuration loads: a mistake stops the run before any request, naming the entry. Its shape,
 * as `petstore-conformance baseline` prints it:
 *
 *   { "failures": [
 *       { "requirement": "LIST-LIMIT-DEFAULT", "reason": "PET-123, fixed in Q3", "until": "2026-09-30" },
 *       { "requirement": "CREATE-ECHO", "reason": "…", "target": "partner" } ] }
 *
 * Every field is checked, an unknown one refused: a misspelt `until` must not make an entry
 * tolerate for ever. What the entries mean is reporting/baseline.ts's.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Baseline, BaselineEntry } from '../reporting/baseline.ts';
import { SetupError } from './setup-error.ts';
import { requirementIdList } from './targets.ts';

function fail(message: string): never {
  throw new SetupError('Configuration error', message);
}

const entryFields = ['requirement', 'reason', 'until', 'target'];

/** A calendar date written YYYY-MM-DD. */
export function isDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) &&
    !Number.isNaN(date.getTime()) &&
    date.toISOString().startsWith(text)
  );
}

/**
 * The baseline in `file` (relative to the current folder), checked against the run's targets
 * (their names; [''] for the one target of BASE_URL).
 */
export function loadBaseline(file: string, targetNames: readonly string[]): Baseline {
  const path = resolve(file);
  const shown = relative(process.cwd(), path).startsWith('..')
    ? path
    : relative(process.cwd(), path);
  const owner = `CONFORMANCE_BASELINE (${shown})`;
  let read: unknown;
  try {
    read = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    fail(`${owner} is not a readable JSON file (${(error as Error).message})`);
  }
  const top = read as Record<string, unknown>;
  if (top === null || typeof top !== 'object' || !Array.isArray(top.failures)) {
    fail(`${owner} must hold an object with "failures": a list of entries (docs/ci.md)`);
  }
  const extra = Object.keys(top).filter((key) => key !== 'failures' && key !== 'description');
  if (extra.length > 0)
    fail(`${owner}: unknown field ${extra.join(', ')} (fields: failures, description)`);
  const several = !(targetNames.length === 1 && targetNames[0] === '');
  const seen = new Set<string>();
  const entries = (top.failures as unknown[]).map((item, index): BaselineEntry => {
    const where = `${owner}, entry ${index + 1}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      fail(`${where} is not an object`);
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((key) => !entryFields.includes(key));
    if (unknown.length > 0) {
      fail(`${where}: unknown field ${unknown.join(', ')} (fields: ${entryFields.join(', ')})`);
    }
    const [requirement] = requirementIdList(`${where}: "requirement"`, [entry.requirement]);
    if (typeof entry.reason !== 'string' || entry.reason.trim() === '') {
      fail(
        `${where} (${requirement}): "reason" must say why it is tolerated (a ticket, who fixes it)`,
      );
    }
    const result: BaselineEntry = { requirement: requirement!, reason: entry.reason.trim() };
    if (entry.until !== undefined) {
      if (typeof entry.until !== 'string' || !isDate(entry.until)) {
        fail(
          `${where} (${requirement}): "until" must be a date as YYYY-MM-DD (got ${JSON.stringify(entry.until)})`,
        );
      }
      result.until = entry.until;
    }
    if (entry.target !== undefined) {
      if (typeof entry.target !== 'string' || !several || !targetNames.includes(entry.target)) {
        fail(
          `${where} (${requirement}): "target" ${JSON.stringify(entry.target)} names no target of this run ` +
            (several
              ? `(targets: ${targetNames.join(', ')})`
              : '(a run of one target, BASE_URL: leave "target" out)'),
        );
      }
      result.target = entry.target;
    }
    const key = `${result.target ?? '*'} ${result.requirement}`;
    if (seen.has(key)) {
      fail(
        `${where}: ${requirement} is listed twice${result.target ? ` for ${result.target}` : ''}`,
      );
    }
    seen.add(key);
    return result;
  });
  return { file: shown, entries };
}
