// Small wrappers shared by variants: each one replaces a single step of the service.
import { JsonNumber, isJsonObject } from '../json.ts';
import {
  ok,
  type BodyRead,
  type Checked,
  type OperationName,
  type Reply,
  type Service,
  type ServiceRequest,
} from '../service.ts';
import type { NewPet, Pet } from '../store.ts';

/** Rewrites the raw request body (when it is a JSON object) before the clean validation sees it. */
export function beforeValidation(
  service: Service,
  rewrite: (body: Record<string, unknown>) => Record<string, unknown>,
): void {
  const validate = service.validateNewPet;
  service.validateNewPet = (body) => validate(isJsonObject(body) ? rewrite(body) : body);
}

/**
 * Rewrites a numeric categoryId's literal before the clean validation sees it: `rewrite` returns
 * the literal to validate instead, or undefined to leave the body as it came.
 */
export function categoryIdLiteral(
  service: Service,
  rewrite: (literal: string) => string | undefined,
): void {
  beforeValidation(service, (body) => {
    const raw = body.categoryId;
    const literal = raw instanceof JsonNumber ? rewrite(raw.literal) : undefined;
    return literal === undefined ? body : { ...body, categoryId: new JsonNumber(literal) };
  });
}

/** Post-processes (or refuses) what the clean validation accepted. */
export function afterValidation(
  service: Service,
  rewrite: (newPet: NewPet) => NewPet | Checked<NewPet>,
): void {
  const validate = service.validateNewPet;
  service.validateNewPet = (body) => {
    const checked = validate(body);
    if (!checked.ok) return checked;
    const result = rewrite(checked.value);
    return 'ok' in result ? result : ok(result);
  };
}

/**
 * Reads a request's body before a step, as a service that looks at the bytes first does: `decide`
 * may answer from them; otherwise the step runs on the same body (a body is read once).
 */
export async function bodyReadFirst<T>(
  req: ServiceRequest,
  decide: (bytes: Buffer) => T | undefined,
  step: (req: ServiceRequest) => Promise<T>,
): Promise<T> {
  const read = await req.readBody();
  const decided = read.ok ? decide(read.bytes) : undefined;
  return decided ?? step({ ...req, readBody: async () => read });
}

/** The body read another way (a fault's reader) before the clean service decodes and parses it. */
export function bodyReadWith(
  service: Service,
  read: (req: ServiceRequest) => Promise<BodyRead>,
): void {
  const readJsonBody = service.readJsonBody;
  service.readJsonBody = (req) => readJsonBody({ ...req, readBody: () => read(req) });
}

/**
 * Bodies read by another decoder before the clean one (a decoder that guesses from a byte order
 * mark, or takes surrogates): what it decodes is parsed as the body, what it refuses (undefined)
 * goes the clean way.
 */
export function decodedBy(service: Service, decode: (bytes: Buffer) => string | undefined): void {
  const readJsonBody = service.readJsonBody;
  service.readJsonBody = (req) =>
    bodyReadFirst(
      req,
      (bytes) => {
        const text = decode(bytes);
        return text === undefined ? undefined : service.parseBody(text);
      },
      readJsonBody,
    );
}

/**
 * Reads a list request once its key is checked, before the clean listing: `decide` may answer it
 * (or throw, as a handler that fails does); otherwise the list runs as it would.
 */
export function beforeListing(
  service: Service,
  decide: (req: ServiceRequest) => Reply | undefined,
): void {
  const listPets = service.listPets;
  service.listPets = async (req) => service.guard(req, 'listPets') ?? decide(req) ?? listPets(req);
}

/** Rewrites the replies of one operation. */
export function afterOperation(
  service: Service,
  operation: OperationName,
  rewrite: (reply: Reply) => Reply,
): void {
  if (operation === 'getPet') {
    const getPet = service.getPet;
    service.getPet = async (req, rawPetId) => rewrite(await getPet(req, rawPetId));
    return;
  }
  const run = service[operation];
  service[operation] = async (req) => rewrite(await run(req));
}

/** Rewrites every reply, error replies to malformed HTTP included. */
export function everyReply(service: Service, rewrite: (reply: Reply) => Reply): void {
  const finish = service.finishReply;
  service.finishReply = (reply) => rewrite(finish(reply));
}

/** A copy of a reply whose JSON object body went through edit (other replies unchanged). */
export function editBody(reply: Reply, edit: (body: Record<string, unknown>) => unknown): Reply {
  return isJsonObject(reply.json) ? { ...reply, json: edit({ ...reply.json }) } : reply;
}

/** An object without one key. */
export function without(body: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = { ...body };
  delete copy[key];
  return copy;
}

/**
 * Renders the pets `which` picks with their rendered JSON object edited, in every answer that
 * shows a pet (the 201 answer, getPet, lists); the stored pet is unchanged.
 */
export function renderedAs(
  service: Service,
  which: (pet: Pet) => boolean,
  edit: (rendered: Record<string, unknown>) => Record<string, unknown>,
): void {
  const renderPet = service.renderPet;
  service.renderPet = (pet) => {
    const rendered = renderPet(pet);
    return which(pet) && isJsonObject(rendered) ? edit({ ...rendered }) : rendered;
  };
}
