/**
 * The support code keeps the shape its READMEs describe (tests/support/README.md):
 * - spec files import only the vocabulary (`tests/support/vocabulary/index.ts`), and declare their
 *   tests in describeChecks groups (a group per target when the targets share the workers);
 * - each subsystem folder imports only the folders its README allows ("May import: …");
 * - each folder's README lists every file in it, so that the table a newcomer reads is current;
 * - the code uses no internal of Playwright or Node (underscore exports, replaced globals, a
 *   patched module loader): public APIs only;
 * - fast-check and lossless-json are required in one place each, never imported as modules.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { projectRoot } from './support/playwright.ts';

const support = join(projectRoot, 'tests/support');
const subsystems = readdirSync(support, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The relative specifiers a TypeScript text imports: `import … from`, `export … from`, a bare
 * `import './x'` and a dynamic `import('./x')` (a lazy import is still a dependency).
 */
function relativeSpecifiers(text: string): string[] {
  const patterns = [
    /(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/g,
    /^\s*import\s+'(\.[^']+)'/gm,
    /\bimport\(\s*'(\.[^']+)'\s*\)/g,
  ];
  return patterns.flatMap((pattern) => [...text.matchAll(pattern)].map((match) => match[1]!));
}

/** The relative imports of a TypeScript file, resolved to paths from the project root. */
function localImports(file: string): string[] {
  const specifiers = relativeSpecifiers(readFileSync(file, 'utf8'));
  return specifiers.map((specifier) => relative(projectRoot, resolve(dirname(file), specifier)));
}

/** The top-level place a path belongs to: a support subsystem, `requirements`, or the path. */
function placeOf(path: string): string {
  const inSupport = /^tests\/support\/([^/]+)\//.exec(path);
  if (inSupport) return inSupport[1]!;
  return path.split('/')[0]!;
}

test('every form of a relative import is seen: static, re-export, bare and dynamic', () => {
  const text = [
    "import { a } from './a.ts';",
    "import type {\n  B,\n} from '../b.ts';",
    "export { c } from './c.ts';",
    "import './d.ts';",
    "const e = await import('./e.ts');",
    "import fc from 'fast-check';",
  ].join('\n');
  assert.deepEqual(relativeSpecifiers(text).sort(), [
    '../b.ts',
    './a.ts',
    './c.ts',
    './d.ts',
    './e.ts',
  ]);
});

test('spec files import only the vocabulary', () => {
  const specs = readdirSync(join(projectRoot, 'tests')).filter((name) => name.endsWith('.ts'));
  assert.ok(specs.length >= 5);
  for (const spec of specs) {
    for (const imported of localImports(join(projectRoot, 'tests', spec))) {
      assert.equal(
        imported,
        'tests/support/vocabulary/index.ts',
        `tests/${spec} imports ${imported}`,
      );
    }
  }
});

/**
 * One diagnosis, in one place (vocabulary/diagnosis.ts, applied by the matchers): a spec file
 * states what it expects and never chooses a requirement by what an answer shows. Its `as:` and
 * `because(…, id)` name a requirement as a literal, the one the check verifies; a charge computed
 * there (`x ? 'PET-ID-INT64' : 'PET-ID-UNIQUE'`) would be a diagnosis outside the table.
 */
test('spec files compute no diagnosis: every requirement they name is a literal', () => {
  const specs = readdirSync(join(projectRoot, 'tests')).filter((name) => name.endsWith('.spec.ts'));
  const computed = [
    // `as:` given anything but a string literal.
    /\bas:\s*(?!['"])[^\s,}]/g,
    // `because(detail, id)` with an id that is no string literal.
    /\bbecause\((?:[^()]|\([^()]*\))*?,\s*(?!['"])[^\s)]/g,
    // A requirement chosen by a condition.
    /\?\s*'[A-Z0-9]+(?:-[A-Z0-9]+)+'\s*:\s*'[A-Z0-9]+(?:-[A-Z0-9]+)+'/g,
  ];
  for (const spec of specs) {
    const text = readFileSync(join(projectRoot, 'tests', spec), 'utf8');
    for (const pattern of computed) {
      const found = [...text.matchAll(pattern)].map((match) => match[0]);
      assert.deepEqual(
        found,
        [],
        `tests/${spec} chooses a requirement itself: ${found.join('; ')}`,
      );
    }
  }
});

/**
 * The statements at a spec file's top level that declare tests or hooks outside describeChecks:
 * with CONFORMANCE_SHARE_WORKERS each group is declared once per target, under its name, and the
 * reports read a test's target from that group; a test outside one would have no target.
 */
function outsideChecks(text: string): string[] {
  return text.split('\n').filter((line) => /^test(\.[a-zA-Z.]+)?\(/.test(line));
}

test('a test outside describeChecks is seen', () => {
  const text = [
    "describeChecks(section('5'), () => {",
    "  test('inside', async () => {});",
    '});',
    "test('outside', async () => {});",
    "test.describe('outside too', () => {});",
    'test.beforeEach(() => {});',
  ].join('\n');
  assert.deepEqual(outsideChecks(text), text.split('\n').slice(3));
});

test('spec files declare every test and hook in a describeChecks group', () => {
  const specs = readdirSync(join(projectRoot, 'tests')).filter((name) => name.endsWith('.ts'));
  for (const spec of specs) {
    const text = readFileSync(join(projectRoot, 'tests', spec), 'utf8');
    assert.deepEqual(outsideChecks(text), [], `tests/${spec}: use describeChecks (vocabulary)`);
    assert.match(text, /^describeChecks\(/m, `tests/${spec} declares no describeChecks group`);
  }
});

test('the support folders are the four subsystems, each with a README', () => {
  assert.deepEqual(subsystems.sort(), ['http', 'reporting', 'setup', 'vocabulary']);
});

for (const folder of subsystems) {
  test(`tests/support/${folder} imports only what its README allows, and lists every file`, () => {
    const readme = readFileSync(join(support, folder, 'README.md'), 'utf8');
    const allowed = /^May import: (.*)\.$/m
      .exec(readme)?.[1]
      ?.split(/,\s*/)
      .map((place) => place.replace(/\s*\(.*\)$/, ''));
    assert.ok(allowed, `tests/support/${folder}/README.md has a "May import: …." line`);
    const files = readdirSync(join(support, folder)).filter((name) => name.endsWith('.ts'));
    for (const file of files) {
      assert.ok(readme.includes(`\`${file}\``), `${folder}/README.md lists ${file}`);
      for (const imported of localImports(join(support, folder, file))) {
        const place = placeOf(imported);
        assert.ok(
          place === folder || allowed.includes(place),
          `tests/support/${folder}/${file} imports ${imported}: ${folder} may import ${allowed.join(', ')}`,
        );
      }
    }
  });
}

/**
 * What neither Playwright nor Node promises, which the suite once relied on for speed: Playwright's
 * underscore export of its test without browser fixtures, Error's prepareStackTrace replaced (in
 * every Playwright process), and Node's module loader patched (Module.prototype's compile). Each
 * may change with any upgrade; the patterns are written so that this file does not match them.
 */
const internals: [string, RegExp][] = [
  ["Playwright's underscore export of its utility test", /\b_utility[T]est\b/],
  [
    "an assignment to Error's prepareStackTrace",
    /\bError[.]prepareStackTrace\s*(?:\?\?|\|\||&&)?=(?!=)/,
  ],
  ["Node's module loader patched", /\bModule[.]prototype[.]_compile\b/],
];

/** The project's code: what a grep for those internals reads. */
const codePlaces = ['tests', 'cli', 'scripts', 'reference', 'selftest', 'playwright.config.ts'];

function codeFiles(): string[] {
  return codePlaces.flatMap((place) =>
    statSync(join(projectRoot, place)).isFile()
      ? [place]
      : readdirSync(join(projectRoot, place), { recursive: true, encoding: 'utf8' })
          .filter((name) => /\.(?:[cm]?[jt]s|json)$/.test(name))
          .map((name) => join(place, name)),
  );
}

test('each internal is recognised where the code would use it', () => {
  const uses = [
    "const base = (playwrightTest as { ['_utility' + 'Test']: T })._utility" + 'Test;',
    'Error.prepare' + 'StackTrace = (error, frames) => frames;',
    'Error.prepare' + 'StackTrace ??= fast;',
    'Module.prototype._com' + 'pile = function (content, filename) {};',
  ];
  for (const use of uses) {
    assert.ok(
      internals.some(([, pattern]) => pattern.test(use)),
      `not recognised: ${use}`,
    );
  }
  // Reading it is no assignment.
  assert.ok(
    !internals.some(([, pattern]) => pattern.test('if (Error.prepare' + 'StackTrace === f)')),
  );
});

test('the code relies on no internal of Playwright or Node: public APIs only', () => {
  const files = codeFiles();
  assert.ok(files.includes('tests/support/vocabulary/fixtures.ts'), 'the code is read');
  const found: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(projectRoot, file), 'utf8');
    for (const [what, pattern] of internals) {
      if (pattern.test(text)) found.push(`${file}: ${what}`);
    }
  }
  assert.deepEqual(found, []);
});

/** The TypeScript files of a folder and its subfolders, as paths from the project root. */
function typeScriptFiles(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(folder, name));
}

// Their CommonJS builds are required (see vocabulary/fast-check.ts for why). A module import
// elsewhere would load the other build beside it: a second copy, whose arbitraries and numbers
// the first does not recognise, and the loader's round trips back.
const requiredIn: Record<string, string[]> = {
  'fast-check': ['tests/support/vocabulary/fast-check.ts'],
  'lossless-json': ['reference/src/json.ts', 'tests/support/http/lossless-json.ts'],
};

for (const [name, places] of Object.entries(requiredIn)) {
  test(`${name} is required in ${places.join(' and ')}, and imported nowhere as a module`, () => {
    const valueImport = new RegExp(
      `(^|\\n)\\s*(import|export)(?!\\s+type\\b)[^;]*?from\\s+'${name}'|import\\(\\s*'${name}'`,
    );
    const required = new RegExp(
      `require\\)?\\(\\s*'${name}',?\\s*\\)|\\(import\\.meta\\.url\\)\\(\\s*'${name}'`,
    );
    const requiring: string[] = [];
    for (const file of [...typeScriptFiles('tests'), ...typeScriptFiles('reference/src')]) {
      const text = readFileSync(join(projectRoot, file), 'utf8');
      assert.ok(!valueImport.test(text), `${file} imports ${name}: use ${places.join(' or ')}`);
      if (required.test(text)) requiring.push(file);
    }
    assert.deepEqual(requiring.sort(), places);
  });
}
