/** The suite as this command finds it, and Playwright's runner, run in a child process. */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// TypeScript in a checkout, JavaScript as built for the package (dist/).
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
export const suiteConfig = fileURLToPath(new URL(`../playwright.config${ext}`, import.meta.url));

/**
 * Runs Playwright's command line (`test`, `merge-reports`…) with the suite's configuration in
 * this process's folder and environment; resolves to its exit code (null: it could not run).
 */
export async function runPlaywright(command: string, args: string[]): Promise<number | null> {
  const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
  const child = spawn(process.execPath, [cli, command, '--config', suiteConfig, ...args], {
    stdio: 'inherit',
  });
  // Ctrl-C reaches the whole foreground group; a TERM sent to this process alone is passed on.
  const forward = () => child.kill('SIGTERM');
  const wait = () => {};
  process.on('SIGTERM', forward);
  process.on('SIGINT', wait);
  try {
    return await new Promise<number | null>((done) => {
      child.on('exit', (code) => done(code));
      child.on('error', () => done(null));
    });
  } finally {
    process.off('SIGTERM', forward);
    process.off('SIGINT', wait);
  }
}
