/**
 * Property checks with fast-check, made fit for a remote target:
 * - one seed per run (FC_SEED), a path to replay a counterexample (FC_PATH), FC_RUNS runs;
 * - shrinking bounded by time and by steps: after a failure, smaller inputs are sent for up to
 *   `shrinkTimeMs`, whatever time the runs before it took, and at most `shrinkRuns` of them (each
 *   may create pets, on a store whose write budget the whole run shares); inputs after that count
 *   as passing without a request, so the counterexample reported is the smallest one actually
 *   seen to fail. A run limit met while shrinking (the write budget) ends the shrinking there: the
 *   failure found is reported all the same.
 *   The arbitraries shrink towards the ordinary (generators.ts: the run's marker as the name, no
 *   status), so what does not matter to a failure is shrunk away and what does is left;
 * - on failure, the seed, the path, the shrunk counterexample and the one command that replays it
 *   are in the error, an annotation and an attachment; the error is charged to the requirement
 *   the counterexample broke (the check inside names it);
 * - a property cut short by its time limit before its runs were done decided nothing: its
 *   requirements are marked inconclusive, never passed.
 *
 * A predicate checks with `verify(answers).toX(…)`, the matchers without a report step each: the
 * runs show as one step holding their requests, and the counterexample's failure as the test's.
 *
 * Sent together: a property given as `{ send, judge }` sends the requests of all its runs at once
 * (the inputs `fc.sample` draws for the seed are those `fc.check` tries first, in its order), then
 * judges them as `fc.check` takes them, one after another: against a remote target its runs cost
 * a round trip or two, not one or two each. Only `judge` checks, so a run `fc.check` never reaches
 * (after the first failure) decides and records nothing; shrinking sends one input at a time.
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
import { together } from './together.ts';
import { inconclusive, ownRequirements, primaryRequirement } from './verdicts.ts';

export interface PropertyOptions {
  /**
   * Runs: FC_RUNS, or half of it for a property whose domain the examples already bound, or a
   * number of its own (a property whose every run is a sequence of requests).
   */
  runs?: 'all' | 'half' | number;
  /**
   * Time for the runs in ms (default 30 s, or half the test timeout when that is shorter): a
   * property cut short by it is inconclusive.
   */
  timeLimitMs?: number;
  /**
   * Time for shrinking a failure in ms, from the first failure on (default 10 s, or a quarter of
   * the test timeout when that is shorter).
   */
  shrinkTimeMs?: number;
  /** Smaller inputs sent at most while shrinking a failure (default 20). */
  shrinkRuns?: number;
}

const runsOf = (options: PropertyOptions) =>
  typeof options.runs === 'number'
    ? options.runs
    : options.runs === 'half'
      ? Math.ceil(settings.fcRuns / 2)
      : settings.fcRuns;

/** A property whose requests are sent apart from its checks, so that runs go together. */
export interface SentTogether<T, A> {
  /** The requests of one run, and no check. */
  send: (value: T) => Promise<A>;
  /** The checks of one run, on its answers. */
  judge: (value: T, answers: A) => void | Promise<void>;
}

type Outcome<A> = { sent: true; answers: A } | { sent: false; error: unknown };

/** Sends the requests of the seed's first `runs` inputs, all at once. */
function sendAhead<T, A>(arbitrary: Arbitrary<T>, send: (value: T) => Promise<A>, runs: number) {
  return fc.sample(arbitrary, { seed: settings.fcSeed, numRuns: runs }).map((value) => ({
    value,
    outcome: send(value).then(
      (answers): Outcome<A> => ({ sent: true, answers }),
      (error: unknown): Outcome<A> => ({ sent: false, error }),
    ),
  }));
}

export async function checkProperty<T, A = never>(
  arbitrary: Arbitrary<T>,
  check: ((value: T) => Promise<void>) | SentTogether<T, A>,
  options: PropertyOptions = {},
): Promise<void> {
  const predicate =
    typeof check === 'function'
      ? check
      : async (value: T) => check.judge(value, await check.send(value));
  const info = test.info();
  const timeLimitMs = options.timeLimitMs ?? Math.min(30_000, settings.testTimeoutMs / 2);
  const shrinkTimeMs = options.shrinkTimeMs ?? Math.min(10_000, settings.testTimeoutMs / 4);
  const shrinkRuns = options.shrinkRuns ?? 20;
  let shrunk = 0;
  // An error that ends the property at once, not a counterexample: a spent write budget, or a
  // skip (read-only mode), which Playwright must see as thrown.
  let stop: unknown;
  // When the first failure was seen; until then, the runs actually judged and whether time ran out.
  let failedAt: number | undefined;
  let sentRuns = 0;
  let cutShort = false;
  const started = Date.now();
  const runs = runsOf(options);
  // A replay (FC_PATH) runs the one counterexample its path names, not `runs` inputs.
  const title =
    settings.fcPath === undefined
      ? `${runs} generated inputs`
      : `the counterexample at path ${settings.fcPath}`;
  const details = await test.step(title, async () => {
    // A replay (FC_PATH) sends its one input when fast-check tries it.
    const ahead =
      typeof check === 'function' || settings.fcPath !== undefined
        ? []
        : sendAhead(arbitrary, check.send, runs);
    let tried = 0;
    try {
      return await fc.check(
        fc.asyncProperty(arbitrary, async (value) => {
          if (stop) return true;
          // Before the first failure, fast-check tries the inputs drawn ahead, in their order.
          const early = failedAt === undefined ? ahead[tried++] : undefined;
          if (failedAt === undefined) {
            // The runs' time is up: the rest count as passing, unjudged, and the property decided
            // nothing.
            if (Date.now() - started > timeLimitMs) cutShort = true;
            if (cutShort) return true;
            sentRuns++;
          } else if (Date.now() - failedAt > shrinkTimeMs || ++shrunk > shrinkRuns) return true;
          try {
            if (
              early &&
              typeof check !== 'function' &&
              fc.stringify(early.value) === fc.stringify(value)
            ) {
              const outcome = await early.outcome;
              if (!outcome.sent) throw outcome.error;
              await check.judge(value, outcome.answers);
            } else {
              await predicate(value);
            }
            return true;
          } catch (error) {
            const limit =
              error instanceof WriteBudgetExceeded || error instanceof RateLimitExhausted;
            if (limit || info.expectedStatus === 'skipped') {
              stop = error;
              return true;
            }
            failedAt ??= Date.now();
            throw error;
          }
        }),
        {
          seed: settings.fcSeed,
          path: settings.fcPath,
          // Replaying a path runs exactly that counterexample, without shrinking it further.
          endOnFailure: settings.fcPath !== undefined,
          numRuns: runs,
          // A hard stop within the test's own timeout (a run that outlasts its time, shrinking
          // included), so that a slow target makes the property inconclusive rather than the test
          // time out. A failure found is reported all the same: the smallest seen so far.
          interruptAfterTimeLimit: timeLimitMs + shrinkTimeMs,
        },
      );
    } finally {
      // Every request sent ahead is answered before the test goes on (or ends, and with it the
      // request context they use).
      await together(ahead.map((run) => run.outcome));
    }
  });
  // A limit met before any failure decided nothing; one met while shrinking leaves the failure.
  if (stop && !details.failed) throw stop;
  // Cut short before any run was judged (its answers came after the time limit), fast-check says
  // "failed" with no counterexample: nothing failed, and nothing was decided.
  const unjudged = details.interrupted && details.numRuns === 0 && details.counterexample === null;
  const interrupted = cutShort || details.interrupted;
  const ran = details.failed && !unjudged ? details.numRuns : Math.min(sentRuns, details.numRuns);
  info.annotations.push({
    type: 'fast-check',
    description: `seed ${details.seed}, ${ran} runs${interrupted ? ' (interrupted by the time limit)' : ''}`,
  });
  if (!details.failed || unjudged) {
    if (interrupted) {
      const reason = `cut short by its time limit after ${ran} of ${runs} runs`;
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
