// The registry of variants. Adding one: write a Variant object, with its probe, in the file of its
// section (faults: the section of the requirement it breaks) and it is picked up here.
import { lackingAdvisories } from './conformant/lacking-advisories.ts';
import { variations } from './conformant/variations.ts';
import { serviceFaults } from './faults/1-service.ts';
import { resourceFaults } from './faults/2-resources.ts';
import { listPetsFaults } from './faults/4.1-listPets.ts';
import { createPetFaults } from './faults/4.2-createPet.ts';
import { getPetFaults } from './faults/4.3-getPet.ts';
import { authFaults } from './faults/5-auth.ts';
import { errorFaults } from './faults/7-errors.ts';
import { limitFaults } from './faults/8-limits.ts';
import { versioningFaults } from './faults/9-versioning.ts';
import { cleanVariant } from './clean.ts';
import type { Variant } from './types.ts';

export type { Variant, VariantSettings } from './types.ts';
export { cleanVariant };

/** The fault files in section order, each under the interface-document section it covers. */
const faultSections: [section: string, faults: Variant[]][] = [
  ['1', serviceFaults],
  ['2', resourceFaults],
  ['4.1', listPetsFaults],
  ['4.2', createPetFaults],
  ['4.3', getPetFaults],
  ['5', authFaults],
  ['7', errorFaults],
  ['8', limitFaults],
  ['9', versioningFaults],
];

/**
 * The faults by section number; each breaks a requirement of that section. (Iterating a record
 * puts the integer keys first: use `variants` for section order.)
 */
export const faultsBySection: Record<string, Variant[]> = Object.fromEntries(faultSections);

/** Every deviation: faults in section order, then conformant variations. Clean is not listed. */
export const variants: Variant[] = [
  ...faultSections.flatMap(([, faults]) => faults),
  ...variations,
  ...lackingAdvisories,
];

const byName = new Map<string, Variant>([cleanVariant, ...variants].map((v) => [v.name, v]));

/**
 * The variant of that name ('clean' included), or undefined. Conformant variations combine with
 * `+` ('newest-first+charset-utf8'): one server with all of them at once, their steps wrapped in
 * that order and their settings merged (the later wins).
 */
export function findVariant(name: string): Variant | undefined {
  if (!name.includes('+')) return byName.get(name);
  const parts = name.split('+').map((part) => byName.get(part));
  if (parts.some((part) => part === undefined || part.kind !== 'conformant')) return undefined;
  const members = parts as Variant[];
  return {
    name,
    kind: 'conformant',
    description: members.map((member) => member.description).join(' '),
    lacks: [...new Set(members.flatMap((member) => member.lacks ?? []))],
    settings: Object.assign({}, ...members.map((member) => member.settings ?? {})),
    apply(service) {
      for (const member of members) member.apply?.(service);
    },
    probe: async () => {},
  };
}
