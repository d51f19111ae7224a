/**
 * `npm run generate`: writes the generated, checked-in files (see generated.ts):
 * requirements/ids.ts, requirements/coverage.json, tests/support/http/validators.generated.ts, and
 * the sections of the docs written from data (the diagnosis table in CONTRIBUTING.md and
 * docs/verdicts.md).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  generatedSections,
  projectRoot,
  renderCoverage,
  renderHostileInputs,
  renderIds,
  renderSections,
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

for (const file of new Set(generatedSections.map((section) => section.file))) {
  writeFileSync(join(projectRoot, file), await renderSections(file));
  console.log(`wrote the generated sections of ${file}`);
}
