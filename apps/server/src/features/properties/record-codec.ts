import type { PropertyRecord } from '@opp/contracts';
import { RECORD, UDV, type Part, type Shape } from '../imports/record-fast-path.ts';

/*
 * How a parcel's full record is stored (`properties.record`): its values in the contract's field order,
 * without the field names, as JSON text: `[1, "R01-001", "12", …, [["SMITH, JOHN", "12 MAIN ST", …]], …]`
 * (1 is this format's version; an object of the record becomes the array of its values, in RECORD's
 * order). The names are two thirds of a record's JSON (a 3.1 kB record is 1.0 kB packed), and every byte
 * of it is parsed, stored and indexed by the engine on import: packing makes importing a roll about a
 * third faster on both engines and its table a third of the size.
 *
 * Reading gives back exactly what JSON.stringify of the record writes (the contract's order, every field),
 * which is what the API serves. Text that starts with `{` is a record stored whole by an earlier version,
 * and is served as it is: rolls are never rewritten. A change to PropertyRecord (mirrored in
 * record-fast-path.ts) needs a new version here, and the old version's reader kept for old rolls.
 */

const VERSION = 1;

/**
 * A packer and an unpacker for one object shape, compiled once into functions with fixed array indexes
 * and object keys (as record-fast-path.ts compiles its readers: a loop over the keys costs several times
 * more per record). Keys come from the constant shapes, never from input.
 */
function compileShape(shape: Shape) {
  const keys = Object.keys(shape);
  const pack = new Function(
    `return function pack(v) { return [${keys.map((k) => `v[${JSON.stringify(k)}]`).join(', ')}]; };`,
  )() as (v: Record<string, unknown>) => unknown[];
  const unpack = new Function(
    `return function unpack(a) { return {${keys.map((k, i) => `${JSON.stringify(k)}: a[${i}]`).join(', ')}}; };`,
  )() as (a: unknown[]) => Record<string, unknown>;
  return { pack, unpack };
}

const shapes = new Map<Shape, ReturnType<typeof compileShape>>();
const codecOf = (shape: Shape) => {
  let codec = shapes.get(shape);
  if (!codec) shapes.set(shape, (codec = compileShape(shape)));
  return codec;
};

function packList(items: Record<string, unknown>[], pack: (v: Record<string, unknown>) => unknown[]) {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = pack(items[i]!);
  return out;
}

function unpackList(items: unknown[][], unpack: (a: unknown[]) => Record<string, unknown>) {
  const out = new Array<unknown>(items.length);
  for (let i = 0; i < items.length; i++) out[i] = unpack(items[i]!);
  return out;
}

const udv = codecOf(UDV);
const packUdv = (v: Record<string, unknown> | null) => (v === null ? null : udv.pack(v));
const unpackUdv = (a: unknown[] | null) => (a === null ? null : udv.unpack(a));

/** The record's packer and unpacker, compiled like the shapes' (a value's array index is its field's). */
const record = (() => {
  const entries = Object.entries(RECORD) as [string, Part][];
  const env: Record<string, unknown> = { packList, unpackList, packUdv, unpackUdv };
  const packed: string[] = [];
  const unpacked: string[] = [];
  entries.forEach(([key, part], i) => {
    const field = `v[${JSON.stringify(key)}]`;
    const slot = `a[${i + 1}]`;
    if (part.k === 'list') {
      const codec = codecOf(part.item);
      env[`pack${i}`] = codec.pack;
      env[`unpack${i}`] = codec.unpack;
      packed.push(`packList(${field}, pack${i})`);
      unpacked.push(`${JSON.stringify(key)}: unpackList(${slot}, unpack${i})`);
    } else if (part.k === 'udv') {
      packed.push(`packUdv(${field})`);
      unpacked.push(`${JSON.stringify(key)}: unpackUdv(${slot})`);
    } else {
      // Leaves, the account and the image list (an array of strings) are stored as they are.
      packed.push(field);
      unpacked.push(`${JSON.stringify(key)}: ${slot}`);
    }
  });
  const names = Object.keys(env);
  const values = Object.values(env);
  return {
    pack: new Function(
      ...names,
      `return function packRecord(v) { return [${VERSION}, ${packed.join(', ')}]; };`,
    )(...values) as (v: PropertyRecord) => unknown[],
    unpack: new Function(...names, `return function unpackRecord(a) { return {${unpacked.join(', ')}}; };`)(
      ...values,
    ) as (a: unknown[]) => PropertyRecord,
    fields: entries.length,
  };
})();

/** The stored form of a checked record (the contract's output, every field present). */
export function packRecord(r: PropertyRecord): string {
  return JSON.stringify(record.pack(r));
}

/**
 * A stored record as the JSON text of the record (what JSON.stringify(record) writes), from either
 * stored form. Throws on text this version cannot read (a later format, or damage): never serves a guess.
 */
export function unpackRecord(stored: string): string {
  if (stored.startsWith('{')) return stored;
  const a = JSON.parse(stored) as unknown[];
  if (!Array.isArray(a) || a[0] !== VERSION || a.length !== record.fields + 1)
    throw new Error(`unknown stored record format (${String(Array.isArray(a) ? a[0] : typeof a)})`);
  return JSON.stringify(record.unpack(a));
}
