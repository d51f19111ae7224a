/**
 * `npm test`: runs the project's own tests, selftest/*.test.ts, three files at a time, each in a
 * process of its own, with Node's spec reporter. Any failure, or a file that fails to load, makes
 * the exit code 1. Arguments: test files to run instead of all.
 *
 * Why not `node --test selftest/*.test.ts`: it runs files one at a time on two cores (its default
 * is the cores less one), and in name order when told to run several at once. The mutation
 * self-test alone takes most of the CPU, busy on every core; it starts first, at a lower priority
 * (it sets its own niceness), and takes whatever CPU the other files leave. Two of the others run
 * beside it at a time: most of them wait more than they compute (a rate limit's pace, idle
 * connections, runs of the suite against small servers), and one at a time their waits added up
 * to more than the mutation self-test takes. The staging checks start first (a rate-limited
 * gateway's time bound, mostly waiting), then the static checks (ESLint, Prettier, actionlint,
 * tsc), then the rest in name order.
 *
 * `--quick` (`npm run test:quick`): the static checks beside the mutation self-test of a sample
 * (SELFTEST_VARIANT=sample: the clean reference and one fault of each section), plus the targets
 * SELFTEST_VARIANT names, if any. About 45 seconds; `npm test` remains the whole proof.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = join(root, 'selftest');
/** Started in this order; the others follow in name order. */
const first = ['mutation.test.ts', 'staging.test.ts', 'static-checks.test.ts'];

const all = readdirSync(folder)
  .filter((name) => name.endsWith('.test.ts'))
  .sort((a, b) => {
    const [x, y] = [first.indexOf(a), first.indexOf(b)];
    return (x < 0 ? first.length : x) - (y < 0 ? first.length : y) || a.localeCompare(b);
  })
  .map((name) => join(folder, name));
const quick = process.argv.includes('--quick');
const asked = process.argv
  .slice(2)
  .filter((arg) => arg !== '--quick')
  .map((file) => resolve(file));
if (quick) {
  // The files run in processes of their own, which inherit this environment.
  process.env.SELFTEST_VARIANT = ['sample', process.env.SELFTEST_VARIANT?.trim()]
    .filter(Boolean)
    .join(',');
}
const files = quick
  ? ['mutation.test.ts', 'static-checks.test.ts'].map((name) => join(folder, name))
  : asked.length > 0
    ? asked
    : all;

const stream = run({ files, concurrency: 3 });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
// The spec reporter is a stream class (Node 20 to 24): one instance for the run.
stream.compose(new spec()).pipe(process.stdout);
