// Faults in createPet (section 4.2) and in the NewPet fields (section 2).
import { setTimeout as sleep } from 'node:timers/promises';
import { JsonNumber, isJsonObject, parseJson } from '../json.ts';
import { ok, refuse, type Reply } from '../service.ts';
import { isPetStatus, type PetStatus } from '../store.ts';
import { afterOperation, afterValidation, beforeValidation, editBody, without } from './helpers.ts';
import type { Variant } from './types.ts';

/** How long the racy id assignment "waits for the database" between read and write. */
const ID_RACE_WINDOW_MS = 2;

/** A 201 reply whose body went through edit (other replies unchanged). */
const editCreated =
  (edit: (body: Record<string, unknown>) => unknown) =>
  (reply: Reply): Reply =>
    reply.status === 201 ? editBody(reply, edit) : reply;

export const createVariants: Variant[] = [
  {
    name: 'create-200',
    kind: 'fault',
    breaks: 'CREATE-201-PET',
    description: 'A created pet is answered 200 instead of 201.',
    apply(s) {
      afterOperation(s, 'createPet', (reply) =>
        reply.status === 201 ? { ...reply, status: 200 } : reply,
      );
    },
  },
  {
    name: 'create-no-id',
    kind: 'fault',
    breaks: 'CREATE-201-PET',
    description: 'The 201 body lacks the id.',
    apply(s) {
      afterOperation(
        s,
        'createPet',
        editCreated((body) => without(body, 'id')),
      );
    },
  },
  {
    name: 'create-echo-drops-status',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description: 'The 201 body omits status (the stored pet keeps it).',
    apply(s) {
      afterOperation(
        s,
        'createPet',
        editCreated((body) => without(body, 'status')),
      );
    },
  },
  {
    name: 'create-echo-name-trimmed',
    kind: 'fault',
    breaks: 'CREATE-ECHO',
    description:
      'The 201 body carries the name "normalised for display": trimmed and lower-cased (the stored pet keeps the name as sent).',
    apply(s) {
      afterOperation(
        s,
        'createPet',
        editCreated((body) =>
          typeof body.name === 'string' ? { ...body, name: body.name.trim().toLowerCase() } : body,
        ),
      );
    },
  },
  {
    name: 'create-not-persisted',
    kind: 'fault',
    breaks: 'CREATE-PERSIST',
    description: '201 with the new pet, but nothing is stored.',
    apply(s) {
      s.savePet = () => {};
    },
  },
  {
    name: 'create-name-optional',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A missing name is accepted and stored as "".',
    apply(s) {
      beforeValidation(s, (body) => (Object.hasOwn(body, 'name') ? body : { ...body, name: '' }));
    },
  },
  {
    name: 'create-categoryid-optional',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A missing categoryId is accepted and stored as 0.',
    apply(s) {
      beforeValidation(s, (body) =>
        Object.hasOwn(body, 'categoryId') ? body : { ...body, categoryId: new JsonNumber('0') },
      );
    },
  },
  {
    name: 'create-missing-422',
    kind: 'fault',
    breaks: 'CREATE-400-REQUIRED',
    description: 'A body missing name or categoryId is answered 422 (Error status 422), not 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) =>
        isJsonObject(body) && !(Object.hasOwn(body, 'name') && Object.hasOwn(body, 'categoryId'))
          ? refuse(s.errorReply(422, 'unprocessable_entity', 'name and categoryId are required'))
          : validate(body);
    },
  },
  {
    name: 'create-name-coerced',
    kind: 'fault',
    breaks: 'CREATE-400-NAME-TYPE',
    description: 'A name that is not a string (number, null, object) is accepted through String().',
    apply(s) {
      beforeValidation(s, (body) =>
        Object.hasOwn(body, 'name') && typeof body.name !== 'string'
          ? { ...body, name: String(body.name) }
          : body,
      );
    },
  },
  {
    name: 'create-categoryid-string-coerced',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-TYPE',
    description: 'A categoryId written as a numeric string ("7") is accepted as 7.',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.categoryId === 'string' && /^-?[0-9]{1,30}$/.test(body.categoryId)
          ? { ...body, categoryId: new JsonNumber(String(BigInt(body.categoryId))) }
          : body,
      );
    },
  },
  {
    name: 'create-categoryid-fraction-truncated',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-TYPE',
    description: 'A categoryId with a fraction (7.5) is truncated to an integer (7) and accepted.',
    apply(s) {
      beforeValidation(s, (body) => {
        const raw = body.categoryId;
        if (!(raw instanceof JsonNumber) || !/[.eE]/.test(raw.literal)) return body;
        const truncated = Math.trunc(Number(raw.literal));
        return Number.isFinite(truncated)
          ? { ...body, categoryId: new JsonNumber(BigInt(truncated).toString()) }
          : body;
      });
    },
  },
  {
    name: 'create-categoryid-wrapped',
    kind: 'fault',
    breaks: 'CREATE-400-CATEGORYID-RANGE',
    description:
      'Integer categoryIds outside int64 are wrapped with BigInt.asIntN(64) (2^63 becomes -2^63).',
    apply(s) {
      beforeValidation(s, (body) => {
        const raw = body.categoryId;
        if (!(raw instanceof JsonNumber) || !/^-?[0-9]{19,1000}$/.test(raw.literal)) return body;
        const wrapped = BigInt.asIntN(64, BigInt(raw.literal));
        return { ...body, categoryId: new JsonNumber(wrapped.toString()) };
      });
    },
  },
  {
    name: 'create-status-unchecked',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description: 'Any status string is stored as sent; a null status is stored as absent.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        if (!isJsonObject(body) || !Object.hasOwn(body, 'status')) return validate(body);
        const checked = validate(without(body, 'status'));
        if (!checked.ok || typeof body.status !== 'string') return checked;
        return ok({ ...checked.value, status: body.status as PetStatus });
      };
    },
  },
  {
    name: 'create-status-case-insensitive',
    kind: 'fault',
    breaks: 'CREATE-400-STATUS',
    description:
      'status is matched case-insensitively and stored lower-cased ("SOLD" becomes sold).',
    apply(s) {
      beforeValidation(s, (body) =>
        typeof body.status === 'string' ? { ...body, status: body.status.toLowerCase() } : body,
      );
    },
  },
  {
    name: 'create-malformed-500',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description: 'The body is parsed without a try: malformed JSON (or no body) answers 500.',
    apply(s) {
      s.parseBody = (text) => ok(parseJson(text));
    },
  },
  {
    name: 'create-non-object-500',
    kind: 'fault',
    breaks: 'CREATE-400-BODY',
    description:
      'A body that is null, an array, a string or a number answers 500 (a property read on a non-object).',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) => {
        if (!isJsonObject(body)) {
          const what = body === null ? 'null' : Array.isArray(body) ? 'array' : typeof body;
          throw new TypeError(`Cannot destructure properties of ${what} (reading 'name')`);
        }
        return validate(body);
      };
    },
  },
  {
    name: 'create-id-race',
    kind: 'fault',
    breaks: 'PET-ID-UNIQUE',
    description:
      'Id assignment reads the counter, awaits a "database round trip", then writes counter+1: concurrent creates get the same id.',
    apply(s) {
      let lastId = s.config.firstId - 1n;
      s.nextId = async () => {
        const current = lastId;
        await sleep(ID_RACE_WINDOW_MS);
        lastId = current + 1n;
        return lastId;
      };
    },
  },
  {
    name: 'create-status-required',
    kind: 'fault',
    breaks: 'NEWPET-STATUS-OPTIONAL',
    description: 'A NewPet without status is refused with 400.',
    apply(s) {
      const validate = s.validateNewPet;
      s.validateNewPet = (body) =>
        isJsonObject(body) && !Object.hasOwn(body, 'status')
          ? refuse(s.errorReply(400, 'invalid_body', 'status is required'))
          : validate(body);
    },
  },
  {
    name: 'create-default-status-invalid',
    kind: 'fault',
    breaks: 'PETSTATUS-ENUM',
    description: 'A pet created without status is stored and returned with status "new".',
    apply(s) {
      afterValidation(s, (newPet) =>
        isPetStatus(newPet.status) ? newPet : { ...newPet, status: 'new' as PetStatus },
      );
    },
  },
];
