import {
  DEFAULT_PAGE_SIZE,
  formatLocation,
  MAX_EXPORT_ROWS,
  MAX_RESULT_POINTS,
  MAX_SUGGESTIONS,
  type LandBuildingOptions,
  type ParsedSearchFilters,
  type PropertySummary,
  type ResultPoints,
  type SearchResponse,
  type SearchResult,
  type SortSpec,
  type Suggestion,
} from '@opp/contracts';
import { Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { Db, Executor } from '../../db/database.ts';
import { validationFailed } from '../../errors.ts';
import { inTurn } from '../../lib/cpu-turns.ts';
import { publicClientsService, rollDatesOf } from '../clients/clients.service.ts';
import type { ClientRow } from '../clients/clients.repository.ts';
import type { ParcelsService } from '../parcels/parcels.service.ts';
import { codeKey, fold, indexTerms, queryParts, type QueryPart } from '../properties/search-text.ts';
import { csvRow } from '../../lib/csv.ts';
import { EXPORT_COLUMNS } from './search-csv.ts';
import {
  searchRepository,
  type NumberRange,
  type PageWindow,
  type SearchCriteria,
  type SortKey,
} from './search.repository.ts';
import type { RollIndex } from './roll-index/roll-index.ts';
import type { RollIndexRegistry } from './roll-index/roll-index.registry.ts';
import { rollIndexRepository } from './roll-index/roll-index.repository.ts';
import {
  ownerNamesPublished,
  ownerNamesSearchable,
  publicSummaries,
  searchableSummaries,
} from '../properties/owner-privacy.ts';

/** What a search asks, as parsed by the contracts (SearchQuerystring, SearchBody, ExportQuerystring). */
export interface SearchRequest {
  query?: string;
  filters?: ParsedSearchFilters;
  sort?: SortSpec[];
}

/** More words than this is not a property search; it would only make the index work harder. */
export const MAX_QUERY_WORDS = 12;
const DEFAULT_SORT: SortKey[] = [{ column: 'Name', descending: false }];
const EXPORT_BATCH = 2_000;
const SUGGEST_CANDIDATES = 60;

/** A partly typed word as a group of choices: itself or what it may stand for (`['3r', 'third']`). */
const choicesOf = (p: QueryPart) => [p.term, ...p.readings];

/**
 * The query's words as the index reads them: `terms`, and `choices` for the words that may be a street
 * suffix or ordinal partly typed (`212 3r` is 212 3R… or 212 THIRD). A word that is a prefix of another
 * word is implied by it (`sm smith`), so it is dropped. Throws 400 naming `query` for a query with no
 * letter or digit at all (only punctuation, such as `%` or `.*`), or for more than MAX_QUERY_WORDS words.
 */
export function parseQuery(
  query: string | undefined,
  field = 'query',
): { terms: string[]; codes: string[]; choices: string[][] } {
  if (!query || query.trim() === '') return { terms: [], codes: [], choices: [] };
  const parts = queryParts(query);
  if (parts.length === 0) throw validationFailed(field, 'must contain at least one letter or digit');
  const unique = [...new Set(parts.filter((p) => p.readings.length === 0).map((p) => p.term))];
  const terms = unique.filter((t) => !unique.some((o) => o !== t && o.startsWith(t)));
  const groups = new Map(parts.filter((p) => p.readings.length > 0).map((p) => [p.term, choicesOf(p)]));
  const choices = [...groups.values()];
  if (terms.length + choices.length > MAX_QUERY_WORDS)
    throw validationFailed(field, `may hold at most ${MAX_QUERY_WORDS} words`);
  const codes = [...new Set(parts.map((p) => p.code).filter((c): c is string => c !== null))];
  return { terms, codes, choices };
}

/**
 * The original web form sends 0 for an empty number box (spec §4: zeros "become empty" on restore), so 0
 * in a range, bedrooms or bathrooms means "not set".
 */
const set = (n: number | undefined) => (n === undefined || n === 0 ? undefined : n);

function numberRange(
  field: string,
  r: { start?: number; end?: number } | undefined,
): NumberRange | undefined {
  const min = set(r?.start);
  const max = set(r?.end);
  if (min === undefined && max === undefined) return undefined;
  if (min !== undefined && max !== undefined && min > max)
    throw validationFailed(field, 'the start must not be greater than the end');
  return { min, max };
}

const cleanList = (values: string[] | undefined) => {
  const list = [...new Set((values ?? []).map((v) => v.trim()).filter(Boolean))];
  return list.length > 0 ? list : undefined;
};

/** Search criteria for a roll from the parsed request. Throws 400 naming the field for contradictions. */
export function buildCriteria(rollId: number, query: string | undefined, f: ParsedSearchFilters = {}) {
  const { terms, codes, choices } = parseQuery(query);
  const criteria: SearchCriteria = { rollId, terms, codes, ...(choices.length > 0 ? { choices } : {}) };
  criteria.salePrice = numberRange('filters.sale.price', f.sale?.price);
  const from = f.sale?.date?.start;
  const to = f.sale?.date?.end;
  if (from && to && from > to)
    throw validationFailed('filters.sale.date', 'the start must not be after the end');
  if (from || to) criteria.saleDate = { from, to };
  criteria.acres = numberRange('filters.land.area', f.land?.area);
  criteria.livingArea = numberRange('filters.building.area', f.building?.area);
  criteria.landTypes = cleanList(f.land?.type);
  criteria.buildingStyles = cleanList(f.building?.style);
  criteria.minBedrooms = set(f.building?.bedrooms);
  criteria.minBathrooms = set(f.building?.bathrooms);
  criteria.yearBuilt = numberRange('filters.building.yearBuilt', f.building?.yearBuilt);
  const ownership = f.building?.ownership ?? [];
  if (ownership.length > 0)
    criteria.ownership = {
      residential: ownership.includes('residential'),
      commercial: ownership.includes('commercial'),
    };
  return criteria;
}

const isUnfiltered = (c: SearchCriteria) =>
  c.terms.length === 0 &&
  c.codes.length === 0 &&
  Object.entries(c).every(
    ([k, v]) => ['rollId', 'terms', 'codes', 'withoutOwnerNames'].includes(k) || v === undefined,
  );

/**
 * A request's criteria for the client's published roll, its owner settings applied: where owner names
 * are not searchable the words match without them (properties/owner-privacy.ts).
 */
function publicCriteria(client: ClientRow, request: SearchRequest): SearchCriteria {
  const criteria = buildCriteria(client.activeRollId ?? 0, request.query, request.filters);
  if (!ownerNamesSearchable(client)) criteria.withoutOwnerNames = true;
  return criteria;
}

/** The sort, except that where owner names are withheld, their order is too: Name sorts by Location. */
function publicSort(client: ClientRow, sort: SortSpec[] | undefined): SortKey[] {
  const keys = sortKeys(sort);
  if (ownerNamesPublished(client)) return keys;
  return sortKeys(
    keys.map((k) => ({ sortby: k.column === 'Name' ? 'Location' : k.column, descending: k.descending })),
  );
}

/** Export rows as CSV lines, owners as the public may see them. */
const csvLines = (client: ClientRow, rows: SearchResult[]) =>
  publicSummaries(client, rows)
    .map((s) => csvRow(EXPORT_COLUMNS.map((c) => c.value(s))))
    .join('');

/** The sort list with repeated columns dropped (the first wins); Name ascending when none is given. */
export function sortKeys(sort: SortSpec[] | undefined): SortKey[] {
  const keys: SortKey[] = [];
  for (const s of sort ?? [])
    if (!keys.some((k) => k.column === s.sortby)) keys.push({ column: s.sortby, descending: s.descending });
  return keys.length > 0 ? keys : DEFAULT_SORT;
}

/**
 * The rows of a page, read from whichever end is nearer: the last page of a million rows is the first
 * page of the mirror order, so no query skips more than half the result.
 */
export function pageWindow(offset: number, limit: number, total: number): PageWindow | null {
  if (offset >= total) return null;
  const size = Math.min(limit, total - offset);
  const fromEnd = total - offset - size;
  return fromEnd < offset
    ? { offset: fromEnd, limit: size, reverse: true }
    : { offset, limit: size, reverse: false };
}

/**
 * Results up to this size are counted exactly and sorted after matching; past it the total is the
 * planner's estimate (TotalIsEstimate) unless a page past it is asked for, which needs the exact count.
 */
export const EXACT_COUNT_LIMIT = 5_000;

interface Counted {
  total: number;
  estimated: boolean;
}

/**
 * Exact when small, estimated when large, and never more than `limit` rows read to tell: the planner's
 * estimate (table statistics, no rows read) decides whether counting is worth it (a result it expects
 * to be more than twice the limit is not counted at all), and the count stops one row past the limit.
 */
async function countMatches(
  db: Executor,
  criteria: SearchCriteria,
  rollSize: number,
  limit = EXACT_COUNT_LIMIT,
): Promise<Counted> {
  // A town no bigger than the limit is always counted; and no estimate exceeds the roll.
  const estimate = rollSize <= limit ? 0 : Math.min(await searchRepository.estimate(db, criteria), rollSize);
  if (estimate > 2 * limit) return { total: estimate, estimated: true };
  const upTo = await searchRepository.countUpTo(db, criteria, limit);
  if (upTo <= limit) return { total: upTo, estimated: false };
  return { total: Math.max(estimate, limit + 1), estimated: true };
}

/**
 * Whether to read a page by matching first and sorting the matches (cost: every match) rather than by
 * walking the sort order and filtering (cost: about (offset + limit) / share-of-the-roll-matching rows).
 */
export function sortAfterMatching(counted: Counted, rollSize: number, end: number): boolean {
  if (!counted.estimated) return true;
  const share = Math.min(1, counted.total / Math.max(rollSize, 1));
  return share === 0 || counted.total < end / share;
}

/**
 * A search's total and, with the roll index, its first `max` rows in sort order (null without: the rows
 * are then read in batches through SQL). Exact up to `max`, as the export's header and the map need.
 */
async function firstMatches(
  db: Executor,
  client: ClientRow,
  criteria: SearchCriteria,
  sort: SortKey[],
  index: RollIndex | null,
  max: number,
): Promise<Counted & { ordered: number[] | null }> {
  if (index) {
    const found = await inTurn(() =>
      index.search(criteria, sort, (t) => ({ offset: 0, limit: Math.min(t, max), reverse: false })),
    );
    return { total: found.total, estimated: false, ordered: found.rows };
  }
  if (client.activeRollId === null) return { total: 0, estimated: false, ordered: null };
  if (isUnfiltered(criteria)) return { total: client.parcelCount, estimated: false, ordered: null };
  return { ...(await countMatches(db, criteria, client.parcelCount, max)), ordered: null };
}

/** The search results of an index's rows, in that order, by primary key. */
function resultsOf(
  db: Executor,
  index: RollIndex,
  rows: number[],
  options?: { summaryOnly?: boolean },
): Promise<SearchResult[]> {
  return rollIndexRepository.results(
    db,
    index.rollId,
    rows.map((r) => index.account(r)),
    options,
  );
}

async function countAndPage(
  db: Executor,
  client: ClientRow,
  criteria: SearchCriteria,
  sort: SortKey[],
  offset: number,
  limit: number,
): Promise<Counted & { rows: SearchResult[] }> {
  if (isUnfiltered(criteria)) {
    // The publish step stores the roll's row count; nothing needs counting.
    const total = client.parcelCount;
    const w = pageWindow(offset, limit, total);
    return { total, estimated: false, rows: w ? await searchRepository.page(db, criteria, sort, w) : [] };
  }
  let counted = await countMatches(db, criteria, client.parcelCount);
  if (counted.estimated && offset + limit > EXACT_COUNT_LIMIT)
    counted = { total: await searchRepository.count(db, criteria), estimated: false };
  const fenced = sortAfterMatching(counted, client.parcelCount, offset + limit);
  const w = counted.estimated ? { offset, limit, reverse: false } : pageWindow(offset, limit, counted.total);
  return { ...counted, rows: w ? await searchRepository.page(db, criteria, sort, w, { fenced }) : [] };
}

/** A checked export request: what exportCsv reads. */
export interface ExportPlan {
  client: ClientRow;
  criteria: SearchCriteria;
  sort: SortKey[];
}

const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true }).compare;

/**
 * The search service of an app, over its roll indexes (`app.rollIndexes`; null: every search uses SQL).
 * It keeps each roll's land types and building styles, asked on every Advanced Search.
 */
export function createSearchService(indexes: RollIndexRegistry | null) {
  /** The client's roll index when this node has it ready (or can build it now), else null: use SQL. */
  const indexOf = async (client: ClientRow): Promise<RollIndex | null> =>
    indexes && client.activeRollId !== null
      ? indexes.forRoll(client.id, client.activeRollId, client.parcelCount, !ownerNamesSearchable(client))
      : null;
  // A roll never changes once published, so its entry is good until it is replaced; a few are kept.
  const landBuildingCache = new LRUCache<number, LandBuildingOptions, { db: Executor; client: ClientRow }>({
    max: 64,
    fetchMethod: async (rollId, _stale, { context: { db, client } }) => {
      const index = await indexOf(client);
      const r = index ? index.landBuilding() : await searchRepository.landBuilding(db, rollId);
      return { landType: r.landTypes.sort(byName), buildingStyle: r.buildingStyles.sort(byName) };
    },
  });

  return {
    /**
     * `POST /api/propertysearch/{clientId}`: one page of the active roll's matching parcels, with totals.
     * A page past the end is empty with the right totals. Throws 404 for an unknown or inactive client
     * and 400 naming the field for input that cannot be searched.
     */
    async search(
      db: Executor,
      clientId: number,
      request: SearchRequest & { page?: number; pageSize?: number },
    ): Promise<SearchResponse> {
      const client = await publicClientsService.requireVisible(db, clientId);
      const page = request.page ?? 1;
      const pageSize = request.pageSize ?? DEFAULT_PAGE_SIZE;
      const sort = publicSort(client, request.sort);
      // Built even for a town with no roll yet, so bad input is a 400 whatever the town's state.
      const criteria = publicCriteria(client, request);
      const offset = (page - 1) * pageSize;
      const index = await indexOf(client);
      let answer: Counted & { rows: SearchResult[] };
      if (client.activeRollId === null) answer = { total: 0, estimated: false, rows: [] };
      else if (index) {
        // Exact totals whatever the size: the index counts in memory.
        const found = await inTurn(() =>
          index.search(criteria, sort, (total) => pageWindow(offset, pageSize, total)),
        );
        answer = { total: found.total, estimated: false, rows: await resultsOf(db, index, found.rows) };
      } else answer = await countAndPage(db, client, criteria, sort, offset, pageSize);
      const { total, estimated, rows } = answer;
      return {
        SearchProperties: publicSummaries(client, rows),
        PageSize: pageSize,
        PageNumber: page,
        Pages: Math.ceil(total / pageSize),
        TotalRecords: total,
        TotalIsEstimate: estimated,
        ...(await rollDatesOf(db, client)),
      };
    },

    /** The active client whose roll the other calls read; 404 for unknown and inactive clients. */
    publicClient(db: Executor, clientId: number): Promise<ClientRow> {
      return publicClientsService.requireVisible(db, clientId);
    },

    /**
     * The whole result of a search as CSV (header row first, at most MAX_EXPORT_ROWS rows, in sort order)
     * as a stream, for a plan from planExport (which checks the input: 400 naming the field). The rows are read in
     * one pass as fast as the database gives them, not as fast as the client takes them: a slow download
     * must not hold a database connection (the embedded engine has only one).
     */
    planExport(client: ClientRow, request: SearchRequest): ExportPlan {
      return {
        client,
        criteria: publicCriteria(client, request),
        sort: publicSort(client, request.sort),
      };
    },

    async exportCsv(db: Db, { client, criteria, sort }: ExportPlan) {
      const index = await indexOf(client);
      const { total, estimated, ordered } = await firstMatches(
        db,
        client,
        criteria,
        sort,
        index,
        MAX_EXPORT_ROWS,
      );
      const unfiltered = isUnfiltered(criteria);
      const rowCount = Math.min(total, MAX_EXPORT_ROWS);
      const stream = new Readable({ read() {} });
      const push = (text: string) => {
        // The client went away: stop reading (the error ends the transaction).
        if (stream.destroyed) throw new Error('CSV export abandoned by the client');
        stream.push(text);
      };
      const produce = async () => {
        // A byte-order mark lets spreadsheet programs read the accents in owner names as UTF-8.
        push(`\uFEFF${csvRow(EXPORT_COLUMNS.map((c) => c.header))}`);
        if (rowCount === 0) return;
        if (index && ordered) {
          for (let i = 0; i < ordered.length; i += EXPORT_BATCH) {
            const want = ordered.slice(i, i + EXPORT_BATCH);
            const rows = await resultsOf(db, index, want);
            // The roll was deleted meanwhile (a newer one published): end the file as broken, not short.
            if (rows.length !== want.length) throw new Error('The roll changed during the export');
            push(csvLines(client, rows));
          }
          return;
        }
        await searchRepository.forEachBatch(
          db,
          criteria,
          sort,
          { maxRows: rowCount, batch: EXPORT_BATCH, fenced: !unfiltered && !estimated },
          (rows) => push(csvLines(client, rows)),
        );
      };
      produce().then(
        () => stream.push(null),
        (err: Error) => stream.destroy(err),
      );
      return { total, estimated, rowCount, truncated: total > rowCount, stream };
    },

    /**
     * Where a search's results are, every page at once (the first MAX_RESULT_POINTS in sort order), for
     * the results map: each on the town's parcel map at its parcel's centroid. 404 when the town has no
     * parcel map; 400 naming the field as for a search.
     */
    async resultPoints(
      db: Db,
      { client, criteria, sort }: ExportPlan,
      parcels: ParcelsService,
    ): Promise<ResultPoints> {
      const index = await indexOf(client);
      const { total, estimated, ordered } = await firstMatches(
        db,
        client,
        criteria,
        sort,
        index,
        MAX_RESULT_POINTS,
      );
      const read = Math.min(total, MAX_RESULT_POINTS);
      let accounts: string[] = [];
      if (index && ordered) accounts = ordered.map((r) => index.account(r));
      else if (read > 0)
        await searchRepository.forEachBatch(
          db,
          criteria,
          sort,
          { maxRows: read, batch: EXPORT_BATCH, fenced: !isUnfiltered(criteria) && !estimated },
          (rows) => accounts.push(...rows.map((row) => row.Account)),
        );
      // Asked even for no results: a town without a parcel map answers 404 whatever the search.
      const points = await parcels.centroidsOf(db, client.id, accounts);
      return { Points: points, TotalRecords: total, RecordsRead: accounts.length };
    },

    /**
     * Up to MAX_SUGGESTIONS type-ahead entries for a partial query: owner names, street addresses and
     * map/lots in which every word of the query starts a word. `account` is set when the entry is known to
     * name one parcel, null when several share it or the matches were too many to tell (choosing it should
     * run a search). 400 naming `q` for input that has no letter or digit.
     */
    async suggest(db: Executor, client: ClientRow, q: string | undefined): Promise<Suggestion[]> {
      const { terms, codes, choices: anyChoices } = parseQuery(q, 'q');
      if (terms.length + anyChoices.length === 0 || client.activeRollId === null) return [];
      // The words before the last were finished by a space: "12 ma" means number 12, not 120 or 1200. Only
      // the word being typed is a prefix, which also keeps a short number from matching half the roll.
      // A punctuated code (a map/lot) stays a prefix even when finished: its words are joined differently.
      const parts = queryParts(q ?? '');
      const finished = /[\s,;/&+()[\]{}|]$/u.test(q ?? '') ? parts : parts.slice(0, -1);
      const whole = finished.filter((p) => p.code === null);
      const words = [...new Set(whole.map((p) => p.word))];
      const typing = parts.filter((p) => !whole.includes(p));
      // The word being typed may be a suffix or ordinal half typed (`3r`): it or what it may become.
      const choices = typing.filter((p) => p.readings.length > 0).map(choicesOf);
      const prefixes = [...new Set(typing.filter((p) => p.readings.length === 0).map((p) => p.term))].filter(
        (t) => !words.includes(t),
      );
      const long = prefixes.filter((t) => t.length >= 3);
      const indexed = words.length + long.length + choices.length > 0;
      const criteria: SearchCriteria = {
        rollId: client.activeRollId,
        terms: indexed ? long : prefixes,
        ...(choices.length > 0 ? { choices } : {}),
        recheckTerms: indexed ? prefixes.filter((t) => t.length < 3) : [],
        words,
        codes,
        withoutOwnerNames: !ownerNamesSearchable(client) || undefined,
      };
      const index = await indexOf(client);
      const candidates = index
        ? await resultsOf(db, index, await inTurn(() => index.sample(criteria, SUGGEST_CANDIDATES)), {
            summaryOnly: true,
          })
        : await searchRepository.suggestCandidates(db, criteria, SUGGEST_CANDIDATES);
      // An entry names one parcel only if every match was seen; from a sample it may stand for many.
      const complete = candidates.length < SUGGEST_CANDIDATES;
      return rankSuggestions(
        searchableSummaries(client, candidates),
        prefixes,
        codes,
        q ?? '',
        words,
        complete,
        choices,
      );
    },

    /** Distinct land types and building styles of the client's published roll, sorted; cached per roll. */
    async landBuilding(db: Executor, client: ClientRow): Promise<LandBuildingOptions> {
      const rollId = client.activeRollId;
      if (rollId === null) return { landType: [], buildingStyle: [] };
      return (await landBuildingCache.fetch(rollId, { context: { db, client } }))!;
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;

function wordsOf(value: string): Set<string> {
  const words = new Set<string>();
  indexTerms(value, words);
  return words;
}

const matchesAll = (value: string, terms: string[], whole: string[], choices: string[][] = []) => {
  const words = [...wordsOf(value)];
  const starts = (t: string) => words.some((w) => w.startsWith(t));
  return terms.every(starts) && whole.every((t) => words.includes(t)) && choices.every((g) => g.some(starts));
};

const KIND_ORDER_TEXT = { owner: 0, address: 1, maplot: 2 } as const;
const KIND_ORDER_CODE = { maplot: 0, address: 1, owner: 2 } as const;

/** Suggestions from candidate parcels: entries that start with the typed text first, then by kind and name. */
export function rankSuggestions(
  candidates: PropertySummary[],
  terms: string[],
  codes: string[],
  typed: string,
  whole: string[] = [],
  complete = true,
  choices: string[][] = [],
): Suggestion[] {
  const found = new Map<string, { s: Suggestion; accounts: Set<string> }>();
  const add = (kind: Suggestion['kind'], text: string, account: string) => {
    const key = `${kind}\u0000${fold(text).replace(/\s+/g, ' ').trim()}`;
    const entry = found.get(key) ?? { s: { kind, text, account }, accounts: new Set<string>() };
    entry.accounts.add(account);
    found.set(key, entry);
  };
  for (const p of candidates) {
    for (const o of p.Owners)
      if (matchesAll(o.OwnerName, terms, whole, choices)) add('owner', o.OwnerName, p.Account);
    // As the record page prints it ("303 THIRD ST, UNIT 212"); searching that text finds the unit.
    const address = formatLocation(p);
    if (address && matchesAll(address, terms, whole, choices)) add('address', address, p.Account);
    if (
      p.MapLot &&
      matchesAll(p.MapLot, terms, whole, choices) &&
      codes.every((c) => codeKey(p.MapLot).startsWith(c))
    )
      add('maplot', p.MapLot, p.Account);
  }
  const head = fold(typed).trim();
  const order = /^\d/.test(head) ? KIND_ORDER_CODE : KIND_ORDER_TEXT;
  const startsTyped = (text: string) => (fold(text).startsWith(head) ? 0 : 1);
  return [...found.values()]
    .map(({ s, accounts }) => ({ ...s, account: complete && accounts.size === 1 ? s.account : null }))
    .sort(
      (a, b) =>
        startsTyped(a.text) - startsTyped(b.text) || order[a.kind] - order[b.kind] || byName(a.text, b.text),
    )
    .slice(0, MAX_SUGGESTIONS);
}
