/**
 * §4.1 listPets and §8 Limits: GET /pets returns at most `limit` pets (1..100, default 20),
 * optionally only those of one status, each pet once. A store may hold any number of pets, in any
 * order, and other clients may add more meanwhile; the checks hold whatever the store holds,
 * because it only grows. Every pet this run created is held to what it was created with wherever
 * a list shows it (vocabulary/attribution.ts).
 */
import {
  type ApiResponse,
  checkProperty,
  describeChecks,
  expect,
  fc,
  generate,
  inconclusive,
  isErrorAnswer,
  type KnownPet,
  petsIn,
  petStatuses,
  propertyOf,
  req,
  section,
  test,
  together,
  verify,
} from './support/vocabulary/index.ts';

/** ADV-INVALID-QUERY-400's problems: the answers to invalid queries that are not a 400 Error. */
const notRefused = (responses: readonly ApiResponse[]) =>
  responses
    .filter((response) => !isErrorAnswer(response, 400))
    .map((response) => `${response.request.path} answered ${response.status}, not a 400 Error`);

/** categoryIds a double cannot hold, for the pets whose lists are read back (if the target takes any). */
const extremes = [2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, -(2n ** 53n) - 3n, 7n, -1n];

// First in the file: these need a store of more than 100 pets, grown by the first of them, and they
// run in order in one worker: started last, they would be the run's longest chain of round trips.
describeChecks(`${section('8')}: a store of more than 100 pets`, () => {
  // In order, in one worker: the store is grown once, by the first of them (playwright.config.ts
  // runs the other tests of a file in parallel).
  test.describe.configure({ mode: 'default' });
  test(
    'every limit between 1 and 100 returns exactly that many pets when more exist',
    req('LIST-LIMIT-EXACT'),
    async ({ api, pets }) => {
      await pets.ensureStoreHolds(101);
      // Around the default and the ends; the property below tries the rest of the range.
      const limits = [2, 19, 21, 99];
      const responses = await together(limits.map((limit) => api.listPets({ limit })));
      for (const [index, response] of responses.entries()) {
        await expect(response).toListPets({ exactly: limits[index] });
      }
    },
  );

  test(
    'limit=100 returns exactly 100 pets when more exist, and no limit returns more than 100',
    req('LIST-LIMIT-MAX'),
    async ({ api, pets }) => {
      await pets.ensureStoreHolds(101);
      const [hundred, ...above] = await together(
        [100, 101, 1000].map((limit) => api.listPets({ limit })),
      );
      await expect(hundred!).toListPets({ exactly: 100 });
      for (const response of above) {
        if (response.status === 200) await expect(response).toListPets({ atMost: 100 });
        else await expect(response).toAnswerError('client-error');
      }
    },
  );

  test(
    'property: any limit in 1..100 returns exactly that many pets when more exist',
    propertyOf('LIST-LIMIT-EXACT'),
    async ({ api, pets }) => {
      await pets.ensureStoreHolds(101);
      // Half the runs: each is a request, and the examples above cover the edges.
      await checkProperty(
        generate.limitInRange(),
        {
          send: (limit) => api.listPets({ limit }),
          judge: (limit, list) => verify(list).toListPets({ exactly: limit }),
        },
        { runs: 'half' },
      );
    },
  );
});

describeChecks(section('4.1'), () => {
  test(
    'GET /pets answers 200 with an array of valid Pets, each listed once',
    req('LIST-200-PETS', 'PET-SHAPE', 'LIST-NO-DUPLICATES'),
    async ({ api, pets }) => {
      await pets.ensureStoreHolds(2);
      await expect(await api.listPets({ limit: 100 })).toListPets({ atMost: 100 });
    },
  );

  test(
    'status=X returns only X pets, min(limit, matching) of them, and every X pet while the list is not full',
    req('LIST-STATUS-FILTER', 'LIST-COMPLETE'),
    async ({ api, pets }) => {
      // Each status listed once before the pets exist: a list served from a cache or a snapshot,
      // filled by that request, must then keep up with the writes that follow. Without it the
      // check would depend on what the tests before it listed, and how long ago.
      const before = await test.step('list each status before the pets exist', () =>
        together(petStatuses.map((status) => api.listPets({ status, limit: 100 }))));
      for (const [index, status] of petStatuses.entries()) {
        await expect(before[index]!).toListPets({ status, atMost: 100 });
      }
      const created =
        await test.step('create two pets of each status, and one without', async () => {
          const sent = await together<KnownPet | ApiResponse>([
            ...petStatuses.flatMap((status, index) => [
              pets.create(`${status}-a`, {
                status,
                categoryId: pets.categoryId(extremes[index * 2]),
              }),
              pets.create(`${status}-b`, {
                status,
                categoryId: pets.categoryId(extremes[index * 2 + 1]),
              }),
            ]),
            // Whatever is stored for it, it is under one status's list at most; its own create is
            // judged where an omitted status is (createPet.spec.ts).
            api.createPet({ json: pets.newPet('no-status', { status: 'omitted' }) }),
          ]);
          return sent.slice(0, -1) as KnownPet[];
        });
      // Every status asked for at once, with limit=1 too: a target that takes `limit` pets first
      // and filters them then finds one status at the head of its list, whatever its order, and
      // comes back empty for the others.
      const lists = await test.step('list each status, with limit=100 and limit=1', () =>
        together(
          petStatuses.flatMap((status) => [
            api.listPets({ status, limit: 100 }),
            api.listPets({ status, limit: 1 }),
          ]),
        ));
      for (const [index, status] of petStatuses.entries()) {
        const including: KnownPet[] = created.filter((pet) => pet.status === status);
        // limit=1 finds one pet of the status: the store holds the two just created (a list
        // short of them is asked why, and a pet the store lost or holds elsewhere is not its).
        await expect(lists[index * 2 + 1]!).toListPets({ status, exactly: 1, including });
        await expect(lists[index * 2]!).toListPets({ status, atMost: 100, including });
      }
      await expect(lists.filter((_, index) => index % 2 === 0)).toListEachPetUnderOneStatus(
        petStatuses,
      );
      // A full list may leave pets out and be right: it decides nothing about completeness.
      if (petStatuses.every((_, index) => petsIn(lists[index * 2]!).length >= 100)) {
        inconclusive(
          'LIST-COMPLETE',
          'every status came back with a full list of 100: the store holds too many pets of each status to tell whether any is missing',
        );
      }
      // Without limit the limit is the default, filtered or not: min(20, matching), which a
      // search written apart from the paged list may leave unbounded.
      const crowded = await pets.statusHolding(21);
      await expect(await api.listPets({ status: crowded })).toListPets({
        status: crowded,
        exactly: 20,
      });
    },
  );

  test(
    'a status filter that is not a PetStatus never yields a 5xx: a 4xx Error or a 200 list conforms (advisory: a 400)',
    req('LIST-STATUS-INVALID', 'ADV-INVALID-QUERY-400'),
    async ({ api, advise }) => {
      const values = ['unknown', 'SOLD', '', 'available,sold'];
      const responses = await together(values.map((status) => api.listPets({ status })));
      advise.check('ADV-INVALID-QUERY-400', notRefused(responses.slice(0, 1)));
      for (const response of responses) {
        if (response.status === 200) await expect(response).toListPets({ atMost: 20 });
        else await expect(response).toAnswerError('client-error');
      }
    },
  );
});

describeChecks(section('8'), () => {
  test(
    'without limit, exactly 20 pets are returned when more exist',
    req('LIST-LIMIT-DEFAULT'),
    async ({ api, pets }) => {
      await pets.ensureStoreHolds(21);
      await expect(await api.listPets()).toListPets({ exactly: 20 });
    },
  );

  test('limit=1 returns exactly one pet', req('LIST-LIMIT-MIN'), async ({ api, pets }) => {
    await pets.ensureStoreHolds(2);
    await expect(await api.listPets({ limit: 1 })).toListPets({ exactly: 1 });
  });

  test(
    'a limit outside 1..100 or not an integer never yields a 5xx nor more than 100 pets (advisory: a 400)',
    req('LIST-LIMIT-INVALID', 'ADV-INVALID-QUERY-400'),
    async ({ api, advise }) => {
      // The first four are the advisory's: out of range on either side, a fraction, not a number.
      const limits = ['0', '101', '1.5', 'abc', '-1', '', '99999999999999999999'];
      const responses = await together(limits.map((limit) => api.listPets({ limit })));
      advise.check('ADV-INVALID-QUERY-400', notRefused(responses.slice(0, 4)));
      for (const response of responses) {
        if (response.status === 200) await expect(response).toListPets({ atMost: 100 });
        else await expect(response).toAnswerError('client-error');
      }
    },
  );
});

describeChecks(`${section('4.1')}: generated inputs`, () => {
  test(
    'property: any status filter with any limit returns only pets of that status, at most the limit',
    propertyOf('LIST-STATUS-FILTER'),
    async ({ api }) => {
      await checkProperty(
        fc.tuple(generate.statusFilter(), generate.limitInRange()),
        {
          send: ([status, limit]) => api.listPets({ status, limit }),
          judge: ([status, limit], answer) => verify(answer).toListPets({ status, atMost: limit }),
        },
        { runs: 'half' },
      );
    },
  );

  test(
    'property: any limit outside 1..100 or not an integer yields a 4xx Error or at most 100 pets, never a 5xx',
    propertyOf('LIST-LIMIT-INVALID'),
    async ({ api }) => {
      await checkProperty(
        generate.limitOutOfRange(),
        {
          send: (limit) => api.listPets({ limit }),
          judge: (_, response) =>
            response.status === 200
              ? verify(response).toListPets({ atMost: 100 })
              : verify(response).toAnswerError('client-error'),
        },
        { runs: 'half' },
      );
    },
  );
});
