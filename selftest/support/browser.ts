/**
 * A real browser for looking at the summary page: Debian's chromium, driven by playwright-core,
 * in a fresh profile, with nothing that reaches the network on its own.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

export const chromiumPath = '/usr/bin/chromium';

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
