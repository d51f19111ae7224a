// The clean service, apart from the registry: a server of the clean service needs no variant.
import type { Variant } from './types.ts';

/** The service as the interface document describes it: no deviation. */
export const cleanVariant: Variant = {
  name: 'clean',
  kind: 'conformant',
  description: 'The interface as written, with no deviation.',
  // The clean service's probe is the rest of selftest/reference.test.ts.
  probe: async () => {},
};
