/**
 * §4.2 createPet and the NewPet fields of §2: a valid NewPet is added (201, a Pet carrying what was
 * sent and a fresh id); a body missing a required field or holding an invalid value is refused
 * with 400 and an Error body.
 */
import {
  type Body,
  type PetStoreClient,
  advisoryOf,
  because,
  checkProperty,
  expect,
  generate,
  petNamePrefix,
  petStatuses,
  propertyOf,
  req,
  responseProblems,
  section,
  test,
} from './support/vocabulary/index.ts';

/** Sends each body and expects every one refused with 400 and an Error body. */
function refusesEach(label: string, bodies: Record<string, Body>) {
  return async ({ api }: { api: PetStoreClient }) => {
    const cases = Object.entries(bodies);
    const responses = await Promise.all(cases.map(([, body]) => api.createPet(body)));
    responses.forEach((response, index) =>
      expect.soft(response, `${label}: ${cases[index]![0]}`).toAnswerError(400),
    );
  };
}

// Marked like every pet the suite sends: a target that wrongly accepts one stores a findable pet.
const name = `${petNamePrefix}invalid`;

test.describe(section('4.2'), () => {
  test(
    'a valid NewPet of each status is added: 201 with a Pet carrying exactly what was sent',
    req('CREATE-201-PET', 'CREATE-ECHO', 'PETSTATUS-ENUM', 'PET-SHAPE'),
    async ({ api, pets }) => {
      const sent = petStatuses.map((status, index) =>
        pets.newPet(`created-${status}`, { status, categoryId: BigInt(index + 10) }),
      );
      const responses = await Promise.all(sent.map((newPet) => api.createPet({ json: newPet })));
      responses.forEach((response, index) => {
        expect.soft(response).toAnswer(201, 'Pet');
        expect.soft(response).toCarryPet(sent[index]!, 'echo');
      });
    },
  );

  test(
    'a NewPet without status is added; the stored status is absent or any PetStatus',
    req('NEWPET-STATUS-OPTIONAL', 'PETSTATUS-ENUM'),
    async ({ api, pets }) => {
      const newPet = pets.newPet('no-status', { categoryId: 3n });
      const response = await api.createPet({ json: newPet });
      expect(response).toAnswer(201, 'Pet');
      expect(response).toCarryPet(newPet, 'echo');
    },
  );

  test(
    '20 pets created at the same time get 20 different ids',
    req('PET-ID-UNIQUE'),
    async ({ api, pets }) => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          api.createPet({ json: pets.newPet(`concurrent-${index}`) }),
        ),
      );
      for (const response of responses) expect(response).toAnswer(201, 'Pet');
      const ids = responses.map((response) => response.pet().id);
      const duplicates = ids.filter((id, index) => ids.indexOf(id) !== index);
      expect(
        duplicates,
        because(`ids assigned to 20 concurrent creates: ${ids.join(', ')}`),
      ).toEqual([]);
    },
  );

  test(
    'categoryIds at the int64 bounds and beyond 2^53 are stored and read back exactly',
    req('NEWPET-CATEGORYID-INT64'),
    async ({ api, pets }) => {
      const categoryIds = [-(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n, -(2n ** 53n) - 3n, 0n];
      const created = await test.step('create one pet per categoryId', () =>
        Promise.all(
          categoryIds.map((categoryId, index) => pets.create(`category-${index}`, { categoryId })),
        ));
      await test.step('read each back through getPet', async () => {
        const responses = await Promise.all(created.map((pet) => api.getPet(pet.id)));
        responses.forEach((response, index) => expect.soft(response).toCarryPet(created[index]!));
      });
    },
  );

  test(
    'an integral categoryId written as 7.0 or 7e0 is stored as 7 or refused with 400',
    req('NEWPET-CATEGORYID-INT64'),
    async ({ api, pets }) => {
      const { name: petName } = pets.newPet('integral-literal');
      const responses = await Promise.all(
        ['7.0', '7e0'].map((literal) =>
          api.createPet({ raw: `{"name": ${JSON.stringify(petName)}, "categoryId": ${literal}}` }),
        ),
      );
      for (const response of responses) {
        if (response.status === 201)
          expect.soft(response).toCarryPet({ name: petName, categoryId: 7n }, 'echo');
        else expect.soft(response).toAnswerError(400);
      }
    },
  );

  test(
    'a body without name or without categoryId is refused with 400',
    req('CREATE-400-REQUIRED'),
    refusesEach('missing field', {
      'no name': { json: { categoryId: 1 } },
      'no categoryId': { json: { name } },
      neither: { json: { status: 'available' } },
    }),
  );

  test(
    'a name that is not a string is refused with 400',
    req('CREATE-400-NAME-TYPE'),
    refusesEach('name', {
      number: { json: { name: 42, categoryId: 1 } },
      null: { json: { name: null, categoryId: 1 } },
      object: { json: { name: { first: 'Rex' }, categoryId: 1 } },
    }),
  );

  test(
    'a categoryId that is not an integer is refused with 400',
    req('CREATE-400-CATEGORYID-TYPE'),
    refusesEach('categoryId', {
      'numeric string': { json: { name, categoryId: '7' } },
      fraction: { raw: `{"name": "${name}", "categoryId": 7.5}` },
      null: { json: { name, categoryId: null } },
      boolean: { json: { name, categoryId: true } },
    }),
  );

  test(
    'a categoryId outside int64 is refused with 400, not wrapped or rounded',
    req('CREATE-400-CATEGORYID-RANGE'),
    refusesEach('categoryId', {
      '2^63': { raw: `{"name": "${name}", "categoryId": 9223372036854775808}` },
      '-2^63-1': { raw: `{"name": "${name}", "categoryId": -9223372036854775809}` },
      '1e400': { raw: `{"name": "${name}", "categoryId": 1e400}` },
    }),
  );

  test(
    'a status that is not a PetStatus is refused with 400',
    req('CREATE-400-STATUS'),
    refusesEach('status', {
      'unknown word': { json: { name, categoryId: 1, status: 'adopted' } },
      null: { json: { name, categoryId: 1, status: null } },
      'other case': { json: { name, categoryId: 1, status: 'SOLD' } },
    }),
  );

  test(
    'a body that is not a JSON object, malformed JSON or no body is refused with 400',
    req('CREATE-400-BODY'),
    refusesEach('body', {
      array: { json: [{ name, categoryId: 1 }] },
      string: { json: name },
      number: { json: 7 },
      null: { raw: 'null' },
      'malformed JSON': { raw: `{"name": "${name}", "categoryId": 1` },
      empty: { raw: '' },
    }),
  );
});

test.describe(`${section('4.2')}: generated inputs`, () => {
  test(
    'property: any valid NewPet is added as sent and reads back identically, or its unusual name is refused with 400',
    propertyOf('CREATE-ECHO', 'CREATE-PERSIST', 'NEWPET-CATEGORYID-INT64'),
    async ({ api }) => {
      await checkProperty(generate.newPet(petNamePrefix), async (newPet) => {
        const created = await api.createPet({ json: newPet });
        if (created.status !== 201 && generate.nameMayBeRefused(newPet.name)) {
          // The document sets no size limit for names: refusing one is allowed, altering it is not.
          expect(created).toAnswerError(400);
          return;
        }
        expect(created).toCarryPet(newPet, 'echo');
        const fetched = await api.getPet(created.pet().id);
        expect(fetched).toCarryPet(created.pet());
      });
    },
  );

  test(
    'property: any body with exactly one violation is refused with 400 and an Error',
    propertyOf(
      'CREATE-400-REQUIRED',
      'CREATE-400-NAME-TYPE',
      'CREATE-400-CATEGORYID-TYPE',
      'CREATE-400-CATEGORYID-RANGE',
      'CREATE-400-STATUS',
      'CREATE-400-BODY',
    ),
    async ({ api }) => {
      await checkProperty(
        generate.invalidBody(petNamePrefix),
        async ({ body, violation, requirement }) => {
          const response = await api.createPet(body);
          expect(response, `${requirement}: ${violation}`).toAnswerError(400);
        },
      );
    },
  );
});

test.describe(`${section('4.2')}: advisories (HTTP standards)`, () => {
  test(
    'a 201 names the created pet in a Location header that resolves to it',
    advisoryOf('ADV-LOCATION'),
    async ({ api, pets, advise }) => {
      const response = await api.createPet({ json: pets.newPet('location') });
      expect(response).toAnswer(201, 'Pet');
      const location = response.headers.location;
      if (!location) return advise.check('ADV-LOCATION', ['the 201 has no Location header']);
      const target = new URL(location, response.request.url).href;
      const base = api.url('');
      if (!target.startsWith(`${base}/`)) {
        return advise.check('ADV-LOCATION', [
          `Location ${location} is not below the base address ${base}`,
        ]);
      }
      const fetched = await test.step(`GET the Location ${location}`, () =>
        api.send('GET', target.slice(base.length)));
      const pet = response.pet();
      const same =
        responseProblems(fetched, 200, 'Pet').length === 0 && fetched.pet().id === pet.id;
      advise.check(
        'ADV-LOCATION',
        same ? [] : [`Location ${location} answers ${fetched.status}, not the pet ${pet.id}`],
      );
    },
  );
});
