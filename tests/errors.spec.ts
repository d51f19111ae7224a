/**
 * §7 Errors, §1 media type and base address: every error body is an Error (code, message, status
 * equal to the HTTP status) in application/json, every body is JSON, and nothing in scope is
 * answered with a 5xx. These requirements are also charged wherever another check meets an answer
 * that breaks them (vocabulary/attribution.ts).
 */
import {
  because,
  describeChecks,
  expect,
  getPetMayBeGone,
  inconclusive,
  ownName,
  petIn,
  req,
  section,
  test,
  together,
} from './support/vocabulary/index.ts';

describeChecks(section('7'), () => {
  test(
    'every error answer (400, 401, 404) carries an Error whose status is the HTTP status',
    req('ERROR-SHAPE', 'ERROR-STATUS-FIELD'),
    async ({ api }) => {
      const answers = await together([
        api.createPet({ json: { name: ownName('invalid') } }),
        api.listPets({}, { credentials: 'none' }),
        api.createPet({ raw: '{"name": ' }, { credentials: 'none' }),
        ...(getPetMayBeGone
          ? []
          : [api.getPet(1n, { credentials: 'none' }), api.getPet(-(2n ** 63n) + 7n)]),
      ]);
      await expect(answers).toCarryErrorBodies();
      if (!answers.some((answer) => answer.status >= 400)) {
        const reason = 'none of the requests meant to fail was answered with an error';
        inconclusive('ERROR-SHAPE', reason);
        inconclusive('ERROR-STATUS-FIELD', reason);
      }
    },
  );

  test(
    'no request in the document’s scope is answered with a 5xx',
    req('NO-5XX'),
    async ({ api, pets }) => {
      const name = ownName('no-5xx');
      const categoryId = pets.categoryId();
      // A 5xx to an input a requirement of its own covers is charged there (the diagnosis reads
      // each request by what it is: one deviation, one requirement); the rest are this check's.
      const answers = await together([
        // Its second categoryId is no integer: whichever value a target takes, a 5xx is the body's.
        api.createPet({
          raw: `{"name": ${JSON.stringify(name)}, "categoryId": ${categoryId}, "categoryId": "x"}`,
        }),
        // Names holding half a character (a lone surrogate), NUL or control characters, which a
        // store may keep and fail on for every reader, go after every other check of the run:
        // tests/stored-hostile-inputs.spec.ts (the hostile-input sweep).
        api.createPet({ raw: '['.repeat(2000) + ']'.repeat(2000) }),
        api.createPet({ raw: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) }),
        api.createPet(
          { raw: `{"name": ${JSON.stringify(name)}, "categoryId": ${categoryId}}` },
          { headers: { 'content-type': 'text/plain' } },
        ),
        // A valid NewPet: the document sets no size limit for names (a 4xx is allowed, a 5xx not).
        api.createPet({ json: { name: `${name}-${'x'.repeat(20_000)}`, categoryId } }),
        api.listPets({ limit: '1e2' }),
        // A petId too long for any integer. (NUL, control characters and 256 digits in a petId,
        // a limit or a status are the hostile-input sweep's: tests/hostile-inputs.spec.ts.)
        ...(getPetMayBeGone ? [] : [api.getPet('9'.repeat(400))]),
      ]);
      await expect(answers).toAnswerWithout5xx();
    },
  );
});

describeChecks(section('1'), () => {
  test(
    'every body is application/json: 200, 201, 400, 401 and 404 answers, whatever the client accepts',
    req('MEDIA-JSON'),
    async ({ api, pets }) => {
      // A client's Accept header changes nothing the document says: a framework's content
      // negotiation may render XML or an HTML page for a client that names them, and any status
      // is the target's choice, but a body is JSON.
      const accepting = (accept: string) => ({ headers: { accept } });
      const answers = await together([
        api.listPets(),
        api.createPet({ json: pets.newPet('media') }),
        api.createPet({ json: { categoryId: pets.categoryId() } }),
        api.listPets({}, { credentials: 'none' }),
        api.listPets({}, accepting('*/*')),
        api.listPets({ limit: 1 }, accepting('application/xml')),
        api.listPets({ limit: 1 }, accepting('text/html')),
        api.listPets({}, { credentials: 'none', ...accepting('text/html, application/xml') }),
        api.createPet({ json: { categoryId: pets.categoryId() } }, accepting('application/xml')),
        ...(getPetMayBeGone ? [] : [api.getPet(-(2n ** 63n) + 11n)]),
      ]);
      // A pet that exists, if the create above made one: its getPet answer is a body too.
      const created = answers[1]!.status === 201 ? petIn(answers[1]!) : undefined;
      if (created && !getPetMayBeGone) answers.push(await api.getPet(created.id));
      await expect(answers).toBeJsonMedia();
    },
  );

  test(
    'the base address ends in /v1 and the operations answer below it',
    req('BASE-V1'),
    async ({ api }) => {
      expect(new URL(api.url('')).pathname, because('the path of BASE_URL')).toMatch(/\/v1$/);
      await expect(await api.listPets({ limit: 1 })).toAnswer(200);
    },
  );
});
