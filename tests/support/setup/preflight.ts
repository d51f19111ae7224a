/**
 * Playwright's globalSetup: the preflight check (preflight-check.ts) against the configured
 * target, after the bundled reference, if used, has started (Playwright starts its webServer
 * first). A failure stops the run with one message and a non-zero exit, before any test.
 */
import { settings } from './settings.ts';
import { preflight } from './preflight-check.ts';
import { SetupError } from './setup-error.ts';

export default async function globalSetup(): Promise<void> {
  const { baseUrl, apiKey, requestTimeoutMs, insecureTls, maxResponseBytes } = settings;
  const result = await preflight({
    baseUrl,
    apiKey,
    timeoutMs: requestTimeoutMs,
    insecureTls,
    maxResponseBytes,
  });
  if (!result.ok) throw new SetupError('Preflight failed', result.problem);
  console.log(result.summary);
  if (settings.readOnly) {
    console.log(
      'Read-only mode (CONFORMANCE_READONLY=1): checks that would create pets are skipped.',
    );
  }
}
