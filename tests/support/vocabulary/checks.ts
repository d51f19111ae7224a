/**
 * `describeChecks(title, body)`: a spec file's group of checks (a section of the document, say).
 * Against one target, or a project per target, it is Playwright's `test.describe`. With
 * CONFORMANCE_SHARE_WORKERS, the group is declared once per target, under the target's name and
 * with that target (`test.use`): the run's workers then take the tests of every target in turn,
 * the groups of one target side by side, as a run of that target alone would.
 */
import { settings } from '../setup/settings.ts';
import { test } from './fixtures.ts';

export function describeChecks(title: string, body: () => void): void {
  if (!settings.shareWorkers) {
    test.describe(title, body);
    return;
  }
  for (const target of settings.targets) {
    test.describe(target.name, () => {
      test.use({ target });
      test.describe(title, body);
    });
  }
}
