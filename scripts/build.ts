/**
 * `npm run build` (and `prepack`): the suite as the installed package runs it, in dist/.
 * Playwright transpiles TypeScript only outside node_modules, so the package carries JavaScript:
 * tsc writes the configuration, the suite, the catalogue's loader, the bundled reference and the
 * command, with their relative imports rewritten to .js; the files they read at run time (the
 * catalogue and its coverage, the hostile-input catalogue, the schemas, the version in
 * package.json) are copied beside them, at the same relative places as in the checkout.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (path: string) => `${root}${path}`;

rmSync(at('dist'), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
cpSync(at('schemas'), at('dist/schemas'), { recursive: true });
cpSync(at('requirements/catalogue.json'), at('dist/requirements/catalogue.json'));
cpSync(at('requirements/hostile-inputs.json'), at('dist/requirements/hostile-inputs.json'));
cpSync(at('requirements/coverage.json'), at('dist/requirements/coverage.json'));
const { name, version } = JSON.parse(readFileSync(at('package.json'), 'utf8'));
// What the built code reads of package.json (the version); "type" keeps dist/ ES modules.
writeFileSync(
  at('dist/package.json'),
  `${JSON.stringify({ name: `${name}-dist`, private: true, version, type: 'module' }, null, 2)}\n`,
);
chmodSync(at('dist/cli/main.js'), 0o755);
console.log(`Built dist/ (${name} ${version}).`);
