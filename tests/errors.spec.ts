/**
 * §7 Errors, §1 media type and base address: every error body is an Error (code, message, status
 * equal to the HTTP status) in application/json, every body is JSON, and nothing in scope is
 * answered with a 5xx.
 */
import {
  type ApiResponse,
  because,
  expect,
  petNamePrefix,
  req,
  section,
  test,
} from './support/vocabulary/index.ts';

test.describe(section('7'), () => {
  test(
    'every error answer (400, 401, 404) carries an Error whose status is the HTTP status',
    req('ERROR-SHAPE', 'ERROR-STATUS-FIELD'),
    async ({ api }) => {
      const answers: [number, Promise<ApiResponse>][] = [
        [400, api.createPet({ json: { name: `${petNamePrefix}invalid` } })],
        [401, api.listPets({}, { credentials: 'none' })],
        [401, api.getPet(1n, { credentials: 'none' })],
        [404, api.getPet(-(2n ** 63n) + 7n)],
      ];
      for (const [status, pending] of answers) {
        const response = await pending;
        // A 200 for the unknown id would be a pet that happens to exist: not an error to check.
        if (status === 404 && response.status === 200) continue;
        expect.soft(response).toAnswerError(status);
      }
    },
  );

  test(
    'no request in the document’s scope is answered with a 5xx',
    req('NO-5XX'),
    async ({ api, pets }) => {
      const { name } = pets.newPet('no-5xx');
      const answers = await Promise.all([
        api.createPet({
          raw: `{"name": ${JSON.stringify(name)}, "categoryId": 1, "categoryId": "x"}`,
        }),
        api.createPet({ raw: '{"name": "\\ud800", "categoryId": 1}' }),
        api.createPet({ raw: '['.repeat(2000) + ']'.repeat(2000) }),
        api.createPet({ raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
        api.createPet(
          { raw: `{"name": ${JSON.stringify(name)}, "categoryId": 1}` },
          { headers: { 'content-type': 'text/plain' } },
        ),
        api.createPet({ json: { name: `${name}-${'x'.repeat(20_000)}`, categoryId: 1 } }),
        api.listPets({ limit: '1e2' }),
        api.listPets({ status: '\u0000' }),
        api.getPet('9'.repeat(400)),
        api.getPet('%00'),
      ]);
      for (const response of answers) expect.soft(response).toAnswerWithout5xx();
    },
  );
});

test.describe(section('1'), () => {
  test(
    'every body is application/json: 200, 201, 400, 401 and 404 answers',
    req('MEDIA-JSON'),
    async ({ api, pets }) => {
      const existing = await pets.existing();
      const answers = await Promise.all([
        api.listPets(),
        api.createPet({ json: pets.newPet('media') }),
        api.getPet(existing.id),
        api.createPet({ json: { categoryId: 1 } }),
        api.listPets({}, { credentials: 'none' }),
        api.getPet(-(2n ** 63n) + 11n),
      ]);
      for (const response of answers) expect.soft(response).toBeJsonMedia();
    },
  );

  test(
    'the base address ends in /v1 and the operations answer below it',
    req('BASE-V1'),
    async ({ api }) => {
      expect(new URL(api.url('')).pathname, because('the path of BASE_URL')).toMatch(/\/v1$/);
      expect(await api.listPets({ limit: 1 })).toAnswer(200, 'Pets');
    },
  );
});
