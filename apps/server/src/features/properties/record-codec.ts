import { createHash } from 'node:crypto';
import { fastChecks, PropertyRecord } from '@opp/contracts';
import type { z } from 'zod';
import { generated, keyLiteral } from '../../lib/generated-code.ts';

/*
 * How a parcel's full record is stored (`property_records.record`): its values in the contract's field
 * order, without the field names, as JSON text: `[3, "R01-001", "12", …, [["SMITH, JOHN", "12 MAIN ST", …]], …]`
 * (3 is the format's version; an object of the record, alone or in a list, becomes the array of its
 * values in its schema's order). Its ValueHistory is not stored: the town's valuation history is a table
 * of its own (migrations/0022), which the record answer reads it from (properties.repository.ts). The
 * names are two thirds of a record's JSON (a 3.1 kB record is 1.0 kB packed), and every byte of it is
 * parsed, stored and indexed by the engine on import: packing makes importing a roll about a third
 * faster on both engines and its table a third of the size.
 *
 * The order is read from PropertyRecord (packages/contracts/src/property.ts), so the codec never holds
 * a field list of its own. A stored version is a layout of the contract: VERSIONS keeps the fingerprint
 * of each version's, and packing refuses a contract whose layout no version has (record-codec.test.ts
 * fails first). A field added to PropertyRecord therefore needs a new version here, and every older
 * version lists it as one it lacks: their rolls read back with its empty value (what the contract gives
 * a record that leaves it out), so a roll is never rewritten for a new field.
 *
 * Reading gives back exactly what JSON.stringify of the record writes (the contract's order, every field,
 * a field not stored at its empty value), which is what the API serves. Text that starts with `{` is a record stored whole by an earlier version,
 * and is served as it is: rolls are never rewritten.
 */

/**
 * Each stored version: the fingerprint (recordLayout, SHA-256) of the layout it stores, the fields of
 * PropertyRecord it does not store, read back at their empty value (fields added since; from version 3,
 * ValueHistory, which lives in its own table: migrations/0022), and the field it stores before all the
 * others, if any (version 2 stored ValueHistory first, for a publish that read it from the text). The
 * last one is the version packing writes.
 */
const VERSIONS: Record<
  number,
  { layout: string; lacks: readonly (keyof typeof PropertyRecord.shape)[]; first?: string }
> = {
  1: {
    layout: '6bb5bba53697c2531f60a7f03dac7b87f21b14b3eef3dfc24d1ef2f992248a60',
    lacks: ['ValueHistory', 'SuppressOwner'],
  },
  2: {
    layout: '418184dce2094179a0739074e1036598ea218541ed99a1abd8d77508de783713',
    lacks: [],
    first: 'ValueHistory',
  },
  3: { layout: '69fd83a811e6d5d562f2498d757a5fbcd50cbdab882041c78dcf883a49715184', lacks: ['ValueHistory'] },
};
const VERSION = Math.max(...Object.keys(VERSIONS).map(Number));

type Codec = { pack: (v: unknown) => unknown; unpack: (a: unknown) => unknown; layout: string };

/**
 * An object's values in its schema's order, compiled once into a function with fixed indexes and keys
 * (a loop over the keys costs several times more per record). Keys come from the contract, never from
 * input. `head`: a value the array starts with (the record's version), its fields after it. `first`: a
 * field stored before all the others whatever its place in the schema (it is read back in its place).
 * `absent`: fields not stored, read back at their empty value (what the schema gives a missing field).
 */
function objectCodec(
  object: z.ZodObject,
  options: { head?: number; first?: string; absent?: readonly string[] } = {},
): Codec & { stored: number } {
  const { head, first, absent = [] } = options;
  const keys = Object.keys(object.shape);
  const stored = keys.filter((k) => !absent.includes(k));
  const order = first && stored.includes(first) ? [first, ...stored.filter((k) => k !== first)] : stored;
  const fields = order.map((k) => codecOf(object.shape[k] as z.ZodType));
  const at = head === undefined ? 0 : 1;
  const packed = order.map((k, i) =>
    fields[i] === AS_IS ? `v[${keyLiteral(k)}]` : `fields[${i}].pack(v[${keyLiteral(k)}])`,
  );
  const unpacked = keys.map((k) => {
    const i = order.indexOf(k);
    // An absent field's empty value as a literal: a fresh list or object for each record read.
    if (i < 0) return `${keyLiteral(k)}: ${JSON.stringify((object.shape[k] as z.ZodType).parse(undefined))}`;
    return `${keyLiteral(k)}: ${fields[i] === AS_IS ? `a[${i + at}]` : `fields[${i}].unpack(a[${i + at}])`}`;
  });
  if (head !== undefined) packed.unshift(String(head));
  const compile = (body: string) => generated<Codec['pack']>({ fields }, body);
  return {
    pack: compile(`(v) => [${packed.join(', ')}]`),
    unpack: compile(`(a) => ({${unpacked.join(', ')}})`),
    layout: `{${order.map((k, i) => `${k}${fields[i]!.layout}`).join(',')}}`,
    stored: order.length,
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

/** Each version's reader (and, for the newest, writer), built the first time it is used. */
const codecs = new Map<number, ReturnType<typeof objectCodec>>();
function versionCodec(version: number) {
  let codec = codecs.get(version);
  if (!codec) {
    const { lacks, first } = VERSIONS[version]!;
    codec = objectCodec(PropertyRecord, { head: version, first, absent: lacks });
    codecs.set(version, codec);
  }
  return codec;
}
const record = versionCodec(VERSION);

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
    .every((v) => hash(versionCodec(v).layout) === VERSIONS[v]!.layout);
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
  const codec = Array.isArray(a) && typeof a[0] === 'number' && a[0] in VERSIONS ? versionCodec(a[0]) : null;
  if (!codec || (a as unknown[]).length !== codec.stored + 1)
    throw new Error(`unknown stored record format (${String(Array.isArray(a) ? a[0] : typeof a)})`);
  return codec.unpack(a) as Record<string, unknown>;
}
