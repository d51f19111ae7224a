/**
 * Body validation against the JSON Schema files in schemas/, as ajv compiled them to code
 * (validators.generated.ts, written by `npm run generate`): every Playwright process starts
 * without loading ajv or compiling a schema.
 *
 * ajv sees numbers as JS numbers (it rejects BigInt), which is enough for types and enums; every
 * field with `format: int64` is then checked exactly against its literal text, range included, so
 * 9223372036854775808 (2^63) is refused even though it rounds to a valid-looking double.
 */
import { readFileSync, readdirSync } from 'node:fs';
import type { AnySchemaObject, ErrorObject } from 'ajv';
import { type JsonValue, exactInteger, int64Of, isJsonNumber, toPlain } from './lossless-json.ts';
import * as generated from './validators.generated.ts';

export type SchemaName = 'PetStatus' | 'NewPet' | 'Pet' | 'Pets' | 'Error';

const schemaDir = new URL('../../../schemas/', import.meta.url);
const schemas = new Map<string, AnySchemaObject>(
  readdirSync(schemaDir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => [file, JSON.parse(readFileSync(new URL(file, schemaDir), 'utf8'))]),
);

/** ajv's generated code: true when valid, else its ErrorObjects on the function's `errors`. */
type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const validators: Record<SchemaName, Validator> = {
  PetStatus: generated.validatePetStatus,
  NewPet: generated.validateNewPet,
  Pet: generated.validatePet,
  Pets: generated.validatePets,
  Error: generated.validateError,
};

function schemaFor(name: string): AnySchemaObject {
  const schema = schemas.get(name.endsWith('.json') ? name : `${name}.json`);
  if (!schema) throw new Error(`No schema ${name} in schemas/`);
  return schema;
}

/** One way a body breaks its schema: where (a JSON pointer), the field concerned, in words. */
export interface Violation {
  /** The JSON pointer of the value at fault ('' for the body itself), e.g. /3/categoryId. */
  path: string;
  /** The object property concerned (the missing one, for a required field), if any. */
  field?: string;
  /** "/3/categoryId must be integer", ready for a failure message. */
  text: string;
}

function violationOf(error: ErrorObject): Violation {
  const where = error.instancePath || '(body)';
  const detail =
    error.keyword === 'enum'
      ? `${error.message}: ${error.params.allowedValues.join(', ')}`
      : error.message;
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
  const field = missing ?? /\/([^/]+)$/.exec(error.instancePath)?.[1];
  const violation: Violation = { path: error.instancePath, text: `${where} ${detail}` };
  if (field !== undefined && !/^\d+$/.test(field)) violation.field = field;
  return violation;
}

/** Walks schema and data together and reports int64 fields that are not exact int64 integers. */
function int64Violations(schema: AnySchemaObject, data: JsonValue, path: string): Violation[] {
  const found: Violation[] = [];
  if (typeof schema.$ref === 'string')
    found.push(...int64Violations(schemaFor(schema.$ref), data, path));
  for (const part of (schema.allOf as AnySchemaObject[] | undefined) ?? []) {
    found.push(...int64Violations(part, data, path));
  }
  // Fractions are reported by ajv's integer check; what ajv cannot see is an integer beyond int64.
  const integral = isJsonNumber(data) && exactInteger(data.value) !== undefined;
  if (schema.format === 'int64' && integral && int64Of(data) === undefined) {
    found.push({
      path,
      field: /\/([^/]+)$/.exec(path)?.[1],
      text: `${path || '(body)'} must be an integer within int64, got ${(data as { value: string }).value}`,
    });
  }
  if (schema.properties && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    for (const [key, sub] of Object.entries(schema.properties as Record<string, AnySchemaObject>)) {
      const item = (data as Record<string, JsonValue>)[key];
      if (item !== undefined) found.push(...int64Violations(sub, item, `${path}/${key}`));
    }
  }
  if (schema.items && Array.isArray(data)) {
    data.forEach((item, index) =>
      found.push(...int64Violations(schema.items as AnySchemaObject, item, `${path}/${index}`)),
    );
  }
  return found;
}

/** Validates a losslessly parsed body; returns the violations (empty when valid). */
export function validateBody(name: SchemaName, body: JsonValue): Violation[] {
  const schema = schemaFor(name);
  const validate = validators[name];
  const violations = validate(toPlain(body)) ? [] : (validate.errors ?? []).map(violationOf);
  return [...violations, ...int64Violations(schema, body, '')];
}
