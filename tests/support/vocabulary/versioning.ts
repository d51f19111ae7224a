/**
 * Section 9: getPet is deprecated and announced to be removed on 5 December 2030; until then it
 * keeps working. From that date on (the run's date: CONFORMANCE_DATE rehearses it) the document
 * allows it to be gone, so no check relies on it: the getPet checks report themselves as not run,
 * and checks that read pets back through getPet read them through the list only.
 */
import { settings } from '../setup/settings.ts';

export const getPetRemoval = new Date('2030-12-05T00:00:00Z');

/** True from the announced removal date on: getPet may be gone. */
export const getPetMayBeGone = settings.today.getTime() >= getPetRemoval.getTime();

export const getPetGoneReason =
  'getPet was announced to be removed on 2030-12-05 (section 9), and the run is dated ' +
  `${settings.today.toISOString().slice(0, 10)}: no check relies on it any more`;
