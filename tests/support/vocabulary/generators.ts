/**
 * Generated inputs (fast-check arbitraries): what hand-picked examples miss, a name that loses an
 * emoji, a categoryId that rounds somewhere above 2^53, a truncation at some length.
 */
import type { Arbitrary } from 'fast-check';
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { type Body, type NewPet, type PetStatus, petStatuses } from '../http/client.ts';
import { INT64_MAX, INT64_MIN, stringifyExact } from '../http/lossless-json.ts';
import { fc } from './fast-check.ts';

export { nameMayBeRefused } from './names.ts';

const twoTo53 = 2n ** 53n;

/**
 * int64 values over the whole range, with extra weight at the bounds and around ±2^53 (where a
 * double stops holding every integer).
 */
export const int64 = (): Arbitrary<bigint> =>
  fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }) },
    { weight: 1, arbitrary: fc.constantFrom(INT64_MIN, INT64_MIN + 1n, INT64_MAX - 1n, INT64_MAX) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.bigInt({ min: twoTo53 - 64n, max: twoTo53 + 64n }), fc.boolean())
        .map(([value, negative]) => (negative ? -value : value)),
    },
    { weight: 1, arbitrary: fc.bigInt({ min: -1000n, max: 1000n }) },
  );

/** Pieces of text that break careless code: scripts, marks, quotes, escapes, controls, emoji. */
const tricky = fc.constantFrom(
  '🐶',
  '🐈‍⬛', // a ZWJ sequence of astral characters
  'e\u0301', // e + combining acute accent
  'שלום', // right-to-left
  'مرحبا',
  '\u202Eevil', // right-to-left override
  '"',
  "'",
  '\\',
  '\\u0000',
  '</script>',
  '\t',
  '\n',
  '\u0000',
  '\u001f',
  '\u00a0',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'ǅ',
  'ß',
  '中文',
);

/**
 * Any Unicode scalar value: every code point but the surrogate halves, which are not text (a lone
 * one cannot be encoded in UTF-8). Generated directly: filtering them out of fast-check's
 * `binary` strings would throw away nearly every long string.
 */
const scalarValue = (): Arbitrary<string> =>
  fc
    .oneof(fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff }))
    .map((codePoint) => String.fromCodePoint(codePoint));

/**
 * Pet names across the whole of Unicode, including control characters and long strings. Every
 * name carries the run's marker, at the start, the end or inside, so that what surrounds it
 * (leading whitespace too) reaches the target. A name shrinks towards the marker alone at the
 * start: a long one first to a short one (cross-shrinking to the first kind, whose pieces then
 * shrink away), so that a counterexample keeps only the characters that matter to its failure.
 */
export const petName = (marker: string): Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof(
        // Shrinking only: generation draws the same values with it as without.
        { withCrossShrink: true },
        {
          weight: 3,
          arbitrary: fc
            .array(fc.oneof(tricky, fc.string({ unit: scalarValue(), maxLength: 6 })), {
              maxLength: 8,
            })
            .map((parts) => parts.join('')),
        },
        { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
        // Long names: a store that truncates at some length (255, 200...) loses their end.
        {
          weight: 2,
          arbitrary: fc.string({ unit: scalarValue(), minLength: 256, maxLength: 1000 }),
        },
      ),
      fc.nat(),
    )
    .map(([name, at]) => {
      const cut = [...name];
      const position = at % (cut.length + 1);
      return `${cut.slice(0, position).join('')}${marker}${cut.slice(position).join('')}`;
    });

/** A status, or none (the field left out): a status shrinks to none. */
export const maybeStatus = (): Arbitrary<PetStatus | undefined> =>
  fc.option(fc.constantFrom(...petStatuses), { nil: undefined });

/**
 * Valid NewPets: any name, any int64 categoryId (or, for a target that declared its categories,
 * one of those), status present or absent.
 */
export const newPet = (marker: string, categoryIds?: readonly bigint[]): Arbitrary<NewPet> =>
  fc
    // Shrunk in this order: the status (one step) before the categoryId (many), so that a bounded
    // shrinking (property.ts) leaves out a status that does not matter.
    .record({
      name: petName(marker),
      status: maybeStatus(),
      categoryId: categoryIds ? fc.constantFrom(...categoryIds) : int64(),
    })
    .map((pet) => {
      const { status, ...rest } = pet;
      return status === undefined ? rest : { ...rest, status };
    });

/** A body with exactly one violation, and the requirement it breaks. */
export interface InvalidBody {
  violation: string;
  requirement: RequirementId;
  body: Body;
}

const json = (value: unknown): Body => ({ raw: stringifyExact(value) });

/** Invalid createPet bodies, each breaking exactly one rule of NewPet. */
export const invalidBody = (name: string, categoryId: bigint): Arbitrary<InvalidBody> => {
  const base = (extra: Record<string, unknown>) => ({ name, categoryId, ...extra });
  const notString = fc.oneof(
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.array(fc.string(), { maxLength: 2 }),
    fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
  );
  const invalidStatus = fc.oneof(
    fc
      .string({ maxLength: 12 })
      .filter((text) => !(petStatuses as readonly string[]).includes(text)),
    fc.constantFrom(...petStatuses).map((status) => status.toUpperCase()),
    // A validator that coerces types takes ["sold"] for sold: it is not a PetStatus.
    fc.constantFrom(...petStatuses).map((status) => [status]),
    fc.constantFrom(null, 1, true),
  );
  const outsideInt64 = fc.oneof(
    fc.bigInt({ min: INT64_MAX + 1n, max: INT64_MAX * 4n }),
    fc.bigInt({ min: INT64_MIN * 4n, max: INT64_MIN - 1n }),
  );
  return fc.oneof(
    fc.constantFrom('name', 'categoryId').map((field) => {
      const body: Record<string, unknown> = base({});
      delete body[field];
      return {
        violation: `no ${field}`,
        requirement: 'CREATE-400-REQUIRED' as const,
        body: json(body),
      };
    }),
    notString.map((value) => ({
      violation: `name ${JSON.stringify(value)}`,
      requirement: 'CREATE-400-NAME-TYPE' as const,
      body: json(base({ name: value })),
    })),
    fc
      .oneof(
        fc.bigInt({ min: -1000n, max: 1000n }).map((value) => `"${value}"`),
        fc
          .double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 })
          .filter((value) => !Number.isInteger(value))
          .map(String),
        fc.constantFrom('null', 'true', 'false', '[]', '{}'),
      )
      .map((literal) => ({
        violation: `categoryId ${literal}`,
        requirement: 'CREATE-400-CATEGORYID-TYPE' as const,
        body: { raw: `{"name": ${JSON.stringify(name)}, "categoryId": ${literal}}` },
      })),
    outsideInt64.map((value) => ({
      violation: `categoryId ${value}`,
      requirement: 'CREATE-400-CATEGORYID-RANGE' as const,
      body: json(base({ categoryId: value })),
    })),
    invalidStatus.map((value) => ({
      violation: `status ${JSON.stringify(value)}`,
      requirement: 'CREATE-400-STATUS' as const,
      body: json(base({ status: value })),
    })),
    fc
      .oneof(
        fc.constant('null'),
        fc.integer().map(String),
        fc.string({ maxLength: 8 }).map((text) => JSON.stringify(text)),
        fc.constant(stringifyExact([base({})])),
      )
      .map((raw) => ({
        violation: `body ${raw}`,
        requirement: 'CREATE-400-BODY' as const,
        body: { raw },
      })),
  );
};

/** limit values inside 1..100. */
export const limitInRange = (): Arbitrary<number> => fc.integer({ min: 1, max: 100 });

/** limit values outside 1..100 or not integers, as sent in the query. */
export const limitOutOfRange = (): Arbitrary<string> =>
  fc.oneof(
    fc.integer({ max: 0 }).map(String),
    fc.integer({ min: 101 }).map(String),
    fc
      .double({ noNaN: true, min: -1000, max: 1000 })
      .filter((value) => !Number.isInteger(value))
      .map(String),
    fc.string({ maxLength: 6 }).filter((text) => !/^\s*\d+\s*$/.test(text)),
  );

/** Status filter values: the three PetStatus values. */
export const statusFilter = (): Arbitrary<PetStatus> => fc.constantFrom(...petStatuses);
