/**
 * `pets`: creates pets named with the run's marker, so staging owners can find them, and grows
 * the store to the size a check needs (the interface has no delete, so a store only grows).
 */
import { test as base } from '@playwright/test';
import {
  type NewPet,
  type Pet,
  type PetStatus,
  type PetStoreClient,
  readOnlySkipReason,
} from '../http/client.ts';
import { petNamePrefix } from '../setup/settings.ts';
import { expect } from './matchers.ts';

/** What a worker knows about the target's store: it only grows (the interface has no delete). */
export interface StoreFloor {
  atLeast: number;
  /** A pet this worker created, for checks that only need some existing pet. */
  sample?: Pet;
}

export class Pets {
  constructor(
    private readonly api: PetStoreClient,
    private readonly floor: StoreFloor,
  ) {}

  /** A NewPet whose name carries the run's marker, so staging owners can find it. */
  newPet(label: string, fields: { categoryId?: bigint; status?: PetStatus } = {}): NewPet {
    const pet: NewPet = { name: `${petNamePrefix}${label}`, categoryId: fields.categoryId ?? 1n };
    if (fields.status) pet.status = fields.status;
    return pet;
  }

  /** Creates a pet and checks the 201 answer carries what was sent; returns the Pet as answered. */
  async create(
    label: string,
    fields: { categoryId?: bigint; status?: PetStatus } = {},
  ): Promise<Pet> {
    const newPet = this.newPet(label, fields);
    const response = await this.api.createPet({ json: newPet });
    expect(response).toAnswer(201, 'Pet');
    expect(response).toCarryPet(newPet, 'echo');
    return response.pet();
  }

  /** A pet that exists, created once per worker; in read-only mode, one the store lists. */
  async existing(): Promise<Pet> {
    this.floor.sample ??= this.api.options.readOnly
      ? await this.listedSample()
      : await this.create('sample');
    return this.floor.sample;
  }

  private async listedSample(): Promise<Pet> {
    const response = await this.api.listPets({ limit: 1 });
    expect(response).toAnswer(200, 'Pets');
    const [pet] = response.pets();
    if (!pet) base.skip(true, `${readOnlySkipReason}: the store lists no pet to read`);
    return pet!;
  }

  /** Makes sure the store holds at least `count` pets (at most 101), creating the shortfall. */
  async ensureStoreHolds(count: number): Promise<void> {
    if (count > 101) throw new Error('ensureStoreHolds counts through one list of at most 100');
    if (this.floor.atLeast >= count) return;
    await base.step(`store holds at least ${count} pets`, async () => {
      const response = await this.api.listPets({ limit: 100 });
      expect(response).toAnswer(200, 'Pets');
      const listed = response.pets().length;
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
      for (let created = 0; created < missing; created += 10) {
        const batch = Math.min(10, missing - created);
        await Promise.all(
          Array.from({ length: batch }, (_, index) =>
            this.create(`filler-${created + index}`, { status: 'available' }),
          ),
        );
      }
      this.floor.atLeast = Math.max(this.floor.atLeast, listed + missing);
    });
  }
}
