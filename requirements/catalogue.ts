/**
 * The requirement catalogue (catalogue.json beside this file), typed. The suite's tags, the
 * reference's fault variants and the reports all name requirements through this module, so a
 * misspelt ID is a compile error (see ids.ts) and never a silent hole.
 *
 * May import: node built-ins and ids.ts. Everything else may import this.
 */
import { readFileSync } from 'node:fs';
import type { RequirementId } from './ids.ts';

export type { RequirementId } from './ids.ts';

export interface Requirement {
  id: RequirementId;
  /** The interface document's section number, e.g. "4.1". */
  section: string;
  /** normative: the document says it; implied: it follows from what it says; advisory: an HTTP standard beyond the document. */
  kind: 'normative' | 'implied' | 'advisory';
  /** The document's words. */
  words: string;
  /** What the suite checks for it. */
  checks: string;
  /** Advisories: the standard the expectation comes from. */
  source?: string;
}

export interface Catalogue {
  interface: string;
  interfaceVersion: string;
  document: string;
  sections: Record<string, string>;
  requirements: Requirement[];
}

export const catalogueFile = new URL('./catalogue.json', import.meta.url);

export const catalogue: Catalogue = JSON.parse(readFileSync(catalogueFile, 'utf8'));

const byId = new Map<string, Requirement>(catalogue.requirements.map((item) => [item.id, item]));

/** The requirement of that ID; throws for an ID the catalogue does not hold. */
export function requirement(id: string): Requirement {
  const found = byId.get(id);
  if (!found) throw new Error(`Unknown requirement ID "${id}": not in requirements/catalogue.json`);
  return found;
}

export function isRequirementId(id: string): id is RequirementId {
  return byId.has(id);
}

/** A section's title as the document gives it. */
export function sectionTitle(section: string): string {
  const title = catalogue.sections[section];
  if (title === undefined) throw new Error(`No section ${section} in the catalogue`);
  return title;
}

/** The requirement IDs among a test's tags (`@LIST-LIMIT-DEFAULT` or `LIST-LIMIT-DEFAULT`). */
export function idsAmong(tags: readonly string[]): RequirementId[] {
  return tags.map((tag) => tag.replace(/^@/, '')).filter(isRequirementId);
}

/** coverage.json beside this file: every test of the suite, by the requirements it checks. */
export const coverageFile = new URL('./coverage.json', import.meta.url);

let testCount: number | undefined;

/** How many tests the suite holds for one target (each listed in coverage.json, by file and title). */
export function suiteTestCount(): number {
  testCount ??= new Set(
    (
      JSON.parse(readFileSync(coverageFile, 'utf8')) as {
        requirements: { tests: { file: string; title: string }[] }[];
      }
    ).requirements.flatMap((item) => item.tests.map(({ file, title }) => `${file} › ${title}`)),
  ).size;
  return testCount;
}
