/**
 * The conformance summary: what the reporter collected about each test, turned into one verdict
 * per requirement of the catalogue. Pure functions, shared by the JSON and HTML summaries.
 *
 * Verdicts. A requirement failed when a test tagged with it failed, passed when a test tagged
 * with it passed and none failed, and was not run otherwise (no test, or every test skipped).
 * An advisory (HTTP-standard expectations beyond the document) is failed when a test tagged
 * with it failed (strict mode), flagged when a test recorded it as flagged, met when a test
 * tagged with it passed, and not run otherwise. Advisories never count toward conformance.
 */
import { type Requirement, catalogue } from '../../../requirements/catalogue.ts';

export type Outcome = 'passed' | 'failed' | 'skipped';
export type Verdict = 'passed' | 'failed' | 'not run';
export type AdvisoryVerdict = 'met' | 'flagged' | 'failed' | 'not run';

/** What a test recorded about one advisory (annotation `<ID>: met` or `<ID>: flagged — why`). */
export interface AdvisoryNote {
  id: string;
  verdict: 'met' | 'flagged';
  detail?: string;
}

export interface TestRecord {
  project: string;
  /** Describe titles and the test title, joined with ' › '. */
  title: string;
  /** Relative to the project root. */
  file: string;
  line: number;
  /** Requirement IDs among the test's tags (advisory IDs included). */
  requirements: string[];
  outcome: Outcome;
  /** Playwright's status: passed, failed, timedOut, skipped or interrupted. */
  status: string;
  durationMs: number;
  /** Failed tests: each error message (request, expected, received). */
  errors?: string[];
  /** Failed tests: every request and answer, with curl lines (the `exchanges` attachment). */
  exchanges?: string;
  /** Skipped tests: the reason given, if any. */
  skipReason?: string;
  requests: number;
  petsCreated: number;
  advisories: AdvisoryNote[];
}

/** A test as listed under a requirement. */
export interface TestRef {
  title: string;
  file: string;
  line: number;
  project: string;
  outcome: Outcome;
  skipReason?: string;
  /** Index into Summary.tests. */
  test: number;
}

export interface RequirementResult extends Requirement {
  sectionTitle: string;
  verdict: Verdict;
  tests: TestRef[];
}

export interface AdvisoryResult extends Requirement {
  sectionTitle: string;
  verdict: AdvisoryVerdict;
  /** What flagged tests found missing. */
  findings: string[];
  tests: TestRef[];
}

/**
 * What the configuration knows of the run before it starts. The Playwright configuration puts it
 * in its metadata (key `conformance`), so that reporters read it from the run itself, also when
 * they run in another process (a merge of shards).
 */
export interface ConfiguredFacts {
  target: string;
  runId: string;
  seed: number;
  strict: boolean;
  petNamePrefix: string;
}

export interface RunFacts extends ConfiguredFacts {
  suiteVersion: string;
  startedAt: string;
  finishedAt: string;
  /** Playwright's overall status: passed, failed, timedout or interrupted. */
  status: string;
}

/** The key of the configuration's metadata under which ConfiguredFacts are kept. */
export const factsKey = 'conformance';

export interface Summary extends RunFacts {
  interface: string;
  interfaceVersion: string;
  /** conformant: every requirement passed; incomplete: none failed, some not run. */
  verdict: 'conformant' | 'not conformant' | 'incomplete';
  requests: number;
  petsCreated: number;
  totals: {
    requirements: Record<Verdict, number> & { total: number };
    advisories: Record<AdvisoryVerdict, number> & { total: number };
  };
  requirements: RequirementResult[];
  advisories: AdvisoryResult[];
  tests: TestRecord[];
}

const advisoryPattern = /^(\S+): (met|flagged)(?:\s+—\s+([\s\S]*))?$/;

/** Reads an advisory annotation's description; undefined when it is not one. */
export function parseAdvisoryNote(description: string): AdvisoryNote | undefined {
  const match = advisoryPattern.exec(description.trim());
  if (!match) return undefined;
  const note: AdvisoryNote = { id: match[1]!, verdict: match[2] as AdvisoryNote['verdict'] };
  if (match[3]) note.detail = match[3];
  return note;
}

function refsTo(id: string, tests: TestRecord[]): TestRef[] {
  const refs: TestRef[] = [];
  tests.forEach((test, index) => {
    if (!test.requirements.includes(id)) return;
    const { title, file, line, project, outcome, skipReason } = test;
    const ref: TestRef = { title, file, line, project, outcome, test: index };
    if (skipReason !== undefined) ref.skipReason = skipReason;
    refs.push(ref);
  });
  return refs;
}

function requirementVerdict(refs: TestRef[]): Verdict {
  if (refs.some((ref) => ref.outcome === 'failed')) return 'failed';
  return refs.some((ref) => ref.outcome === 'passed') ? 'passed' : 'not run';
}

function advisoryVerdict(refs: TestRef[], notes: AdvisoryNote[]): AdvisoryVerdict {
  if (refs.some((ref) => ref.outcome === 'failed')) return 'failed';
  if (notes.some((note) => note.verdict === 'flagged')) return 'flagged';
  return refs.some((ref) => ref.outcome === 'passed') ? 'met' : 'not run';
}

function tally<V extends string>(verdicts: readonly V[], of: { verdict: V }[]) {
  const counts = Object.fromEntries(
    verdicts.map((verdict) => [verdict, of.filter((item) => item.verdict === verdict).length]),
  ) as Record<V, number>;
  return { ...counts, total: of.length };
}

export function summarize(facts: RunFacts, tests: TestRecord[]): Summary {
  const sectionTitle = (section: string) => catalogue.sections[section] ?? '';
  const requirements: RequirementResult[] = [];
  const advisories: AdvisoryResult[] = [];
  for (const requirement of catalogue.requirements) {
    const refs = refsTo(requirement.id, tests);
    const base = { ...requirement, sectionTitle: sectionTitle(requirement.section) };
    if (requirement.kind !== 'advisory') {
      requirements.push({ ...base, verdict: requirementVerdict(refs), tests: refs });
      continue;
    }
    const notes = tests.flatMap((test) =>
      test.advisories.filter((note) => note.id === requirement.id),
    );
    const findings = [...new Set(notes.flatMap((note) => (note.detail ? [note.detail] : [])))];
    advisories.push({ ...base, verdict: advisoryVerdict(refs, notes), findings, tests: refs });
  }
  const totals = {
    requirements: tally(['passed', 'failed', 'not run'] as const, requirements),
    advisories: tally(['met', 'flagged', 'failed', 'not run'] as const, advisories),
  };
  const verdict =
    totals.requirements.failed > 0
      ? 'not conformant'
      : totals.requirements['not run'] > 0
        ? 'incomplete'
        : 'conformant';
  return {
    interface: catalogue.interface,
    interfaceVersion: catalogue.interfaceVersion,
    ...facts,
    verdict,
    requests: tests.reduce((sum, test) => sum + test.requests, 0),
    petsCreated: tests.reduce((sum, test) => sum + test.petsCreated, 0),
    totals,
    requirements,
    advisories,
    tests,
  };
}

/** The console lines closing a run: conformance counts non-advisory requirements only. */
export function consoleSummary(summary: Summary): string[] {
  const { requirements: counts, advisories } = summary.totals;
  const failed = summary.requirements.filter((item) => item.verdict === 'failed');
  const lines = [
    `Conformance: ${counts.passed} of ${counts.total} requirements passed, ${counts.failed} failed, ` +
      `${counts['not run']} not run${failed.length ? ` (failed: ${failed.map((item) => item.id).join(', ')})` : ''}.`,
  ];
  if (advisories.total > 0) {
    const parts = (['met', 'flagged', 'failed', 'not run'] as const)
      .filter((verdict) => verdict === 'met' || verdict === 'flagged' || advisories[verdict] > 0)
      .map((verdict) => `${advisories[verdict]} ${verdict}`);
    lines.push(`Advisories: ${parts.join(', ')} (not part of the conformance verdict).`);
  }
  lines.push(
    `Requests sent: ${summary.requests}; pets created: ${summary.petsCreated} ` +
      `(names start with "${summary.petNamePrefix}").`,
  );
  return lines;
}
