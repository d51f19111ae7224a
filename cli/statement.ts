/**
 * The in-toto Statement (https://in-toto.io/Statement/v1) a report bundle carries, with the
 * test-result predicate (https://in-toto.io/attestation/test-result/v0.1): the report files as
 * its subjects, each with its sha256 digest; PASSED only when every requirement of every target
 * passed; the requirements that passed and failed as its tests (`target › ID` with several
 * targets); and as its configuration, the suite's and the interface's versions, the target's
 * origin (never a credential, never a path) and everything that narrowed the run. `bundle` writes
 * it, `verify` checks a bundle against it, and the conformance workflow has GitHub sign the same
 * subjects and predicate (actions/attest).
 */
import { createHash } from 'node:crypto';
import type { Summary } from '../tests/support/reporting/summary.ts';

export const statementType = 'https://in-toto.io/Statement/v1';
export const predicateType = 'https://in-toto.io/attestation/test-result/v0.1';
/** The statement's name in the report folder and in the bundle. */
export const statementName = 'conformance.intoto.json';

export interface Subject {
  name: string;
  digest: { sha256: string };
}

interface ResourceDescriptor {
  name: string;
  uri?: string;
  annotations?: Record<string, unknown>;
}

export interface Statement {
  _type: typeof statementType;
  subject: Subject[];
  predicateType: typeof predicateType;
  predicate: {
    result: 'PASSED' | 'FAILED';
    configuration: ResourceDescriptor[];
    url?: string;
    passedTests: string[];
    failedTests: string[];
  };
}

export const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** A target's origin: scheme, host and port, nothing of a path, a user or a password. */
function originOf(address: string): string {
  try {
    return new URL(address).origin;
  } catch {
    return '(not an address)';
  }
}

/** The run's facts that say what it covered: every setting that narrows it, and its scope. */
function runConfiguration(summary: Summary): Record<string, unknown> {
  const { scope } = summary;
  return {
    runId: summary.runId,
    startedAt: summary.startedAt,
    finishedAt: summary.finishedAt,
    status: summary.status,
    complete: scope.complete,
    narrowedBy: scope.narrowedBy,
    tests: scope.tests,
    suiteTests: scope.suiteTests,
    shard: scope.shard,
    grep: scope.grep,
    grepInvert: scope.grepInvert,
    strict: summary.strict,
    baseline: summary.baseline.file,
    settings: summary.settings ?? {},
  };
}

/** The statement of a run's summaries (one target's, or each of several) and its report files. */
export function statementOf(summaries: Summary[], subject: Subject[], url?: string): Statement {
  const several = summaries.length > 1 || summaries.some(({ targetName }) => targetName !== '');
  const named = (summary: Summary, id: string) => (several ? `${summary.targetName} › ${id}` : id);
  const tests = (verdict: string) =>
    summaries.flatMap((summary) =>
      summary.requirements
        .filter((item) => item.verdict === verdict)
        .map((item) => named(summary, item.id)),
    );
  const [first] = summaries;
  return {
    _type: statementType,
    subject,
    predicateType,
    predicate: {
      result:
        summaries.length > 0 && summaries.every(({ verdict }) => verdict === 'conformant')
          ? 'PASSED'
          : 'FAILED',
      configuration: [
        {
          name: 'petstore-conformance',
          uri: `pkg:npm/petstore-conformance@${first?.suiteVersion ?? ''}`,
          annotations: { version: first?.suiteVersion ?? '' },
        },
        {
          name: first?.interface ?? '',
          annotations: { version: first?.interfaceVersion ?? '' },
        },
        ...summaries.map((summary) => ({
          name: several ? `target ${summary.targetName}` : 'target',
          uri: originOf(summary.target),
          annotations: { verdict: summary.verdict, ...runConfiguration(summary) },
        })),
      ],
      ...(url ? { url } : {}),
      passedTests: tests('passed'),
      failedTests: tests('failed'),
    },
  };
}
