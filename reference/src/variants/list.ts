// Faults in listPets (sections 4.1 and 8).
import { ok, refuse } from '../service.ts';
import { isPetStatus, type Pet } from '../store.ts';
import type { Variant } from './types.ts';

const SNAPSHOT_TTL_MS = 60_000;

export const listVariants: Variant[] = [
  {
    name: 'list-default-10',
    kind: 'fault',
    breaks: 'LIST-LIMIT-DEFAULT',
    description: 'Without limit, 10 pets are returned instead of 20.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => (raw === undefined ? ok(10) : parseLimit(raw));
    },
  },
  {
    name: 'list-default-unbounded',
    kind: 'fault',
    breaks: 'LIST-LIMIT-DEFAULT',
    description: 'Without limit, the whole store is returned.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => (raw === undefined ? ok(Number.POSITIVE_INFINITY) : parseLimit(raw));
    },
  },
  {
    name: 'list-limit-off-by-one',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description: 'Every list holds limit-1 pets (slice(0, limit - 1)); limit=1 gives none.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => selectPets({ ...query, limit: query.limit - 1 });
    },
  },
  {
    name: 'list-limit-plus-one',
    kind: 'fault',
    breaks: 'LIST-LIMIT-EXACT',
    description: 'Every list holds limit+1 pets (a <= loop bound); limit=100 gives 101.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = (query) => selectPets({ ...query, limit: query.limit + 1 });
    },
  },
  {
    name: 'list-no-maximum',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MAX',
    description: 'Limits above 100 are accepted and honoured (limit=101 returns 101 pets).',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) =>
        raw !== undefined && /^[0-9]+$/.test(raw) && Number(raw) > 100
          ? ok(Number(raw))
          : parseLimit(raw);
    },
  },
  {
    name: 'list-max-exclusive',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MAX',
    description: 'limit=100 is refused with 400: the maximum is treated as exclusive.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => {
        const limit = parseLimit(raw);
        return limit.ok && limit.value >= 100
          ? refuse(s.errorReply(400, 'invalid_parameter', 'limit must be below 100'))
          : limit;
      };
    },
  },
  {
    name: 'list-min-exclusive',
    kind: 'fault',
    breaks: 'LIST-LIMIT-MIN',
    description: 'limit=1 is refused with 400: the minimum is treated as exclusive.',
    apply(s) {
      const parseLimit = s.parseLimit;
      s.parseLimit = (raw) => {
        const limit = parseLimit(raw);
        return limit.ok && limit.value <= 1
          ? refuse(s.errorReply(400, 'invalid_parameter', 'limit must be above 1'))
          : limit;
      };
    },
  },
  {
    name: 'list-limit-invalid-500',
    kind: 'fault',
    breaks: 'LIST-LIMIT-INVALID',
    description:
      'limit goes through BigInt() unchecked: a non-numeric limit (abc, 1.5) answers 500.',
    apply(s) {
      const parseLimit = s.parseLimit;
      // BigInt('abc') throws a SyntaxError that nobody catches.
      s.parseLimit = (raw) => parseLimit(raw === undefined ? raw : String(BigInt(raw)));
    },
  },
  {
    name: 'list-filter-ignored',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'The status query parameter is ignored.',
    apply(s) {
      s.parseStatusFilter = () => ok(undefined);
    },
  },
  {
    name: 'list-filter-after-limit',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'Takes the first limit pets of the store, then filters them by status.',
    apply(s) {
      s.selectPets = ({ limit, status }) => {
        const page = s.store.all().slice(0, limit);
        return status === undefined ? page : page.filter((pet) => pet.status === status);
      };
    },
  },
  {
    name: 'list-filter-inverted',
    kind: 'fault',
    breaks: 'LIST-STATUS-FILTER',
    description: 'status=X returns the pets whose status is not X.',
    apply(s) {
      const selectPets = s.selectPets;
      s.selectPets = ({ limit, status }) =>
        status === undefined
          ? selectPets({ limit, status })
          : s.store
              .all()
              .filter((pet) => pet.status !== status)
              .slice(0, limit);
    },
  },
  {
    name: 'list-stale-snapshot',
    kind: 'fault',
    breaks: 'LIST-COMPLETE',
    description:
      'Lists come from a snapshot of the store taken at the first list request and refreshed at most every 60 s: pets created since are missing.',
    apply(s) {
      let snapshot: readonly Pet[] | undefined;
      let takenAt = 0;
      s.selectPets = ({ limit, status }) => {
        const now = Date.now();
        if (snapshot === undefined || now - takenAt >= SNAPSHOT_TTL_MS) {
          snapshot = s.store.all().slice();
          takenAt = now;
        }
        const matching =
          status === undefined ? snapshot : snapshot.filter((pet) => pet.status === status);
        return matching.slice(0, limit);
      };
    },
  },
  {
    name: 'list-wrapped',
    kind: 'fault',
    breaks: 'LIST-200-PETS',
    description: 'The list is wrapped in an object: {"items": [...]}.',
    apply(s) {
      const renderPets = s.renderPets;
      s.renderPets = (pets) => ({ items: renderPets(pets) });
    },
  },
  {
    name: 'list-status-invalid-500',
    kind: 'fault',
    breaks: 'LIST-STATUS-INVALID',
    description: 'An unknown status filter value ends in an uncaught exception: 500.',
    apply(s) {
      s.parseStatusFilter = (raw) => {
        if (raw === undefined || isPetStatus(raw)) return ok(raw);
        // Stands for an index lookup that assumes every status exists.
        throw new TypeError(`Cannot read properties of undefined (reading '${raw}')`);
      };
    },
  },
];
