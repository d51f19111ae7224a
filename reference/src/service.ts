// The pet store operations, exactly as the interface document describes them.
//
// The service never touches a socket: it takes a ServiceRequest and returns a Reply, which
// http.ts writes. It is a plain record of named steps that call each other through the record
// (`s.parseLimit(...)`, never a local function), so a variant can replace or wrap any single step
// and every operation picks the replacement up. The clean code below knows nothing of variants.
import { timingSafeEqual } from 'node:crypto';
import { INT64_MAX, parseInt64 } from './int64.ts';
import { JsonNumber, decodeUtf8, isJsonObject, parseJson } from './json.ts';
import { ALLOWED_METHODS, matchRoute } from './routes.ts';
import { isPetStatus, type NewPet, type Pet, type PetStatus, type PetStore } from './store.ts';

/** What the service answers; http.ts turns it into bytes. */
export interface Reply {
  status: number;
  /** Header names in lower case. content-type and content-length are filled in by the writer. */
  headers: Record<string, string>;
  /** A JSON value to send (bigint allowed); undefined means no body. */
  json?: unknown;
  /** A ready-made non-JSON body (only variants produce one); wins over json. */
  text?: string;
  /** A ready-made body as bytes, in any encoding (only variants produce one); wins over both. */
  bytes?: Uint8Array;
}

export type BodyRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | { readonly ok: false; readonly reason: 'too-large' | 'aborted' };

export interface ServiceRequest {
  /** The method as sent (HTTP methods are case-sensitive). */
  readonly method: string;
  /** The path below the base path ('/pets', '/pets/12'); undefined when outside the base path. */
  readonly path: string | undefined;
  /** The raw query string, without '?'. */
  readonly query: string;
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /**
   * The header fields as received, each name in the case it was sent followed by its value
   * (node's rawHeaders). The clean service reads none of it: header names are case-insensitive.
   */
  readonly rawHeaders: readonly string[];
  /** Reads the request body, refusing it once it passes the size limit. Call at most once. */
  readBody(): Promise<BodyRead>;
  /**
   * Reads what one read returns of the body: the bytes that came with the end of the head, none
   * when the body came after it (a fault's: the clean service reads the whole body). Call once.
   */
  readOnce(): Promise<BodyRead>;
  /** Reads the body as the pieces it came in, one per read (a fault's). Call once. */
  readPieces(): Promise<Buffer[] | undefined>;
}

/** The outcome of a parsing or validation step: a value, or the reply that refuses the request. */
export type Checked<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reply: Reply };

export type AuthOutcome = 'ok' | 'missing' | 'invalid';
export type OperationName = 'listPets' | 'createPet' | 'getPet';
export interface ListQuery {
  readonly limit: number;
  readonly status: PetStatus | undefined;
}

export interface ServiceConfig {
  readonly apiKey: string;
  /** The path prefix the routes live under ('' = host root); Location headers start with it. */
  readonly basePath: string;
  /** The first id handed out; later ones count up from it. */
  readonly firstId: bigint;
}

/** The overridable steps. Each is a property so that a variant can replace or wrap it. */
export interface Service {
  readonly config: ServiceConfig;
  readonly store: PetStore;

  // Request level.
  /** One request, start to finish: dispatch, then finishReply. */
  handle(req: ServiceRequest): Promise<Reply>;
  /** Route and method matching (404, 405), then the operation. */
  dispatch(req: ServiceRequest): Promise<Reply>;
  /** Last look at every reply, error replies to malformed HTTP included. */
  finishReply(reply: Reply): Reply;

  // Operations.
  listPets(req: ServiceRequest): Promise<Reply>;
  createPet(req: ServiceRequest): Promise<Reply>;
  getPet(req: ServiceRequest, rawPetId: string): Promise<Reply>;

  // Authentication.
  /** The refusal, if any, of an operation's request: authentication comes before anything else. */
  guard(req: ServiceRequest, operation: OperationName): Reply | undefined;
  authenticate(authorization: string | undefined): AuthOutcome;
  unauthorized(outcome: Exclude<AuthOutcome, 'ok'>): Reply;

  // listPets.
  parseLimit(raw: string | undefined): Checked<number>;
  parseStatusFilter(raw: string | undefined): Checked<PetStatus | undefined>;
  selectPets(query: ListQuery): readonly Pet[];

  // createPet.
  /** Body reading and validation together: what stands between an authenticated request and a new pet. */
  acceptNewPet(req: ServiceRequest): Promise<Checked<NewPet>>;
  /** Media type, size limit, UTF-8, then parseBody. */
  readJsonBody(req: ServiceRequest): Promise<Checked<unknown>>;
  parseBody(text: string): Checked<unknown>;
  validateNewPet(body: unknown): Checked<NewPet>;
  /** Assigns the id, saves the pet, answers 201. */
  addPet(newPet: NewPet): Promise<Reply>;
  nextId(): bigint | Promise<bigint>;
  savePet(pet: Pet): void;

  // getPet.
  parsePetId(raw: string): Checked<bigint>;
  findPet(id: bigint): Pet | undefined;

  // Rendering.
  renderPet(pet: Pet): unknown;
  renderPets(pets: readonly Pet[]): unknown;
  renderError(status: number, code: string, message: string): unknown;
  errorReply(
    status: number,
    code: string,
    message: string,
    headers?: Record<string, string>,
  ): Reply;
}

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

/** RFC 9745 Deprecation (a structured date: 2026-01-01T00:00:00Z) and RFC 8594 Sunset. */
export const DEPRECATION = '@1767225600';
export const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

const REALM = 'Bearer realm="petstore"';
// RFC 9110 credentials: an auth-scheme token, then 1*SP and the rest (token68 or auth-params).
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;
const LIMIT_DIGITS = /^[0-9]+$/;
// A JSON integer literal: no fraction, no exponent (the JSON grammar already forbids leading zeros).
const INTEGER_LITERAL = /^-?(0|[1-9][0-9]*)$/;
const BLANK = /^[ \t\r\n]*$/;
const STATUS_RULE = 'one of available, pending, sold';

export const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
export const refuse = <T>(reply: Reply): Checked<T> => ({ ok: false, reply });

export function createService(config: ServiceConfig, store: PetStore): Service {
  const apiKey = Buffer.from(config.apiKey, 'utf8');
  let lastId = config.firstId - 1n;

  const badRequest = <T>(code: string, message: string): Checked<T> =>
    refuse(s.errorReply(400, code, message));

  /** A query parameter given at most once (twice would leave the client's intent a guess). */
  const single = (params: URLSearchParams, name: string): Checked<string | undefined> => {
    const values = params.getAll(name);
    if (values.length > 1) return badRequest('invalid_parameter', `${name} may be given only once`);
    return ok(values[0]);
  };

  const s: Service = {
    config,
    store,

    handle: async (req) => s.finishReply(await s.dispatch(req)),

    dispatch: async (req) => {
      const route = matchRoute(req.path);
      if (route === undefined) return s.errorReply(404, 'not_found', 'No resource at this path');
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      if (route.name === 'pets') {
        if (method === 'GET') return s.listPets(req);
        if (method === 'POST') return s.createPet(req);
      } else if (method === 'GET') {
        return s.getPet(req, route.petId);
      }
      return s.errorReply(405, 'method_not_allowed', `${req.method} is not allowed here`, {
        allow: ALLOWED_METHODS[route.name],
      });
    },

    finishReply: (reply) => reply,

    listPets: async (req) => {
      const denied = s.guard(req, 'listPets');
      if (denied) return denied;
      const params = new URLSearchParams(req.query);
      const rawLimit = single(params, 'limit');
      if (!rawLimit.ok) return rawLimit.reply;
      const rawStatus = single(params, 'status');
      if (!rawStatus.ok) return rawStatus.reply;
      const limit = s.parseLimit(rawLimit.value);
      if (!limit.ok) return limit.reply;
      const status = s.parseStatusFilter(rawStatus.value);
      if (!status.ok) return status.reply;
      const pets = s.selectPets({ limit: limit.value, status: status.value });
      return { status: 200, headers: {}, json: s.renderPets(pets) };
    },

    createPet: async (req) => {
      const denied = s.guard(req, 'createPet');
      if (denied) return denied;
      const newPet = await s.acceptNewPet(req);
      return newPet.ok ? s.addPet(newPet.value) : newPet.reply;
    },

    getPet: async (req, rawPetId) => {
      const denied = s.guard(req, 'getPet');
      if (denied) return denied;
      const id = s.parsePetId(rawPetId);
      if (!id.ok) return id.reply;
      const pet = s.findPet(id.value);
      if (pet === undefined) return s.errorReply(404, 'not_found', `No pet with id ${id.value}`);
      return {
        status: 200,
        headers: {
          deprecation: DEPRECATION,
          sunset: SUNSET,
          link: `<${config.basePath}/pets>; rel="successor-version"`,
        },
        json: s.renderPet(pet),
      };
    },

    guard: (req) => {
      const outcome = s.authenticate(req.authorization);
      return outcome === 'ok' ? undefined : s.unauthorized(outcome);
    },

    authenticate: (authorization) => {
      const credentials = CREDENTIALS.exec(authorization ?? '');
      // No credentials, or credentials of another scheme: no bearer token was presented.
      if (credentials?.[1]?.toLowerCase() !== 'bearer') return 'missing';
      const token = Buffer.from(credentials[2] ?? '', 'utf8');
      // Constant-time comparison; only the length can leak.
      return token.length === apiKey.length && timingSafeEqual(token, apiKey) ? 'ok' : 'invalid';
    },

    unauthorized: (outcome) =>
      outcome === 'missing'
        ? s.errorReply(401, 'unauthorized', 'Send the API key as Authorization: Bearer <API_KEY>', {
            'www-authenticate': REALM,
          })
        : s.errorReply(401, 'unauthorized', 'The API key is not valid', {
            'www-authenticate': `${REALM}, error="invalid_token"`,
          }),

    parseLimit: (raw) => {
      if (raw === undefined) return ok(DEFAULT_LIMIT);
      // At most three significant digits can be in range; longer strings never reach Number().
      const digits = LIMIT_DIGITS.test(raw) ? raw.replace(/^0+(?=.)/, '') : '';
      const limit = digits.length > 0 && digits.length <= 3 ? Number(digits) : 0;
      if (limit < 1 || limit > MAX_LIMIT) {
        return badRequest('invalid_parameter', `limit must be an integer from 1 to ${MAX_LIMIT}`);
      }
      return ok(limit);
    },

    parseStatusFilter: (raw) => {
      if (raw === undefined || isPetStatus(raw)) return ok(raw);
      return badRequest('invalid_parameter', `status must be ${STATUS_RULE}`);
    },

    selectPets: ({ limit, status }) =>
      (status === undefined ? store.all() : store.withStatus(status)).slice(0, limit),

    acceptNewPet: async (req) => {
      const body = await s.readJsonBody(req);
      return body.ok ? s.validateNewPet(body.value) : body;
    },

    readJsonBody: async (req) => {
      const type = req.contentType?.split(';', 1)[0]?.trim().toLowerCase();
      if (type !== undefined && type !== '' && type !== 'application/json') {
        return refuse(
          s.errorReply(415, 'unsupported_media_type', 'The request body must be application/json'),
        );
      }
      const read = await req.readBody();
      if (!read.ok) {
        return read.reason === 'too-large'
          ? refuse(
              s.errorReply(413, 'payload_too_large', 'The request body exceeds 1 MiB', {
                connection: 'close',
              }),
            )
          : badRequest('invalid_json', 'The request body was cut short');
      }
      const text = decodeUtf8(read.bytes);
      if (text === undefined) return badRequest('invalid_json', 'The request body is not UTF-8');
      return s.parseBody(text);
    },

    parseBody: (text) => {
      if (BLANK.test(text)) return badRequest('invalid_json', 'A JSON request body is required');
      try {
        return ok(parseJson(text));
      } catch (error) {
        const detail = error instanceof SyntaxError ? `: ${error.message}` : '';
        return badRequest('invalid_json', `The request body is not valid JSON${detail}`);
      }
    },

    validateNewPet: (body) => {
      if (!isJsonObject(body)) {
        return badRequest('invalid_body', 'The request body must be a JSON object (a NewPet)');
      }
      if (!Object.hasOwn(body, 'name')) return badRequest('invalid_body', 'name is required');
      const name = body.name;
      if (typeof name !== 'string') return badRequest('invalid_body', 'name must be a string');
      if (!Object.hasOwn(body, 'categoryId')) {
        return badRequest('invalid_body', 'categoryId is required');
      }
      const rawCategoryId = body.categoryId;
      if (!(rawCategoryId instanceof JsonNumber) || !INTEGER_LITERAL.test(rawCategoryId.literal)) {
        return badRequest(
          'invalid_body',
          'categoryId must be an integer number, written without fraction or exponent',
        );
      }
      const categoryId = parseInt64(rawCategoryId.literal);
      if (categoryId === undefined) {
        return badRequest('invalid_body', 'categoryId must lie within the int64 range');
      }
      // Unknown fields are ignored. A present status must be valid: null is not "omitted".
      if (!Object.hasOwn(body, 'status')) return ok({ name, categoryId });
      const status = body.status;
      if (!isPetStatus(status)) return badRequest('invalid_body', `status must be ${STATUS_RULE}`);
      return ok({ name, categoryId, status });
    },

    addPet: async (newPet) => {
      const pet: Pet = { id: await s.nextId(), ...newPet };
      s.savePet(pet);
      return {
        status: 201,
        headers: { location: `${config.basePath}/pets/${pet.id}` },
        json: s.renderPet(pet),
      };
    },

    // Exhausting the int64 ids would take centuries of creates; not guarded.
    nextId: () => (lastId += 1n),

    savePet: (pet) => store.add(pet),

    parsePetId: (raw) => {
      const id = parseInt64(raw);
      if (id === undefined) {
        return badRequest(
          'invalid_parameter',
          `petId must be an integer from -2^63 to ${INT64_MAX}`,
        );
      }
      return ok(id);
    },

    findPet: (id) => store.get(id),

    renderPet: ({ id, name, categoryId, status }) =>
      status === undefined ? { id, name, categoryId } : { id, name, categoryId, status },

    renderPets: (pets) => pets.map((pet) => s.renderPet(pet)),

    renderError: (status, code, message) => ({ code, message, status }),

    errorReply: (status, code, message, headers = {}) => ({
      status,
      headers,
      json: s.renderError(status, code, message),
    }),
  };
  return s;
}
