/**
 * The requirement catalogue (requirements/catalogue.json) and the tags that tie tests to it.
 *
 * Each test declares the requirements it verifies with `req(...)`: they become Playwright tags
 * (`@LIST-LIMIT-DEFAULT`, usable with --grep) and annotations quoting the document, both visible
 * in the HTML report. An unknown ID throws when the test file loads.
 */
import { readFileSync } from 'node:fs';

export interface Requirement {
  id: string;
  section: string;
  kind: 'normative' | 'implied' | 'advisory';
  words: string;
  checks: string;
  /** Advisories: the standard the expectation comes from. */
  source?: string;
}

export interface Catalogue {
  interface: string;
  interfaceVersion: string;
  sections: Record<string, string>;
  requirements: Requirement[];
}

export const catalogue: Catalogue = JSON.parse(
  readFileSync(new URL('../../requirements/catalogue.json', import.meta.url), 'utf8'),
);

const byId = new Map(catalogue.requirements.map((requirement) => [requirement.id, requirement]));

export function requirement(id: string): Requirement {
  const found = byId.get(id);
  if (!found) throw new Error(`Unknown requirement ID "${id}": not in requirements/catalogue.json`);
  return found;
}

/** Test details naming the requirements a test verifies: tags plus annotations with their words. */
export function req(...ids: [string, ...string[]]) {
  return {
    tag: ids.map((id) => `@${requirement(id).id}`),
    annotation: ids.map((id) => {
      const { section, words } = requirement(id);
      return { type: 'requirement', description: `${id} (§${section}): ${words}` };
    }),
  };
}

/** The same for a property check (generated inputs): tagged @property as well. */
export function propertyOf(...ids: [string, ...string[]]) {
  const details = req(...ids);
  return { ...details, tag: [...details.tag, '@property'] };
}

/** The same for an advisory check: tagged @advisory as well. */
export function advisoryOf(...ids: [string, ...string[]]) {
  const details = req(...ids);
  return { ...details, tag: [...details.tag, '@advisory'] };
}

/** The requirement IDs among a test's tags. */
export function requirementIds(tags: readonly string[]): string[] {
  return tags.map((tag) => tag.replace(/^@/, '')).filter((id) => byId.has(id));
}

/** A describe title for an interface section, so the report groups tests as the document does. */
export function section(number: string): string {
  const title = catalogue.sections[number];
  if (!title) throw new Error(`No section ${number} in the catalogue`);
  return `§${number} ${title}`;
}
