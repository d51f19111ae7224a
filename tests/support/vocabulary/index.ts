/**
 * The authoring vocabulary: everything a spec file uses, behind this one import. Fixtures
 * (`api`, `pets`, `advise`), matchers (`expect(response).toAnswer(...)`), requirement tags
 * (`req`, `propertyOf`, `advisoryOf`, `section`), generated inputs and properties, `together`
 * for requests sent side by side, and the names of the interface (`PetStatus`, `NewPet`, `Pet`).
 */
export { test, expect } from './fixtures.ts';
export { describeChecks } from './checks.ts';
export { type Pets } from './pets.ts';
export { because, isErrorAnswer, refusedCreatesAmong, verify } from './matchers.ts';
export { inconclusive, notRun } from './verdicts.ts';
export { type KnownPet, beyondDoubleRange, isSizeRefusal, petIn, petsIn } from './attribution.ts';
export { req, propertyOf, advisoryOf, section } from './tags.ts';
export type { RequirementId } from '../../../requirements/catalogue.ts';
export * as generate from './generators.ts';
export { fc } from './fast-check.ts';
export type { Arbitrary, AsyncCommand } from 'fast-check';
export { checkProperty } from './property.ts';
export { together } from './together.ts';
export {
  type ApiResponse,
  type Body,
  type Credentials,
  type NewPet,
  type Pet,
  type PetStatus,
  type PetStoreClient,
  petStatuses,
  readOnlySkipReason,
} from '../http/client.ts';
export { invalidCredentials, keyElsewhere, keyUnderEachName } from '../http/credentials.ts';
export { getPetGoneReason, getPetMayBeGone } from './versioning.ts';
export { ownName, uniqueInRun } from './names.ts';
export type { SlotId as HostileSlot } from '../../../requirements/hostile-inputs.ts';
export {
  afterEveryOtherCheck,
  hostileSweep,
  lastCheckWaitMs,
  storedInputsChecking,
  storedLeftOut,
} from './hostile.ts';
export { petNamePrefix, settings } from '../setup/settings.ts';
