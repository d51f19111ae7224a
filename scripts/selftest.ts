/**
 * Runs the project's own tests (selftest/*.test.ts), two files at a time, the longest first.
 *
 * Why not `node --test selftest/*.test.ts`: its files run one at a time on two cores (its default
 * is the cores less one), and in name order when told to run several at once. The mutation
 * self-test alone takes over half of the time and keeps both cores busy; the other files spend
 * much of theirs waiting (on rate limits, timeouts, child processes starting) and fill in beside
 * it. Started first, it ends about when the others do.
 *
 * Each file still runs in a process of its own, with Node's spec reporter; any failure, or a file
 * that fails to load, makes the exit code 1. Arguments: test files to run instead of all.
 */
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const folder = join(root, 'selftest');
/** Started first: the file that takes longest. The others follow in name order. */
const longest = ['mutation.test.ts'];

const all = readdirSync(folder)
  .filter((name) => name.endsWith('.test.ts'))
  .sort((a, b) => {
    const [x, y] = [longest.indexOf(a), longest.indexOf(b)];
    return (x < 0 ? longest.length : x) - (y < 0 ? longest.length : y) || a.localeCompare(b);
  })
  .map((name) => join(folder, name));
const asked = process.argv.slice(2).map((file) => resolve(file));
const files = asked.length > 0 ? asked : all;

const stream = run({ files, concurrency: 2 });
stream.on('test:fail', () => {
  process.exitCode = 1;
});
// Node 20 exports the spec reporter as a class; later versions also accept it as it is.
stream.compose(new spec()).pipe(process.stdout);
