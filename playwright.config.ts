/**
 * The conformance suite's Playwright configuration.
 *
 * Target: BASE_URL and API_KEY (environment or .env). Without BASE_URL the bundled reference
 * implementation is started for the run (in globalSetup) and the suite checks it. With CONFORMANCE_TARGETS (a JSON
 * file of targets), each target is a project of its own and all run in parallel.
 */
import module from 'node:module';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ReporterDescription, defineConfig } from '@playwright/test';
import { catalogue } from './requirements/catalogue.ts';
import { reportPaths } from './tests/support/reporting/paths.ts';
import { factsKey, sharedTargetsKey, targetFacts } from './tests/support/reporting/summary.ts';
import { runFacts, settings } from './tests/support/setup/settings.ts';
import type { Target } from './tests/support/setup/targets.ts';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
// The support modules as this configuration finds them: TypeScript in a checkout, JavaScript as
// built for the installed package (dist/), which Playwright does not transpile under node_modules.
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

// Node 22.1 and later keep a compile cache on request (module.enableCompileCache, documented):
// Playwright's own bundles, several megabytes compiled again by every worker, load from it. The
// workers inherit it through NODE_COMPILE_CACHE. Node 20 has no such means: its workers compile.
const enableCompileCache = (module as { enableCompileCache?: () => { directory?: string } })
  .enableCompileCache;
const compileCache = enableCompileCache?.().directory;
if (compileCache) process.env.NODE_COMPILE_CACHE ??= compileCache;

// The redacting reporter comes first: it removes the API key from every result before the others
// see it (see its header; the preflight refuses to run without it). Reports go to reports/, or
// CONFORMANCE_REPORT_DIR. A shard of a run (--shard=K/N) also leaves a blob report for the merge.
const reporter: ReporterDescription[] = [
  [here(`./tests/support/reporting/redacting-reporter${ext}`)],
  [process.env.CI ? 'dot' : 'list'],
  // CONFORMANCE_REPORTS chooses among these (default: all four); the summary is always written.
  ...settings.reports.map((format): ReporterDescription => {
    if (format === 'html') return ['html', { outputFolder: reportPaths.html, open: 'never' }];
    // The Common Test Report Format, from its maintained reporter: one test per check, its
    // requirements as tags. The conformance reporter then sets back to failed a failure the
    // baseline tolerates, which this reporter, reading Playwright's expectation, calls passed.
    if (format === 'ctrf') {
      return [
        'playwright-ctrf-json-reporter',
        {
          outputDir: dirname(reportPaths.ctrf),
          outputFile: basename(reportPaths.ctrf),
          testType: 'api',
          appName: catalogue.interface,
          appVersion: catalogue.interfaceVersion,
        },
      ];
    }
    return [format, { outputFile: format === 'json' ? reportPaths.results : reportPaths.junit }];
  }),
  ...(settings.shard.total > 1
    ? ([['blob', { outputDir: reportPaths.blob }]] as ReporterDescription[])
    : []),
  [here(`./tests/support/reporting/conformance-reporter${ext}`)],
];

export default defineConfig<object, { target: Target }>({
  testDir: 'tests',
  outputDir: 'test-results',
  // A check that passes only on a second try is flaky, in the suite or the target: never retry.
  retries: 0,
  // And with --retries, a check that passed only on a later attempt still fails the run.
  failOnFlakyTests: true,
  workers: settings.workers,
  // The tests of a file run in parallel too: most wait on the target, not on a core, and a file run
  // in one worker would be the run's longest chain of round trips. (A group that shares a store
  // they grow runs in order: listPets.spec.ts.)
  fullyParallel: true,
  timeout: settings.testTimeoutMs,
  // The whole run, preflight included: a target that stalls cannot hold a CI job for hours.
  globalTimeout: settings.runTimeoutMs,
  // Before any test: the reporters, then one request per target (see setup/preflight.ts).
  globalSetup: here(`./tests/support/setup/preflight${ext}`),
  forbidOnly: true,
  reporter,
  // The run's facts (target, run id, seed), for the reports: carried in the run, not read again.
  // Targets that share the workers are no projects: the reports learn them from here.
  metadata: {
    [factsKey]: runFacts,
    ...(settings.shareWorkers ? { [sharedTargetsKey]: settings.targets.map(targetFacts) } : {}),
  },
  // One project per target: its name is the target's ('' for the one target of BASE_URL). Of
  // several targets, each is checked by one worker at a time (or its file's "workers"), and the
  // targets run in parallel. CONFORMANCE_SHARE_WORKERS: one project, a group of tests per target
  // (vocabulary/checks.ts), every worker checking each.
  projects: settings.shareWorkers
    ? [{ name: '', use: { target: settings.targets[0]! } }]
    : settings.targets.map((target) => ({
        name: target.name,
        use: { target },
        ...(settings.targets.length > 1 ? { workers: target.workers ?? 1 } : {}),
      })),
  use: {
    // Traces would record request headers, and so the API key. (CONFORMANCE_INSECURE_TLS reaches
    // the request context in the suite's `request` fixture, vocabulary/fixtures.ts.)
    trace: 'off',
  },
});
