/**
 * The pets this worker created on the current test's target, by id, with what they were created
 * with: every later answer that shows one of them (getPet, any list) is held to it (attribution.ts,
 * storedProblems). A worker keeps one registry per target (a worker that checks several targets,
 * CONFORMANCE_SHARE_WORKERS, switches as each test starts: it runs one test at a time). Which ids
 * two creates were answered with is known run-wide: every 201 of every worker is recorded
 * (http/run-state.ts), checked or not.
 */
import type { Pet } from '../http/client.ts';
import type { KnownPet, SentPet } from './attribution.ts';

/** The run's record of the ids creates were answered with, in all its workers (run-state.ts). */
interface RunCreates {
  timesCreated(id: bigint): number;
  createsInFlight(): number;
  timesChosenByBody(id: bigint): number;
}

interface Registry {
  known: Map<bigint, KnownPet>;
  /** Pets added from a body that should have been refused: the check that met it charged it. */
  accepted: Set<bigint>;
  /** Ids that two creates were answered with: which pet they name is no longer known. */
  contested: Set<bigint>;
  runCreates: RunCreates;
}

/** Each target's registry, by the run's record of that target (one per worker and target). */
const registries = new WeakMap<RunCreates, Registry>();
let current: Registry = {
  known: new Map(),
  accepted: new Set(),
  contested: new Set(),
  runCreates: { timesCreated: () => 0, createsInFlight: () => 0, timesChosenByBody: () => 0 },
};

/** Follows the registry of the test's target, and the run's record of its created ids. */
export function followRunCreates(record: RunCreates): void {
  let registry = registries.get(record);
  if (!registry) {
    registry = { known: new Map(), accepted: new Set(), contested: new Set(), runCreates: record };
    registries.set(record, registry);
  }
  current = registry;
}

/** The pets this worker created on the test's target, by id. */
export function knownPets(): ReadonlyMap<bigint, KnownPet> {
  return current.known;
}

/** Remembers a pet created with `sent` and answered with `pet`. */
export function remember(sent: SentPet, pet: Pet): void {
  const { known, contested } = current;
  // Two creates answered with one id (PET-ID-UNIQUE's or PET-ID-ASSIGNED's business): reads of
  // that id are compared with neither.
  if (contested.has(pet.id)) return;
  if (known.has(pet.id)) {
    known.delete(pet.id);
    contested.add(pet.id);
    return;
  }
  known.set(pet.id, { ...sent, id: pet.id, echoed: pet });
}

/** How many creates of the run, in any worker, are on their way to the target (run-state.ts). */
export function createsInFlight(): number {
  return current.runCreates.createsInFlight();
}

/**
 * Whether a create of the run was given this id because its body asked for it (PET-ID-ASSIGNED),
 * and no two creates that asked for none were given it too: then the service gives one id to
 * several pets whatever the body says (PET-ID-UNIQUE's).
 */
export function isChosenByBody(id: bigint): boolean {
  const chosen = current.runCreates.timesChosenByBody(id);
  return chosen > 0 && current.runCreates.timesCreated(id) - chosen < 2;
}

/** Whether two creates of the run were answered with this id (two pets under one id). */
export function isContested(id: bigint): boolean {
  return current.contested.has(id) || current.runCreates.timesCreated(id) > 1;
}

/**
 * Whether a create of the run, in any worker, was answered with this id: a pet the run made, which
 * the checks of the worker that made it hold to what it was created with.
 */
export function isRunCreated(id: bigint): boolean {
  return (
    current.known.has(id) || current.contested.has(id) || current.runCreates.timesCreated(id) > 0
  );
}

/**
 * Remembers a pet the target added from a body it should have refused (a categoryId outside
 * int64, say): what reads show of it is that acceptance's consequence, charged once, by the check
 * that met the 201 (one deviation), never again by a list that shows it.
 */
export function rememberAccepted(id: bigint): void {
  current.accepted.add(id);
}

/** Whether this worker saw the target add this pet from a body it should have refused. */
export function isAcceptedInvalid(id: bigint): boolean {
  return current.accepted.has(id);
}
