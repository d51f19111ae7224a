/**
 * What the preflight found wrong with each target, handed from Playwright's main process (which
 * runs the preflight) to the workers and the reporters through one environment variable, which
 * workers inherit. A target whose preflight failed is not checked: its tests are blocked, and a
 * failure that breaks the document is charged to its requirement.
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';

export interface PreflightFailure {
  /** The whole message, as printed (never the key). */
  problem: string;
  /** The requirement the preflight's answer breaks, when it is the interface answering wrongly. */
  requirement?: RequirementId;
}

const variable = 'CONFORMANCE_PREFLIGHT_FAILED';

/** Records the failed targets (by project name, '' for the one target of BASE_URL). */
export function recordPreflightFailures(failures: Record<string, PreflightFailure>): void {
  process.env[variable] = JSON.stringify(failures);
}

export function preflightFailures(): Record<string, PreflightFailure> {
  try {
    return JSON.parse(process.env[variable] ?? '{}') as Record<string, PreflightFailure>;
  } catch {
    return {};
  }
}

export function preflightFailureOf(targetName: string): PreflightFailure | undefined {
  return preflightFailures()[targetName];
}
