/**
 * Sequences: a model-based property. fast-check draws short sequences of the three operations
 * (creates of each status or none, with int64 categoryIds; lists with and without a status filter
 * at several limits; getPet of this sequence's pets, of listed pets and of ids no pet has) and runs
 * each against the target beside a model of what the sequence knows: the pets it created, and the
 * pets lists have shown. Faults that only a run of operations shows (a store that drops what it
 * answered 201 for, a list that hides one status, writes that overwrite each other) break an
 * invariant here, wherever the hand-written checks happened to look.
 *
 * After each command only what the document and a shared store allow is checked: a pet of this
 * sequence reads back as created wherever it shows; ids are unique; a list holds at most its
 * limit, only pets of its filter, each pet once; a list shorter than its limit holds every pet of
 * this sequence and every pet listed before that matches its filter (the store only grows: there
 * is no delete). Other clients' pets may appear anywhere; list order and the status stored when
 * omitted are the target's. Each invariant is a matcher's: a broken one is charged by the diagnosis
 * (a short list that leaves a pet out is asked why: a pet the target no longer has is
 * CREATE-PERSIST's, one it has but leaves out LIST-COMPLETE's).
 *
 * Each sequence opens with a list without filter (what the store holds before) and closes with an
 * audit (the same list again, and getPet of this sequence's pets it does not show), so that a
 * shrunk counterexample is the shortest run of commands between them that still fails. The
 * failure prints that run as numbered requests with their answers.
 */
import {
  type ApiResponse,
  type Arbitrary,
  type AsyncCommand,
  checkProperty,
  describeChecks,
  fc,
  generate,
  getPetGoneReason,
  getPetMayBeGone,
  inconclusive,
  type KnownPet,
  notRun,
  type Pet,
  type Pets,
  petsIn,
  type PetStatus,
  type PetStoreClient,
  propertyOf,
  settings,
  test,
  together,
  verify,
} from './support/vocabulary/index.ts';

/** What a sequence knows. */
interface Model {
  /** The pets this sequence created, as sent and answered. */
  own: KnownPet[];
  /** Other pets lists have shown, by id: the store only grows, so they stay. */
  seen: Map<bigint, Pet>;
  /** Creates are allowed (not read-only). */
  writable: boolean;
  /** Whether the test's own request budget has room for one more command. */
  room: () => boolean;
  /** Set once a list shorter than its limit was held to pets it must show: completeness decided. */
  decided: { completeness: boolean };
}

interface Real {
  api: PetStoreClient;
  pets: Pets;
}

type Command = AsyncCommand<Model, Real, boolean>;

/** One NewPet of a create command: a status or none, and a categoryId. */
interface Draft {
  status?: PetStatus;
  categoryId: bigint;
}

const describeDraft = ({ status, categoryId }: Draft) =>
  `${status ?? 'no status'}, categoryId ${categoryId}`;

/** A pet as a list or read shows it, held to that from then on. */
const asKnown = (pet: Pet): KnownPet => ({
  name: pet.name,
  categoryId: pet.categoryId,
  ...(pet.status === undefined ? {} : { status: pet.status }),
  id: pet.id,
  echoed: pet,
});

/** createPet, once or twice at the same moment (two writes in flight together). */
class Create implements Command {
  constructor(readonly drafts: readonly Draft[]) {}
  check = (model: Readonly<Model>) => model.writable && model.room();
  async run(model: Model, { api, pets }: Real) {
    const sent = this.drafts.map((draft, index) =>
      pets.newPet(`seq-${model.own.length + index + 1}`, {
        categoryId: draft.categoryId,
        status: draft.status ?? 'omitted',
      }),
    );
    const answers = await together(sent.map((json) => api.createPet({ json })));
    // A refusal is charged to the value that made the difference (diagnosis.ts); an id another
    // pet of the sequence has is no new id.
    for (const [index, answer] of answers.entries()) {
      await verify(answer).toCreatePet(sent[index]!);
      const taken = [...model.own.map((pet) => pet.id), ...model.seen.keys()];
      await verify(answer).toGetANewId(taken);
      const pet = answer.pet();
      model.own.push({ ...sent[index]!, id: pet.id, echoed: pet });
    }
  }
  toString = () =>
    this.drafts.length === 1
      ? `createPet(${describeDraft(this.drafts[0]!)})`
      : `createPet ×${this.drafts.length} at once(${this.drafts.map(describeDraft).join('; ')})`;
}

/** listPets with or without a status filter, at a limit or the default. */
class List implements Command {
  constructor(
    readonly status: PetStatus | undefined,
    readonly limit: number | undefined,
  ) {}
  check = (model: Readonly<Model>) => model.room();
  async run(model: Model, { api }: Real) {
    const { status, limit } = this;
    const list = await api.listPets({ status, limit });
    await judgeList(model, list, { status, limit });
  }
  toString = () =>
    `listPets(${[this.status && `status=${this.status}`, this.limit && `limit=${this.limit}`].filter(Boolean).join('&') || 'no parameters'})`;
}

/**
 * A list against the model: shape, each pet once, pets of this sequence as created (LIST-200-PETS,
 * LIST-NO-DUPLICATES, CREATE-PERSIST…); at most its limit, only its status (LIST-STATUS-FILTER);
 * and, while shorter than its limit, every pet known to match (LIST-COMPLETE, or CREATE-PERSIST
 * for a pet the target no longer has). The pets it shows are remembered.
 */
async function judgeList(
  model: Model,
  list: ApiResponse,
  query: { status?: PetStatus; limit?: number },
) {
  const limit = query.limit ?? 20;
  const matches = (pet: { status?: string }) =>
    query.status === undefined || pet.status === query.status;
  const including = [...model.own.filter(matches), ...[...model.seen.values()].filter(matches)];
  if (including.length > 0 && petsIn(list).length < limit) model.decided.completeness = true;
  await verify(list).toListPets({
    as: 'LIST-200-PETS',
    atMost: limit,
    status: query.status,
    including,
  });
  for (const pet of petsIn(list)) {
    if (!model.own.some((known) => known.id === pet.id)) model.seen.set(pet.id, pet);
  }
}

/** getPet of a pet this sequence created, or of one a list showed. */
class GetPet implements Command {
  constructor(
    readonly whose: 'own' | 'listed',
    readonly pick: number,
  ) {}
  check = (model: Readonly<Model>) =>
    !getPetMayBeGone &&
    model.room() &&
    (this.whose === 'own' ? model.own.length : model.seen.size) !== 0;
  async run(model: Model, { api }: Real) {
    const known =
      this.whose === 'own'
        ? model.own[this.pick % model.own.length]!
        : asKnown([...model.seen.values()][this.pick % model.seen.size]!);
    await verify(await api.getPet(known.id)).toReadBack(known);
  }
  toString = () => `getPet(${this.whose} pet #${this.pick})`;
}

/** getPet of an id no pet of this sequence has: 404, or (a shared store) that very pet. */
class GetUnknown implements Command {
  constructor(readonly id: bigint) {}
  check = (model: Readonly<Model>) =>
    !getPetMayBeGone &&
    model.room() &&
    !model.seen.has(this.id) &&
    !model.own.some((pet) => pet.id === this.id);
  async run(_model: Model, { api }: Real) {
    await verify(await api.getPet(this.id)).toAnswerUnknownId(this.id, { as: 'GET-404-UNKNOWN' });
  }
  toString = () => `getPet(${this.id}, an id no pet of this sequence has)`;
}

/**
 * The closing audit: a list without filter at limit 100, then, side by side, getPet of this
 * sequence's pets it does not show and, when it is full (a store of more than 100 pets), the list
 * of each status this sequence created pets of, where a short list decides completeness. Two
 * answer-times, however many requests.
 */
class Audit implements Command {
  check = (model: Readonly<Model>) => model.room();
  async run(model: Model, { api }: Real) {
    const all = await api.listPets({ limit: 100 });
    await judgeList(model, all, { limit: 100 });
    const shown = new Set(petsIn(all).map((pet) => pet.id));
    const statuses =
      shown.size < 100
        ? []
        : [...new Set(model.own.flatMap((pet) => (pet.status ? [pet.status as PetStatus] : [])))];
    const rest = getPetMayBeGone ? [] : model.own.filter((pet) => !shown.has(pet.id));
    const answers = await together([
      ...statuses.map((status) => api.listPets({ status, limit: 100 })),
      ...rest.map((pet) => api.getPet(pet.id)),
    ]);
    for (const [index, status] of statuses.entries()) {
      await judgeList(model, answers[index]!, { status, limit: 100 });
    }
    for (const [index, read] of answers.slice(statuses.length).entries()) {
      await verify(read).toReadBack(rest[index]!);
    }
  }
  toString = () => 'audit';
}

/** Numbered requests with their answers, as a user reads a sequence. */
function transcript(answers: readonly ApiResponse[]): string {
  const short = (text: string) => (text.length > 240 ? `${text.slice(0, 240)}…` : text);
  return answers
    .map((answer, index) => {
      const { method, path, body } = answer.request;
      const sent = `${index + 1}. ${method} ${path}${body === undefined ? '' : ` ${body}`}`;
      const got = answer.failure ?? `${answer.status} ${short(answer.text)}`;
      return `${sent}\n   → ${got}`;
    })
    .join('\n');
}

/**
 * Sequences per test: a few short ones, so that tests side by side share the work; two at the
 * default FC_RUNS, so that a run's requests stay within a quarter more than before the property.
 */
const runs = Math.max(2, Math.ceil(settings.fcRuns / 10));
/** Commands between the opening list and the audit. */
const maxCommands = 3;
/** Requests one test may send, shrinking a counterexample included. */
const requestBudget = 80;

/** The commands' arbitraries for one target: its categoryIds, and no create when read-only. */
function commandsFor(pets: Pets, readOnly: boolean) {
  const categoryId = pets.categoryIds ? fc.constantFrom(...pets.categoryIds) : generate.int64();
  const draft = fc.record({ status: generate.maybeStatus(), categoryId });
  const createOf = (at: number): Arbitrary<Command> =>
    fc.array(draft, { minLength: at, maxLength: at }).map((drafts) => new Create(drafts));
  const list = (): Arbitrary<Command> =>
    fc
      .tuple(
        fc.option(generate.statusFilter(), { nil: undefined }),
        fc.constantFrom(undefined, 1, 2, 20, 100),
      )
      .map(([status, limit]) => new List(status, limit));
  return {
    /** createPet of `at` NewPets at once: none in read-only mode. */
    create: (at = 1): Arbitrary<Command>[] => (readOnly ? [] : [createOf(at)]),
    /** The first command: a create of `at` NewPets, or in read-only mode a list. */
    opening: (at = 1): Arbitrary<Command> => (readOnly ? list() : createOf(at)),
    list,
    getPet: (whose: 'own' | 'listed'): Arbitrary<Command> =>
      fc.nat({ max: 99 }).map((pick) => new GetPet(whose, pick)),
    getUnknown: (): Arbitrary<Command> => generate.int64().map((id) => new GetUnknown(id)),
  };
}

type Commands = ReturnType<typeof commandsFor>;

/** Runs a few sequences of these commands, each between an opening list and the audit. */
async function checkSequences(
  api: PetStoreClient,
  pets: Pets,
  drawn: (commands: Commands) => { first: Arbitrary<Command>; then: Arbitrary<Command>[] },
) {
  const readOnly = api.options.readOnly;
  const first = api.counts.requests;
  const decided = { completeness: false };
  const { first: opening, then } = drawn(commandsFor(pets, readOnly));
  // One command always, then up to `maxCommands - 1` more: fast-check draws short sequences
  // first, and a few runs of empty ones would check nothing but the store as it was.
  const sequence = fc.tuple(
    opening,
    fc.commands(then, { maxCommands: maxCommands - 1, replayPath: settings.fcReplayPath }),
  );
  await checkProperty(
    sequence,
    async ([command, generated]) => {
      const from = api.exchanges.length;
      const model: Model = {
        own: [],
        seen: new Map(),
        writable: !readOnly,
        room: () => api.counts.requests - first < requestBudget,
        decided,
      };
      try {
        await fc.asyncModelRun(
          () => ({ model, real: { api, pets } }),
          [new List(undefined, 100), command, ...generated, new Audit()],
        );
      } catch (error) {
        // A check's failure, charged as it says, with the sequence that led to it; a spent budget
        // or a skip goes on as it is.
        if (!(error instanceof Error) || !/^\[[A-Z]/.test(error.message)) throw error;
        const sent = api.exchanges.slice(from);
        error.message += `\n\nThe sequence as sent (${sent.length} requests):\n${transcript(sent)}`;
        throw error;
      }
    },
    { runs },
  );
  // Read-only: no pet was created, so what holds of created pets was not checked.
  if (readOnly) {
    for (const id of ['CREATE-PERSIST', 'CREATE-ECHO', 'PET-ID-UNIQUE'] as const) {
      if (test.info().tags.includes(`@${id}`)) {
        notRun(id, 'read-only mode (CONFORMANCE_READONLY): the sequences created no pet');
      }
    }
  }
  // A full list may leave pets out and be right: a run whose every list was full decided nothing.
  if (!decided.completeness && test.info().tags.includes('@LIST-COMPLETE')) {
    inconclusive(
      'LIST-COMPLETE',
      'every list that should have shown a known pet came back full: the store holds too many pets to tell whether one is missing',
    );
  }
}

describeChecks('§4 Endpoints: sequences of listPets, createPet and getPet', () => {
  test(
    'property: after creates of each status and lists with and without a filter, every pet reads back as created and every short list is whole',
    propertyOf(
      'LIST-COMPLETE',
      'CREATE-PERSIST',
      'LIST-STATUS-FILTER',
      'LIST-NO-DUPLICATES',
      'CREATE-ECHO',
    ),
    async ({ api, pets }) => {
      await checkSequences(api, pets, ({ opening, create, list }) => ({
        first: opening(),
        then: [...create(), list(), list()],
      }));
    },
  );

  test(
    'property: creates in flight at once each keep their pet, under an id of its own, read back by id',
    propertyOf('CREATE-PERSIST', 'PET-ID-UNIQUE', 'CREATE-ECHO', 'GET-404-UNKNOWN'),
    async ({ api, pets }) => {
      // After getPet's announced removal no getPet is sent: its requirement is left unchecked.
      if (getPetMayBeGone) notRun('GET-404-UNKNOWN', getPetGoneReason);
      await checkSequences(api, pets, ({ opening, create, getPet, getUnknown }) => ({
        first: opening(2),
        then: [...create(2), ...create(), getPet('own'), getUnknown()],
      }));
    },
  );

  test(
    'property: lists at several limits and filters, and reads of listed pets, agree with what the store held before',
    propertyOf('LIST-COMPLETE', 'LIST-STATUS-FILTER', 'CREATE-PERSIST', 'GET-404-UNKNOWN'),
    async ({ api, pets }) => {
      // After getPet's announced removal no getPet is sent: its requirement is left unchecked.
      if (getPetMayBeGone) notRun('GET-404-UNKNOWN', getPetGoneReason);
      await checkSequences(api, pets, ({ list, create, getPet, getUnknown }) => ({
        first: list(),
        then: [...create(), list(), getPet('listed'), getUnknown()],
      }));
    },
  );
});
