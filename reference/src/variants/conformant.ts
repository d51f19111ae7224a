// Unusual but conformant behaviours: a suite must pass all of them.
import { randomBytes, randomInt } from 'node:crypto';
import { JsonNumber, isJsonObject } from '../json.ts';
import { DEFAULT_LIMIT, MAX_LIMIT, ok, refuse } from '../service.ts';
import { PET_STATUSES, type Pet, type PetStatus } from '../store.ts';
import { afterOperation, afterValidation, beforeValidation, everyReply } from './helpers.ts';
import type { Variant } from './types.ts';

const NEW_PET_FIELDS = new Set(['name', 'categoryId', 'status']);
const NUMBER_LITERAL = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** limit clamped into 1..100; anything that is not an integer falls back to the default. */
function clampedLimit(raw: string | undefined): number {
  if (raw === undefined || !/^-?[0-9]+$/.test(raw)) return DEFAULT_LIMIT;
  if (raw.startsWith('-')) return 1;
  const digits = raw.replace(/^0+(?=.)/, '');
  return digits.length > 3 ? MAX_LIMIT : Math.min(MAX_LIMIT, Math.max(1, Number(digits)));
}

/**
 * The integer a JSON number literal denotes exactly (7.0, 7e0, 70e-1 all give "7"), or
 * undefined when a fraction remains. Computed on the digits, never through a double; values far
 * outside int64 come back as some integer outside it, so that the range check refuses them.
 */
function integralLiteral(literal: string): string | undefined {
  const match = NUMBER_LITERAL.exec(literal);
  if (!match) return undefined;
  const [, sign = '', int = '', fraction = '', exponent = '0'] = match;
  const significant = (int + fraction).replace(/^0+/, '');
  if (significant === '') return '0';
  const digits = significant.replace(/0+$/, '');
  const shift = Number(exponent) - fraction.length + (significant.length - digits.length);
  if (shift < 0) return undefined;
  if (digits.length + shift > 20) return `${sign}1${'0'.repeat(20)}`;
  return sign + digits + '0'.repeat(shift);
}

const randomStatus = (): PetStatus => PET_STATUSES[randomInt(PET_STATUSES.length)] ?? 'available';
const randomInt64 = (): bigint => randomBytes(8).readBigInt64BE();

export const conformantVariants: Variant[] = [
  {
    name: 'ids-beyond-2p53',
    kind: 'conformant',
    description: 'Ids start at 2^53+1000 and grow by 1 (exact in every body and path).',
    settings: { firstId: 2n ** 53n + 1000n },
  },
  {
    name: 'ids-random-negative',
    kind: 'conformant',
    description: 'Ids are random int64 values, negative ones included (unique).',
    apply(s) {
      s.nextId = () => {
        let id = randomInt64();
        while (s.store.get(id) !== undefined) id = randomInt64();
        return id;
      };
    },
  },
  {
    name: 'default-status-pending',
    kind: 'conformant',
    description: 'A pet created without status is stored and returned as "pending".',
    apply(s) {
      afterValidation(s, (newPet) => ({ ...newPet, status: newPet.status ?? 'pending' }));
    },
  },
  {
    name: 'limits-clamped',
    kind: 'conformant',
    lacks: ['ADV-INVALID-QUERY-400'],
    description:
      'Out-of-range limits are clamped into 1..100, non-integer limits fall back to 20; an unknown status filter gives an empty list (200).',
    apply(s) {
      s.parseLimit = (raw) => ok(clampedLimit(raw));
      // No pet has an unknown status, so filtering by it selects nothing.
      s.parseStatusFilter = (raw) => ok(raw as PetStatus | undefined);
    },
  },
  {
    name: 'newest-first',
    kind: 'conformant',
    description: 'Lists are ordered newest first.',
    apply(s) {
      s.selectPets = ({ limit, status }) =>
        (status === undefined ? s.store.all() : s.store.withStatus(status)).slice(-limit).reverse();
    },
  },
  {
    name: 'extra-fields',
    kind: 'conformant',
    description:
      'Pets carry extra fields (createdAt, tags: []), Error bodies an extra "details" field, and the list answer an extra X-Total-Count header.',
    apply(s) {
      const createdAt = new WeakMap<Pet, string>();
      const startedAt = new Date().toISOString();
      const savePet = s.savePet;
      s.savePet = (pet) => {
        createdAt.set(pet, new Date().toISOString());
        savePet(pet);
      };
      const renderPet = s.renderPet;
      s.renderPet = (pet) => ({
        ...(renderPet(pet) as Record<string, unknown>),
        createdAt: createdAt.get(pet) ?? startedAt,
        tags: [],
      });
      const renderError = s.renderError;
      s.renderError = (status, code, message) => ({
        ...(renderError(status, code, message) as Record<string, unknown>),
        details: [],
      });
      afterOperation(s, 'listPets', (reply) =>
        reply.status === 200
          ? { ...reply, headers: { ...reply.headers, 'x-total-count': String(s.store.size) } }
          : reply,
      );
    },
  },
  {
    name: 'unknown-fields-refused',
    kind: 'conformant',
    description: 'NewPet fields other than name, categoryId and status are refused with 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        const unknown = isJsonObject(body)
          ? Object.keys(body).filter((key) => !NEW_PET_FIELDS.has(key))
          : [];
        return unknown.length > 0
          ? refuse(s.errorReply(400, 'invalid_body', `Unknown fields: ${unknown.join(', ')}`))
          : validate(body);
      };
    },
  },
  {
    name: 'name-limits',
    kind: 'conformant',
    description: 'Names that are empty or longer than 64 characters are refused with 400.',
    apply(s) {
      afterValidation(s, (newPet) =>
        newPet.name.length === 0 || (newPet.name.length > 64 && [...newPet.name].length > 64)
          ? refuse(s.errorReply(400, 'invalid_body', 'name must have 1 to 64 characters'))
          : newPet,
      );
    },
  },
  {
    name: 'integral-exponent-accepted',
    kind: 'conformant',
    description:
      'A categoryId written as 7.0 or 7e0 is accepted and stored as 7 (7.5 is still 400).',
    apply(s) {
      beforeValidation(s, (body) => {
        const raw = body.categoryId;
        if (!(raw instanceof JsonNumber)) return body;
        const integral = integralLiteral(raw.literal);
        return integral === undefined ? body : { ...body, categoryId: new JsonNumber(integral) };
      });
    },
  },
  {
    name: 'petid-invalid-404',
    kind: 'conformant',
    description: 'A petId that is not an int64 is answered 404 instead of 400.',
    apply(s) {
      const parsePetId = s.parsePetId;
      s.parsePetId = (raw) => {
        const id = parsePetId(raw);
        return id.ok ? id : refuse(s.errorReply(404, 'not_found', 'No pet with that id'));
      };
    },
  },
  {
    name: 'deep-base-path',
    kind: 'conformant',
    description: 'The service lives under /deep/nested/path/petstore/api/v1.',
    settings: { basePath: '/deep/nested/path/petstore/api/v1' },
  },
  {
    name: 'charset-utf8',
    kind: 'conformant',
    description: 'Every JSON body is sent as application/json; charset=utf-8.',
    apply(s) {
      everyReply(s, (reply) =>
        reply.json === undefined
          ? reply
          : {
              ...reply,
              headers: { ...reply.headers, 'content-type': 'application/json; charset=utf-8' },
            },
      );
    },
  },
  {
    name: 'slow',
    kind: 'conformant',
    description: 'Every request waits 15 ms before it is handled.',
    settings: { latencyMs: 15 },
  },
  {
    name: 'large-store',
    kind: 'conformant',
    description:
      '5,000 pets pre-seeded with mixed statuses (a quarter without status) and categoryIds across the int64 range.',
    settings: { seedPets: 5000 },
  },
  {
    name: 'concurrent-writers',
    kind: 'conformant',
    description:
      'Another client adds a pet (random status, name "other client N") before every 5th request is handled.',
    apply(s) {
      const handle = s.handle;
      let requests = 0;
      let added = 0;
      s.handle = async (req) => {
        requests += 1;
        if (requests % 5 === 0) {
          added += 1;
          s.savePet({
            id: await s.nextId(),
            name: `other client ${added}`,
            categoryId: randomInt64(),
            status: randomStatus(),
          });
        }
        return handle(req);
      };
    },
  },
];
