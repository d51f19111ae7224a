/**
 * What the document makes of an input, read back from a request as it was sent: a value an
 * operation must take, one it must refuse (and the requirement whose rule says so), or one the
 * document leaves open. The diagnosis (diagnosis.ts) reads every request it judges through these,
 * whichever check sent it: a 5xx to an input a rule of its own covers is that rule's, a 5xx to an
 * input no rule covers is NO-5XX's, and a refusal of a valid NewPet is asked which value made the
 * difference. So a new check, a generated input or a swept hostile one is charged by what it is,
 * not by which check happened to send it.
 */
import type { RequirementId } from '../../../requirements/catalogue.ts';
import { type NewPet, type PetStatus, type SentRequest, petStatuses } from '../http/client.ts';
import {
  INT64_MAX,
  INT64_MIN,
  type JsonValue,
  exactInteger,
  isJsonNumber,
  parseNamingRepeats,
} from '../http/lossless-json.ts';

/** An input as the document sees it. */
export type Reading<T> =
  | { kind: 'valid'; value: T }
  | { kind: 'invalid'; requirement: RequirementId; why: string }
  | { kind: 'open'; why: string };

const valid = <T>(value: T): Reading<T> => ({ kind: 'valid', value });
const invalid = <T>(requirement: RequirementId, why: string): Reading<T> => ({
  kind: 'invalid',
  requirement,
  why,
});

/** The parameters of a request's query as sent, in order: each name and value percent-decoded. */
function queryPairs(request: SentRequest): [name: string, value: string][] {
  const query = request.path.split('?')[1];
  if (!query) return [];
  const decoded = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  return query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const [name = '', value = ''] = pair.split('=');
      return [decoded(name), decoded(value)];
    });
}

/** A query parameter of a list request as sent (percent-decoded), or undefined when absent. */
export function queryParameter(request: SentRequest, name: string): string | undefined {
  return queryPairs(request).find(([key]) => key === name)?.[1];
}

/** A list request's query as sent. */
export interface ListQuery {
  limit?: string;
  status?: string;
}

export function listQueryOf(request: SentRequest): ListQuery {
  const query: ListQuery = {};
  const limit = queryParameter(request, 'limit');
  const status = queryParameter(request, 'status');
  if (limit !== undefined) query.limit = limit;
  if (status !== undefined) query.status = status;
  return query;
}

/**
 * What a list query holds beyond the document's parameters, read as sent: a parameter named twice,
 * or a name the document does not give (`status[]`, `limit[a]`). The document says nothing of
 * either, so a target may read them as it likes or refuse them; undefined for a query of limit
 * and status, each at most once.
 */
export function openQueryPart(request: SentRequest): string | undefined {
  const seen = new Set<string>();
  for (const [name] of queryPairs(request)) {
    if (name !== 'limit' && name !== 'status') {
      return `the parameter ${JSON.stringify(name)}, which the document does not name`;
    }
    if (seen.has(name)) return `${name} given twice`;
    seen.add(name);
  }
  return undefined;
}

/** `limit`: an integer from 1 to 100, written as one (section 8); anything else is invalid. */
export function readLimit(raw: string | undefined): Reading<number | undefined> {
  if (raw === undefined) return valid(undefined);
  return /^(?:[1-9][0-9]?|100)$/.test(raw)
    ? valid(Number(raw))
    : invalid('LIST-LIMIT-INVALID', `limit=${JSON.stringify(raw)} is no integer from 1 to 100`);
}

/** `status`: a PetStatus (section 2); anything else is invalid. */
export function readStatusFilter(raw: string | undefined): Reading<PetStatus | undefined> {
  if (raw === undefined) return valid(undefined);
  return (petStatuses as readonly string[]).includes(raw)
    ? valid(raw as PetStatus)
    : invalid('LIST-STATUS-INVALID', `status=${JSON.stringify(raw)} is no PetStatus`);
}

/** `petId`: a decimal int64 (section 4.3); leading zeros are left open. */
export function readPetId(request: SentRequest): Reading<bigint> {
  const segment = request.path.split('?')[0]!.split('/').pop() ?? '';
  let text: string;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return invalid('GET-PETID-INVALID', `petId ${segment} is no decimal int64`);
  }
  if (/^-?0[0-9]+$/.test(text)) return { kind: 'open', why: `petId ${text} has leading zeros` };
  if (!/^-?(?:0|[1-9][0-9]{0,19})$/.test(text)) {
    return invalid('GET-PETID-INVALID', `petId ${JSON.stringify(text)} is no decimal int64`);
  }
  const id = BigInt(text);
  return id < INT64_MIN || id > INT64_MAX
    ? invalid('GET-PETID-INVALID', `petId ${text} lies outside int64`)
    : valid(id);
}

/**
 * A createPet body as the document reads it (sections 2, 4.2, 7; RFC 8259): a valid NewPet, a body
 * a CREATE-400 rule refuses, or one it leaves open (another media type, a byte order mark, an
 * integral categoryId written 7.0).
 */
export function readNewPetBody(request: SentRequest): Reading<NewPet> {
  const type = request.contentType ?? 'application/json';
  if (!/^application\/json\s*(;|$)/i.test(type)) {
    return { kind: 'open', why: `a body sent as ${type}, not application/json` };
  }
  const text = request.body ?? '';
  if (text.trim() === '') return invalid('CREATE-400-BODY', 'no body');
  if (request.notUtf8) return invalid('CREATE-400-BODY', 'a body that is not UTF-8');
  if (text.startsWith('\ufeff')) {
    // RFC 8259 §8.1: a parser may ignore a byte order mark or refuse it.
    return { kind: 'open', why: 'a body behind a byte order mark' };
  }
  const parsed = parseNamingRepeats(text);
  if (!parsed) {
    // An array nested past what this reader parses is a JSON text, and no object all the same.
    const why = /^\s*\[/.test(text) ? 'not a JSON object' : 'not one JSON text';
    return invalid('CREATE-400-BODY', `a body that is ${why}`);
  }
  if (parsed.repeated !== undefined) {
    // RFC 8259 §4: names SHOULD be unique, and which value a reader takes is unpredictable.
    return { kind: 'open', why: `the key "${parsed.repeated}" given twice, with two values` };
  }
  const body = parsed.value;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isJsonNumber(body)) {
    return invalid('CREATE-400-BODY', 'a body that is not a JSON object');
  }
  const { name, categoryId, status } = body as Record<string, JsonValue | undefined>;
  if (name === undefined || categoryId === undefined) {
    return invalid('CREATE-400-REQUIRED', `no ${name === undefined ? 'name' : 'categoryId'}`);
  }
  if (typeof name !== 'string') return invalid('CREATE-400-NAME-TYPE', 'a name that is no string');
  if (!isJsonNumber(categoryId)) {
    return invalid('CREATE-400-CATEGORYID-TYPE', 'a categoryId that is no number');
  }
  const literal = categoryId.value;
  const integer = exactInteger(literal);
  if (integer === undefined) {
    return invalid('CREATE-400-CATEGORYID-TYPE', `a categoryId ${literal}, not an integer`);
  }
  if (integer < INT64_MIN || integer > INT64_MAX) {
    return invalid('CREATE-400-CATEGORYID-RANGE', `a categoryId ${literal}, outside int64`);
  }
  if (status !== undefined && !(petStatuses as readonly JsonValue[]).includes(status)) {
    return invalid('CREATE-400-STATUS', `a status ${JSON.stringify(status)}, no PetStatus`);
  }
  if (!/^-?(?:0|[1-9][0-9]*)$/.test(literal)) {
    // NEWPET-CATEGORYID-INT64: 7.0 or 7e0 may be stored as 7 or refused with 400.
    return { kind: 'open', why: `an integral categoryId written ${literal}` };
  }
  const newPet: NewPet = { name, categoryId: integer };
  if (status !== undefined) newPet.status = status as PetStatus;
  return valid(newPet);
}
