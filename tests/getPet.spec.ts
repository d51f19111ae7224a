/**
 * §4.3 getPet (deprecated) and §9 Versioning: GET /pets/{petId} answers 200 with the pet, 404
 * with an Error for an id no pet has, and keeps working until its announced removal.
 */
import { randomBytes } from 'node:crypto';
import { advisoryOf, because, expect, req, section, test } from './support/vocabulary/index.ts';

const removal = new Date('2030-12-05T00:00:00Z');

test.describe(section('4.3'), () => {
  test(
    'a created pet reads back with the same id and fields',
    req('GET-200-PET', 'CREATE-PERSIST', 'PET-ID-INT64', 'GETPET-DEPRECATED-KEPT'),
    async ({ api, pets }) => {
      test.skip(
        Date.now() >= removal.getTime(),
        'getPet was announced to be removed on 2030-12-05',
      );
      const created = await test.step('create two pets, one without status', () =>
        Promise.all([
          pets.create('read-back', { status: 'pending', categoryId: 5n }),
          pets.create('read-back-plain'),
        ]));
      const responses = await Promise.all(created.map((pet) => api.getPet(pet.id)));
      responses.forEach((response, index) => {
        expect.soft(response).toAnswer(200, 'Pet');
        expect.soft(response).toCarryPet(created[index]!);
      });
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
      const responses = await Promise.all(candidates.map((id) => api.getPet(id)));
      let notFound = 0;
      responses.forEach((response, index) => {
        if (response.status === 200)
          expect.soft(response).toCarryPet({ id: candidates[index]! }, 'echo');
        else {
          expect.soft(response).toAnswerError(404);
          notFound++;
        }
      });
      expect(
        notFound,
        because(`404 answers among getPet of ${candidates.join(', ')}`),
      ).toBeGreaterThan(0);
    },
  );

  test(
    'a petId that is not an int64 is answered with a 4xx Error, never 200 or 5xx',
    req('GET-PETID-INVALID'),
    async ({ api }) => {
      // Not 1e3: JSON Schema counts 1e3 as the integer 1000, so a service may read it so.
      const ids = ['abc', '1.5', '9223372036854775808', '-9223372036854775809'];
      const responses = await Promise.all(ids.map((id) => api.getPet(id)));
      responses.forEach((response) => expect.soft(response).toAnswerError('client-error'));
    },
  );
});

test.describe(`${section('9')}: advisories (HTTP standards)`, () => {
  test(
    'the deprecated getPet announces itself with Deprecation and a Sunset on 5 December 2030',
    advisoryOf('ADV-DEPRECATION-HEADERS'),
    async ({ api, pets, advise }) => {
      const response = await api.getPet((await pets.existing()).id);
      expect(response).toAnswer(200, 'Pet');
      const problems: string[] = [];
      const deprecation = response.headers.deprecation;
      if (!deprecation) problems.push('no Deprecation header (RFC 9745)');
      else if (!/^@-?\d+$/.test(deprecation.trim())) {
        problems.push(
          `Deprecation "${deprecation}" is not an RFC 9745 date (@<seconds since 1970>)`,
        );
      }
      const sunset = response.headers.sunset;
      const sunsetDate = sunset ? new Date(sunset) : undefined;
      if (!sunset) problems.push('no Sunset header (RFC 8594)');
      else if (
        !sunsetDate ||
        Number.isNaN(sunsetDate.getTime()) ||
        sunsetDate.toISOString().slice(0, 10) !== removal.toISOString().slice(0, 10)
      ) {
        problems.push(`Sunset "${sunset}" is not an HTTP-date on 5 December 2030`);
      }
      advise.check('ADV-DEPRECATION-HEADERS', problems);
    },
  );
});
