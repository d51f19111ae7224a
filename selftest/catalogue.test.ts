/**
 * The requirement catalogue and the suite agree: every requirement has a test, and every test
 * names at least one requirement, each of them known.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { projectRoot, runPlaywright } from './support/playwright.ts';

const catalogue = JSON.parse(readFileSync(`${projectRoot}requirements/catalogue.json`, 'utf8')) as {
  sections: Record<string, string>;
  requirements: { id: string; section: string; kind: string; words: string; checks: string }[];
};
const known = new Set(catalogue.requirements.map((requirement) => requirement.id));

test('the catalogue is well formed: unique readable IDs, known sections, the document’s words', () => {
  assert.equal(known.size, catalogue.requirements.length, 'requirement IDs are unique');
  for (const requirement of catalogue.requirements) {
    assert.match(requirement.id, /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/, `readable ID: ${requirement.id}`);
    assert.ok(
      catalogue.sections[requirement.section],
      `${requirement.id}: section ${requirement.section} exists`,
    );
    assert.ok(
      ['normative', 'implied', 'advisory'].includes(requirement.kind),
      `${requirement.id}: kind`,
    );
    assert.ok(
      requirement.words.length > 10 && requirement.checks.length > 10,
      `${requirement.id}: words and checks`,
    );
  }
});

test('every requirement has a test and every test names known requirements', async () => {
  // Listing needs no target; a placeholder address keeps the bundled reference from starting.
  const listing = await runPlaywright(['--list', '--reporter=json'], {
    BASE_URL: 'http://127.0.0.1:9/v1',
    API_KEY: 'listing-only',
  });
  assert.ok(listing.tests.length > 0, `tests listed:\n${listing.output}`);
  const covered = new Set<string>();
  for (const listed of listing.tests) {
    const ids = listed.tags.filter((tag) => /^[A-Z][A-Z0-9]*-[A-Z0-9-]+$/.test(tag));
    assert.ok(ids.length > 0, `"${listed.title}" names no requirement`);
    for (const id of ids) {
      assert.ok(known.has(id), `"${listed.title}" names ${id}, which is not in the catalogue`);
      covered.add(id);
    }
  }
  const holes = [...known].filter((id) => !covered.has(id));
  assert.deepEqual(holes, [], `requirements without a test: ${holes.join(', ')}`);
});
