import { sql, type SQL } from 'drizzle-orm';
import type { PropertySummary, SearchResult, SortColumn } from '@opp/contracts';
import { queryRows, type Db, type Executor } from '../../db/database.ts';
import { prefixTsQuery } from '../properties/search-text.ts';
import {
  RESULT_COLUMNS,
  RESULT_SELECT,
  SEARCH_COLUMNS,
  searchResultOf,
  SORT_COLUMN_OF,
  type FilterSpec,
  type ResultRow,
} from './search-columns.ts';

export interface NumberRange {
  min?: number;
  max?: number;
}

/** What one search asks of one roll; every part is optional except the roll. */
export interface SearchCriteria {
  rollId: number;
  /** Word prefixes that must all match ([a-z0-9]+ each, so safe inside a tsquery). */
  terms: string[];
  /**
   * Groups of word prefixes of which one of each must match: a partly typed word and what it may stand
   * for (`['3r', 'third']`, street-words.ts halfTypedReadings).
   */
  choices?: string[][];
  /** Whole words that must all match exactly ([a-z0-9]+ each): the finished words of a type-ahead entry. */
  words?: string[];
  /**
   * Prefixes checked on the rows the other terms found rather than through the word index: a one- or
   * two-letter prefix matches so many words that the index would read a large part of itself for it.
   */
  recheckTerms?: string[];
  /** Punctuated codes ([a-z0-9-]+) that must each start a map/lot, account, street number, apartment or book-page. */
  codes: string[];
  salePrice?: NumberRange;
  saleDate?: { from?: string; to?: string };
  acres?: NumberRange;
  livingArea?: NumberRange;
  landTypes?: string[];
  buildingStyles?: string[];
  minBedrooms?: number;
  minBathrooms?: number;
  ownership?: { residential: boolean; commercial: boolean };
  /** Any of the parcel's residences or commercial buildings was built in the range. */
  yearBuilt?: NumberRange;
  /**
   * The words must match without those only owner names give (a town whose owner names are not
   * searchable: properties/owner-privacy.ts). The roll index of such a town is built without them.
   */
  withoutOwnerNames?: boolean;
}

export interface SortKey {
  column: SortColumn;
  descending: boolean;
}

/** The column behind a public sort name (natural-order keys for the text columns), read as `p.…`. */
const sortExpr = (column: SortColumn) => sql.raw(`p.${SORT_COLUMN_OF[column].name}`);

const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

function addRange(parts: SQL[], column: SQL, range: NumberRange | undefined) {
  if (range?.min !== undefined) parts.push(sql`${column} >= ${range.min}`);
  if (range?.max !== undefined) parts.push(sql`${column} <= ${range.max}`);
}

/** The WHERE clause: all parameters, never input spliced into the text. */
function whereClause(c: SearchCriteria): SQL {
  const parts: SQL[] = [sql`p.roll_id = ${c.rollId}`];
  const words = c.words ?? [];
  // Without owner names: the word index finds the rows as usual (its matches include theirs), and each
  // is checked again on its words less the owner-only ones; no second word index to build on import.
  const doc = c.withoutOwnerNames ? sql`ts_delete(p.search_doc, p.owner_words)` : sql`p.search_doc`;
  if (c.terms.length > 0 || words.length > 0 || c.choices?.length) {
    const tsquery = [...words, prefixTsQuery(c.terms, c.choices)].filter(Boolean).join(' & ');
    parts.push(sql`p.search_doc @@ to_tsquery('simple', ${tsquery})`);
    if (c.withoutOwnerNames) parts.push(sql`ts_match_vq(${doc}, to_tsquery('simple', ${tsquery}))`);
  }
  if (c.recheckTerms?.length)
    // The function form of @@, which the planner cannot answer from the index.
    parts.push(sql`ts_match_vq(${doc}, to_tsquery('simple', ${prefixTsQuery(c.recheckTerms)}))`);
  for (const code of c.codes) {
    // The codes column holds codeKey() of the map/lot, account, number, apartment and book-page (migration
    // 0005); `code` holds only [a-z0-9-], so LIKE sees no wildcard. A recheck on the rows the words found.
    parts.push(sql`exists (select 1 from unnest(p.codes) as c(v) where c.v like ${`${code}%`})`);
  }
  const flags = new Map<string, SQL[]>();
  for (const column of SEARCH_COLUMNS) {
    const f: FilterSpec | undefined = column.filter;
    if (!f || c[f.criterion] === undefined) continue;
    const col = sql.raw(`p.${column.name}`);
    switch (f.test) {
      case 'range':
        addRange(parts, col, c[f.criterion]);
        break;
      case 'dateRange': {
        const { from, to } = c[f.criterion]!;
        if (from) parts.push(sql`${col} >= ${from}::date`);
        if (to) parts.push(sql`${col} <= ${to}::date`);
        break;
      }
      case 'atLeast':
        parts.push(sql`${col} >= ${c[f.criterion]}`);
        break;
      case 'anyOf':
        if (c[f.criterion]!.length) parts.push(sql`${col} && ${textArray(c[f.criterion]!)}`);
        break;
      case 'flag':
        if (c[f.criterion]![f.option]) flags.set(f.criterion, [...(flags.get(f.criterion) ?? []), col]);
        break;
      case 'anyInRange': {
        const { min, max } = c[f.criterion]!;
        if (min === undefined && max === undefined) break;
        const within: SQL[] = [];
        addRange(within, sql.raw('y.v'), { min, max });
        parts.push(sql`exists (select 1 from unnest(${col}) as y(v) where ${sql.join(within, sql` and `)})`);
        break;
      }
    }
  }
  // The flags of one criterion (residential, commercial) are alternatives.
  for (const any of flags.values()) parts.push(sql`(${sql.join(any, sql` or `)})`);
  return sql.join(parts, sql` and `);
}

/**
 * ORDER BY for the sort keys, then account as the tie-break so every row has one place and pages never
 * overlap. Empty values go last whichever the direction. `reverse` yields the exact mirror order, used
 * to read pages near the end from the end.
 */
function orderClause(keys: SortKey[], reverse: boolean): SQL {
  const dir = (descending: boolean) => sql.raw(descending !== reverse ? 'desc' : 'asc');
  const nulls = sql.raw(reverse ? 'nulls first' : 'nulls last');
  const items = keys.map((k) => sql`${sortExpr(k.column)} ${dir(k.descending)} ${nulls}`);
  items.push(sql`p.account_key ${dir(false)}`, sql`p.account ${dir(false)}`);
  return sql.join(items, sql`, `);
}

export interface PageWindow {
  offset: number;
  limit: number;
  /** Read in mirror order (the caller reverses the rows back). */
  reverse: boolean;
}

/** Columns the ORDER BY and the result may name, carried out of the fenced subquery. */
const FENCED_COLUMNS = sql.raw(
  [
    ...new Set([
      'summary',
      ...RESULT_COLUMNS.map((c) => c.name),
      ...Object.values(SORT_COLUMN_OF).map((c) => c.name),
      'account_key',
      'account',
    ]),
  ]
    .map((name) => `p.${name}`)
    .join(', '),
);
/** What a page or an export reads of each row (search-columns.ts: the summary and the result columns). */
const RESULT = sql.raw(RESULT_SELECT);

export const searchRepository = {
  /** The exact number of matches. Reads every match: for deep pages and small results. */
  async count(db: Executor, c: SearchCriteria): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from properties p where ${whereClause(c)}`,
    );
    return rows[0]?.n ?? 0;
  },

  /** The number of matches, reading at most `cap + 1` of them: `cap + 1` means "more than cap". */
  async countUpTo(db: Executor, c: SearchCriteria, cap: number): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from (select 1 from properties p where ${whereClause(c)} limit ${cap + 1}) m`,
    );
    return rows[0]?.n ?? 0;
  },

  /** The planner's estimate of the number of matches (from table statistics; reads no rows). */
  async estimate(db: Executor, c: SearchCriteria): Promise<number> {
    const rows = await queryRows<Record<string, unknown>>(
      db,
      sql`explain (format json) select 1 from properties p where ${whereClause(c)}`,
    );
    const raw = rows[0] ? Object.values(rows[0])[0] : null;
    const plan = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{
      Plan?: { 'Plan Rows'?: number };
    }>;
    return Math.round(plan?.[0]?.Plan?.['Plan Rows'] ?? 0);
  },

  /**
   * One page in sort order. `fenced` plans the match first and sorts the matches (right when they are
   * few); otherwise the planner may walk a sort index and filter as it goes (right when they are many
   * and spread through the order, as the first page of a broad search is).
   */
  async page(
    db: Executor,
    c: SearchCriteria,
    sort: SortKey[],
    w: PageWindow,
    options: { fenced?: boolean } = {},
  ): Promise<SearchResult[]> {
    const order = orderClause(sort, w.reverse);
    const query = options.fenced
      ? // OFFSET 0 keeps the planner from pushing the ORDER BY into the scan of the subquery.
        sql`select ${RESULT} from (select ${FENCED_COLUMNS} from properties p where ${whereClause(c)} offset 0) p
            order by ${order} limit ${w.limit} offset ${w.offset}`
      : sql`select ${RESULT} from properties p where ${whereClause(c)}
            order by ${order} limit ${w.limit} offset ${w.offset}`;
    const rows = await queryRows<ResultRow>(db, query);
    const results = rows.map(searchResultOf);
    return w.reverse ? results.reverse() : results;
  },

  /**
   * Every row of a result in sort order (at most `maxRows`), read through one cursor in one transaction:
   * a single scan and a single snapshot, however many batches it takes, so a roll published meanwhile
   * cannot mix into the file.
   */
  async forEachBatch(
    db: Db,
    c: SearchCriteria,
    sort: SortKey[],
    options: { maxRows: number; batch: number; fenced: boolean },
    onBatch: (rows: SearchResult[]) => void,
  ): Promise<void> {
    const order = orderClause(sort, false);
    const query = options.fenced
      ? sql`select ${RESULT} from (select ${FENCED_COLUMNS} from properties p where ${whereClause(c)} offset 0) p
            order by ${order} limit ${options.maxRows}`
      : sql`select ${RESULT} from properties p where ${whereClause(c)} order by ${order} limit ${options.maxRows}`;
    await db.transaction(async (tx) => {
      await tx.execute(sql`declare export_rows no scroll cursor for ${query}`);
      for (;;) {
        const rows = await queryRows<ResultRow>(
          tx,
          sql`fetch ${sql.raw(String(Math.trunc(options.batch)))} from export_rows`,
        );
        if (rows.length === 0) break;
        onBatch(rows.map(searchResultOf));
      }
    });
  },

  /**
   * Some matching parcels for type-ahead, in no particular order: sorting every match of a two-letter
   * prefix would cost more than the whole answer may. The service ranks what comes back.
   */
  async suggestCandidates(db: Executor, c: SearchCriteria, limit: number): Promise<PropertySummary[]> {
    const rows = await queryRows<{ summary: PropertySummary }>(
      db,
      sql`select p.summary from properties p where ${whereClause(c)} limit ${limit}`,
    );
    return rows.map((r) => r.summary);
  },

  /** Distinct land types and building styles present in a roll. */
  async landBuilding(
    db: Executor,
    rollId: number,
  ): Promise<{ landTypes: string[]; buildingStyles: string[] }> {
    const [land, styles] = await Promise.all([
      queryRows<{ v: string }>(
        db,
        sql`select distinct t.v from properties p cross join lateral unnest(p.land_types) as t(v)
             where p.roll_id = ${rollId}`,
      ),
      queryRows<{ v: string }>(
        db,
        sql`select distinct t.v from properties p cross join lateral unnest(p.building_styles) as t(v)
             where p.roll_id = ${rollId}`,
      ),
    ]);
    return { landTypes: land.map((r) => r.v), buildingStyles: styles.map((r) => r.v) };
  },
};
