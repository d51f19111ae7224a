/**
 * What a run covered: whether it was complete, every test of the suite run to its end with every
 * requirement checked, or narrowed (a --grep, a shard, a file filter, read-only mode, categories
 * restricted) or stopped (interrupted, out of time). The badge, the statement and `verify` read it:
 * "conformant" is claimed only for a complete run.
 *
 * The suite's tests are those requirements/coverage.json lists (generated from the suite, held
 * current by `npm test`): a run that selected fewer was narrowed, however it was told to.
 */
import { suiteTestCount } from '../../../requirements/catalogue.ts';
import type { Verdict } from './summary.ts';

export interface Scope {
  /** The tests of this target the run selected. */
  tests: number;
  /** The tests of the suite (requirements/coverage.json). */
  suiteTests: number;
  /** `K/N`: this machine's part of a run split over N ('' for a whole run, or a merge of all). */
  shard: string;
  /** Playwright's --grep and --grep-invert, as given ('' when not). */
  grep: string;
  grepInvert: string;
  /** Every test selected and run to its end, every requirement checked. */
  complete: boolean;
  /** Why not: what narrowed or stopped it, one phrase each. */
  narrowedBy: string[];
  /** The run was cut short (interrupted, out of time): incomplete rather than partial. */
  stopped: boolean;
}

/** What Playwright was told that selects tests, read from its command line (its `argv`). */
export function selectionOf(argv: readonly string[]): { grep: string; grepInvert: string } {
  const value = (names: string[]) => {
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i]!;
      if (names.includes(arg)) return argv[i + 1] ?? '';
      const long = names.find((name) => name.startsWith('--') && arg.startsWith(`${name}=`));
      if (long) return arg.slice(long.length + 1);
    }
    return '';
  };
  return { grep: value(['-g', '--grep']), grepInvert: value(['-G', '--grep-invert']) };
}

export function scopeOf(
  input: {
    tests: number;
    shard: string;
    grep: string;
    grepInvert: string;
    status: string;
    requirements: readonly { id: string; verdict: Verdict }[];
  },
  /** The suite's tests: this suite's, or those a bundle's run recorded (cli/verify.ts). */
  suiteTests = suiteTestCount(),
): Scope {
  const narrowedBy: string[] = [];
  if (input.shard) narrowedBy.push(`shard ${input.shard}`);
  if (input.grep) narrowedBy.push(`--grep ${input.grep}`);
  if (input.grepInvert) narrowedBy.push(`--grep-invert ${input.grepInvert}`);
  if (input.tests < suiteTests) {
    narrowedBy.push(`${input.tests} of the suite's ${suiteTests} tests selected`);
  }
  const notRun = input.requirements.filter((item) => item.verdict === 'not run');
  if (notRun.length > 0) {
    narrowedBy.push(`not run: ${notRun.map((item) => item.id).join(', ')}`);
  }
  const stopped = input.status !== 'passed' && input.status !== 'failed';
  return {
    tests: input.tests,
    suiteTests,
    shard: input.shard,
    grep: input.grep,
    grepInvert: input.grepInvert,
    complete: narrowedBy.length === 0 && !stopped,
    narrowedBy: stopped ? [`the run ${input.status}`, ...narrowedBy] : narrowedBy,
    stopped,
  };
}
