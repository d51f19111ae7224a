// Faults in int64 exactness of ids and categoryIds (section 2), and in name round trips.
import { INT64_MAX, INT64_MIN } from '../int64.ts';
import { ok } from '../service.ts';
import { afterValidation } from './helpers.ts';
import type { Variant } from './types.ts';

const TWO_53 = 2n ** 53n;
/** A double keeps only 53 bits: the JSON.parse / JavaScript-number fate of an int64. */
const throughDouble = (value: bigint): bigint => BigInt(Number(value));

export const int64Variants: Variant[] = [
  {
    name: 'id-rounded-above-2p53',
    kind: 'fault',
    breaks: 'PET-ID-INT64',
    description:
      'Ids start at 2^53+1 and are written through a double (rounded) in every body; stored exactly.',
    settings: { firstId: TWO_53 + 1n },
    apply(s) {
      const renderPet = s.renderPet;
      s.renderPet = (pet) => ({
        ...(renderPet(pet) as Record<string, unknown>),
        id: Number(pet.id),
      });
    },
  },
  {
    name: 'id-path-as-double',
    kind: 'fault',
    breaks: 'PET-ID-INT64',
    description:
      'Ids start at 2^53+1 (exact in bodies), but the petId path parameter goes through Number() before the lookup: odd ids miss or hit a neighbour.',
    settings: { firstId: TWO_53 + 1n },
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        const id = parsePetId(raw);
        return id.ok ? ok(throughDouble(id.value)) : id;
      };
    },
  },
  {
    name: 'categoryid-rounded',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'categoryIds go through a double (JSON.parse semantics): values beyond 2^53 are rounded.',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, categoryId: throughDouble(newPet.categoryId) }));
    },
  },
  {
    name: 'categoryid-rounded-mid-range',
    kind: 'fault',
    breaks: 'NEWPET-CATEGORYID-INT64',
    description:
      'categoryIds are exact at the int64 bounds and for |x| <= 2^53+16, rounded through a double elsewhere: only generated inputs find it, not the fixed examples.',
    apply(s) {
      afterValidation(s, (newPet) => {
        const c = newPet.categoryId;
        const special = c === INT64_MIN || c === INT64_MAX || (c < 0n ? -c : c) <= TWO_53 + 16n;
        return special ? newPet : { ...newPet, categoryId: throughDouble(c) };
      });
    },
  },
  {
    name: 'name-mangled-non-ascii',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'Names are stored after a latin1 round trip: characters outside U+0000..U+00FF become "?".',
    apply(s) {
      afterValidation(s, (newPet) => ({
        ...newPet,
        name: newPet.name.replace(/[\u{100}-\u{10ffff}]/gu, '?'),
      }));
    },
  },
  {
    name: 'name-truncated-200',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'Names longer than 200 UTF-16 code units are silently cut to 200 (no 400).',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length > 200 ? { ...newPet, name: newPet.name.slice(0, 200) } : newPet,
      );
    },
  },
];
