/**
 * The benchmark's floor (scripts/benchmark.ts): a bare Playwright run of one test sending one
 * request to a tiny local server, with nothing of the suite (no webServer, no globalSetup, no
 * reporters of ours). The benchmark starts the server and passes its address in BENCH_FLOOR_URL.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'floor.spec.ts',
  // Nothing is kept of the run: no folder appears in the repository.
  outputDir: join(tmpdir(), 'petstore-bench-floor'),
  reporter: 'line',
  workers: 1,
  retries: 0,
});
