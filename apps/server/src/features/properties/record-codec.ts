import { createHash } from 'node:crypto';
import { fastChecks, PropertyRecord } from '@opp/contracts';
import type { z } from 'zod';

/*
 * How a parcel's full record is stored (`property_records.record`): its values in the contract's field
 * order, without the field names, as JSON text: `[1, "R01-001", "12", …, [["SMITH, JOHN", "12 MAIN ST", …]], …]`
 * (1 is this format's version; an object of the record, alone or in a list, becomes the array of its
 * values in its schema's order). The names are two thirds of a record's JSON (a 3.1 kB record is 1.0 kB
 * packed), and every byte of it is parsed, stored and indexed by the engine on import: packing makes
 * importing a roll about a third faster on both engines and its table a third of the size.
 *
 * The order is read from PropertyRecord (packages/contracts/src/property.ts), so the codec never holds
 * a field list of its own. A stored version is a layout of the contract: LAYOUTS keeps the fingerprint
 * of each version's, and packing refuses a contract whose layout no version has (record-codec.test.ts
 * fails first). A change to PropertyRecord's fields therefore needs a new version here, and a reader
 * for the old version's rolls.
 *
 * Reading gives back exactly what JSON.stringify of the record writes (the contract's order, every field),
 * which is what the API serves. Text that starts with `{` is a record stored whole by an earlier version,
 * and is served as it is: rolls are never rewritten.
 */

const VERSION = 1;

/** The fingerprint (recordLayout, SHA-256) of the contract's layout each version stores. */
const LAYOUTS: Record<number, string> = {
  1: '6bb5bba53697c2531f60a7f03dac7b87f21b14b3eef3dfc24d1ef2f992248a60',
};

type Codec = { pack: (v: unknown) => unknown; unpack: (a: unknown) => unknown; layout: string };

/**
 * An object's values in its schema's order, compiled once into a function with fixed indexes and keys
 * (a loop over the keys costs several times more per record). Keys come from the contract, never from
 * input. `head`: a value the array starts with (the record's version), its fields after it.
 */
function objectCodec(object: z.ZodObject, head?: number): Codec {
  const keys = Object.keys(object.shape);
  const fields = keys.map((k) => codecOf(object.shape[k] as z.ZodType));
  const at = head === undefined ? 0 : 1;
  const packed = keys.map((k, i) =>
    fields[i] === AS_IS ? `v[${JSON.stringify(k)}]` : `fields[${i}].pack(v[${JSON.stringify(k)}])`,
  );
  const unpacked = keys.map(
    (k, i) =>
      `${JSON.stringify(k)}: ${fields[i] === AS_IS ? `a[${i + at}]` : `fields[${i}].unpack(a[${i + at}])`}`,
  );
  if (head !== undefined) packed.unshift(String(head));
  const compile = (body: string) => new Function('fields', `return ${body};`)(fields) as Codec['pack'];
  return {
    pack: compile(`(v) => [${packed.join(', ')}]`),
    unpack: compile(`(a) => ({${unpacked.join(', ')}})`),
    layout: `{${keys.map((k, i) => `${k}${fields[i]!.layout}`).join(',')}}`,
  };
}

/** A value stored as it is (text, numbers, a list of them). */
const AS_IS: Codec = { pack: (v) => v, unpack: (a) => a, layout: '' };

function codecOf(schema: z.ZodType): Codec {
  if (schema.def.type === 'object') return objectCodec(schema as z.ZodObject);
  const check = fastChecks.get(schema);
  if (check?.k === 'list') {
    const item = codecOf(check.item);
    if (item === AS_IS) return AS_IS;
    return {
      pack: (v) => (v as unknown[]).map(item.pack),
      unpack: (a) => (a as unknown[]).map(item.unpack),
      layout: `[${item.layout}]`,
    };
  }
  if (check?.k === 'optObject') {
    const object = objectCodec(check.object);
    return {
      pack: (v) => (v === null ? null : object.pack(v)),
      unpack: (a) => (a === null ? null : object.unpack(a)),
      layout: `?${object.layout}`,
    };
  }
  return AS_IS;
}

const record = objectCodec(PropertyRecord, VERSION);
const fieldCount = Object.keys(PropertyRecord.shape).length;

/** The contract's layout as the codec stores it: every field, in order, with its objects' fields. */
export const recordLayout = record.layout;
const layoutHash = createHash('sha256').update(recordLayout).digest('hex');
/** Whether the contract's layout is the one this version stores (false: a new version is needed). */
export const layoutIsCurrent = LAYOUTS[VERSION] === layoutHash;
export { layoutHash as recordLayoutHash };

/** The stored form of a checked record (the contract's output, every field present). */
export function packRecord(r: PropertyRecord): string {
  if (!layoutIsCurrent)
    throw new Error(`PropertyRecord changed: record-codec.ts needs a version for its layout (${layoutHash})`);
  return JSON.stringify(record.pack(r));
}

/**
 * A stored record as the JSON text of the record (what JSON.stringify(record) writes), from either
 * stored form. Throws on text this version cannot read (a later format, or damage): never serves a guess.
 */
export function unpackRecord(stored: string): string {
  if (stored.startsWith('{')) return stored;
  return JSON.stringify(unpackRecordValue(stored));
}

/**
 * A stored record as the record's object (what JSON.parse of unpackRecord gives), for readers that use a
 * few of its fields: no text written only to be parsed again.
 */
export function unpackRecordValue(stored: string): Record<string, unknown> {
  const a = JSON.parse(stored) as unknown;
  if (stored.startsWith('{')) return a as Record<string, unknown>;
  if (!Array.isArray(a) || a[0] !== VERSION || a.length !== fieldCount + 1)
    throw new Error(`unknown stored record format (${String(Array.isArray(a) ? a[0] : typeof a)})`);
  return record.unpack(a) as Record<string, unknown>;
}
