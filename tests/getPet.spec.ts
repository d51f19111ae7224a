/**
 * §4.3 getPet (deprecated) and §9 Versioning: GET /pets/{petId} answers 200 with the pet, 404 for
 * an id no pet has, a 4xx for a petId that is not a decimal int64, and keeps working until its
 * announced removal on 5 December 2030. From then on these checks report themselves as not run.
 */
import { randomBytes } from 'node:crypto';
import {
  type ApiResponse,
  because,
  describeChecks,
  expect,
  getPetGoneReason,
  getPetMayBeGone,
  req,
  section,
  test,
  together,
} from './support/vocabulary/index.ts';

/** ADV-DEPRECATION-HEADERS' problems with a 200 of getPet: RFC 9745's Deprecation, RFC 8594's Sunset. */
function deprecationProblems(read: ApiResponse): string[] {
  const problems: string[] = [];
  const deprecation = read.headers.deprecation;
  if (!deprecation) problems.push('no Deprecation header (RFC 9745)');
  else if (!/^@-?\d+$/.test(deprecation.trim())) {
    problems.push(`Deprecation "${deprecation}" is not an RFC 9745 date (@<seconds since 1970>)`);
  }
  const sunset = read.headers.sunset;
  const sunsetDate = sunset ? new Date(sunset) : undefined;
  if (!sunset) problems.push('no Sunset header (RFC 8594)');
  else if (
    !sunsetDate ||
    Number.isNaN(sunsetDate.getTime()) ||
    sunsetDate.toISOString().slice(0, 10) !== '2030-12-05'
  ) {
    problems.push(`Sunset "${sunset}" is not an HTTP-date on 5 December 2030`);
  }
  return problems;
}

describeChecks(section('4.3'), () => {
  // getPet was announced to be removed on 2030-12-05 (section 9): from then on these checks are
  // skipped with that reason, and their requirements show as not run.
  test.beforeEach(() => test.skip(getPetMayBeGone, getPetGoneReason));

  test(
    'a created pet reads back with the same id and fields (advisory: announcing its deprecation)',
    req('GET-200-PET', 'PET-ID-INT64', 'GETPET-DEPRECATED-KEPT', 'ADV-DEPRECATION-HEADERS'),
    async ({ api, pets, advise }) => {
      const created = await test.step('create two pets, one without status', () =>
        together([
          pets.create('read-back', { status: 'pending', categoryId: 5n }),
          pets.create('read-back-plain', { status: 'omitted' }),
        ]));
      const reads = await together(created.map((pet) => api.getPet(pet.id)));
      // Only a 200 can carry the headers; whether getPet works is the checks' below to judge.
      const found = reads.filter((read) => read.status === 200);
      if (found.length > 0) {
        advise.check('ADV-DEPRECATION-HEADERS', [...new Set(found.flatMap(deprecationProblems))]);
      }
      for (const [index, read] of reads.entries()) await expect(read).toReadBack(created[index]!);
    },
  );

  test(
    'an id no pet has is answered 404 with an Error',
    req('GET-404-UNKNOWN'),
    async ({ api }) => {
      // No id is certain to be free on a shared store: ask for unlikely ones and require that each
      // answer is a 404 or that very pet, and that at least one is a 404.
      const random = BigInt.asIntN(64, BigInt(`0x${randomBytes(8).toString('hex')}`));
      const candidates = [2n ** 63n - 1n, -(2n ** 63n), random];
      const answers = await together(candidates.map((id) => api.getPet(id)));
      for (const [index, answer] of answers.entries()) {
        await expect(answer).toAnswerUnknownId(candidates[index]!);
      }
      const found = answers.filter((answer) => answer.status === 200);
      expect(
        found.length,
        because(`every one of ${candidates.join(', ')} was found: none was answered 404`),
      ).toBeLessThan(candidates.length);
    },
  );

  test(
    'a petId that is not a decimal int64 is answered with a 4xx Error, never 200 or 5xx',
    req('GET-PETID-INVALID'),
    async ({ api, pets }) => {
      // Spellings of an existing pet's id that a lenient parser reads as that id (Number("0x1"),
      // a leading space): the answer must never be the pet.
      const id = (await pets.existing()).id;
      const magnitude = id < 0n ? -id : id;
      const sign = id < 0n ? '-' : '';
      const spellings = [
        `${sign}0x${magnitude.toString(16)}`,
        `${sign}0b${magnitude.toString(2)}`,
        `%20${id}`,
        `${id}%20`,
      ];
      const ids = ['abc', '1.5', '9223372036854775808', '-9223372036854775809', ...spellings];
      const answers = await together(ids.map((raw) => api.getPet({ raw })));
      await expect(answers).toAnswerError('client-error');
    },
  );
});
