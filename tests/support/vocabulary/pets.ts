/**
 * `pets`: creates pets named with the run's marker, so staging owners can find them, and grows
 * the store to the size a check needs (the interface has no delete, so a store only grows).
 *
 * Every name the suite makes for itself fits in 32 UTF-8 bytes (CONFORMANCE_NAME_MAX_BYTES), so
 * that a target with a small name column takes it; a target that refuses such ordinary short
 * names fails (CREATE-201-PET).
 * Against a target that accepts only some categoryIds (CONFORMANCE_CATEGORY_IDS), every valid
 * NewPet uses one of those.
 */
import { test as base } from '@playwright/test';
import {
  type NewPet,
  type Pet,
  type PetStatus,
  type PetStoreClient,
  petStatuses,
  readOnlySkipReason,
} from '../http/client.ts';
import type { KnownPet } from './attribution.ts';
import { idsIn, petIn, petsIn } from './attribution.ts';
import { expect } from './matchers.ts';
import { ownName } from './names.ts';
import { block } from './verdicts.ts';
import { getPetMayBeGone } from './versioning.ts';
import { together } from './together.ts';

export { ownName } from './names.ts';

/**
 * Creates sent together while growing the store: 100 pets in four round trips, and bursts below a
 * gateway's usual allowance (the rate-limited variation lets 40 through at once).
 */
const fillRound = 25;

/** What a worker knows about the target's store: it only grows (the interface has no delete). */
export interface StoreFloor {
  atLeast: number;
  /** Why growing the store failed once: later checks that need it are blocked at once. */
  fillFailed?: string;
  /** A pet this worker created (or, read-only, one the store lists), for checks that need one. */
  sample?: Pet;
}

export interface PetFields {
  categoryId?: bigint;
  /** Default `available`; `omitted` leaves the field out (the service then chooses). */
  status?: PetStatus | 'omitted';
}

export class Pets {
  constructor(
    private readonly api: PetStoreClient,
    private readonly floor: StoreFloor,
    /** The categoryIds the target accepts, when it declared them; undefined: any int64. */
    readonly categoryIds: readonly bigint[] | undefined,
  ) {}

  /** A categoryId valid for the target: the one given, or one it declared, or 1. */
  categoryId(preferred = 1n): bigint {
    const allowed = this.categoryIds;
    if (!allowed || allowed.includes(preferred)) return preferred;
    return allowed[Number(preferred % BigInt(allowed.length)) >>> 0] ?? allowed[0]!;
  }

  /** A NewPet whose name carries the run's marker, so staging owners can find it. */
  newPet(label: string, fields: PetFields = {}): NewPet {
    const pet: NewPet = { name: ownName(label), categoryId: this.categoryId(fields.categoryId) };
    // A status by default: whether a service takes a NewPet without one is a check of its own.
    const status = fields.status ?? 'available';
    if (status !== 'omitted') pet.status = status;
    return pet;
  }

  /** Creates a pet and checks the 201 answer carries what was sent; returns the pet as known. */
  async create(label: string, fields: PetFields = {}): Promise<KnownPet> {
    return this.createPet(this.newPet(label, fields));
  }

  /** Sends a NewPet and checks its 201 answer (CREATE-201-PET, the shape, the echo). */
  async createPet(newPet: NewPet): Promise<KnownPet> {
    const response = await this.api.createPet({ json: newPet });
    await expect(response).toCreatePet(newPet);
    // A refusal the document allows (a name a target may refuse) leaves no pet to go on with.
    if (response.status !== 201)
      block(
        `the NewPet named ${JSON.stringify(newPet.name)} was refused, as the document allows: no pet to go on with`,
      );
    const echoed = response.pet();
    return { ...newPet, id: echoed.id, echoed };
  }

  /** A pet that exists, created once per worker; in read-only mode, one the store lists. */
  async existing(): Promise<Pet> {
    this.floor.sample ??= this.api.options.readOnly
      ? await this.listedSample()
      : await this.create('sample');
    return this.floor.sample;
  }

  /**
   * A pet to read for a diagnosis' control (diagnosis.ts): the sample if there is one, else one
   * created or listed without holding the answer to anything. Undefined when there is none: the
   * control cannot be asked, which is no finding of its own.
   */
  async existingForControl(): Promise<Pet | undefined> {
    if (this.floor.sample) return this.floor.sample;
    if (this.api.options.readOnly) {
      const listed = await this.api.listPets({ limit: 1 });
      return listed.status === 200 ? petsIn(listed)[0] : undefined;
    }
    const created = await this.api.createPet({ json: this.newPet('sample') });
    const pet = created.status === 201 ? petIn(created) : undefined;
    if (pet) this.floor.sample = pet;
    return pet;
  }

  private async listedSample(): Promise<Pet> {
    const response = await this.api.listPets({ limit: 1 });
    await expect(response).toListPets({ as: 'LIST-200-PETS' });
    const [pet] = response.pets();
    if (!pet) base.skip(true, `${readOnlySkipReason}: the store lists no pet to read`);
    return pet!;
  }

  /**
   * Reads pets this run created back, each held to what it was created with: through one list of
   * their status (every pet of the run a list shows is checked, known-pets.ts), and through getPet
   * for those the list does not show (a full list, or a target that lists otherwise). One request
   * instead of one per pet, where the store allows it.
   */
  async readBack(created: readonly KnownPet[], status: PetStatus): Promise<void> {
    const listed = await this.api.listPets({ status, limit: 100 });
    await expect(listed).toListPets({ as: 'LIST-200-PETS' });
    if (getPetMayBeGone) return;
    const shown = idsIn(listed);
    const rest = created.filter((pet) => !shown.has(pet.id));
    const reads = await together(rest.map((pet) => this.api.getPet(pet.id)));
    for (const [index, read] of reads.entries()) await expect(read).toReadBack(rest[index]!);
  }

  /** Makes sure the store holds at least `count` pets (at most 101), creating the shortfall. */
  async ensureStoreHolds(count: number): Promise<void> {
    if (count > 101) throw new Error('ensureStoreHolds counts through one list of at most 100');
    if (this.floor.atLeast >= count) return;
    if (this.floor.fillFailed) block(this.floor.fillFailed);
    await base.step(`store holds at least ${count} pets`, async () => {
      const response = await this.api.listPets({ limit: 100 });
      await expect(response).toListPets({ as: 'LIST-200-PETS' });
      const listed = (response.json as unknown[]).length;
      // A full page of 100 says "100 or more": one more pet makes 101 certain.
      let missing = Math.max(0, count - listed);
      if (missing > 0 && this.api.options.readOnly) {
        // Read-only: a store that is large enough is checked, a smaller one is not. A full page
        // is as far as reading can count; with 100 pets every check still holds, only the ones
        // about "more than 100" may prove less.
        if (listed < 100) {
          base.skip(
            true,
            `${readOnlySkipReason}: it needs ${count} pets in the store, which lists ${listed}`,
          );
        }
        base.info().annotations.push({
          type: 'read-only',
          description: `the store lists a full page of 100 pets; ${count} could not be made certain without creating one`,
        });
        missing = 0;
      }
      const fillers: Pet[] = [];
      // Each worker's fillers named apart: two pets alike never stand for one pet listed twice.
      const worker = base.info().parallelIndex;
      // In rounds of fillRound creates sent together: a few round trips to a remote target.
      for (let created = 0; created < missing; created += fillRound) {
        const batch = Math.min(fillRound, missing - created);
        fillers.push(
          ...(await together(
            Array.from({ length: batch }, (_, index) =>
              // Every status in turn, so that no one status fills the lists that check completeness.
              this.create(`filler-${worker}-${created + index}`, {
                status: petStatuses[(created + index) % petStatuses.length],
              }),
            ),
          )),
        );
      }
      if (fillers.length > 0) {
        // The pets just created show in a list, or the checks that count would judge a store that
        // does not hold what they think: asked why when they do not (diagnosis.ts).
        const relisted = await this.api.listPets({ limit: 100 });
        await expect(relisted).toHoldCreated(fillers, Math.min(100, listed + missing), this.floor);
      }
      this.floor.atLeast = Math.max(this.floor.atLeast, listed + missing);
    });
  }

  /**
   * A status of which the store holds at least `count` pets (at most 100): the one it holds most
   * of, topped up with pets of it when it holds fewer (in read-only mode the creates skip the test).
   */
  async statusHolding(count: number): Promise<PetStatus> {
    if (count > 100) throw new Error('statusHolding counts through one list of at most 100');
    return base.step(`the store holds at least ${count} pets of one status`, async () => {
      const lists = await together(
        petStatuses.map((status) => this.api.listPets({ status, limit: 100 })),
      );
      for (const list of lists) await expect(list).toListPets({ as: 'LIST-200-PETS' });
      const held = lists.map((list) => (list.json as unknown[]).length);
      const most = held.indexOf(Math.max(...held));
      const status = petStatuses[most]!;
      const missing = count - held[most]!;
      if (missing <= 0) return status;
      const worker = base.info().parallelIndex;
      await together(
        Array.from({ length: missing }, (_, index) =>
          this.create(`of-${status}-${worker}-${index}`, { status }),
        ),
      );
      return status;
    });
  }
}
