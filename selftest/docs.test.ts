/**
 * The documentation keeps its shape: README.md is the product page (at most 250 lines) and links
 * every page of docs/, the manual; every relative link of the project's Markdown pages reaches a
 * file (and, with an anchor, a heading of it); every setting a user may give is
 * documented in docs/configuration.md; the example failure they show is what the suite prints.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { startReference } from '../reference/src/server.ts';
import { suiteVariables } from '../scripts/suite-variables.ts';
import { projectRoot, runSuite } from './support/playwright.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const docPages = readdirSync(join(projectRoot, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => `docs/${name}`);

/** The Markdown files under a folder, as paths from the project root (no dependency, no output). */
function markdownFiles(folder = ''): string[] {
  return readdirSync(join(projectRoot, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      return /^(node_modules|dist|reports|test-results|\..*)$/.test(entry.name)
        ? []
        : markdownFiles(path);
    }
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Every Markdown page: README.md, CONTRIBUTING.md, docs/ and the folders' READMEs. */
const pages = markdownFiles().sort();

/** The text a reader sees as prose: fenced code blocks and inline code left out. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of the Markdown links of a page: `[text](target)` and `[text]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
  const defined = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!);
  return [...inline, ...defined];
}

const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

/** GitHub's anchors of a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  const headings = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm);
  for (const [, heading] of headings) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

test('the anchors of headings are made as GitHub makes them', () => {
  const anchors = anchorsOf(
    [
      "## The summary's JSON: `conformance.json`",
      '## Read-only mode: checking production',
      '```',
      '# not a heading',
      '```',
      '## Notes',
      '## Notes',
    ].join('\n'),
  );
  assert.deepEqual(
    [...anchors],
    ['the-summarys-json-conformancejson', 'read-only-mode-checking-production', 'notes', 'notes-1'],
  );
  assert.deepEqual(linkTargets('[a](b.md) `[c](d.md)` [e](f.md#g "title")\n[h]: i.md'), [
    'b.md',
    'f.md#g',
    'i.md',
  ]);
});

test('README.md is the product page: at most 250 lines', () => {
  const lines = read('README.md').split('\n').length - 1;
  assert.ok(lines <= 250, `README.md has ${lines} lines; the manual belongs in docs/`);
});

test('README.md links every page of docs/', () => {
  assert.ok(docPages.length > 0, 'docs/ holds the manual');
  const linked = new Set(
    linkTargets(read('README.md'))
      .filter((target) => !external.test(target))
      .map((target) => relative(projectRoot, resolve(projectRoot, target.split('#')[0]!))),
  );
  for (const page of docPages) assert.ok(linked.has(page), `README.md links ${page}`);
});

for (const page of pages) {
  test(`every relative link of ${page} reaches a file, and a heading when it names one`, () => {
    for (const target of linkTargets(read(page))) {
      if (external.test(target)) continue;
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file =
        path === '' ? join(projectRoot, page) : resolve(projectRoot, dirname(page), path);
      assert.ok(
        existsSync(file),
        `${page} links ${target}: no file ${relative(projectRoot, file)}`,
      );
      if (anchor === undefined || !file.endsWith('.md') || statSync(file).isDirectory()) continue;
      assert.ok(
        anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)),
        `${page} links ${target}: ${relative(projectRoot, file)} has no heading #${anchor}`,
      );
    }
  });
}

/**
 * Variables the suite sets for its own processes (or a maintainer's switch), never a user's
 * setting; and the reference's own, documented with it.
 */
const internal = new Set([
  'CONFORMANCE_NON_V1_WARNED',
  'CONFORMANCE_PREFLIGHT_AUTH_NAMES',
  'CONFORMANCE_PREFLIGHT_FAILED',
  'CONFORMANCE_PREFLIGHT_NOTES',
  'CONFORMANCE_RUN_PROCESS',
  'CONFORMANCE_SECRET_VARS',
  'CONFORMANCE_SHARD_OF_RUN',
]);
const referenceOwn = ['SEED_PETS', 'VARIANT'];
/** Settings of earlier versions, refused with the way to move on: documented as such, not offered. */
const removed = new Set(['CONFORMANCE_KNOWN_FAILURES']);

test('every setting is documented: docs/configuration.md and .env.example', () => {
  const configuration = read('docs/configuration.md');
  const example = read('.env.example');
  for (const name of removed) {
    assert.match(
      configuration,
      new RegExp(`\`${name}\`[^.]*is refused`),
      `docs/configuration.md says ${name} is refused`,
    );
    assert.doesNotMatch(example, new RegExp(`^# ${name}=`, 'm'), `.env.example offers ${name}`);
  }
  for (const name of suiteVariables) {
    if (internal.has(name) || referenceOwn.includes(name) || removed.has(name)) continue;
    assert.ok(configuration.includes(`\`${name}\``), `docs/configuration.md documents ${name}`);
    if (name !== 'REFERENCE_PORT') {
      assert.match(example, new RegExp(`^# ${name}=`, 'm'), `.env.example lists ${name}`);
    }
  }
  const reference = read('docs/reference.md');
  for (const name of referenceOwn) {
    assert.ok(reference.includes(`\`${name}\``), `docs/reference.md documents ${name}`);
  }
});

/** The fenced code blocks of a page, each as its lines. */
function codeBlocks(markdown: string): string[][] {
  return [...markdown.matchAll(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1[^\n]*$/gm)].map((m) =>
    m[2]!.replace(/\n$/, '').split('\n'),
  );
}

/**
 * Whether a line of an example reads as the suite printed it: the same, or a body excerpt cut
 * shorter by hand (`[{"id":1,…}, … (780 characters in all)`: what is shown begins the body, and
 * the length is the body's).
 */
function sameLine(shown: string, printed: string): boolean {
  if (shown === printed) return true;
  const cut = shown.indexOf('…');
  if (cut < 0 || !printed.includes('…')) return false;
  const head = shown.slice(0, cut).replace(/,? ?$/, '');
  return printed.startsWith(head) && printed.endsWith(shown.slice(cut));
}

test("the docs' example failure is what the suite prints", async () => {
  // A target whose default page holds 10 pets, its store seeded as the bundled reference's is.
  const apiKey = 'docs-example-key';
  const reference = await startReference({ apiKey, variant: 'list-default-10', seedPets: 120 });
  let run;
  try {
    run = await runSuite(['--grep', '@LIST-LIMIT-DEFAULT'], {
      BASE_URL: reference.baseUrl,
      API_KEY: apiKey,
      CONFORMANCE_REPORTS: 'none',
    });
  } finally {
    await reference.close();
  }
  // As the docs write them: the address of their staging, and the time one answer took.
  const asShown = (text: string) =>
    text
      .replace(/^Error: /, '')
      .split(reference.baseUrl)
      .join('https://staging.example.com/petstore/api/v1')
      .replace(/ after \d+ ms/g, ' after 5 ms');
  const failed = run.summary?.tests.find((item) => item.outcome === 'failed' && item.exchanges);
  assert.ok(failed, `the run failed no check with exchanges:\n${run.output.slice(-3000)}`);
  const message = asShown(failed.errors?.[0] ?? '');
  const exchanges = asShown(failed.exchanges!).split('\n\n');
  const checked: string[] = [];
  for (const page of ['README.md', 'docs/reports.md']) {
    for (const block of codeBlocks(read(page))) {
      // A failed check's message, or one exchange of its attachment (`#2 GET …`).
      let printed: string | undefined;
      if (block[0]!.startsWith('[LIST-LIMIT-DEFAULT] ')) printed = message;
      const number = /^#(\d+) /.exec(block[0]!)?.[1];
      if (number) printed = exchanges[Number(number) - 1] ?? '(no such exchange)';
      if (printed === undefined) continue;
      const lines = printed.split('\n');
      const same =
        lines.length === block.length && block.every((line, i) => sameLine(line, lines[i]!));
      assert.ok(
        same,
        `${page}'s example does not read as the suite prints it (tests/support/reporting/` +
          `failure-text.ts lays it out, the matchers word the problems). The docs show:\n` +
          `${block.join('\n')}\n\nThe suite prints:\n${printed}`,
      );
      checked.push(`${page} ${block[0]!.slice(0, 20)}`);
    }
  }
  // Each page's example found and checked: a reworded heading must not make this pass on nothing.
  assert.ok(
    checked.some((item) => item.startsWith('README.md [')),
    'README.md shows the failure',
  );
  assert.ok(
    checked.some((item) => item.startsWith('docs/reports.md [')),
    'reports.md shows it',
  );
  assert.ok(
    checked.some((item) => item.startsWith('docs/reports.md #')),
    'and its exchanges',
  );
});
