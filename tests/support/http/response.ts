/**
 * An answer of the target, kept whole: status, headers, the body as text (parsed losslessly on
 * demand), how long it took, and the request it answers, described without the key. How it reads
 * in a failure is reporting/failure-text.ts's job.
 *
 * A body is parsed here and nowhere else (the preflight's answer too: `parseBody`). A body that is
 * not JSON but holds the interface's JSON, garbled (a byte order mark before it, a warning printed
 * before or after it: garbled.ts), is not JSON all the same; the JSON found is kept beside the
 * problem (`salvaged`), so that the checks charge MEDIA-JSON and go on judging what it says.
 */
import {
  type RequestView,
  curlCommand,
  excerpt,
  requestLine,
  responseLine,
} from '../reporting/failure-text.ts';
import { jsonInside } from './garbled.ts';
import { type JsonValue, NestingTooDeep, int64Of, parseLossless } from './lossless-json.ts';

/** A Pet as returned, with int64 fields as exact BigInt values. */
export interface Pet {
  id: bigint;
  name: string;
  categoryId: bigint;
  status?: string;
}

/** A request as sent: the path below the base address, the address, the Authorization described. */
export type SentRequest = RequestView;

/** The operations of the interface, by their names in the document. */
export type Operation = 'listPets' | 'createPet' | 'getPet';

/**
 * `unread`: the body was not parsed (nested too deep), so whether it is JSON is not known.
 * `salvaged`: the body is not JSON, but holds the interface's JSON, garbled (garbled.ts): the
 * problem says how, and the checks judge the JSON found.
 */
export type ParsedBody =
  | { ok: true; value: JsonValue }
  | { ok: false; problem: string; unread?: true; salvaged?: JsonValue };

/** A body parsed losslessly; or why it is not JSON, with the JSON found inside a garbled one. */
export function parseBody(text: string): ParsedBody {
  if (text.trim() === '') return { ok: false, problem: 'the body is empty' };
  try {
    return { ok: true, value: parseLossless(text) };
  } catch (error) {
    if (error instanceof NestingTooDeep) {
      return { ok: false, problem: `the body nests ${error.message}`, unread: true };
    }
    // A byte order mark is invisible in a message: named as an escape.
    const problem = `the body is not JSON (${(error as Error).message.replaceAll('\uFEFF', '\\uFEFF')})`;
    const found = jsonInside(text);
    return found
      ? { ok: false, problem: `${problem}: ${found.around}`, salvaged: found.value }
      : { ok: false, problem };
  }
}

/**
 * A body that ends inside a JSON value exactly at its Content-Length, holding text beyond ASCII:
 * most likely a length counted in characters, not bytes, which cuts such a body short. Said so.
 */
function withLengthHint(
  parsed: ParsedBody,
  text: string,
  headers: Record<string, string>,
): ParsedBody {
  const length = headers['content-length'];
  if (
    parsed.ok ||
    !/reached end of input/.test(parsed.problem) ||
    length === undefined ||
    Number(length) !== Buffer.byteLength(text) ||
    !/[^\p{ASCII}]/u.test(text)
  ) {
    return parsed;
  }
  const hint =
    `; it ends at its Content-Length of ${length} bytes, inside a JSON value, and holds text ` +
    'beyond ASCII: a Content-Length counted in characters, not UTF-8 bytes, cuts it short';
  return { ...parsed, problem: `${parsed.problem}${hint}` };
}

export class ApiResponse {
  private parsed?: ParsedBody;

  /** Why there is no usable answer (refused, reset, timed out, too large); undefined when there is. */
  failure?: string;

  /**
   * No answer, and whether the target applied the request is not known: a create written on a
   * kept-alive connection that closed before its answer, not sent again (http/resend.ts).
   */
  outcomeUnknown?: true;

  /**
   * Not sent: the target refused the connection (nothing listens any more). A check that reads
   * this answer cannot judge it: blocked, with this reason.
   */
  notSent?: string;

  /**
   * A 5xx to a list or getPet, after a create of a name holding a lone surrogate was answered
   * with a 5xx in this run: the target may hold that pet and fail on every answer showing it.
   */
  afterUnwritableName?: true;

  /**
   * The body's bytes are not UTF-8 (a Latin-1 page, a lone surrogate encoded): `text` is their
   * lossy decoding (U+FFFD for each bad byte), and no name in it can be read as sent.
   */
  notUtf8?: true;

  constructor(
    readonly request: SentRequest,
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly text: string,
    readonly durationMs: number,
    /** The operation of the interface this request is, if it is one. */
    readonly operation?: Operation,
  ) {}

  /** A request that got no usable answer, and why (status 0 when nothing came back). */
  static failed(
    request: SentRequest,
    operation: Operation | undefined,
    failure: string,
    durationMs: number,
    status = 0,
  ): ApiResponse {
    const answer = new ApiResponse(request, status, {}, '', durationMs, operation);
    answer.failure = failure;
    return answer;
  }

  get contentType(): string {
    return this.headers['content-type'] ?? '';
  }

  /** True for application/json, with or without parameters such as charset. */
  get isJson(): boolean {
    return /^application\/json\s*(;|$)/i.test(this.contentType);
  }

  /** The body parsed losslessly, or why it could not be. */
  get body(): ParsedBody {
    this.parsed ??= withLengthHint(parseBody(this.text), this.text, this.headers);
    return this.parsed;
  }

  /**
   * The JSON the body holds: parsed, or found inside a garbled body (which a matcher has charged
   * to MEDIA-JSON); undefined when there is none.
   */
  get bodyValue(): JsonValue | undefined {
    const body = this.body;
    return body.ok ? body.value : body.salvaged;
  }

  /** The body's JSON (bodyValue); throws when it holds none (call after a matcher checked it). */
  get json(): JsonValue {
    const body = this.body;
    if (body.ok) return body.value;
    if (body.salvaged === undefined) throw new Error(`${this.describeRequest()}: ${body.problem}`);
    return body.salvaged;
  }

  /** The body as a Pet (after a schema check), with exact int64 fields. */
  pet(): Pet {
    return toPet(this.json);
  }

  /** The body as Pets (after a schema check). */
  pets(): Pet[] {
    const value = this.json;
    if (!Array.isArray(value))
      throw new Error(`${this.describeRequest()}: the body is not an array`);
    return value.map(toPet);
  }

  describeRequest(): string {
    return requestLine(this.request);
  }

  describeResponse(): string {
    return responseLine(this);
  }

  /** A curl command that repeats this request, with the key left to the shell ($API_KEY). */
  curl(): string {
    return curlCommand(this.request);
  }
}

function toPet(value: JsonValue): Pet {
  const record = (value ?? {}) as Record<string, JsonValue>;
  const id = int64Of(record.id);
  const categoryId = int64Of(record.categoryId);
  if (id === undefined || categoryId === undefined || typeof record.name !== 'string') {
    throw new Error(`Not a Pet: ${excerpt(JSON.stringify(value))}`);
  }
  const pet: Pet = { id, name: record.name, categoryId };
  if (typeof record.status === 'string') pet.status = record.status;
  return pet;
}
