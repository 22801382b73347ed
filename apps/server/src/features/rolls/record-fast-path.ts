import { fastChecks, PropertyRecord, type FastCheck } from '@opp/contracts';
import type { z } from 'zod';
import { generated, keyLiteral } from '../../lib/generated-code.ts';

/*
 * A fast path for PropertyRecord.parse, compiled from the contract. Zod costs more than everything else
 * an import does per record: without this path, importing 100,000 records on PostgreSQL took 21–29 %
 * longer on a quiet two-core machine and the importing process 65–72 % more CPU (issue 36).
 *
 * The record's fields, their order, nesting and limits are read from the schema in
 * packages/contracts/src/property.ts; each building block there declares how it checks a value
 * (`fastChecks`), and a field without such a declaration is checked by its own schema. It accepts only
 * plainly valid values and returns exactly what zod would; on anything unusual (a number given as text,
 * a date-time, a limit exceeded, a missing required field, a wrong type) it returns null and the caller
 * asks zod, which then produces the output or the error messages. record-fast-path.test.ts holds it to
 * zod (every field at its limits, random records).
 */

/** Thrown inside the fast path to give up; never escapes fastParseRecord. */
const BAIL = Symbol('bail');

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

type Read = (v: unknown) => unknown;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readDate(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  // Only the plain form; zod trims and cuts date-times, which the slow path handles.
  if (typeof v !== 'string') throw BAIL;
  const m = DATE_RE.exec(v);
  if (!m) throw BAIL;
  const month = Number(m[2]);
  const day = Number(m[3]);
  const year = Number(m[1]);
  if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) throw BAIL;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) throw BAIL;
  // Years before 1 do not print back as four digits; leave those to zod.
  if (year < 1) throw BAIL;
  return v;
}

/** The paths (`Owners[].OwnerName`) checked by their own schema: no building block declares a check. */
const bySchema: string[] = [];

/** A reader for one declared check. */
function checkReader(check: FastCheck, path: string): Read {
  switch (check.k) {
    case 'text': {
      const { max, required } = check;
      return (v) => {
        if (v === undefined || v === null) {
          if (required) throw BAIL;
          return '';
        }
        if (typeof v !== 'string' || v.length > max || v.includes('\u0000')) throw BAIL;
        return v;
      };
    }
    case 'num':
      return (v) => {
        if (v === undefined || v === null) return null;
        if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) >= 1e15) throw BAIL;
        return v;
      };
    case 'int': {
      const { min, max, required } = check;
      return (v) => {
        if (v === undefined || v === null) {
          if (required) throw BAIL;
          return null;
        }
        if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw BAIL;
        return v;
      };
    }
    case 'date':
      return readDate;
    case 'account': {
      const { pattern, max } = check;
      // The pattern allows no space, so the schema's trim changes nothing in what passes here.
      return (v) => {
        if (typeof v !== 'string' || v.length > max || !pattern.test(v)) throw BAIL;
        return v;
      };
    }
    case 'list': {
      const { max } = check;
      const item = reader(check.item, `${path}[]`);
      return (v) => {
        if (v === undefined || v === null) return [];
        if (!Array.isArray(v) || v.length > max) throw BAIL;
        const items = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) items[i] = item(v[i]);
        return items;
      };
    }
    case 'optObject': {
      const read = reader(check.object, path);
      return (v) => (v === undefined || v === null ? null : read(v));
    }
    case 'flag':
      return (v) => {
        if (v === undefined || v === null) return false;
        if (typeof v !== 'boolean') throw BAIL;
        return v;
      };
  }
}

/** A reader for a schema: its declared check, an object's compiled reader, or the schema itself. */
function reader(schema: z.ZodType, path: string): Read {
  const check = fastChecks.get(schema);
  if (check) return checkReader(check, path);
  if (schema.def.type === 'object') return objectReader(schema as z.ZodObject, path);
  bySchema.push(path);
  return (v) => {
    const result = schema.safeParse(v);
    if (!result.success) throw BAIL;
    return result.data;
  };
}

/**
 * An object's reader, compiled once into a function that builds its output as a single object literal
 * with the schema's keys in its order (as zod does). A loop over the keys (`out[key] = …`) costs several
 * times more per record: every store goes through a generic keyed lookup and every output object
 * changes shape as it grows. Keys come from the contract (as JSON string literals), never from input.
 */
function objectReader(object: z.ZodObject, path: string): Read {
  const keys = Object.keys(object.shape);
  const readers = keys.map((key) => reader(object.shape[key] as z.ZodType, path ? `${path}.${key}` : key));
  const body = keys.map((key, i) => `${keyLiteral(key)}: readers[${i}](v[${keyLiteral(key)}])`).join(',\n');
  return generated<Read>(
    { readers, isPlainObject, BAIL },
    `function read(v) { if (!isPlainObject(v)) throw BAIL; return {\n${body}\n}; }`,
  );
}

const readRecord = objectReader(PropertyRecord, '');

/** The fields the fast path hands to their own schema (a link, say): for its test. */
export const checkedBySchema: readonly string[] = bySchema;

/** The parsed record, identical to `PropertyRecord.parse(input)`, or null when zod must decide. */
export function fastParseRecord(input: unknown): PropertyRecord | null {
  try {
    return readRecord(input) as PropertyRecord;
  } catch (err) {
    if (err === BAIL) return null;
    throw err;
  }
}
