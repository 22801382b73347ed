import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RECORD_FIELDS } from './record-fields.ts';

/*
 * The mapping file: how a town's own export becomes §3 records (docs/import-format.md, "Mappings").
 * A JSON document, checked here so that a mistake in it is one clear message naming where it is, before
 * any data is read. The engine that applies it is mapped-source.ts.
 */

export const TRANSFORMS = [
  'text',
  'number',
  'integer',
  'fraction',
  'stories',
  'date',
  'flag',
  'perThousand',
  'acres',
  'squareFeet',
  'streetNumber',
  'streetName',
  'unit',
  'zip',
  'book',
  'page',
  'mapLot',
  'account',
  'sum',
  'taxAmount',
] as const;
export type TransformName = (typeof TRANSFORMS)[number];

/** Transforms a template may apply to one placeholder: `{Location|unit}`. */
export const TEXT_TRANSFORMS = new Set<string>([
  'streetNumber',
  'streetName',
  'unit',
  'zip',
  'book',
  'page',
  'mapLot',
  'account',
]);

export interface ValueObject {
  column?: string;
  columns?: string[];
  /** The file (its `id`) the column(s) come from, when several files have a column of that name. */
  file?: string;
  constant?: string | number | boolean;
  template?: string;
  first?: ValueSpec[];
  transform?: TransformName;
  /** acres / squareFeet: the unit of the source, or the column that holds it. */
  units?: string;
  unitsColumn?: string;
  /** taxAmount: the rate (a fraction) when the tax row has no Rate. */
  rate?: number;
  lookup?: string;
  /** Cell values that mean "nothing" for this field only (e.g. a sale date of 1/1/1900). */
  empty?: string[];
  /** What a value the transform cannot read becomes: a problem (default) or nothing. */
  invalid?: 'problem' | 'empty';
  /** The column may be missing from the file (an optional part of a format). */
  optional?: boolean;
  /** For a user-defined value: its label (Description). */
  label?: string;
}
export type ValueSpec = string | ValueObject;

export type Condition =
  | {
      column: string;
      file?: string;
      equals?: string;
      in?: string[];
      notIn?: string[];
      matches?: string;
      empty?: boolean;
      flag?: boolean;
      optional?: boolean;
    }
  | { noRowsIn: string }
  /** True when any of these is (an item that has a date, or a price, or a book). */
  | { any: Condition[] };

export interface ItemSource {
  rows?: string;
  when?: Condition | Condition[];
  fields: Record<string, ValueSpec>;
}
export interface ListSpec {
  items: ItemSource[];
  sort?: string;
  unique?: string | true;
}

/**
 * The column that joins files, or alternatives tried in order; an alternative may be several columns
 * whose cells together are the key (files that share only map, block and lot parts).
 */
export type KeySpec = string | Array<string | string[]>;

export interface FileSpec {
  id: string;
  name?: string;
  key?: KeySpec;
  header?: boolean;
  delimiter?: string;
  many?: boolean;
  optional?: boolean;
}

export type CodeTable =
  | {
      file: string;
      code: string | number;
      value: string | number;
      when?: Condition | Condition[];
      wildcard?: string;
      missing?: 'empty' | 'keep';
    }
  | { values: Record<string, string>; wildcard?: string; missing?: 'empty' | 'keep' };

export interface Mapping {
  name?: string;
  description?: string;
  files?: FileSpec[];
  key?: KeySpec;
  emptyValues?: string[];
  /**
   * Fields the town's file has none of on purpose (a town that does not publish areas): the import
   * does not refuse the file for their being empty on every record.
   */
  absent?: string[];
  repeatedAccounts?: 'problem' | 'number';
  codeTables?: Record<string, CodeTable>;
  fields: Record<string, ValueSpec | ListSpec>;
}

const keyNames = (s: z.ZodString) => z.union([s, z.array(z.union([s, z.array(s).min(1)])).min(1)]);
const columnName = z.string().trim().min(1, { message: 'a column name is required' });

// A bare string is a column: read as { "column": … } so that a mistake is reported inside the object.
const valueSpec: z.ZodType<ValueSpec> = z.lazy(() =>
  z.preprocess(
    (v) => (typeof v === 'string' ? { column: v } : v),
    z
      .object({
        column: columnName.optional(),
        columns: z.array(columnName).min(1).optional(),
        file: z.string().optional(),
        constant: z.union([z.string(), z.number(), z.boolean()]).optional(),
        template: z.string().optional(),
        first: z.array(valueSpec).min(1).optional(),
        transform: z
          .enum(TRANSFORMS, {
            error: (i) => `unknown transform ${JSON.stringify(i.input)} (known: ${TRANSFORMS.join(', ')})`,
          })
          .optional(),
        units: z.string().optional(),
        unitsColumn: columnName.optional(),
        rate: z.number().optional(),
        lookup: z.string().optional(),
        empty: z.array(z.string()).optional(),
        invalid: z.enum(['problem', 'empty']).optional(),
        optional: z.boolean().optional(),
        label: z.string().optional(),
      })
      .strict()
      .refine(
        (v) =>
          [v.column, v.columns, v.constant, v.template, v.first].filter((x) => x !== undefined).length <= 1,
        { message: 'give only one of column, columns, constant, template, first' },
      )
      .refine(
        (v) =>
          [v.column, v.columns, v.constant, v.template, v.first].some((x) => x !== undefined) ||
          v.transform === 'taxAmount',
        { message: 'say where the value comes from: column, columns, constant, template or first' },
      ),
  ),
);

const condition: z.ZodType<Condition> = z.union([
  z.object({ noRowsIn: z.string() }).strict(),
  z.object({ any: z.array(z.lazy(() => condition)).min(1) }).strict(),
  z
    .object({
      column: columnName,
      file: z.string().optional(),
      equals: z.string().optional(),
      in: z.array(z.string()).optional(),
      notIn: z.array(z.string()).optional(),
      matches: z
        .string()
        .superRefine((s, ctx) => {
          const why = patternProblem(s);
          if (why) ctx.addIssue({ code: 'custom', message: why });
        })
        .optional(),
      empty: z.boolean().optional(),
      flag: z.boolean().optional(),
      optional: z.boolean().optional(),
    })
    .strict(),
]);
const conditions = z.union([condition, z.array(condition)]);

const listSpec = z
  .object({
    items: z
      .array(
        z
          .object({
            rows: z.string().optional(),
            when: conditions.optional(),
            fields: z.record(z.string(), valueSpec),
          })
          .strict(),
      )
      .min(1),
    sort: z
      .string()
      .regex(/^[A-Za-z]+( (asc|desc))?$/, { message: 'write a field name, then optionally asc or desc' })
      .optional(),
    unique: z.union([z.string(), z.literal(true)]).optional(),
  })
  .strict();

const MappingSchema = z
  .object({
    $schema: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    files: z
      .array(
        z
          .object({
            id: z.string().min(1),
            name: z.string().optional(),
            key: keyNames(columnName).optional(),
            header: z.boolean().optional(),
            delimiter: z.string().min(1).max(1).optional(),
            many: z.boolean().optional(),
            optional: z.boolean().optional(),
          })
          .strict(),
      )
      .min(1)
      .optional(),
    key: keyNames(columnName).optional(),
    emptyValues: z.array(z.string()).optional(),
    absent: z.array(z.string()).optional(),
    repeatedAccounts: z.enum(['problem', 'number']).optional(),
    codeTables: z
      .record(
        z.string(),
        z.union([
          z
            .object({
              file: z.string(),
              code: z.union([z.string(), z.number().int().min(1)]),
              value: z.union([z.string(), z.number().int().min(1)]),
              when: conditions.optional(),
              wildcard: z.string().length(1).optional(),
              missing: z.enum(['empty', 'keep']).optional(),
            })
            .strict(),
          z
            .object({
              values: z.record(z.string(), z.string()),
              wildcard: z.string().length(1).optional(),
              missing: z.enum(['empty', 'keep']).optional(),
            })
            .strict(),
        ]),
      )
      .optional(),
    fields: z.record(z.string(), z.unknown()),
  })
  .strict();

/** Longer patterns are refused: a condition tests a cell, not a document. */
const MAX_PATTERN = 200;

/**
 * Why a `matches` pattern is refused, or null. A repeated group that itself repeats or holds
 * alternatives (`(a+)+`, `(a|aa)*`) and back-references can take exponential time on a cell that
 * nearly matches, freezing the server; the patterns a condition needs (`^R`, `^(10|13)`, `CONDO`) have
 * none of them.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN) return `a pattern is at most ${MAX_PATTERN} characters`;
  try {
    new RegExp(pattern);
  } catch {
    return 'not a valid pattern';
  }
  if (/\\[1-9]|\\k</.test(pattern)) return 'back-references (\\1) are not allowed in a pattern';
  // Each open group: does it hold a quantifier or an alternative?
  const groups: Array<{ risky: boolean }> = [];
  let lastGroupRisky = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
      lastGroupRisky = false;
      continue;
    }
    if (c === '[') {
      // A character class: skip to its end (a "]" first in it is a literal).
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      lastGroupRisky = false;
      continue;
    }
    const quantifier =
      c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)));
    if (quantifier) {
      if (lastGroupRisky && c !== '?')
        return 'a repeated group may not itself repeat or hold alternatives (such as (a+)+): it can take hours to test';
      if (groups.length) groups[groups.length - 1]!.risky = true;
      lastGroupRisky = false;
      continue;
    }
    if (c === '(') {
      groups.push({ risky: false });
      // A group's kind (`(?:`, `(?=`, `(?<name>`) is not a quantifier.
      const kind = /^\(\?(?:[:=!]|<[=!]|<[A-Za-z_]\w*>)/.exec(pattern.slice(i));
      if (kind) i += kind[0].length - 1;
      lastGroupRisky = false;
      continue;
    }
    if (c === '|') {
      if (groups.length) groups[groups.length - 1]!.risky = true;
      lastGroupRisky = false;
      continue;
    }
    if (c === ')') {
      const g = groups.pop();
      lastGroupRisky = g?.risky ?? false;
      if (lastGroupRisky && groups.length) groups[groups.length - 1]!.risky = true;
      continue;
    }
    lastGroupRisky = false;
  }
  return null;
}

/** A checked `matches` pattern as the case-insensitive expression a condition tests. */
export function safePattern(pattern: string): RegExp {
  const why = patternProblem(pattern);
  if (why) throw new MappingError('pattern', [`${JSON.stringify(pattern)}: ${why}`]);
  return new RegExp(pattern, 'i');
}

/** A mapping file that cannot be used: each message names the place in the file. */
export class MappingError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`${source}: ${problems.join('; ')}`);
  }
}

const isListSpec = (spec: ValueSpec | ListSpec): spec is ListSpec =>
  typeof spec === 'object' && 'items' in spec;

/** Checks a parsed JSON value as a mapping; `source` names it in messages. */
export function readMapping(json: unknown, source: string): Mapping {
  const parsed = MappingSchema.safeParse(json);
  if (!parsed.success)
    throw new MappingError(
      source,
      parsed.error.issues
        .slice(0, 20)
        .map((i) => `${i.path.map(String).join('.') || 'the file'}: ${i.message}`),
    );
  const problems: string[] = [];
  const fields: Record<string, ValueSpec | ListSpec> = {};
  // The names as written: a parser drops `__proto__`, which must be refused like any other stranger.
  const raw = (json as { fields: Record<string, unknown> }).fields;
  for (const [field, spec] of Object.keys(raw).map((k) => [k, parsed.data.fields[k]] as const)) {
    const part = RECORD_FIELDS[field];
    if (!part) {
      problems.push(`fields.${field}: not a field of the property record (see docs/import-format.md)`);
      continue;
    }
    const list = part.k === 'list';
    if (list && (typeof spec !== 'object' || spec === null || !('items' in spec))) {
      problems.push(`fields.${field}: a list; write { "items": [ { "fields": { … } } ] }`);
      continue;
    }
    const one = (list ? listSpec : valueSpec).safeParse(spec);
    if (one.success) fields[field] = one.data;
    else
      problems.push(
        ...one.error.issues.map((i) => `${['fields', field, ...i.path.map(String)].join('.')}: ${i.message}`),
      );
  }
  const mapping = { ...parsed.data, fields } as Mapping;
  // Without a files list, the one file's id is "roll".
  const fileIds = new Set((mapping.files ?? [{ id: 'roll' }]).map((f) => f.id));
  const tables = new Set(Object.keys(mapping.codeTables ?? {}));
  const checkSpec = (spec: ValueSpec, where: string) => {
    if (typeof spec === 'string') return;
    if (spec.file !== undefined && !fileIds.has(spec.file))
      problems.push(`${where}: no file with id "${spec.file}" in files`);
    if (spec.lookup !== undefined && !tables.has(spec.lookup))
      problems.push(`${where}: no code table "${spec.lookup}" in codeTables`);
    if ((spec.transform === 'acres' || spec.transform === 'squareFeet') && !spec.units && !spec.unitsColumn)
      problems.push(`${where}: ${spec.transform} needs "units" (acres or squareFeet) or "unitsColumn"`);
    spec.first?.forEach((s, i) => checkSpec(s, `${where}.first.${i}`));
  };
  for (const [field, spec] of Object.entries(mapping.fields)) {
    const part = RECORD_FIELDS[field]!;
    if (part.k === 'list') {
      if (!isListSpec(spec)) continue;
      spec.items.forEach((item, i) => {
        if (item.rows !== undefined && !fileIds.has(item.rows))
          problems.push(`fields.${field}.items.${i}.rows: no file with id "${item.rows}" in files`);
        for (const [name, s] of Object.entries(item.fields)) {
          if (!(name in part.item))
            problems.push(`fields.${field}.items.${i}.fields.${name}: not a field of ${field}`);
          else checkSpec(s, `fields.${field}.items.${i}.fields.${name}`);
        }
      });
      const sortField = spec.sort?.split(' ')[0];
      if (sortField && !(sortField in part.item))
        problems.push(`fields.${field}.sort: not a field of ${field}`);
      if (typeof spec.unique === 'string' && !(spec.unique in part.item))
        problems.push(`fields.${field}.unique: not a field of ${field}`);
    } else if (isListSpec(spec)) {
      problems.push(`fields.${field}: not a list`);
    } else if (part.k === 'images') {
      problems.push(`fields.${field}: images cannot be mapped yet`);
    } else checkSpec(spec, `fields.${field}`);
  }
  for (const [i, field] of (mapping.absent ?? []).entries())
    if (!RECORD_FIELDS[field.split('.')[0]!])
      problems.push(`absent.${i}: ${JSON.stringify(field)} is not a field of the property record`);
  if (!('Account' in parsed.data.fields))
    problems.push('fields.Account: every mapping must say where the account comes from');
  if (problems.length) throw new MappingError(source, problems);
  return mapping;
}

/** Reads a mapping file from disk; `name` is what messages call it (an upload's own name). */
export function loadMappingFile(file: string, name = path.basename(file)): Mapping {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new MappingError(name, [
      `cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new MappingError(name, [`not valid JSON (${(err as Error).message})`]);
  }
  return readMapping(json, name);
}

export { isListSpec };
