/**
 * The conformance suite's configuration, with one project per target: the self-test runs the
 * whole suite against the clean reference and every variant in one Playwright run.
 * Targets come from SELFTEST_TARGETS, a JSON array of { name, baseUrl, tag?, strict? }: a target
 * with a tag runs only the tests carrying it (a fault: the tests that must catch it); `strict`
 * turns flagged advisories into failures (the conformanceStrict option).
 */
import { defineConfig } from '@playwright/test';
import suite from '../playwright.config.ts';

const targets = JSON.parse(process.env.SELFTEST_TARGETS ?? '[]') as {
  name: string;
  baseUrl: string;
  tag?: string;
  strict?: boolean;
}[];

export default defineConfig({
  ...suite,
  testDir: '../tests',
  outputDir: '../test-results/selftest',
  reporter: [['json']],
  webServer: undefined,
  projects: targets.map(({ name, baseUrl, tag, strict }) => ({
    name,
    use: { baseURL: baseUrl, conformanceStrict: strict ?? false },
    // One worker per target: a worker serves one project, and starting one costs about half a second.
    workers: 1,
    grep: tag ? new RegExp(`@${tag}(?=\\s|$)`) : undefined,
  })),
});
