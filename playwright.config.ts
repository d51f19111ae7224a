/**
 * The conformance suite's Playwright configuration.
 *
 * Target: BASE_URL and API_KEY (environment or .env). Without BASE_URL the bundled reference
 * implementation is started for the run and the suite checks it.
 */
import { defineConfig } from '@playwright/test';
import { settings, usesReference } from './tests/support/config.ts';

export default defineConfig({
  testDir: 'tests',
  outputDir: 'test-results',
  // A check that passes only on a second try is flaky, in the suite or the target: never retry.
  retries: 0,
  workers: settings.workers,
  timeout: settings.testTimeoutMs,
  forbidOnly: true,
  reporter: [
    [process.env.CI ? 'dot' : 'list'],
    ['html', { outputFolder: 'reports/html', open: 'never' }],
    ['json', { outputFile: 'reports/results.json' }],
    ['junit', { outputFile: 'reports/junit.xml' }],
    ['./tests/support/reporter.ts'],
  ],
  use: {
    baseURL: settings.baseUrl,
    // Traces would record request headers, and so the API key.
    trace: 'off',
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
