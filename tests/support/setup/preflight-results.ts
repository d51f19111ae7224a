/**
 * What the preflight found about each target, handed from Playwright's main process (which runs
 * the preflight) to the workers and the reporters through environment variables, which workers
 * inherit:
 * - the failed targets: a target whose preflight failed is not checked, its tests are blocked;
 *   a failure that breaks the document is charged to its requirement, with the preflight's
 *   request and answer, by the test of that requirement (vocabulary/fixtures.ts);
 * - the spelling of the Authorization header's name a target accepts the key under, when it is
 *   not the document's (preflight-check.ts);
 * - what the preflight met that breaks a requirement without stopping the run (a 5xx that the
 *   same request, sent again, was not answered with; an answer that was not JSON, from a target
 *   that answered as the interface otherwise): charged by the test of that requirement.
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';
import type { ExchangeView } from '../reporting/failure-text.ts';

export interface PreflightFailure {
  /** The whole message, as printed (never the key). */
  problem: string;
  /** The requirement the preflight's answer breaks, when it is the interface answering wrongly. */
  requirement?: RequirementId;
  /** With a requirement: the answer that breaks it, as reports show it (never the key). */
  exchanges?: ExchangeView[];
  /** With a requirement: what the answer should have been. */
  expected?: string;
  /** The requests the preflight sent to the target. */
  requests?: number;
}

/** A requirement the preflight's answers broke, the target checked all the same. */
export interface PreflightNote {
  requirement: RequirementId;
  /** What is wrong, in one sentence. */
  problem: string;
  /** The answer that breaks it, as reports show it (never the key). */
  exchange: ExchangeView;
  expected: string;
}

const failedVariable = 'CONFORMANCE_PREFLIGHT_FAILED';
const notesVariable = 'CONFORMANCE_PREFLIGHT_NOTES';
const namesVariable = 'CONFORMANCE_PREFLIGHT_AUTH_NAMES';

function read<T>(variable: string): Record<string, T> {
  try {
    return JSON.parse(process.env[variable] ?? '{}') as Record<string, T>;
  } catch {
    return {};
  }
}

/** Records the failed targets (by project name, '' for the one target of BASE_URL). */
export function recordPreflightFailures(failures: Record<string, PreflightFailure>): void {
  process.env[failedVariable] = JSON.stringify(failures);
}

export function preflightFailures(): Record<string, PreflightFailure> {
  return read<PreflightFailure>(failedVariable);
}

export function preflightFailureOf(targetName: string): PreflightFailure | undefined {
  return preflightFailures()[targetName];
}

/** Records, by project name, the targets that accept the key only under another spelling. */
export function recordAuthorizationNames(names: Record<string, string>): void {
  process.env[namesVariable] = JSON.stringify(names);
}

/** The spelling of the Authorization header's name to send to a target, if not the document's. */
export function authorizationNameOf(targetName: string): string | undefined {
  return read<string>(namesVariable)[targetName];
}

/** Records, by target name, what the preflight met that breaks a requirement but stops nothing. */
export function recordPreflightNotes(notes: Record<string, PreflightNote[]>): void {
  process.env[notesVariable] = JSON.stringify(notes);
}

export function preflightNotesOf(targetName: string): PreflightNote[] {
  return read<PreflightNote[]>(notesVariable)[targetName] ?? [];
}
