/**
 * Advisory checks: what the HTTP standards expect beyond the interface document. A missing
 * advisory is reported (an annotation, and its own section of the summary), never a failure,
 * unless strict mode is on (CONFORMANCE_STRICT=1, or the `conformanceStrict` option).
 *
 * Each check records `{ type: 'advisory', description: '<ID>: met' }` or
 * `'<ID>: flagged — <what is missing>'` on the running test; the reporter reads them.
 */
import { test } from '@playwright/test';
import { expect } from './matchers.ts';
import { type RequirementId, requirement } from '../../../requirements/catalogue.ts';

/** Problems named in a flagged advisory's note. */
const SHOWN = 3;

export class Advisor {
  constructor(private readonly strict: boolean) {}

  /** Records the advisory as met (no problems) or flagged; in strict mode a flag fails the test. */
  check(id: RequirementId, problems: string[]): void {
    if (requirement(id).kind !== 'advisory')
      throw new Error(`${id} is not an advisory requirement`);
    const info = test.info();
    if (problems.length === 0) {
      info.annotations.push({ type: 'advisory', description: `${id}: met` });
      return;
    }
    // A check judging many answers (every 401 of a test) names a few; the rest are alike.
    const shown = problems.slice(0, SHOWN);
    const more = problems.length - shown.length;
    info.annotations.push({
      type: 'advisory',
      description: `${id}: flagged — ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`,
    });
    if (this.strict) {
      expect
        .soft(
          problems,
          `[${id}] advisory, failing because strict mode is on (CONFORMANCE_STRICT=1)`,
        )
        .toEqual([]);
    }
  }
}
