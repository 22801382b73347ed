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
 * fails first). A field added to PropertyRecord therefore needs a new version here, and every older
 * version lists it as one it lacks: their rolls read back with its empty value (what the contract gives
 * a record that leaves it out), so a roll is never rewritten for a new field.
 *
 * Reading gives back exactly what JSON.stringify of the record writes (the contract's order, every field),
 * which is what the API serves. Text that starts with `{` is a record stored whole by an earlier version,
 * and is served as it is: rolls are never rewritten.
 */

/**
 * Each stored version: the fingerprint (recordLayout, SHA-256) of the layout it stores, and the fields of
 * PropertyRecord it does not (added since). The last one is the version packing writes.
 */
const VERSIONS: Record<number, { layout: string; lacks: readonly (keyof typeof PropertyRecord.shape)[] }> = {
  1: {
    layout: '6bb5bba53697c2531f60a7f03dac7b87f21b14b3eef3dfc24d1ef2f992248a60',
    lacks: ['ValueHistory', 'SuppressOwner'],
  },
  2: { layout: '418184dce2094179a0739074e1036598ea218541ed99a1abd8d77508de783713', lacks: [] },
};
const VERSION = Math.max(...Object.keys(VERSIONS).map(Number));

type Codec = { pack: (v: unknown) => unknown; unpack: (a: unknown) => unknown; layout: string };

/**
 * An object's values in its schema's order, compiled once into a function with fixed indexes and keys
 * (a loop over the keys costs several times more per record). Keys come from the contract, never from
 * input. `head`: a value the array starts with (the record's version), its fields after it. `first`: a
 * field stored before all the others whatever its place in the schema (it is read back in its place).
 */
function objectCodec(object: z.ZodObject, head?: number, first?: string): Codec {
  const keys = Object.keys(object.shape);
  const order = first && keys.includes(first) ? [first, ...keys.filter((k) => k !== first)] : keys;
  const fields = order.map((k) => codecOf(object.shape[k] as z.ZodType));
  const at = head === undefined ? 0 : 1;
  const packed = order.map((k, i) =>
    fields[i] === AS_IS ? `v[${JSON.stringify(k)}]` : `fields[${i}].pack(v[${JSON.stringify(k)}])`,
  );
  const unpacked = keys.map((k) => {
    const i = order.indexOf(k);
    return `${JSON.stringify(k)}: ${fields[i] === AS_IS ? `a[${i + at}]` : `fields[${i}].unpack(a[${i + at}])`}`;
  });
  if (head !== undefined) packed.unshift(String(head));
  const compile = (body: string) => new Function('fields', `return ${body};`)(fields) as Codec['pack'];
  return {
    pack: compile(`(v) => [${packed.join(', ')}]`),
    unpack: compile(`(a) => ({${unpacked.join(', ')}})`),
    layout: `{${order.map((k, i) => `${k}${fields[i]!.layout}`).join(',')}}`,
  };
}

/**
 * The field stored first in a record's array from version 2 on, right after the version: publishing the
 * next roll reads it in SQL from the stored text without parsing the record (rolls.repository.ts
 * carriedHistory). Its items are arrays of numbers only, so the list is `[]`, or the text from the
 * record's `[v,` up to its first `]]`: a few bytes read, whatever the record's size.
 */
export const STORED_FIRST = 'ValueHistory';
/** The versions that store STORED_FIRST (first: every version that has it). */
export const STORED_FIRST_VERSIONS = Object.keys(VERSIONS)
  .map(Number)
  .filter((v) => !VERSIONS[v]!.lacks.includes(STORED_FIRST));

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

const record = objectCodec(PropertyRecord, VERSION, STORED_FIRST);
const fieldCount = Object.keys(PropertyRecord.shape).length;

/**
 * A reader of an older version's stored records: its fields unpacked by its own layout (the contract
 * without the fields it lacks), then the record in the contract's order, a lacking field at its empty
 * value. Built the first time such a record is read.
 */
function olderReader(version: number): { fields: number; layout: string; unpack: (a: unknown[]) => unknown } {
  const { lacks } = VERSIONS[version]!;
  const schema = PropertyRecord.omit(
    Object.fromEntries(lacks.map((f) => [f, true])) as Partial<Record<(typeof lacks)[number], true>>,
  );
  const codec = objectCodec(schema, version);
  const empty = Object.fromEntries(lacks.map((f) => [f, PropertyRecord.shape[f].parse(undefined)]));
  const keys = Object.keys(PropertyRecord.shape);
  return {
    fields: Object.keys(schema.shape).length,
    layout: codec.layout,
    unpack: (a) => {
      const old = codec.unpack(a) as Record<string, unknown>;
      // Lists and objects are fresh values for each record: nothing read is shared between records.
      return Object.fromEntries(keys.map((k) => [k, k in empty ? structuredClone(empty[k]) : old[k]]));
    },
  };
}
const olderReaders = new Map<number, ReturnType<typeof olderReader>>();

const hash = (layout: string) => createHash('sha256').update(layout).digest('hex');
/** The contract's layout as the codec stores it: every field, in order, with its objects' fields. */
export const recordLayout = record.layout;
const layoutHash = hash(recordLayout);
/** Whether the contract's layout is the one this version stores (false: a new version is needed). */
export const layoutIsCurrent = VERSIONS[VERSION]!.layout === layoutHash;
export { layoutHash as recordLayoutHash };

/** Whether each older version's reader still reads the layout its fingerprint names (record-codec.test.ts). */
export function olderLayoutsHold(): boolean {
  return Object.keys(VERSIONS)
    .map(Number)
    .filter((v) => v !== VERSION)
    .every((v) => hash(readerOf(v).layout) === VERSIONS[v]!.layout);
}

function readerOf(version: number) {
  let reader = olderReaders.get(version);
  if (!reader) olderReaders.set(version, (reader = olderReader(version)));
  return reader;
}

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
  if (Array.isArray(a) && a[0] === VERSION && a.length === fieldCount + 1)
    return record.unpack(a) as Record<string, unknown>;
  const older = Array.isArray(a) && typeof a[0] === 'number' && a[0] in VERSIONS ? readerOf(a[0]) : null;
  if (!older || (a as unknown[]).length !== older.fields + 1)
    throw new Error(`unknown stored record format (${String(Array.isArray(a) ? a[0] : typeof a)})`);
  return older.unpack(a as unknown[]) as Record<string, unknown>;
}
