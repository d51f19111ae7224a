/**
 * The generated, checked-in files are current (scripts/generated.ts): the requirement IDs as a
 * type, the coverage file listing each requirement's tests and faults, and the schemas'
 * validators. When one is stale, `npm run generate` rewrites it, and the change shows in review.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  generatedSections,
  projectRoot,
  renderCoverage,
  renderHostileInputs,
  renderIds,
  renderSections,
  renderValidators,
} from '../scripts/generated.ts';

for (const [file, render] of [
  ['requirements/ids.ts', renderIds],
  ['requirements/coverage.json', renderCoverage],
  ['tests/support/http/validators.generated.ts', renderValidators],
  ['docs/hostile-inputs.md', renderHostileInputs],
] as const) {
  test(`${file} is current (npm run generate rewrites it)`, async () => {
    const expected = await render();
    const actual = readFileSync(join(projectRoot, file), 'utf8');
    assert.ok(actual === expected, `${file} is stale: run npm run generate and commit the result`);
  });
}

for (const file of new Set(generatedSections.map((section) => section.file))) {
  test(`${file}: its generated sections are current (npm run generate rewrites them)`, async () => {
    const expected = await renderSections(file);
    const actual = readFileSync(join(projectRoot, file), 'utf8');
    assert.ok(
      actual === expected,
      `${file}'s generated sections are stale: run npm run generate and commit the result`,
    );
  });
}
