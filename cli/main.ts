#!/usr/bin/env node
/**
 * The `petstore-conformance` command (package.json `bin`): checks a target; serves the bundled
 * reference; compares two runs; merges shards; makes a baseline; bundles the reports and verifies
 * a bundle. See usage.ts for the options and exit codes.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { exitCodes } from '../tests/support/reporting/gate.ts';
import { baseline } from './baseline.ts';
import { bundleCommand } from './bundle.ts';
import { check, settingsOf } from './check.ts';
import { compare } from './compare.ts';
import { merge } from './merge.ts';
import { serve } from './serve.ts';
import { UsageError, helpText } from './usage.ts';
import { verify } from './verify.ts';

const version: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

async function main(argv: string[]): Promise<number> {
  // Everything after `--` is Playwright's.
  const cut = argv.indexOf('--');
  const own = cut < 0 ? argv : argv.slice(0, cut);
  const playwrightArgs = cut < 0 ? [] : argv.slice(cut + 1);
  if (own.some((arg) => arg === '--api-key' || arg.startsWith('--api-key='))) {
    throw new UsageError(
      '--api-key is refused: a key on the command line shows in process lists and CI logs. ' +
        "Set API_KEY in the environment (from your CI system's secret store) or in .env in the " +
        'current folder.',
    );
  }
  const { values, positionals } = parseArgs({
    args: own,
    allowPositionals: true,
    options: {
      'base-url': { type: 'string' },
      'read-only': { type: 'boolean' },
      'report-dir': { type: 'string' },
      grep: { type: 'string' },
      targets: { type: 'string' },
      baseline: { type: 'string' },
      'share-workers': { type: 'boolean' },
      shard: { type: 'string' },
      workers: { type: 'string' },
      port: { type: 'string' },
      'base-path': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (values.help) {
    process.stdout.write(helpText);
    return 0;
  }
  if (values.version) {
    console.log(version);
    return 0;
  }
  const [command, ...rest] = positionals;
  const only = (allowed: string[], what: string) => {
    const given = Object.keys(values).filter((name) => !allowed.includes(name));
    if (given.length > 0) throw new UsageError(`${what} takes no --${given.join(', --')}`);
  };
  if (command === 'serve') {
    only(['port', 'base-path'], 'serve');
    if (rest.length > 0 || playwrightArgs.length > 0)
      throw new UsageError('serve takes no arguments');
    await serve({ port: values.port, basePath: values['base-path'] });
    return -1;
  }
  if (command === 'compare') {
    only([], 'compare');
    if (rest.length !== 2) throw new UsageError('compare takes two conformance.json files');
    return compare(rest[0]!, rest[1]!);
  }
  if (command === 'merge') {
    only(['report-dir'], 'merge');
    if (rest.length !== 1)
      throw new UsageError("merge takes the folder of the shards' blob reports");
    return merge(rest[0], values['report-dir']);
  }
  if (command === 'baseline') {
    only([], 'baseline');
    if (rest.length !== 1) throw new UsageError("baseline takes a run's conformance.json");
    return baseline(rest[0]!);
  }
  if (command === 'bundle') {
    only(['report-dir'], 'bundle');
    if (rest.length > 0) throw new UsageError('bundle takes no arguments (--report-dir: where)');
    await settingsOf({ reportDir: values['report-dir'], playwrightArgs: [] });
    return bundleCommand(process.env.CONFORMANCE_REPORT_DIR!);
  }
  if (command === 'verify') {
    only([], 'verify');
    if (rest.length !== 1) throw new UsageError('verify takes one report bundle (.tar.gz)');
    return verify(rest[0]);
  }
  if (command !== undefined) {
    throw new UsageError(
      `unknown command "${command}" (commands: serve, compare, merge, baseline, bundle, verify)`,
    );
  }
  only(
    [
      'base-url',
      'read-only',
      'report-dir',
      'grep',
      'targets',
      'baseline',
      'share-workers',
      'shard',
      'workers',
    ],
    'a check',
  );
  return check({
    baseUrl: values['base-url'],
    readOnly: values['read-only'],
    reportDir: values['report-dir'],
    grep: values.grep,
    targets: values.targets,
    baseline: values.baseline,
    shareWorkers: values['share-workers'],
    shard: values.shard,
    workers: values.workers,
    playwrightArgs,
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running; every other command ends with its code.
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    const usage =
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    console.error(
      `petstore-conformance: ${error instanceof Error ? error.message : String(error)}`,
    );
    if (usage) console.error("Run 'petstore-conformance --help' for the options.");
    process.exitCode = usage ? exitCodes.usage : exitCodes.incomplete;
  },
);
