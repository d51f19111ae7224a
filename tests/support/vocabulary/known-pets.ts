/**
 * The pets this worker created, by id, with what they were created with: every later answer that
 * shows one of them (getPet, any list) is held to it (attribution.ts, storedProblems). A worker
 * serves one target, so the registry is the target's. Which ids two creates were answered with is
 * known run-wide: every 201 of every worker is recorded (http/run-state.ts), checked or not.
 */
import type { Pet } from '../http/client.ts';
import type { KnownPet, SentPet } from './attribution.ts';

export const knownPets = new Map<bigint, KnownPet>();
/** Ids that two creates were answered with: which pet they name is no longer known. */
const contested = new Set<bigint>();
/**
 * The run's record of the ids creates were answered with, in all its workers, and so also of the
 * creates no matcher checked (http/run-state.ts); set by the worker's runState fixture.
 */
let runCreates: { timesCreated(id: bigint): number } | undefined;

/** Follows the run's record of created ids (one per worker, as its target is). */
export function followRunCreates(record: { timesCreated(id: bigint): number }): void {
  runCreates = record;
}

/** Remembers a pet created with `sent` and answered with `pet`. */
export function remember(sent: SentPet, pet: Pet): void {
  // Two creates answered with one id (PET-ID-UNIQUE's or PET-ID-ASSIGNED's business): reads of
  // that id are compared with neither.
  if (contested.has(pet.id)) return;
  if (knownPets.has(pet.id)) {
    knownPets.delete(pet.id);
    contested.add(pet.id);
    return;
  }
  knownPets.set(pet.id, { ...sent, id: pet.id, echoed: pet });
}

/** Whether two creates of the run were answered with this id (two pets under one id). */
export function isContested(id: bigint): boolean {
  return contested.has(id) || (runCreates?.timesCreated(id) ?? 0) > 1;
}

/**
 * Whether a create of the run, in any worker, was answered with this id: a pet the run made, which
 * the checks of the worker that made it hold to what it was created with.
 */
export function isRunCreated(id: bigint): boolean {
  return knownPets.has(id) || contested.has(id) || (runCreates?.timesCreated(id) ?? 0) > 0;
}
