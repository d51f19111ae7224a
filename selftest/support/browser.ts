/**
 * A real browser for looking at the summary page: Debian's chromium, driven by playwright-core,
 * in a fresh profile, with nothing that reaches the network on its own.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { splitFailure } from '../../tests/support/reporting/failure-text.ts';
import type { Summary } from '../../tests/support/reporting/summary.ts';

export const chromiumPath = '/usr/bin/chromium';

/**
 * What the summary page shows as "Received" for a failed requirement: its first failure that has
 * an answer, as the summary recorded it. A page check compares with this, not with a copy of the
 * matchers' wording (docs.test.ts holds the docs' example to that).
 */
export function receivedOf(summary: Summary, id: string): string {
  const failures = summary.requirements.find((item) => item.id === id)?.failures ?? [];
  const received = failures.map((failure) => splitFailure(failure.message).received).find(Boolean);
  assert.ok(received, `${id}: no failure with an answer in the summary`);
  return received;
}

/** Why the browser check cannot run here, or undefined when it can. */
export function browserUnavailable(): string | undefined {
  return existsSync(chromiumPath)
    ? undefined
    : `${chromiumPath} is not installed (apt-get install chromium; .ci/run does it)`;
}

/** Runs `use` with a browser context, then closes it and removes its profile. */
export async function withBrowser<T>(use: (context: BrowserContext) => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'conformance-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    return await use(context);
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
