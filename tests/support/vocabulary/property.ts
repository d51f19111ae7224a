/**
 * Property checks with fast-check, made fit for a remote target:
 * - one seed per run (FC_SEED), a path to replay a counterexample (FC_PATH), FC_RUNS runs;
 * - bounded shrinking: after a failure at most `shrinkRuns` more inputs are sent; the ones after
 *   that count as passing without a request, so the counterexample reported is the smallest one
 *   actually seen to fail, found in seconds;
 * - on failure, the seed, the path, the shrunk counterexample and the one command that replays it
 *   are in the error, an annotation and an attachment; the error is charged to the requirement
 *   the counterexample broke (the check inside names it);
 * - a property cut short by its time limit before its runs were done decided nothing: its
 *   requirements are marked inconclusive, never passed.
 *
 * A predicate checks with `verify(answers).toX(…)`, the matchers without a report step each: the
 * runs show as one step holding their requests, and the counterexample's failure as the test's.
 */
import { test } from '@playwright/test';
import type { Arbitrary } from 'fast-check';
import { relative } from 'node:path';
import { RateLimitExhausted } from '../http/client.ts';
import { WriteBudgetExceeded } from '../http/run-state.ts';
import { propertyFailure } from '../reporting/failure-text.ts';
import { chargedIds } from '../reporting/summary.ts';
import { settings } from '../setup/settings.ts';
import { fc } from './fast-check.ts';
import { inconclusive, ownRequirements, primaryRequirement } from './verdicts.ts';

export interface PropertyOptions {
  /**
   * Runs: FC_RUNS, or half of it for a property whose domain the examples already bound, or a
   * number of its own (a property whose every run is a sequence of requests).
   */
  runs?: 'all' | 'half' | number;
  /** Inputs sent while shrinking a failure (default 40). */
  shrinkRuns?: number;
  /**
   * Overall time limit in ms (default 30 s, or half the test timeout when that is shorter): a
   * property cut short by it is inconclusive.
   */
  timeLimitMs?: number;
}

const runsOf = (options: PropertyOptions) =>
  typeof options.runs === 'number'
    ? options.runs
    : options.runs === 'half'
      ? Math.ceil(settings.fcRuns / 2)
      : settings.fcRuns;

export async function checkProperty<T>(
  arbitrary: Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions = {},
): Promise<void> {
  const info = test.info();
  const shrinkRuns = options.shrinkRuns ?? 40;
  // An error that ends the property at once, not a counterexample: a spent write budget, or a
  // skip (read-only mode), which Playwright must see as thrown.
  let stop: unknown;
  let failures = 0;
  let sentAfterFailure = 0;
  const runs = runsOf(options);
  // A replay (FC_PATH) runs the one counterexample its path names, not `runs` inputs.
  const title =
    settings.fcPath === undefined
      ? `${runs} generated inputs`
      : `the counterexample at path ${settings.fcPath}`;
  const details = await test.step(title, () =>
    fc.check(
      fc.asyncProperty(arbitrary, async (value) => {
        if (stop) return true;
        if (failures > 0 && sentAfterFailure++ >= shrinkRuns) return true;
        try {
          await predicate(value);
          return true;
        } catch (error) {
          const limit = error instanceof WriteBudgetExceeded || error instanceof RateLimitExhausted;
          if (limit || info.expectedStatus === 'skipped') {
            stop = error;
            return true;
          }
          failures++;
          throw error;
        }
      }),
      {
        seed: settings.fcSeed,
        path: settings.fcPath,
        // Replaying a path runs exactly that counterexample, without shrinking it further.
        endOnFailure: settings.fcPath !== undefined,
        numRuns: runs,
        // Within the test's own timeout, so that a slow target makes the property inconclusive
        // rather than the test time out.
        interruptAfterTimeLimit:
          options.timeLimitMs ?? Math.min(30_000, settings.testTimeoutMs / 2),
      },
    ),
  );
  if (stop) throw stop;
  info.annotations.push({
    type: 'fast-check',
    description: `seed ${details.seed}, ${details.numRuns} runs${details.interrupted ? ' (interrupted by the time limit)' : ''}`,
  });
  if (!details.failed) {
    if (details.interrupted) {
      const reason = `cut short by its time limit after ${details.numRuns} of ${runs} runs`;
      for (const id of ownRequirements()) inconclusive(id, reason);
    }
    return;
  }

  const location = `${relative(process.cwd(), info.file)}:${info.line}`;
  const counterexample = fc.stringify(details.counterexample);
  // A sequence of commands (fc.commands) shrinks by which of its commands ran: fast-check replays
  // it only with that record too, which it prints in the counterexample.
  const replayPath = /\/\*replayPath="([^"]*)"\*\//.exec(counterexample)?.[1];
  const replay = `${replayPath === undefined ? '' : `FC_REPLAY_PATH="${replayPath}" `}FC_SEED=${details.seed} FC_PATH="${details.counterexamplePath}" npx playwright test ${location}`;
  const summary = propertyFailure({
    numRuns: details.numRuns,
    numShrinks: details.numShrinks,
    seed: details.seed,
    path: details.counterexamplePath ?? '',
    counterexample,
    replay,
  });
  info.annotations.push({
    type: 'counterexample',
    description: `${counterexample} — replay: ${replay}`,
  });
  await info.attach('counterexample', { body: summary, contentType: 'text/plain' });
  const cause =
    details.errorInstance instanceof Error
      ? details.errorInstance.message
      : String(details.errorInstance);
  // Charged to what the counterexample broke, as the check that failed on it said.
  const ids = chargedIds(cause);
  const charged = ids.length ? ids : [primaryRequirement()];
  throw new Error(`[${charged.join(', ')}] ${summary}\n\n${cause}`);
}
