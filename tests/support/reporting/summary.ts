/**
 * The conformance summary: what the reporter collected about each test, turned into one verdict
 * per requirement of the catalogue, for one target. Pure functions, shared by the JSON and HTML
 * summaries and the console.
 *
 * Verdicts come from charges, not from test outcomes. Each failed check is charged to the one
 * requirement it verifies (its message starts `[ID]`; a problem of another requirement than the
 * test's own is a `finding` annotation starting `[ID]`). A requirement:
 * - failed: some check was charged to it;
 * - passed: some test tagged with it ran to the end and decided it (it did not mark it
 *   inconclusive or not run), and nothing was charged to it;
 * - inconclusive: the tests that ran could not decide it (the store too full to tell…);
 * - blocked: its tests stopped at another requirement's failure, a spent write budget or a
 *   target that kept asking to wait;
 * - not run: no test checked it (filtered out, skipped in read-only mode…), or a check of it was
 *   left out on purpose (categories restricted…): a requirement checked in part does not pass.
 * A reason is given for every verdict but passed and failed. An advisory (HTTP-standard
 * expectations beyond the document, judged by the tests tagged with it, most of them requirement
 * tests judging answers they already have) is failed when a check was charged to it (strict
 * mode), flagged when a test recorded it as flagged, met when one recorded it as met, and not run
 * otherwise. Advisories never count toward conformance: a test that failed only on advisories
 * (strict mode) still decided its requirements.
 */
import { type Requirement, catalogue } from '../../../requirements/catalogue.ts';
import { type Baseline, type BaselineResult, entriesFor, judgeBaseline } from './baseline.ts';
import { type Gate, gateOf } from './gate.ts';
import { type Scope, scopeOf } from './scope.ts';

export type Outcome = 'passed' | 'failed' | 'skipped' | 'blocked';
export type Verdict = 'passed' | 'failed' | 'inconclusive' | 'blocked' | 'not run';
export type AdvisoryVerdict = 'met' | 'flagged' | 'failed' | 'not run';
export const verdicts: readonly Verdict[] = [
  'passed',
  'failed',
  'inconclusive',
  'blocked',
  'not run',
];

/**
 * The annotations through which a test tells the reporter more than passed or failed. They are
 * the contract between the checks (vocabulary/verdicts.ts) and the verdicts computed here.
 */
export const notes = {
  /** `[ID] request / Expected / Received / problems`: a problem of another requirement than the test's own. */
  finding: 'finding',
  /** `ID: reason`: the test ran but could not decide this requirement (the store too full…). */
  inconclusive: 'inconclusive',
  /** `ID: reason`: the test left this requirement unchecked on purpose (categories restricted…). */
  notRun: 'not run',
  /** A skip whose reason starts so: the test was blocked by another requirement's failure. */
  blockedPrefix: 'blocked: ',
  /** A skip whose reason starts so: the target's preflight failed (the run fails with it). */
  preflightBlockedPrefix: 'blocked: the preflight failed: ',
} as const;

/** Errors that stop a check without charging the target: the run's own limits. */
const runLimits = [/^(Error: )?Write budget spent/, /^(Error: )?Rate limited:/];

/** `ID: reason` annotations: the ID and the reason. */
export function parseIdNote(description: string): { id: string; reason: string } | undefined {
  const match = /^([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+): ([\s\S]*)$/.exec(description);
  return match ? { id: match[1]!, reason: match[2]! } : undefined;
}

/** Playwright's messages carry terminal colours; charges are read from the plain text. */
// eslint-disable-next-line no-control-regex
export const stripAnsi = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

/** The requirement IDs a failure message charges: each block's leading `[ID, …]`. */
export function chargedIds(message: string): string[] {
  const ids = [...message.matchAll(/^(?:Error: )?\[([A-Z][A-Z0-9, -]*)\] /gm)].flatMap((match) =>
    match[1]!.split(/,\s*/),
  );
  return [...new Set(ids)];
}

/** What a test recorded about one advisory (annotation `<ID>: met` or `<ID>: flagged — why`). */
export interface AdvisoryNote {
  id: string;
  verdict: 'met' | 'flagged';
  detail?: string;
}

/** A failed check, charged to a requirement. */
export interface Charge {
  requirement: string;
  /** The check's message: request, what was expected, what came back, the problems. */
  message: string;
  /** `error`: the test failed for it; `finding`: another test's check met it. */
  source: 'error' | 'finding';
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
  /** blocked: skipped because another requirement's check failed first. */
  outcome: Outcome;
  /** Playwright's status: passed, failed, timedOut, skipped or interrupted. */
  status: string;
  durationMs: number;
  /** Failed tests: each error message (request, expected, received). */
  errors?: string[];
  /** Failed tests: every request and answer, with curl lines (the `exchanges` attachment). */
  exchanges?: string;
  /** Skipped or blocked tests: the reason given, if any. */
  skipReason?: string;
  /** What the test's checks charged, to which requirement. */
  charges: Charge[];
  /** Requirements the test could not decide, and why. */
  inconclusive: { requirement: string; reason: string }[];
  /** Requirements the test left unchecked on purpose, and why. */
  notRun: { requirement: string; reason: string }[];
  /** The test stopped at a limit of the run (write budget, rate limit): why. */
  stoppedBy?: string;
  /** It failed only on requirements the baseline tolerates (marked expected, its worker kept). */
  tolerated?: boolean;
  requests: number;
  petsCreated: number;
  /** The ids of pets it created whose name could not carry the run's marker (an empty name). */
  unmarkedPets?: string[];
  /** Answers that asked to wait (429, 503 with Retry-After); each request was sent again. */
  throttled: number;
  /** How much this test's requests added to the run's pauses. */
  pausedMs: number;
  /**
   * Requests sent again on a new connection: each met a reset or a close on a kept-alive
   * connection before any byte of its answer (the target did not process it).
   */
  resent?: number;
  advisories: AdvisoryNote[];
}

/** The charges of a test: its errors' and its findings'. */
export function chargesOf(input: {
  requirements: readonly string[];
  errors: readonly string[];
  findings: readonly string[];
}): { charges: Charge[]; stoppedBy?: string } {
  const charges: Charge[] = [];
  let stoppedBy: string | undefined;
  const primary = input.requirements[0];
  for (const message of input.errors) {
    const ids = chargedIds(message);
    if (ids.length > 0) {
      for (const requirement of ids) charges.push({ requirement, message, source: 'error' });
    } else if (runLimits.some((limit) => limit.test(message))) {
      stoppedBy ??= message.replace(/^Error: /, '').split('\n')[0];
    } else if (primary) {
      // A timeout or an exception names no requirement: it is the test's own.
      charges.push({ requirement: primary, message, source: 'error' });
    }
  }
  for (const message of input.findings) {
    for (const requirement of chargedIds(message)) {
      charges.push({ requirement, message, source: 'finding' });
    }
  }
  const result: { charges: Charge[]; stoppedBy?: string } = { charges };
  if (stoppedBy !== undefined) result.stoppedBy = stoppedBy;
  return result;
}

/**
 * What a check that passed only on a later attempt (--retries) says about the target: the failed
 * attempt decides. An error naming requirements means the target's answers broke the document
 * that time: a flaky target. An error naming none (an exception, a timeout) means no answer was
 * found wrong: the check itself is flaky, a bug of this suite, or the target was slow that time.
 */
export function flakinessOf(failedAttempt: Pick<TestRecord, 'errors'>, attempt: number): string {
  const errors = failedAttempt.errors ?? [];
  const ids = [...new Set(errors.flatMap(chargedIds))];
  const head = `Passed only on attempt ${attempt}, after failing:`;
  if (ids.length > 0) {
    return (
      `${head} a flaky target. The failed attempt below got answers that break ${ids.join(', ')}; ` +
      'a later one got answers that conform.'
    );
  }
  const first = (errors[0] ?? 'no error recorded').replace(/^Error: /, '').split('\n')[0];
  return (
    `${head} a flaky check. The failed attempt found no answer that breaks the document ` +
    `(${first}): report it as a bug of this suite, unless the target was slow that time.`
  );
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
  /** Why it is inconclusive, blocked or not run. */
  reasons: string[];
  /** The checks charged to it: which test (index into Summary.tests), and the message. */
  failures: { test: number; message: string; source: Charge['source'] }[];
  /** Failed, and tolerated by the baseline (which changes no verdict): the entry's reason and date. */
  tolerated?: { reason: string; until?: string };
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
  /** This run's process on its machine: its record of the checks ended (progress.ts). */
  progressKey?: string;
  seed: number;
  strict: boolean;
  petNamePrefix: string;
  /** The settings the run was made with (never a key), as the summary page lists them. */
  settings?: Record<string, string | number | boolean>;
  /** The baseline the run was given (CONFORMANCE_BASELINE): the failures tolerated by the gate. */
  baseline?: Baseline;
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

/** What the reports need of a target: its name and address. */
export interface TargetFacts {
  name: string;
  baseUrl: string;
}

/** A target's facts (never its key, which is only ever named by its environment variable). */
export const targetFacts = ({ name, baseUrl }: TargetFacts): TargetFacts => ({ name, baseUrl });

/**
 * The key of the metadata listing the targets, when they share the workers
 * (CONFORMANCE_SHARE_WORKERS): each is the outermost group of its tests, not a project.
 */
export const sharedTargetsKey = 'conformance-targets';

export interface Summary extends Omit<RunFacts, 'baseline'> {
  interface: string;
  interfaceVersion: string;
  /** The target's name, in a run of several ('' otherwise). */
  targetName: string;
  /** conformant: every requirement passed; not conformant: one failed; incomplete: neither. */
  verdict: 'conformant' | 'not conformant' | 'incomplete';
  requests: number;
  petsCreated: number;
  /** The ids of the pets created whose name could not carry the run's marker (an empty name). */
  unmarkedPets: string[];
  /**
   * Requests the target refused for its load (429, 503: each waited for and sent again), of
   * `requests`, and how long the run was paused for them.
   */
  throttled: number;
  /** throttled ÷ requests, to three places (0 when nothing was sent). */
  refusedShare: number;
  pausedMs: number;
  /** Requests sent again because a kept-alive connection closed before their answer began. */
  resent: number;
  totals: {
    requirements: Record<Verdict, number> & { total: number };
    advisories: Record<AdvisoryVerdict, number> & { total: number };
  };
  /** The verdicts judged against the baseline (CONFORMANCE_BASELINE): tolerated, new, fixed. */
  baseline: BaselineResult;
  /** What the run covered: complete, or narrowed (and by what) or stopped. */
  scope: Scope;
  /** The gate: the exit code this target earns, and why (gate.ts). */
  gate: Gate;
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

const advisoryIds = new Set<string>(
  catalogue.requirements.filter((item) => item.kind === 'advisory').map((item) => item.id),
);

/**
 * A test that failed only because advisories were flagged in strict mode: each of its errors was
 * charged to advisories alone. Such a check is soft, so the test ran to its end.
 */
function failedOnlyOnAdvisories(test: TestRecord): boolean {
  const errors = test.charges.filter((charge) => charge.source === 'error');
  return (
    test.outcome === 'failed' &&
    test.stoppedBy === undefined &&
    errors.length > 0 &&
    errors.every((charge) => advisoryIds.has(charge.requirement))
  );
}

function refsTo(id: string, tests: TestRecord[]): TestRef[] {
  const refs: TestRef[] = [];
  tests.forEach((test, index) => {
    const charged = test.charges.some((charge) => charge.requirement === id);
    if (!test.requirements.includes(id) && !charged) return;
    const { title, file, line, project, skipReason } = test;
    const outcome: Outcome = charged
      ? 'failed'
      : failedOnlyOnAdvisories(test)
        ? 'passed'
        : test.outcome;
    const ref: TestRef = { title, file, line, project, outcome, test: index };
    if (skipReason !== undefined) ref.skipReason = skipReason;
    refs.push(ref);
  });
  return refs;
}

/** A requirement's verdict, its reasons and its failures, from the tests of one target. */
function judgeRequirement(id: string, tests: TestRecord[]) {
  const failures = tests.flatMap((test, index) =>
    test.charges
      .filter((charge) => charge.requirement === id)
      .map(({ message, source }) => ({ test: index, message, source })),
  );
  if (failures.length > 0) return { verdict: 'failed' as Verdict, reasons: [], failures };
  const tagged = tests.filter((test) => test.requirements.includes(id));
  const noteOf = (list: { requirement: string; reason: string }[]) =>
    list.find((note) => note.requirement === id)?.reason;
  const reasonsFor = (pick: (test: TestRecord) => string | undefined) => [
    ...new Set(tagged.map(pick).filter((reason): reason is string => Boolean(reason))),
  ];
  // A check of it left out on purpose (categories restricted…): it was not checked whole, so it
  // cannot pass, whatever its other checks found.
  const leftOut = reasonsFor((test) => noteOf(test.notRun));
  if (leftOut.length > 0) return { verdict: 'not run' as Verdict, reasons: leftOut, failures };
  // A check stopped at a limit of the run (the write budget, a rate limit) decided nothing of its
  // requirements: they are not passed on the strength of their other checks.
  const stopped = reasonsFor((test) => (test.outcome === 'failed' ? test.stoppedBy : undefined));
  if (stopped.length > 0) return { verdict: 'blocked' as Verdict, reasons: stopped, failures };
  const decided = tagged.some(
    (test) =>
      (test.outcome === 'passed' || failedOnlyOnAdvisories(test)) &&
      noteOf(test.inconclusive) === undefined,
  );
  if (decided) return { verdict: 'passed' as Verdict, reasons: [], failures };
  const inconclusive = reasonsFor((test) => noteOf(test.inconclusive));
  if (inconclusive.length > 0)
    return { verdict: 'inconclusive' as Verdict, reasons: inconclusive, failures };
  const blocked = reasonsFor((test) =>
    test.outcome === 'blocked'
      ? test.skipReason?.replace(notes.blockedPrefix, '')
      : (test.stoppedBy ??
        (test.outcome === 'failed'
          ? `its test stopped at another failure: ${test.title}`
          : undefined)),
  );
  if (blocked.length > 0) return { verdict: 'blocked' as Verdict, reasons: blocked, failures };
  const notRun = reasonsFor(
    (test) => noteOf(test.notRun) ?? (test.outcome === 'skipped' ? test.skipReason : undefined),
  );
  return {
    verdict: 'not run' as Verdict,
    reasons: notRun.length > 0 ? notRun : [tagged.length ? 'skipped' : 'no test of it ran'],
    failures,
  };
}

/** From charges and notes, not outcomes: a test judging an advisory may fail on its requirements. */
function advisoryVerdict(
  id: string,
  tests: TestRecord[],
  notesOf: AdvisoryNote[],
): AdvisoryVerdict {
  if (tests.some((test) => test.charges.some((charge) => charge.requirement === id))) {
    return 'failed';
  }
  if (notesOf.some((note) => note.verdict === 'flagged')) return 'flagged';
  return notesOf.some((note) => note.verdict === 'met') ? 'met' : 'not run';
}

function tally<V extends string>(all: readonly V[], of: { verdict: V }[]) {
  const counts = Object.fromEntries(
    all.map((verdict) => [verdict, of.filter((item) => item.verdict === verdict).length]),
  ) as Record<V, number>;
  return { ...counts, total: of.length };
}

const sum = (tests: TestRecord[], pick: (test: TestRecord) => number) =>
  tests.reduce((total, test) => total + pick(test), 0);

/** The summary of one target's tests. */
/** part ÷ whole, to three places; 0 of nothing is 0. */
const share = (part: number, whole: number) =>
  whole > 0 ? Math.round((part / whole) * 1000) / 1000 : 0;

/** What Playwright selected of a target's tests (counted as the run began) and how. */
export interface Selection {
  tests: number;
  shard: string;
  grep: string;
  grepInvert: string;
}

export function summarize(
  facts: RunFacts,
  tests: TestRecord[],
  targetName = '',
  selection?: Selection,
): Summary {
  const entries = entriesFor(facts.baseline, targetName);
  const date = String(facts.settings?.date ?? facts.startedAt.slice(0, 10));
  const sectionTitle = (section: string) => catalogue.sections[section] ?? '';
  const requirements: RequirementResult[] = [];
  const advisories: AdvisoryResult[] = [];
  for (const requirement of catalogue.requirements) {
    const refs = refsTo(requirement.id, tests);
    const base = { ...requirement, sectionTitle: sectionTitle(requirement.section) };
    if (requirement.kind !== 'advisory') {
      requirements.push({ ...base, ...judgeRequirement(requirement.id, tests), tests: refs });
      continue;
    }
    const found = tests.flatMap((test) =>
      test.advisories.filter((note) => note.id === requirement.id),
    );
    const findings = [...new Set(found.flatMap((note) => (note.detail ? [note.detail] : [])))];
    advisories.push({
      ...base,
      verdict: advisoryVerdict(requirement.id, tests, found),
      findings,
      tests: refs,
    });
  }
  const totals = {
    requirements: tally(verdicts, requirements),
    advisories: tally(['met', 'flagged', 'failed', 'not run'] as const, advisories),
  };
  const verdict =
    totals.requirements.failed > 0
      ? 'not conformant'
      : totals.requirements.passed === totals.requirements.total
        ? 'conformant'
        : 'incomplete';
  const baseline = judgeBaseline(requirements, entries, date, facts.baseline?.file);
  for (const { requirement, reason, until } of baseline.tolerated) {
    const item = requirements.find((one) => one.id === requirement)!;
    item.tolerated = { reason, ...(until ? { until } : {}) };
  }
  const scope = scopeOf({
    ...(selection ?? { tests: tests.length, shard: '', grep: '', grepInvert: '' }),
    status: facts.status,
    requirements,
  });
  const judged = { targetName, totals, status: facts.status, strict: facts.strict };
  return {
    interface: catalogue.interface,
    interfaceVersion: catalogue.interfaceVersion,
    // The baseline given (facts.baseline) is replaced by the run's verdicts judged against it.
    ...facts,
    targetName,
    verdict,
    requests: sum(tests, (test) => test.requests),
    petsCreated: sum(tests, (test) => test.petsCreated),
    unmarkedPets: tests.flatMap((test) => test.unmarkedPets ?? []),
    throttled: sum(tests, (test) => test.throttled),
    refusedShare: share(
      sum(tests, (test) => test.throttled),
      sum(tests, (test) => test.requests),
    ),
    pausedMs: sum(tests, (test) => test.pausedMs),
    resent: sum(tests, (test) => test.resent ?? 0),
    totals,
    baseline,
    scope,
    gate: gateOf({ ...judged, advisories, requirements, baseline }),
    requirements,
    advisories,
    tests,
  };
}

/** The console lines closing a run: conformance counts non-advisory requirements only. */
export function consoleSummary(summary: Summary): string[] {
  const { requirements: counts, advisories } = summary.totals;
  const who = summary.targetName ? `${summary.targetName}: ` : '';
  const others = (['failed', 'inconclusive', 'blocked', 'not run'] as const)
    .filter((verdict) => counts[verdict] > 0)
    .map((verdict) => `${counts[verdict]} ${verdict}`);
  const failed = summary.requirements
    .filter((item) => item.verdict === 'failed')
    .map((item) => (item.tolerated ? `${item.id} (tolerated)` : item.id));
  const lines = [
    `${who}Conformance: ${counts.passed} of ${counts.total} requirements passed` +
      `${others.length ? `, ${others.join(', ')}` : ''}` +
      `${failed.length ? ` (failed: ${failed.join(', ')})` : ''}.`,
  ];
  lines.push(...baselineLines(summary));
  // A failure that a check recorded and went on from (a finding) is in no failed test's error,
  // which Playwright prints: its first message is printed here, so the console says why.
  for (const item of summary.requirements.filter((one) => one.verdict === 'failed')) {
    if (item.failures.some((failure) => failure.source !== 'finding')) continue;
    const message = (item.failures[0]?.message ?? '').split('\n').slice(0, 8);
    lines.push(`  ${item.id} failed: ${message.join('\n    ')}`);
  }
  for (const verdict of ['inconclusive', 'blocked'] as const) {
    for (const item of summary.requirements.filter((one) => one.verdict === verdict)) {
      lines.push(`  ${item.id} ${verdict}: ${item.reasons.join('; ')}`);
    }
  }
  if (advisories.total > 0) {
    const parts = (['met', 'flagged', 'failed', 'not run'] as const)
      .filter((verdict) => verdict === 'met' || verdict === 'flagged' || advisories[verdict] > 0)
      .map((verdict) => `${advisories[verdict]} ${verdict}`);
    lines.push(`${who}Advisories: ${parts.join(', ')} (not part of the conformance verdict).`);
  }
  const refused =
    summary.throttled > 0
      ? `, ${summary.throttled} of them refused (${(summary.refusedShare * 100).toFixed(1)}%; ` +
        `429 or 503, each sent again after the wait; the run waited ${(summary.pausedMs / 1000).toFixed(1)} s in all)`
      : '';
  const resent =
    summary.resent > 0
      ? `; ${summary.resent} sent again on a new connection (a kept-alive one closed before the answer began)`
      : '';
  lines.push(
    `${who}Requests sent: ${summary.requests}${refused}; pets created: ${summary.petsCreated} ` +
      `(${createdNames(summary)})${resent}.`,
  );
  return lines;
}

/** What the baseline made of the run's failures, new ones first; nothing without a baseline. */
export function baselineLines(summary: Summary): string[] {
  const { baseline } = summary;
  if (!baseline.file) return [];
  const who = summary.targetName ? `${summary.targetName}: ` : '';
  const parts = [
    ...(baseline.newFailures.length > 0
      ? [
          `new failures ${baseline.newFailures
            .map(({ requirement, expired }) =>
              expired ? `${requirement} (entry expired on ${expired})` : requirement,
            )
            .join(', ')}`,
        ]
      : []),
    ...(baseline.tolerated.length > 0
      ? [
          `tolerated ${baseline.tolerated
            .map(
              ({ requirement, until, reason }) =>
                `${requirement} (${until ? `until ${until}` : 'no end date'}: ${reason})`,
            )
            .join(', ')}`,
        ]
      : []),
    ...(baseline.fixed.length > 0
      ? [
          `fixed ${baseline.fixed.map(({ requirement }) => requirement).join(', ')}: passed, remove ${baseline.fixed.length > 1 ? 'them' : 'it'} from the baseline`,
        ]
      : []),
    ...(baseline.unchecked.length > 0
      ? [
          `not decided this run ${baseline.unchecked.map(({ requirement, verdict }) => `${requirement} ${verdict}`).join(', ')}`,
        ]
      : []),
  ];
  return [
    `${who}Baseline (${baseline.file}): ${parts.length ? parts.join('; ') : 'no entry met'}.`,
  ];
}

/** How the pets a run created are found: by the marker their names start with, else by id. */
export function createdNames(summary: Summary): string {
  const unmarked = summary.unmarkedPets ?? [];
  const ids = unmarked.length > 0 ? `; without it, ids ${unmarked.join(', ')}` : '';
  return `names start with "${summary.petNamePrefix}"${ids}`;
}
