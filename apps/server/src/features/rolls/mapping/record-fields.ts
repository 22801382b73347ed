import { fastChecks, PropertyRecord } from '@opp/contracts';
import type { z } from 'zod';

/*
 * The §3 record's fields as a mapping sees them, read from the contract itself (packages/contracts): what
 * kind of value each takes, which are lists and what their items hold. A field added to the record is a
 * field a mapping can fill, with nothing to change here.
 */

export type Kind = 'text' | 'number' | 'integer' | 'date' | 'flag';

export type FieldPart =
  { k: 'value'; kind: Kind } | { k: 'udv' } | { k: 'list'; item: Record<string, Kind> } | { k: 'images' };

function kindOf(schema: z.ZodType): Kind {
  const check = fastChecks.get(schema);
  if (check?.k === 'num') return 'number';
  if (check?.k === 'int') return 'integer';
  if (check?.k === 'date') return 'date';
  if (check?.k === 'flag') return 'flag';
  return 'text';
}

function partOf(schema: z.ZodType): FieldPart {
  const check = fastChecks.get(schema);
  if (check?.k === 'optObject') return { k: 'udv' };
  if (check?.k === 'list') {
    // Read as a plain object: the item's full zod type is too deep for the compiler to follow here.
    const shape = (check.item as unknown as { shape?: Record<string, z.ZodType> }).shape;
    if (!shape) return { k: 'images' };
    const item: Record<string, Kind> = Object.create(null) as Record<string, Kind>;
    for (const [name, s] of Object.entries(shape)) item[name] = kindOf(s);
    return { k: 'list', item };
  }
  return { k: 'value', kind: kindOf(schema) };
}

/**
 * Every field of the record, in the contract's order. Without a prototype: a mapping's field name
 * (`constructor`, `toString`) is looked up among the record's fields only, never among an object's.
 */
export const RECORD_FIELDS: Record<string, FieldPart> = Object.assign(
  Object.create(null) as Record<string, FieldPart>,
  Object.fromEntries(
    Object.entries(PropertyRecord.shape).map(([name, schema]) => [name, partOf(schema as z.ZodType)]),
  ),
);
