import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/*
 * Answers serialized by code compiled from their response schema (fast-json-stringify), for the routes
 * whose answers are large or frequent: a parcel, a map box, an abutters list, a full record. The JSON
 * Schema it compiles is the one the OpenAPI document shows (z.toJSONSchema of the same zod schema), so
 * an answer holds exactly the declared fields, whatever the stored record or the service adds, at a
 * fraction of what checking it with zod and stringifying it again costs. Unlike the zod serializer of
 * the other routes it does not check the values' types; the routes' tests hold their answers to the
 * schema.
 */

type Json = { [key: string]: unknown };

/** Keywords that only validate: fast-json-stringify ignores most, and `format` would make it convert. */
const VALIDATION_ONLY = new Set([
  '$schema',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'description',
]);

const isObject = (s: Json) => s.type === 'object' && typeof s.properties === 'object';
const primitiveType = (s: Json): string | null =>
  typeof s.type === 'string' && s.type !== 'object' && s.type !== 'array' && Object.keys(s).length === 1
    ? s.type
    : null;

/**
 * The schema in the shapes fast-json-stringify serializes without running a validator: `anyOf` (which
 * it resolves by validating each value against every branch, the whole of a polygon's coordinates
 * included) becomes a type list for nullable values, and one object for alternative objects (the
 * properties of all of them; a property whose branches disagree is written as it is, still within its
 * declared object).
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (VALIDATION_ONLY.has(key)) continue;
    if (key === 'properties') {
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([name, s]) => [name, simplify(s)]),
      );
    } else out[key] = simplify(value);
  }
  const branches = out.anyOf as Json[] | undefined;
  if (!branches) return out;
  const types = branches.map(primitiveType);
  if (types.every((t) => t !== null)) {
    delete out.anyOf;
    return { ...out, type: [...new Set(types)] };
  }
  if (branches.every(isObject)) {
    delete out.anyOf;
    const names = [...new Set(branches.flatMap((b) => Object.keys(b.properties as Json)))];
    const properties = Object.fromEntries(
      names.map((name) => {
        const each = branches.map((b) => JSON.stringify((b.properties as Json)[name] ?? null));
        return [name, new Set(each).size === 1 ? JSON.parse(each[0]!) : {}];
      }),
    );
    const required = names.filter((n) => branches.every((b) => (b.required as string[]).includes(n)));
    return { ...out, type: 'object', properties, required, additionalProperties: false };
  }
  return out;
}

/** The JSON Schema of `schema`'s output, as serialized here (and, before simplify, as OpenAPI shows it). */
export function serializedJsonSchema(schema: z.ZodType): Json {
  return simplify(
    z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' }),
  ) as Json;
}

/** A serializer compiled from a zod response schema. */
export function compileResponseSerializer(schema: z.ZodType): (data: unknown) => string {
  return fastJson(serializedJsonSchema(schema) as unknown as Parameters<typeof fastJson>[0]);
}

/** For a route's `serializerCompiler`: each status's response schema compiled once, at start-up. */
export const compiledResponses = ({ schema }: { schema: unknown }) =>
  compileResponseSerializer(schema as z.ZodType);
