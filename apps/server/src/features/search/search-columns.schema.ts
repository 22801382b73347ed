import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  date,
  doublePrecision,
  integer,
  jsonb,
  text,
  type PgColumnBuilderBase,
} from 'drizzle-orm/pg-core';
import { SEARCH_COLUMNS, type SearchColumn, type SqlType } from './search-columns.ts';

/*
 * The search row's columns as db/schema.ts declares them, from search-columns.ts. A module of its own so
 * that the threads that read search-columns.ts (an import's, an index build's) never load Drizzle.
 */

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const BUILDERS: Record<SqlType, (name: string) => PgColumnBuilderBase> = {
  text: (name) => text(name),
  'double precision': (name) => doublePrecision(name),
  date: (name) => date(name, { mode: 'string' }),
  boolean: (name) => boolean(name),
  jsonb: (name) => jsonb(name),
  tsvector: (name) => tsvector(name),
  integer: (name) => integer(name),
  'text[]': (name) => text(name).array(),
  'integer[]': (name) => integer(name).array(),
};

function builder(c: SearchColumn): PgColumnBuilderBase {
  let b = BUILDERS[c.type](c.name) as PgColumnBuilderBase & {
    notNull(): PgColumnBuilderBase;
    default(v: unknown): PgColumnBuilderBase;
  };
  if ('notNull' in c && c.notNull) b = b.notNull() as typeof b;
  if ('defaultEmpty' in c && c.defaultEmpty) b = b.default(sql`'{}'`) as typeof b;
  return b;
}

/** db/schema.ts's columns of `properties` for the search row, by field. */
export function searchColumnSchema() {
  return Object.fromEntries(SEARCH_COLUMNS.map((c) => [c.field, builder(c)])) as {
    [C in SearchColumn as C['field']]: PgColumnBuilderBase;
  };
}
