/**
 * §5 Authentication: every operation requires `Authorization: Bearer <API_KEY>`; a missing or
 * invalid key is answered with 401 and an Error body, before any validation or lookup.
 */
import {
  type Credentials,
  type PetStoreClient,
  type Pets,
  advisoryOf,
  expect,
  invalidCredentials,
  req,
  section,
  settings,
  test,
} from './support/vocabulary/index.ts';

const operations = ['listPets', 'createPet', 'getPet'] as const;

/** One operation with the given credentials and otherwise valid input (getPet: a pet that exists). */
async function call(
  api: PetStoreClient,
  pets: Pets,
  operation: (typeof operations)[number],
  credentials: Credentials[],
) {
  const petId = operation === 'getPet' ? (await pets.existing()).id : 0n;
  return Promise.all(
    credentials.map((each) => {
      if (operation === 'listPets') return api.listPets({}, { credentials: each });
      if (operation === 'getPet') return api.getPet(petId, { credentials: each });
      return api.createPet({ json: pets.newPet('auth-probe') }, { credentials: each });
    }),
  );
}

test.describe(section('5'), () => {
  for (const operation of operations) {
    test(
      `${operation} answers 401 with an Error when the Authorization header is missing`,
      req('AUTH-401-MISSING'),
      async ({ api, pets }) => {
        const [response] = await call(api, pets, operation, ['none']);
        expect(response!).toAnswerError(401);
      },
    );

    test(
      `${operation} answers 401 with an Error to a wrong key, a wrong scheme, an empty token and the key with characters appended`,
      req('AUTH-401-INVALID'),
      async ({ api, pets }) => {
        const responses = await call(api, pets, operation, invalidCredentials(settings.apiKey));
        for (const response of responses) expect.soft(response).toAnswerError(401);
      },
    );
  }

  test(
    'every operation accepts the key as a Bearer token',
    req('AUTH-BEARER'),
    async ({ api, pets }) => {
      const [list, created, fetched] = await Promise.all([
        api.listPets(),
        api.createPet({ json: pets.newPet('auth-accepted') }),
        pets.existing().then((pet) => api.getPet(pet.id)),
      ]);
      expect.soft(list).toAnswer(200, 'Pets');
      expect.soft(created).toAnswer(201, 'Pet');
      expect.soft(fetched).toAnswer(200, 'Pet');
    },
  );

  test(
    'an unauthenticated createPet with an invalid body is answered 401, not 400',
    req('AUTH-BEFORE-VALIDATION'),
    async ({ api }) => {
      const responses = await Promise.all([
        api.createPet({ json: { categoryId: 'seven' } }, { credentials: 'none' }),
        api.createPet({ raw: '{"name": ' }, { credentials: 'none' }),
      ]);
      for (const response of responses) expect.soft(response).toAnswerError(401);
    },
  );

  test(
    'an unauthenticated getPet of an unknown pet is answered 401, not 404',
    req('AUTH-BEFORE-EXISTENCE'),
    async ({ api }) => {
      const response = await api.getPet(-9_223_372_036_854_775_807n, { credentials: 'none' });
      expect(response).toAnswerError(401);
    },
  );
});

test.describe(`${section('5')}: advisories (HTTP standards)`, () => {
  test(
    'a 401 names the Bearer scheme in WWW-Authenticate',
    advisoryOf('ADV-WWW-AUTHENTICATE'),
    async ({ api, pets, advise }) => {
      const responses = (
        await Promise.all(
          operations.map((operation) =>
            call(api, pets, operation, ['none', invalidCredentials(settings.apiKey)[0]!]),
          ),
        )
      ).flat();
      const problems = responses
        .filter(
          (response) =>
            response.status === 401 &&
            !/(^|,)\s*bearer\b/i.test(response.headers['www-authenticate'] ?? ''),
        )
        .map(
          (response) =>
            `${response.request.method} ${response.request.path} (${response.request.auth}): 401 without WWW-Authenticate: Bearer`,
        );
      advise.check('ADV-WWW-AUTHENTICATE', problems);
    },
  );

  test(
    'the scheme is matched case-insensitively: "bearer <API_KEY>" is accepted',
    advisoryOf('ADV-BEARER-CASE-INSENSITIVE'),
    async ({ api, pets, advise }) => {
      const lowerCase: Credentials = {
        authorization: `bearer ${settings.apiKey}`,
        label: 'bearer <API_KEY>',
      };
      const responses = (
        await Promise.all(operations.map((operation) => call(api, pets, operation, [lowerCase])))
      ).flat();
      const problems = responses
        .filter((response) => response.status === 401)
        .map(
          (response) =>
            `${response.request.method} ${response.request.path}: "bearer <API_KEY>" refused with 401`,
        );
      advise.check('ADV-BEARER-CASE-INSENSITIVE', problems);
    },
  );
});
