/**
 * `petstore-conformance verify <bundle>`: checks a report bundle (bundle.ts) as its reader gets
 * it, without unpacking it: every file matches the digest its statement (statement.ts) gives, no
 * file is missing, added, linked or listed twice; and the run was complete: every test of the
 * suite selected and run to its end, every requirement checked (no --grep, no shard, not
 * read-only, not stopped). Then it prints the verdict.
 *
 * Exit codes: 0 an intact bundle of a complete run (whatever its verdict, which it prints);
 * 1 not intact; 2 intact, but of a partial or stopped run; 3 not a bundle.
 *
 * What this cannot prove is who made it: anyone can make a statement that matches files of their
 * own. A bundle from the conformance workflow is also signed by GitHub (artifact attestations):
 * `gh attestation verify <bundle> --repo <owner>/<repo>` proves where and from what it was made.
 */
import { posix } from 'node:path';
import { list } from 'tar';
import { type Overview, isOverview } from '../tests/support/reporting/overview.ts';
import { scopeOf } from '../tests/support/reporting/scope.ts';
import type { Summary } from '../tests/support/reporting/summary.ts';
import {
  type Statement,
  predicateType,
  sha256,
  statementName,
  statementType,
} from './statement.ts';
import { UsageError } from './usage.ts';

export const verifyCodes = { intact: 0, altered: 1, partial: 2, notABundle: 3 } as const;

/** The bundle's files, by their path under its one root folder. */
async function filesOf(bundle: string): Promise<{ root: string; files: Map<string, Buffer> }> {
  const files = new Map<string, Buffer>();
  const problems: string[] = [];
  const roots = new Set<string>();
  await list({
    file: bundle,
    onReadEntry: (entry) => {
      const path = entry.path.replace(/\/$/, '');
      const [root, ...rest] = path.split('/');
      const inside = rest.join('/');
      roots.add(root!);
      if (path.startsWith('/') || path.split('/').includes('..')) {
        problems.push(`${path}: a path outside the bundle`);
      } else if (entry.type === 'File' || entry.type === 'OldFile') {
        const chunks: Buffer[] = [];
        entry.on('data', (chunk: Buffer) => chunks.push(chunk));
        entry.on('end', () => {
          if (files.has(inside)) problems.push(`${inside}: in the bundle twice`);
          files.set(inside, Buffer.concat(chunks));
        });
      } else if (entry.type !== 'Directory') {
        problems.push(`${path}: a ${entry.type} entry, not a file`);
      }
    },
  });
  if (roots.size !== 1) problems.push(`${roots.size} top folders, not one`);
  if (problems.length > 0) throw new Altered(problems);
  return { root: [...roots][0]!, files };
}

class Altered extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

function parse<T>(bytes: Buffer | undefined, name: string): T {
  if (!bytes) throw new UsageError(`not a report bundle: it holds no ${name}`);
  try {
    return JSON.parse(bytes.toString('utf8')) as T;
  } catch {
    throw new UsageError(`not a report bundle: its ${name} is not JSON`);
  }
}

/** The files that differ from the statement: changed, missing, or not listed. */
function differences(statement: Statement, files: Map<string, Buffer>): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const { name, digest } of statement.subject) {
    listed.add(name);
    const bytes = files.get(name);
    if (!bytes) problems.push(`${name}: missing`);
    else if (sha256(bytes) !== digest.sha256)
      problems.push(`${name}: changed (its digest differs)`);
  }
  for (const name of files.keys()) {
    if (name !== statementName && !listed.has(name)) problems.push(`${name}: not in the statement`);
  }
  return problems;
}

/** Why the run is not complete, judged from what it recorded (empty: complete). */
function incompleteness(summaries: Summary[]): string[] {
  return summaries.flatMap((summary) => {
    const { scope } = summary;
    const judged = scopeOf(
      {
        tests: scope?.tests ?? 0,
        shard: scope?.shard ?? '',
        grep: scope?.grep ?? '',
        grepInvert: scope?.grepInvert ?? '',
        status: summary.status,
        requirements: summary.requirements,
      },
      scope?.suiteTests ?? Number.POSITIVE_INFINITY,
    );
    const why = [...judged.narrowedBy, ...(summary.settings?.readOnly ? ['read-only'] : [])];
    return why.map((reason) => (summary.targetName ? `${summary.targetName}: ${reason}` : reason));
  });
}

function verdictLine(summary: Summary): string {
  const counts = summary.totals.requirements;
  const failed = summary.requirements
    .filter((item) => item.verdict === 'failed')
    .map(({ id }) => id);
  return (
    `${summary.targetName ? `${summary.targetName}: ` : ''}${summary.verdict} ` +
    `(${counts.passed} of ${counts.total} requirements passed` +
    `${failed.length ? `; failed: ${failed.join(', ')}` : ''}) against ${summary.target}`
  );
}

export async function verify(bundle: string | undefined): Promise<number> {
  if (!bundle) throw new UsageError('verify takes a report bundle (conformance-report-*.tar.gz)');
  let contents: Awaited<ReturnType<typeof filesOf>>;
  try {
    contents = await filesOf(bundle);
  } catch (error) {
    if (error instanceof Altered) return fail(verifyCodes.altered, `not intact: ${error.message}`);
    throw new UsageError(`${bundle} is not a readable .tar.gz (${(error as Error).message})`);
  }
  const { files, root } = contents;
  const statement = parse<Statement>(files.get(statementName), statementName);
  if (statement._type !== statementType || statement.predicateType !== predicateType) {
    throw new UsageError(`not a report bundle: ${statementName} is no test-result statement`);
  }
  const altered = differences(statement, files);
  if (altered.length > 0) return fail(verifyCodes.altered, `not intact: ${altered.join('; ')}`);
  console.log(
    `${posix.basename(bundle)}: intact, ${statement.subject.length} files match the digests of its statement.`,
  );
  const written = parse<Summary | Overview>(files.get('conformance.json'), 'conformance.json');
  const summaries = isOverview(written)
    ? written.targets.map((target) =>
        parse<Summary>(files.get(target.summary.replace(/\.html$/, '.json')), target.summary),
      )
    : [written];
  const failedTests = statement.predicate.failedTests.length;
  const failedIds = summaries.reduce((sum, one) => sum + one.totals.requirements.failed, 0);
  if (failedTests !== failedIds) {
    return fail(
      verifyCodes.altered,
      `not intact: the statement's ${failedTests} failed tests are not the summary's ${failedIds}`,
    );
  }
  console.log(
    `Run ${summaries[0]?.runId ?? ''} (${root}), suite ${summaries[0]?.suiteVersion ?? ''}:`,
  );
  for (const summary of summaries) console.log(`  ${verdictLine(summary)}`);
  const partial = incompleteness(summaries);
  if (partial.length > 0) {
    return fail(verifyCodes.partial, `intact, but not a complete run: ${partial.join('; ')}`);
  }
  console.log(
    'petstore-conformance verify: exit 0, intact and complete: every test of the suite run, every ' +
      'requirement checked. Who made it is proved by its attestation, where it has one ' +
      '(gh attestation verify).',
  );
  return verifyCodes.intact;
}

function fail(code: number, why: string): number {
  console.log(`petstore-conformance verify: exit ${code}, ${why}.`);
  return code;
}
