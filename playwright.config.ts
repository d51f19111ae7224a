/**
 * The conformance suite's Playwright configuration.
 *
 * Target: BASE_URL and API_KEY (environment or .env). Without BASE_URL the bundled reference
 * implementation is started for the run and the suite checks it.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import { reportPaths } from './tests/support/reporting/paths.ts';
import { factsKey } from './tests/support/reporting/summary.ts';
import { runFacts, settings, usesReference } from './tests/support/setup/settings.ts';

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  // A check that passes only on a second try is flaky, in the suite or the target: never retry.
  retries: 0,
  // And with --retries, a check that passed only on a later attempt still fails the run.
  failOnFlakyTests: true,
  workers: settings.workers,
  timeout: settings.testTimeoutMs,
  // The whole run, preflight included: a target that stalls cannot hold a CI job for hours.
  globalTimeout: settings.runTimeoutMs,
  // One request before any test: unreachable, key rejected, wrong address (see setup/).
  // An absolute path, so that configurations extending this one elsewhere keep it.
  globalSetup: fileURLToPath(new URL('./tests/support/setup/preflight.ts', import.meta.url)),
  forbidOnly: true,
  // The redacting reporter comes first: it removes the API key from every result before the
  // others see it (see its header). Reports go to reports/, or CONFORMANCE_REPORT_DIR.
  reporter: [
    ['./tests/support/reporting/redacting-reporter.ts'],
    [process.env.CI ? 'dot' : 'list'],
    ['html', { outputFolder: reportPaths.html, open: 'never' }],
    ['json', { outputFile: reportPaths.results }],
    ['junit', { outputFile: reportPaths.junit }],
    ['./tests/support/reporting/conformance-reporter.ts'],
  ],
  // The run's facts (target, run id, seed), for the reports: carried in the run, not read again.
  metadata: { [factsKey]: runFacts },
  use: {
    baseURL: settings.baseUrl,
    // Traces would record request headers, and so the API key.
    trace: 'off',
    // CONFORMANCE_INSECURE_TLS=1: accept a self-signed certificate (test environments only).
    ignoreHTTPSErrors: settings.insecureTls,
  },
  webServer: usesReference
    ? {
        command: 'node --import tsx reference/src/main.ts',
        env: {
          PORT: String(settings.referencePort),
          API_KEY: settings.apiKey,
          BASE_PATH: settings.referenceBasePath,
        },
        // Ready when the list answers at all: 401 without a key.
        url: `${settings.baseUrl}/pets`,
        reuseExistingServer: false,
        timeout: 30_000,
        stdout: 'ignore',
        stderr: 'pipe',
      }
    : undefined,
});
