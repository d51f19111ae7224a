/**
 * Requirement tags: each test declares the requirements it verifies with `req(...)`. They become
 * Playwright tags (`@LIST-LIMIT-DEFAULT`, usable with --grep) and annotations quoting the
 * document, both shown in the HTML report. IDs are typed (RequirementId): a misspelt one does not
 * compile.
 */
import {
  type RequirementId,
  idsAmong,
  requirement,
  sectionTitle,
} from '../../../requirements/catalogue.ts';

/** Test details naming the requirements a test verifies: tags plus annotations with their words. */
export function req(...ids: [RequirementId, ...RequirementId[]]) {
  return {
    tag: ids.map((id) => `@${id}`),
    annotation: ids.map((id) => {
      const { section, words } = requirement(id);
      return { type: 'requirement', description: `${id} (§${section}): ${words}` };
    }),
  };
}

/** The same for a property check (generated inputs): tagged @property as well. */
export function propertyOf(...ids: [RequirementId, ...RequirementId[]]) {
  const details = req(...ids);
  return { ...details, tag: [...details.tag, '@property'] };
}

/** The same for an advisory check: tagged @advisory as well. */
export function advisoryOf(...ids: [RequirementId, ...RequirementId[]]) {
  const details = req(...ids);
  return { ...details, tag: [...details.tag, '@advisory'] };
}

/** The requirement IDs among a test's tags. */
export const requirementIds = idsAmong;

/** A describe title for an interface section, so the report groups tests as the document does. */
export function section(number: string): string {
  return `§${number} ${sectionTitle(number)}`;
}
