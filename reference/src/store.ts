// The pet model and the in-memory store.

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export function isPetStatus(value: unknown): value is PetStatus {
  return value === 'available' || value === 'pending' || value === 'sold';
}

/** A validated request body. status is absent when the client omitted it. */
export interface NewPet {
  readonly name: string;
  readonly categoryId: bigint;
  readonly status?: PetStatus;
}

export interface Pet extends NewPet {
  readonly id: bigint;
}

/**
 * Pets in insertion order, indexed by id and by status so that every read is O(1) or
 * O(limit) however many pets the store holds.
 */
export class PetStore {
  readonly #all: Pet[] = [];
  readonly #byId = new Map<bigint, Pet>();
  readonly #byStatus = new Map<string, Pet[]>();

  add(pet: Pet): void {
    this.#all.push(pet);
    this.#byId.set(pet.id, pet);
    if (pet.status !== undefined) {
      let bucket = this.#byStatus.get(pet.status);
      if (bucket === undefined) this.#byStatus.set(pet.status, (bucket = []));
      bucket.push(pet);
    }
  }

  get(id: bigint): Pet | undefined {
    return this.#byId.get(id);
  }

  /** Every pet, oldest first. The array is live: copy it before keeping it. */
  all(): readonly Pet[] {
    return this.#all;
  }

  /** The pets with that status, oldest first (live array, as all()). */
  withStatus(status: string): readonly Pet[] {
    return this.#byStatus.get(status) ?? [];
  }

  get size(): number {
    return this.#all.length;
  }
}

/**
 * The i-th pre-seeded pet (without its id): statuses cycle through the three values and
 * "absent", categoryIds are spread over the whole int64 range (negative ones included) by a
 * multiplicative hash, so seeded stores exercise exactness too.
 */
export function seedPet(i: number): NewPet {
  const status = [...PET_STATUSES, undefined][i % 4];
  const categoryId = BigInt.asIntN(64, BigInt(i + 1) * 0x9e3779b97f4a7c15n);
  const name = `Seed pet ${i + 1}`;
  return status === undefined ? { name, categoryId } : { name, categoryId, status };
}
