/**
 * The pets this worker created, by id, with what they were created with: every later answer that
 * shows one of them (getPet, any list) is held to it (attribution.ts, storedProblems). A worker
 * serves one target, so the registry is the target's.
 */
import type { Pet } from '../http/client.ts';
import type { KnownPet, SentPet } from './attribution.ts';

export const knownPets = new Map<bigint, KnownPet>();
/** Ids that two creates were answered with: which pet they name is no longer known. */
const contested = new Set<bigint>();

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

/** Whether two creates of this worker were answered with this id (two pets under one id). */
export function isContested(id: bigint): boolean {
  return contested.has(id);
}
