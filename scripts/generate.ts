/**
 * `npm run generate`: writes the generated, checked-in files (see generated.ts):
 * requirements/ids.ts, requirements/coverage.json and tests/support/http/validators.generated.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  projectRoot,
  renderCoverage,
  renderHostileInputs,
  renderIds,
  renderValidators,
} from './generated.ts';

for (const [file, render] of [
  ['requirements/ids.ts', renderIds],
  ['requirements/coverage.json', renderCoverage],
  ['tests/support/http/validators.generated.ts', renderValidators],
  ['docs/hostile-inputs.md', renderHostileInputs],
] as const) {
  writeFileSync(join(projectRoot, file), await render());
  console.log(`wrote ${file}`);
}
