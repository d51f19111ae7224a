// The registry of variants. Adding one: write a small Variant object in the file of its section
// and it is picked up here.
import { advisoryVariants } from './advisory.ts';
import { authVariants } from './auth.ts';
import { conformantVariants } from './conformant.ts';
import { createVariants } from './create.ts';
import { errorVariants } from './errors.ts';
import { getVariants } from './get.ts';
import { int64Variants } from './int64.ts';
import { listVariants } from './list.ts';
import type { Variant } from './types.ts';

export type { Variant, VariantSettings } from './types.ts';

/** The service as the interface document describes it: no deviation. */
export const cleanVariant: Variant = {
  name: 'clean',
  kind: 'conformant',
  description: 'The interface as written, with no deviation.',
};

/** Every deviation: faults first, then conformant variations. The clean service is not listed. */
export const variants: Variant[] = [
  ...authVariants,
  ...listVariants,
  ...createVariants,
  ...getVariants,
  ...errorVariants,
  ...int64Variants,
  ...conformantVariants,
  ...advisoryVariants,
];

const byName = new Map<string, Variant>([cleanVariant, ...variants].map((v) => [v.name, v]));

/** The variant of that name ('clean' included), or undefined. */
export function findVariant(name: string): Variant | undefined {
  return byName.get(name);
}
