/**
 * Custom matchers: each check of the interface document in one place, with failure messages
 * that name the requirement, the request, what was expected and what came back.
 */
import { expect as baseExpect, test } from '@playwright/test';
import type { ApiResponse, Pet } from '../http/client.ts';
import { exactInteger, isJsonNumber } from '../http/lossless-json.ts';
import { type SchemaName, validateBody } from '../http/schema.ts';
import { checkFailure } from '../reporting/failure-text.ts';
import { requirementIds } from './tags.ts';

/** `client-error`: any 4xx but 401 (the suite is authenticated), for answers the document leaves open. */
export type ExpectedStatus = number | 'client-error';

type MatcherResult = { pass: boolean; message: () => string; name: string };

function requirementIdsOfCurrentTest(): string[] {
  try {
    return requirementIds(test.info().tags);
  } catch {
    return [];
  }
}

function requirementsOfCurrentTest(): string {
  const ids = requirementIdsOfCurrentTest();
  return ids.length ? `[${ids.join(', ')}] ` : '';
}

/** A message for a plain assertion, prefixed with the current test's requirement IDs. */
export function because(detail: string): string {
  return `${requirementsOfCurrentTest()}${detail}`;
}

function report(name: string, response: ApiResponse, expected: string, problems: string[]) {
  return {
    name,
    pass: problems.length === 0,
    message: () =>
      checkFailure({
        requirements: requirementIdsOfCurrentTest(),
        exchange: response,
        expected,
        problems,
      }),
  };
}

function statusMatches(expected: ExpectedStatus, actual: number): boolean {
  return expected === 'client-error'
    ? actual >= 400 && actual < 500 && actual !== 401
    : actual === expected;
}

/** The problems of a response against a status and the schema of its documented body. */
export function responseProblems(
  response: ApiResponse,
  status: ExpectedStatus,
  schema?: SchemaName,
): string[] {
  const problems: string[] = [];
  if (!statusMatches(status, response.status)) {
    // The body answers another status: judging it by this one's schema would only add noise
    // (it is shown in full beside the message).
    return [
      status === 'client-error'
        ? `status ${response.status} is not a 4xx other than 401`
        : `status ${response.status}, not ${status}`,
    ];
  }
  if (!schema) return problems;
  if (!response.isJson) {
    problems.push(`Content-Type is "${response.contentType}", not application/json`);
  }
  const body = response.body;
  if (!body.ok) return [...problems, `${body.problem}: a ${schema} body was expected`];
  problems.push(...validateBody(schema, body.value).map((problem) => `${schema}: ${problem}`));
  if (schema === 'Error') {
    // Compared as numbers, exactly: 401.0 is the integer 401 to JSON Schema, "401" is a string.
    const field = (body.value as Record<string, unknown> | null)?.status;
    const value = isJsonNumber(field) ? exactInteger(field.value) : undefined;
    if (value !== BigInt(response.status)) {
      const shown = isJsonNumber(field) ? field.value : JSON.stringify(field);
      problems.push(`Error.status is ${shown}, not the HTTP status ${response.status}`);
    }
  }
  return problems;
}

function describePet(pet: Partial<Pet>): string {
  const status = pet.status === undefined ? 'no status' : `status ${pet.status}`;
  return `${pet.id === undefined ? '' : `id ${pet.id}, `}name ${JSON.stringify(pet.name)}, categoryId ${pet.categoryId}, ${status}`;
}

/** Differences between a returned pet and the one expected; `status: undefined` in `echo` mode means "any". */
export function petDifferences(
  actual: Pet,
  expected: Partial<Pet>,
  mode: 'echo' | 'same',
): string[] {
  const differences: string[] = [];
  if (expected.id !== undefined && actual.id !== expected.id) {
    differences.push(`id is ${actual.id}, not ${expected.id}`);
  }
  if (expected.name !== undefined && actual.name !== expected.name) {
    differences.push(
      `name is ${JSON.stringify(actual.name)}, not ${JSON.stringify(expected.name)}`,
    );
  }
  if (expected.categoryId !== undefined && actual.categoryId !== expected.categoryId) {
    differences.push(`categoryId is ${actual.categoryId}, not ${expected.categoryId}`);
  }
  if ((mode === 'same' || expected.status !== undefined) && actual.status !== expected.status) {
    differences.push(
      `status is ${actual.status ?? '(absent)'}, not ${expected.status ?? '(absent)'}`,
    );
  }
  return differences;
}

export const expect = baseExpect.extend({
  /** The response has this status and, when a schema is named, a valid JSON body of that schema. */
  toAnswer(response: ApiResponse, status: ExpectedStatus, schema?: SchemaName): MatcherResult {
    const what = status === 'client-error' ? 'a 4xx other than 401' : `${status}`;
    const expected = schema ? `${what} with a ${schema} body in application/json` : what;
    return report('toAnswer', response, expected, responseProblems(response, status, schema));
  },

  /** The body is sent as application/json (parameters such as charset are fine), whatever the status. */
  toBeJsonMedia(response: ApiResponse): MatcherResult {
    const problems = response.isJson
      ? []
      : [`Content-Type is "${response.contentType}", not application/json`];
    return report('toBeJsonMedia', response, 'a body in application/json', problems);
  },

  /** Any answer but a 5xx: for inputs where the document allows several answers, none a 5xx. */
  toAnswerWithout5xx(response: ApiResponse): MatcherResult {
    const problems = response.status >= 500 ? [`status ${response.status}: a server error`] : [];
    return report('toAnswerWithout5xx', response, 'any status below 500', problems);
  },

  /** An error answer: the status (or any 4xx but 401) with an Error body whose status matches. */
  toAnswerError(response: ApiResponse, status: ExpectedStatus): MatcherResult {
    const what = status === 'client-error' ? 'a 4xx other than 401' : `${status}`;
    return report(
      'toAnswerError',
      response,
      `${what} with an Error body`,
      responseProblems(response, status, 'Error'),
    );
  },

  /**
   * The response carries a valid Pet with these fields. `echo`: the fields of a NewPet as sent
   * (status compared only when it was sent); `same`: every field, status presence included.
   */
  toCarryPet(
    response: ApiResponse,
    expected: Partial<Pet>,
    mode: 'echo' | 'same' = 'same',
  ): MatcherResult {
    const problems = responseProblems(response, response.status, 'Pet');
    if (problems.length === 0) problems.push(...petDifferences(response.pet(), expected, mode));
    return report('toCarryPet', response, `a Pet with ${describePet(expected)}`, problems);
  },

  /**
   * A 200 list of valid Pets: with exactly or at most so many items, every item of the status
   * asked for, and the given pets among them (with the same fields) when the list is not full.
   */
  toListPets(
    response: ApiResponse,
    expected: {
      exactly?: number;
      atMost?: number;
      status?: string;
      including?: Pet[];
      limit?: number;
    },
  ): MatcherResult {
    const problems = responseProblems(response, 200, 'Pets');
    if (problems.length === 0) {
      const pets = response.pets();
      if (expected.exactly !== undefined && pets.length !== expected.exactly) {
        problems.push(`${pets.length} pets listed, not exactly ${expected.exactly}`);
      }
      if (expected.atMost !== undefined && pets.length > expected.atMost) {
        problems.push(`${pets.length} pets listed, more than ${expected.atMost}`);
      }
      const wrong = expected.status ? pets.filter((pet) => pet.status !== expected.status) : [];
      for (const pet of wrong.slice(0, 5)) {
        problems.push(
          `pet ${pet.id} has status ${pet.status ?? '(absent)'}, not ${expected.status}`,
        );
      }
      // A list shorter than its limit must be complete: it holds every matching pet.
      if (expected.limit === undefined || pets.length < expected.limit) {
        for (const wanted of expected.including ?? []) {
          const found = pets.find((pet) => pet.id === wanted.id);
          if (!found)
            problems.push(
              `pet ${wanted.id} is missing, though the list holds fewer than ${expected.limit ?? 'all'} pets`,
            );
          else
            problems.push(
              ...petDifferences(found, wanted, 'same').map((d) => `pet ${wanted.id}: ${d}`),
            );
        }
      }
    }
    const parts = [
      expected.exactly !== undefined ? `exactly ${expected.exactly}` : '',
      expected.atMost !== undefined ? `at most ${expected.atMost}` : '',
      expected.status ? `all with status ${expected.status}` : '',
      expected.including?.length
        ? `including ${expected.including.map((pet) => pet.id).join(', ')} unless full`
        : '',
    ].filter(Boolean);
    return report('toListPets', response, `200 with Pets: ${parts.join(', ') || 'any'}`, problems);
  },
});
