// Conformant variations that each lack one HTTP-standard extra (an advisory of the catalogue):
// the suite must pass them, flag the advisory, and fail them only in strict mode.
import type { Reply, Service } from '../service.ts';
import { conformantVariants } from './conformant.ts';
import { everyReply } from './helpers.ts';
import type { Variant } from './types.ts';

function withoutHeaders(service: Service, names: string[]): void {
  everyReply(service, (reply): Reply => {
    const headers = { ...reply.headers };
    for (const name of names) delete headers[name];
    return { ...reply, headers };
  });
}

const lacksOne: Variant[] = [
  {
    name: 'no-www-authenticate',
    kind: 'conformant',
    lacks: ['ADV-WWW-AUTHENTICATE'],
    description: '401 answers carry no WWW-Authenticate header.',
    apply: (s) => withoutHeaders(s, ['www-authenticate']),
  },
  {
    name: 'bearer-case-sensitive',
    kind: 'conformant',
    lacks: ['ADV-BEARER-CASE-INSENSITIVE'],
    description: 'The Bearer scheme is matched case-sensitively: "bearer <key>" gets 401.',
    apply(s) {
      const authenticate = s.authenticate;
      s.authenticate = (authorization) =>
        authorization !== undefined &&
        /^bearer /i.test(authorization) &&
        !authorization.startsWith('Bearer ')
          ? 'invalid'
          : authenticate(authorization);
    },
  },
  {
    name: 'no-location',
    kind: 'conformant',
    lacks: ['ADV-LOCATION'],
    description: '201 answers carry no Location header.',
    apply: (s) => withoutHeaders(s, ['location']),
  },
  {
    name: 'no-deprecation-headers',
    kind: 'conformant',
    lacks: ['ADV-DEPRECATION-HEADERS'],
    description: 'getPet answers carry no Deprecation, Sunset or Link headers.',
    apply: (s) => withoutHeaders(s, ['deprecation', 'sunset', 'link']),
  },
];

/** The one that lacks them all: the four above, and limits clamped instead of refused. */
const clamped = conformantVariants.find((variant) => variant.name === 'limits-clamped')!;
const noAdvisories: Variant = {
  name: 'no-advisories',
  kind: 'conformant',
  lacks: [...lacksOne, clamped].flatMap((variant) => variant.lacks ?? []),
  description: `None of the HTTP-standard extras: ${[...lacksOne, clamped].map((variant) => variant.name).join(', ')} at once.`,
  apply(s) {
    for (const variant of [...lacksOne, clamped]) variant.apply?.(s);
  },
};

export const advisoryVariants: Variant[] = [...lacksOne, noAdvisories];
