/**
 * `npm run generate`: writes the generated, checked-in files (see generated.ts):
 * requirements/ids.ts and requirements/coverage.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot, renderCoverage, renderIds } from './generated.ts';

for (const [file, render] of [
  ['requirements/ids.ts', renderIds],
  ['requirements/coverage.json', renderCoverage],
] as const) {
  writeFileSync(join(projectRoot, file), await render());
  console.log(`wrote ${file}`);
}
