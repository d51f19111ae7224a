/**
 * `describeChecks(title, body)`: a spec file's group of checks (a section of the document, say).
 * Against one target, or a project per target, it is Playwright's `test.describe`. With
 * CONFORMANCE_SHARE_WORKERS, the group is declared once per target, under the target's name and
 * with that target (`test.use`): Playwright hands out a file's groups in order, each group's
 * tests target by target, so the workers check one target's tests of a group side by side (as
 * many at once as the group has tests, up to the workers), while others write to its store.
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
