/**
 * The conformance suite's configuration, with one project per target: the self-test runs the
 * whole suite against the clean reference and every variant in one Playwright run.
 * Targets come from SELFTEST_TARGETS, a JSON array of { name, baseUrl, requirement? }: a target
 * with a requirement (a fault) runs only the tests tagged with it, the ones that must catch it.
 */
import { defineConfig } from '@playwright/test';
import suite from '../playwright.config.ts';

const targets = JSON.parse(process.env.SELFTEST_TARGETS ?? '[]') as {
  name: string;
  baseUrl: string;
  requirement?: string;
}[];

export default defineConfig({
  ...suite,
  testDir: '../tests',
  outputDir: '../test-results/selftest',
  reporter: [['json']],
  webServer: undefined,
  projects: targets.map(({ name, baseUrl, requirement }) => ({
    name,
    use: { baseURL: baseUrl },
    // One worker per target: a worker serves one project, and starting one costs about half a second.
    workers: 1,
    grep: requirement ? new RegExp(`@${requirement}(?=\\s|$)`) : undefined,
  })),
});
