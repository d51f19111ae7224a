/**
 * fast-check, required rather than imported: the one place the suite loads it.
 *
 * Why: on Node 20 every file an ECMAScript module imports is resolved and loaded by Playwright's
 * TypeScript loader in a thread of its own, a round trip there and back per file, in the runner
 * (which loads the spec files to list the tests) and again in every worker, before the first
 * test. fast-check's module build is nine files with pure-rand's; its CommonJS build is the same
 * code and API, loaded by `require` without those round trips (from Node's compile cache on Node
 * 22.1 and later: playwright.config.ts). With lossless-json, done the same way, about 30 ms of a
 * run (README, Benchmark). Only one copy may be loaded: arbitraries of one copy are not understood
 * by another (selftest/layout.test.ts).
 */
import { createRequire } from 'node:module';
import type * as FastCheck from 'fast-check';

export const fc = createRequire(import.meta.url)('fast-check') as typeof FastCheck;
