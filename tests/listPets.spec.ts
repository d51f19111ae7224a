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
  type Miscount,
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

/**
 * An answer of more than 100 pets, whatever limit was asked: the maximum's deviation ("no answer
 * ever holds more than 100", LIST-LIMIT-MAX), not the invalid limit's, whose own is the 5xx.
 */
const beyondMaximum: Miscount = {
  requirement: 'LIST-LIMIT-MAX',
  why: 'no answer may hold more than 100 pets, the maximum limit',
};

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
      const shortfalls = await together(
        responses.map((response, index) => pets.shortfall(response, { limit: limits[index] })),
      );
      responses.forEach((response, index) =>
        expect(response).toListPets({ exactly: limits[index], shortfall: shortfalls[index] }),
      );
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
      // A wrong count is compared with limit=99: off by as many there, it is the count rule's.
      expect(hundred!).toListPets({
        exactly: 100,
        shortfall: await pets.shortfall(hundred!, { limit: 100 }),
        miscount: await pets.miscount(hundred!, { limit: 100 }, { exactly: 100 }),
      });
      for (const response of above) {
        if (response.status === 200) expect(response).toListPets({ atMost: 100 });
        else expect(response).toAnswerError('client-error');
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
          judge: async (limit, list) =>
            verify(list).toListPets({
              exactly: limit,
              shortfall: await pets.shortfall(list, { limit }),
            }),
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
      const list = await api.listPets({ limit: 100 });
      // More than 100 is the limit's count, not the list's shape: asked which rule it breaks.
      const miscount = await pets.miscount(list, { limit: 100 }, { atMost: 100 });
      expect(list).toListPets({ atMost: 100, miscount });
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
        expect(before[index]!).toListPets({ status, atMost: 100, limit: 100 });
      }
      const created = await test.step('create two pets of each status', () =>
        together(
          petStatuses.flatMap((status, index) => [
            pets.create(`${status}-a`, {
              status,
              categoryId: pets.categoryId(extremes[index * 2]),
            }),
            pets.create(`${status}-b`, {
              status,
              categoryId: pets.categoryId(extremes[index * 2 + 1]),
            }),
          ]),
        ));
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
      // The filter first: a list that misses pets because it filters after the limit is the
      // filter's failure, not the list's incompleteness.
      const held = await together(
        petStatuses.map((status, index) =>
          pets.whereHeld(
            lists[index * 2]!,
            created.filter((pet) => pet.status === status),
            100,
          ),
        ),
      );
      for (const [index, status] of petStatuses.entries()) {
        // limit=1 finds one pet of the status, if one was kept as created (or is listed) at all.
        const { lost, elsewhere } = held[index]!;
        const kept = created.some(
          (pet) => pet.status === status && !lost.has(pet.id) && !elsewhere.has(pet.id),
        );
        if (kept || petsIn(lists[index * 2]!).length > 0) {
          // A wrong count the unfiltered list shares is the limit's, not the filter's.
          const one = lists[index * 2 + 1]!;
          const miscount = await pets.miscount(one, { status, limit: 1 }, { exactly: 1 });
          expect(one).toListPets({ status, exactly: 1, miscount });
        }
        expect(lists[index * 2]!).toListPets({ status, atMost: 100, limit: 100 });
      }
      for (const [index, status] of petStatuses.entries()) {
        const including: KnownPet[] = created.filter(
          (pet) => pet.status === status && !held[index]!.elsewhere.has(pet.id),
        );
        // A pet the list leaves out that getPet cannot find either was not kept at all; one it
        // finds under another status is rightly left out of this status's list; for the others,
        // the target is asked why (a count that does not follow the limit is the limit's).
        const { lost, elsewhere } = held[index]!;
        const shortfall = await pets.shortfall(
          lists[index * 2]!,
          { status, limit: 100 },
          including,
        );
        expect(lists[index * 2]!).toListPets({
          status,
          including,
          limit: 100,
          lost,
          elsewhere,
          shortfall,
        });
      }
      // A full list may leave pets out and be right: it decides nothing about completeness.
      if (petStatuses.every((_, index) => petsIn(lists[index * 2]!).length >= 100)) {
        inconclusive(
          'LIST-COMPLETE',
          'every status came back with a full list of 100: the store holds too many pets of each status to tell whether any is missing',
        );
      }
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
        if (response.status === 200) expect(response).toListPets({ atMost: 20 });
        else expect(response).toAnswerError('client-error');
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
      const list = await api.listPets();
      // A short list is asked why first: pets the store lost or leaves out are not the default's.
      // A wrong count is compared with limit=20: the same count there is the count rule's.
      expect(list).toListPets({
        exactly: 20,
        shortfall: await pets.shortfall(list, {}),
        miscount: await pets.miscount(list, {}, { exactly: 20 }),
      });
    },
  );

  test('limit=1 returns exactly one pet', req('LIST-LIMIT-MIN'), async ({ api, pets }) => {
    await pets.ensureStoreHolds(2);
    const list = await api.listPets({ limit: 1 });
    // A wrong count is compared with limit=2: off by as many there, it is the count rule's.
    expect(list).toListPets({
      exactly: 1,
      shortfall: await pets.shortfall(list, { limit: 1 }),
      miscount: await pets.miscount(list, { limit: 1 }, { exactly: 1 }),
    });
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
        if (response.status === 200) {
          expect(response).toListPets({ atMost: 100, miscount: beyondMaximum });
        } else expect(response).toAnswerError('client-error');
      }
    },
  );
});

describeChecks(`${section('4.1')}: generated inputs`, () => {
  test(
    'property: any status filter with any limit returns only pets of that status, at most the limit',
    propertyOf('LIST-STATUS-FILTER'),
    async ({ api, pets }) => {
      await checkProperty(
        fc.tuple(generate.statusFilter(), generate.limitInRange()),
        {
          send: ([status, limit]) => api.listPets({ status, limit }),
          // A wrong count the unfiltered list shares is the limit's, not the filter's.
          judge: async ([status, limit], answer) =>
            verify(answer).toListPets({
              status,
              atMost: limit,
              miscount: await pets.miscount(answer, { status, limit }, { atMost: limit }),
            }),
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
          judge: (_, response) => {
            if (response.status === 200) {
              verify(response).toListPets({ atMost: 100, miscount: beyondMaximum });
            } else verify(response).toAnswerError('client-error');
          },
        },
        { runs: 'half' },
      );
    },
  );
});
