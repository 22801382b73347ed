import { sql, type SQL } from 'drizzle-orm';
import type { SearchFilters, SortColumn } from '@opp/contracts';
import { queryRows, type Database } from '../../apps/server/src/db/database.ts';
import { SORT_COLUMN_OF } from '../../apps/server/src/features/search/search-columns.ts';
import type { SearchParams } from './shapes.ts';

/*
 * The naive baseline: what a straightforward implementation would send for the same shapes, run
 * directly against the same database in the same session. Every query word becomes ILIKE '%word%' on
 * the parcel's text, the total comes from count(*) over (), pages from ORDER BY … OFFSET. It uses the
 * same table (and so whatever indexes the planner finds useful), only not the search design.
 */

const SORT_COLUMN = Object.fromEntries(
  Object.entries(SORT_COLUMN_OF).map(([sort, c]) => [sort, `p.${c.name}`]),
) as Record<SortColumn, string>;

const PARCEL_TEXT = sql.raw(`concat_ws(' ', p.summary->>'Account', p.summary->>'MapLot',
  p.summary->>'StreetNumber', p.summary->>'Apartment', p.summary->>'StreetName',
  jsonb_path_query_array(p.summary, '$.Owners[*].OwnerName')::text)`);

const words = (q: string) => q.split(/[\s,]+/).filter(Boolean);

function filterSql(f: SearchFilters | undefined): SQL[] {
  const parts: SQL[] = [];
  const num = (v: unknown) => (v === undefined || v === '' || v === null ? undefined : Number(v));
  const range = (col: string, r: { start?: unknown; end?: unknown } | undefined) => {
    const a = num(r?.start);
    const b = num(r?.end);
    if (a !== undefined) parts.push(sql`${sql.raw(col)} >= ${a}`);
    if (b !== undefined) parts.push(sql`${sql.raw(col)} <= ${b}`);
  };
  range('p.sale_price', f?.sale?.price as { start?: unknown; end?: unknown } | undefined);
  const d = f?.sale?.date as { start?: string; end?: string } | undefined;
  if (d?.start) parts.push(sql`p.sale_date >= ${d.start}::date`);
  if (d?.end) parts.push(sql`p.sale_date <= ${d.end}::date`);
  range('p.total_acres', f?.land?.area as { start?: unknown; end?: unknown } | undefined);
  range('p.living_area', f?.building?.area as { start?: unknown; end?: unknown } | undefined);
  const types = f?.land?.type as string[] | undefined;
  if (types?.length) parts.push(sql`p.land_types && ${`{${types.map((t) => `"${t}"`).join(',')}}`}::text[]`);
  const styles = f?.building?.style as string[] | undefined;
  if (styles?.length)
    parts.push(sql`p.building_styles && ${`{${styles.map((t) => `"${t}"`).join(',')}}`}::text[]`);
  const bedrooms = num(f?.building?.bedrooms);
  if (bedrooms !== undefined) parts.push(sql`p.bedrooms >= ${bedrooms}`);
  const bathrooms = num(f?.building?.bathrooms);
  if (bathrooms !== undefined) parts.push(sql`p.bathrooms >= ${bathrooms}`);
  const own = f?.building?.ownership as string[] | undefined;
  if (own?.includes('commercial') && !own.includes('residential')) parts.push(sql`p.has_commercial`);
  if (own?.includes('residential') && !own.includes('commercial')) parts.push(sql`p.has_residential`);
  return parts;
}

function where(clientId: number, query: string, filters: SearchFilters | undefined): SQL {
  const parts: SQL[] = [sql`c.id = ${clientId}`];
  for (const w of words(query)) parts.push(sql`${PARCEL_TEXT} ilike ${`%${w}%`}`);
  parts.push(...filterSql(filters));
  return sql.join(parts, sql` and `);
}

export function naiveSearch(clientId: number, p: SearchParams, pageSize = 50): SQL {
  const column = SORT_COLUMN[p.sort?.sortby ?? 'Name'];
  const dir = p.sort?.descending ? 'desc' : 'asc';
  return sql`select p.summary, count(*) over () as total
    from properties p join clients c on p.roll_id = c.active_roll_id
    where ${where(clientId, p.query, p.filters)}
    order by ${sql.raw(`${column} ${dir} nulls last`)}, p.account
    offset ${(p.page - 1) * pageSize} limit ${pageSize}`;
}

export function naiveRecord(account: string, city: string, state: string): SQL {
  return sql`select p.record from properties p join clients c on p.roll_id = c.active_roll_id
    where c.city ilike ${city} and c.state_province = ${state} and p.account = ${account}`;
}

export function naiveSuggest(clientId: number, q: string): SQL {
  return sql`select p.summary from properties p join clients c on p.roll_id = c.active_roll_id
    where c.id = ${clientId} and ${PARCEL_TEXT} ilike ${`%${q}%`}
    order by p.name_key limit 60`;
}

export function naiveExport(clientId: number, rows: number): SQL {
  return sql`select p.summary from properties p join clients c on p.roll_id = c.active_roll_id
    where c.id = ${clientId} order by p.name_key nulls last, p.account offset 0 limit ${rows}`;
}

export async function timeQuery(database: Database, query: SQL): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const rows = await queryRows<unknown>(database.db, query);
  return { ms: performance.now() - started, rows: rows.length };
}
