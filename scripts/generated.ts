/**
 * The checked-in files that are generated from others, and how each is made:
 * - requirements/ids.ts, the requirement IDs as a TypeScript union, from catalogue.json;
 * - requirements/coverage.json, each requirement with the tests that check it and the fault
 *   variants that break it, from the suite's test list and the variant registry.
 *
 * `npm run generate` writes them; `npm test` (selftest/generated.test.ts) fails when either is
 * stale, so every coverage change shows in review.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';

export const projectRoot = fileURLToPath(new URL('../', import.meta.url));

interface CatalogueJson {
  requirements: { id: string; section: string; kind: string }[];
}

/** Formats generated text as the project's Prettier settings would, so that lint agrees. */
async function formatted(text: string, parser: 'typescript' | 'json'): Promise<string> {
  const options = await resolveConfig(join(projectRoot, 'package.json'));
  return format(text, { ...options, parser });
}

/** requirements/ids.ts as it should read for the catalogue. */
export function renderIds(): Promise<string> {
  const catalogue = JSON.parse(
    readFileSync(join(projectRoot, 'requirements/catalogue.json'), 'utf8'),
  ) as CatalogueJson;
  const text = [
    '// Generated from catalogue.json by `npm run generate`; do not edit. npm test fails when stale.',
    '',
    '/** Every requirement ID of the catalogue: a misspelt one is a compile error. */',
    `export type RequirementId = ${catalogue.requirements.map((item) => `'${item.id}'`).join(' | ')};`,
    '',
  ].join('\n');
  return formatted(text, 'typescript');
}
