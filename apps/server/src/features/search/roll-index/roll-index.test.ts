import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyRecordInput, SortColumn } from '@opp/contracts';
import { queryRows } from '../../../db/database.ts';
import { setupTestApp } from '../../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../../test/factories.ts';
import { searchRepository, type SearchCriteria, type SortKey } from '../search.repository.ts';
import { pageWindow } from '../search.service.ts';
import { compareC, RollIndexBuilder, textRanks, WordDictionary, type RollIndex } from './roll-index.ts';
import { RollIndexThread } from './roll-index.thread.ts';
import { rollIndexRepository } from './roll-index.repository.ts';
import { readIndexRows } from './roll-index.rows.ts';

/*
 * The roll index must answer exactly as the SQL path does: the same rows in the same order and the
 * exact total, for any words, codes, filters, sorts and pages. A generated town with the awkward cases
 * (empty values, ties, accounts that differ only in case or leading zeros, accents, punctuated codes)
 * and a few hundred generated searches, on whichever engine the run uses.
 */

const ctx = setupTestApp();
// More than one chunk of the builder's text columns (TEXT_CHUNK, 4,096 values), the last one partial.
const PARCELS = 5_000;

/** A small seeded generator (mulberry32): the town is the same on every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SURNAMES = ['SMITH', 'SMITHSON', 'JOHNSON', "O'BRIEN", 'BRIEN', 'MÜLLER', 'NGUYEN', 'SMYTHE', 'LAKE'];
const FIRST = ['CAROL V', 'JOHN', 'ANNE-MARIE', 'JOSÉ', 'J', 'MARY ANN', 'TRUST'];
const STREETS = ['MAIN ST', 'MAIN STREET', 'HILL RD', 'LAKE SHORE DR', 'ROUTE 1', 'ELM AVE'];
const LAND = ['WATERFRONT', 'WOODLAND', 'HOUSE LOT', 'FIELD'];
const STYLES = ['CAPE', 'COLONIAL', 'RANCH', 'SPLIT LEVEL'];

function town(): PropertyRecordInput[] {
  const r = rng(8);
  // Years from a generator of their own, so the rest of the town is what it was before years existed.
  const y = rng(36);
  const year = () => (y() < 0.2 ? null : 1850 + Math.floor(y() * 175));
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const maybe = <T>(p: number, v: () => T) => (r() < p ? v() : null);
  return Array.from({ length: PARCELS }, (_, i) => {
    // Accounts that tie on account_key: case and leading zeros.
    const account = i % 97 === 0 ? `a${i}` : i % 89 === 0 ? `00${i}` : i % 2 ? `A${i}` : String(i);
    const buildings = Math.floor(r() * 3);
    return {
      Account: account,
      MapLot: maybe(0.9, () => `R${Math.floor(r() * 12)}-${Math.floor(r() * 150)}${pick(['', '-A', '.1'])}`),
      Owners: Array.from({ length: 1 + Math.floor(r() * 2) }, () => ({
        OwnerName: `${pick(SURNAMES)}, ${pick(FIRST)}`,
      })).slice(0, r() < 0.05 ? 0 : 2),
      StreetNumber: maybe(0.85, () => String(1 + Math.floor(r() * 300)) + (r() < 0.1 ? '-14' : '')),
      Apartment: maybe(0.1, () => pick(['A', '2', 'UNIT 3'])),
      StreetName: maybe(0.95, () => pick(STREETS)),
      Book: maybe(0.7, () => String(1000 + Math.floor(r() * 50))),
      Page: maybe(0.7, () => String(Math.floor(r() * 400))),
      LandValue: maybe(0.9, () => 1000 * Math.floor(r() * 80)),
      TotalBuildingValue: maybe(0.7, () => 5000 * Math.floor(r() * 60)),
      TotalAcres: maybe(0.9, () => Math.round(r() * 2000) / 100),
      Sales: Array.from({ length: Math.floor(r() * 3) }, () => ({
        SaleDate: maybe(
          0.9,
          () => `20${10 + Math.floor(r() * 14)}-0${1 + Math.floor(r() * 9)}-1${Math.floor(r() * 9)}`,
        ),
        SalePrice: maybe(0.9, () => 10_000 * Math.floor(r() * 40)),
      })),
      Land: Array.from({ length: Math.floor(r() * 3) }, () => ({ LandDescription: pick(LAND) })),
      Buildings: Array.from({ length: buildings }, () => ({
        BuildingType: pick(STYLES),
        Area: maybe(0.9, () => 800 + Math.floor(r() * 30) * 100),
        Bedrooms: maybe(0.9, () => Math.floor(r() * 6)),
        FullBaths: maybe(0.9, () => Math.floor(r() * 4)),
        HalfBaths: maybe(0.5, () => Math.floor(r() * 2)),
        YearBuilt: year(),
      })),
      CommercialBuildings: r() < 0.1 ? [{ Class: 'C', YearBuilt: year() }] : [],
    } as PropertyRecordInput;
  });
}

let rollId = 0;
let index: RollIndex;
let words: string[] = [];
let codes: string[] = [];
let rowWords: string[][] = [];

/** The roll's index, built here or (as a large roll's is) on a thread of its own. */
async function buildIndex(
  batch: number,
  where: 'here' | 'thread',
  withoutOwnerNames = false,
): Promise<RollIndex> {
  const thread = where === 'thread' ? await RollIndexThread.start(rollId) : null;
  const builder = new RollIndexBuilder(rollId);
  try {
    let after: string | null = null;
    for (;;) {
      const read = await rollIndexRepository.readBatch(ctx.db, rollId, after, batch, withoutOwnerNames);
      if (thread) await thread.add(read.bytes);
      else readIndexRows(read.bytes, (r) => builder.add(r));
      if (read.rows < batch) return thread ? await thread.finish() : await builder.finish();
      after = read.lastAccount;
    }
  } finally {
    await thread?.close();
  }
}

beforeAll(async () => {
  const client = await buildClient(ctx.db, { city: 'Differential' });
  const { client: published } = await publishRoll(ctx.db, client.id, town());
  rollId = published.activeRollId!;
  // A batch size that does not divide the roll, so the keyset continuation is exercised. On a thread,
  // as a large roll's index is built: every comparison with SQL below checks what it sends back.
  index = await buildIndex(701, 'thread');
  rowWords = (
    await queryRows<{ w: string[] }>(
      ctx.db,
      sql`select tsvector_to_array(search_doc) as w from properties where roll_id = ${rollId} order by account`,
    )
  ).map((r) => r.w);
  words = (
    await queryRows<{ w: string }>(
      ctx.db,
      sql`select distinct unnest(tsvector_to_array(search_doc)) as w from properties where roll_id = ${rollId}`,
    )
  ).map((r) => r.w);
  codes = (
    await queryRows<{ c: string }>(
      ctx.db,
      sql`select distinct unnest(codes) as c from properties where roll_id = ${rollId}`,
    )
  ).map((r) => r.c);
}, 120_000);

const COLUMNS: SortColumn[] = [
  'MapLot',
  'Name',
  'Location',
  'BuildingLand',
  'Acres',
  'SaleDate',
  'SalePrice',
  'YearBuilt',
];

/** Mostly absent: a search with every filter set matches nothing, and teaches nothing. */
const rarely = <T>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: arb, weight: 1 });

const range = (max: number) =>
  fc
    .record({
      min: fc.option(fc.integer({ min: 0, max }), { nil: undefined }),
      max: fc.option(fc.integer({ min: 0, max }), { nil: undefined }),
    })
    .map((r) => (r.min === undefined && r.max === undefined ? { min: 0 } : r));

/** Prefixes (1–8 letters) of some words of one parcel, so that several of them can match together. */
const wordsOfOneRow = fc
  .tuple(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 8 })), { maxLength: 3 }))
  .map(([row, picks]) => {
    const own = rowWords[row % rowWords.length]!;
    return picks.map(([i, len]) => own[i % own.length]!.slice(0, len));
  });

const criteriaArb = fc.record({
  terms: wordsOfOneRow,
  words: fc.oneof(
    { arbitrary: fc.constant([] as string[]), weight: 4 },
    { arbitrary: wordsOfOneRow.map((w) => w.slice(0, 1)), weight: 1 },
    { arbitrary: fc.nat().map((i) => [words[i % words.length]!]), weight: 1 },
  ),
  recheckTerms: fc.oneof(
    { arbitrary: fc.constant([] as string[]), weight: 4 },
    { arbitrary: wordsOfOneRow.map((w) => w.slice(0, 1).map((t) => t.slice(0, 2))), weight: 1 },
  ),
  codes: fc.oneof(
    { arbitrary: fc.constant([] as string[]), weight: 4 },
    {
      arbitrary: fc
        .tuple(fc.nat(), fc.integer({ min: 1, max: 6 }))
        .map(([i, len]) => [codes[i % codes.length]!.slice(0, len)]),
      weight: 1,
    },
  ),
  salePrice: rarely(range(400_000)),
  saleDate: rarely(
    fc.record(
      {
        from: fc.option(fc.constantFrom('2012-01-01', '2015-06-15', '2018-03-11'), { nil: undefined }),
        to: fc.option(fc.constantFrom('2014-12-31', '2019-01-01', '2023-09-19'), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
  ),
  acres: rarely(range(20)),
  livingArea: rarely(range(4000)),
  landTypes: rarely(fc.subarray([...LAND, 'NOT A TYPE'], { minLength: 1 })),
  buildingStyles: rarely(fc.subarray(STYLES, { minLength: 1 })),
  minBedrooms: rarely(fc.integer({ min: 1, max: 6 })),
  minBathrooms: rarely(fc.constantFrom(0.5, 1, 1.5, 2, 3)),
  ownership: rarely(fc.record({ residential: fc.boolean(), commercial: fc.boolean() })),
  yearBuilt: rarely(
    fc.record(
      {
        min: fc.option(fc.integer({ min: 1840, max: 2030 }), { nil: undefined }),
        max: fc.option(fc.integer({ min: 1840, max: 2030 }), { nil: undefined }),
      },
      { requiredKeys: [] },
    ),
  ),
});

const sortArb = fc
  .shuffledSubarray(COLUMNS, { maxLength: 3 })
  .chain((cols) =>
    fc.tuple(...cols.map((column) => fc.boolean().map((descending): SortKey => ({ column, descending })))),
  )
  .map((keys) => (keys.length ? keys : [{ column: 'Name', descending: false } as SortKey]));

async function sqlAnswer(c: SearchCriteria, sort: SortKey[], offset: number, limit: number) {
  const total = await searchRepository.count(ctx.db, c);
  const w = pageWindow(offset, limit, total);
  const rows = w ? await searchRepository.page(ctx.db, c, sort, w, { fenced: true }) : [];
  return { total, accounts: rows.map((r) => r.Account) };
}

function indexAnswer(c: SearchCriteria, sort: SortKey[], offset: number, limit: number, of = index) {
  const found = of.search(c, sort, (total) => pageWindow(offset, limit, total));
  return { total: found.total, accounts: found.rows.map((r) => of.account(r)) };
}

describe('roll index', () => {
  it('answers every generated search exactly as the SQL path: same rows, same order, exact total', async () => {
    const seen = { some: 0, many: 0, multiKey: 0 };
    await fc.assert(
      fc.asyncProperty(
        criteriaArb,
        sortArb,
        fc.constantFrom(1, 3, 50, 500),
        fc.nat(),
        async (raw, sort, pageSize, pageSeed) => {
          const c: SearchCriteria = { rollId, ...raw };
          if (c.salePrice && c.salePrice.min === undefined && c.salePrice.max === undefined)
            delete c.salePrice;
          const total = index.search(c, sort, () => null).total;
          if (total > 0) seen.some++;
          if (total > 2_000) seen.many++;
          if (sort.length > 1 && total > 0) seen.multiKey++;
          const pages = Math.ceil(total / pageSize);
          const page = pageSeed % (pages + 2);
          const offset = page * pageSize;
          const expected = await sqlAnswer(c, sort, offset, pageSize);
          expect(
            indexAnswer(c, sort, offset, pageSize),
            JSON.stringify({ c, sort, offset, pageSize }),
          ).toEqual(expected);
        },
      ),
      { numRuns: 300, seed: 20261122 },
    );
    // The generated searches reach every path: small results sorted after matching, large ones walked.
    expect(seen.some).toBeGreaterThan(60);
    expect(seen.many).toBeGreaterThan(5);
    expect(seen.multiKey).toBeGreaterThan(20);
  }, 300_000);

  it('answers as the SQL path without owner names (a town whose names are not searchable)', async () => {
    // Surnames such as LAKE are also street words: the index leaves out only what names alone give.
    const nameless = await buildIndex(997, 'here', true);
    let some = 0;
    await fc.assert(
      fc.asyncProperty(criteriaArb, sortArb, async (raw, sort) => {
        const c: SearchCriteria = { rollId, ...raw, withoutOwnerNames: true };
        if (c.salePrice && c.salePrice.min === undefined && c.salePrice.max === undefined) delete c.salePrice;
        const answer = indexAnswer(c, sort, 0, 50, nameless);
        if (answer.total > 0) some++;
        expect(answer, JSON.stringify({ c, sort })).toEqual(await sqlAnswer(c, sort, 0, 50));
      }),
      { numRuns: 120, seed: 20261127 },
    );
    expect(some).toBeGreaterThan(20);
    // A surname alone finds nothing; a street word shared with a surname still finds its streets.
    const smith: SearchCriteria = { rollId, terms: ['smithson'], codes: [], withoutOwnerNames: true };
    expect(nameless.search(smith, [], () => null).total).toBe(0);
    expect(index.search({ ...smith, withoutOwnerNames: undefined }, [], () => null).total).toBeGreaterThan(0);
    const lake: SearchCriteria = { rollId, terms: ['lake', 'shore'], codes: [], withoutOwnerNames: true };
    expect(nameless.search(lake, [], () => null).total).toBeGreaterThan(0);
  }, 300_000);

  it('orders every sort column both ways over the whole roll exactly as the database', async () => {
    for (const column of COLUMNS)
      for (const descending of [false, true]) {
        const sort = [{ column, descending }];
        const c: SearchCriteria = { rollId, terms: [], codes: [] };
        expect(indexAnswer(c, sort, 0, PARCELS), `${column} ${descending}`).toEqual(
          await sqlAnswer(c, sort, 0, PARCELS),
        );
      }
  });

  it('pages through a broad result from both ends without overlap or gaps', async () => {
    const c: SearchCriteria = { rollId, terms: ['m'], codes: [] };
    const sort: SortKey[] = [{ column: 'SalePrice', descending: true }];
    const all: string[] = [];
    const total = index.search(c, sort, () => null).total;
    for (let offset = 0; offset < total; offset += 50) all.push(...indexAnswer(c, sort, offset, 50).accounts);
    expect(all).toEqual((await sqlAnswer(c, sort, 0, total)).accounts);
  });

  it('answers a search of a dozen broad words (more than the shared marks hold) and the next ones exactly', async () => {
    // Short prefixes of one parcel's words: each matches many rows, so each is checked by marking its
    // rows; the index marks eight in shared scratch space and the rest in arrays of their own.
    const own = rowWords.find((w) => w.length >= 4)!;
    const terms = Array.from({ length: 12 }, (_, i) => own[i % own.length]!.slice(0, 1 + (i % 2)));
    const sort: SortKey[] = [{ column: 'Name', descending: false }];
    const broad: SearchCriteria = { rollId, terms, codes: [] };
    const answer = indexAnswer(broad, sort, 0, 500);
    expect(answer.total).toBeGreaterThan(0);
    expect(answer).toEqual(await sqlAnswer(broad, sort, 0, 500));
    // Nothing of it stays behind (marks, matched rows) for the searches after it.
    for (const c of [
      { rollId, terms: [terms[0]!], codes: [] },
      { rollId, terms: [terms[0]!, 'zz'], codes: [] },
      { rollId, terms: ['smi'], codes: [], minBedrooms: 2 },
    ] satisfies SearchCriteria[])
      expect(indexAnswer(c, sort, 0, 500), JSON.stringify(c)).toEqual(await sqlAnswer(c, sort, 0, 500));
  });

  it('builds the same index here as on a thread, whatever the batch size', async () => {
    const here = await buildIndex(PARCELS * 2, 'here');
    const searches: SearchCriteria[] = [
      { rollId, terms: [], codes: [] },
      { rollId, terms: ['smi'], codes: [], acres: { min: 1 } },
    ];
    for (const c of searches)
      for (const column of COLUMNS)
        for (const descending of [false, true]) {
          const sort: SortKey[] = [{ column, descending }];
          expect(
            here.search(c, sort, (t) => pageWindow(0, 100, t)),
            `${column} ${descending}`,
          ).toEqual(index.search(c, sort, (t) => pageWindow(0, 100, t)));
        }
  });

  it('reads the rows after any text, quotes and backslashes included', async () => {
    // The text is written into the query (COPY takes no parameters). Accounts cannot hold these
    // characters; the query must still mean exactly what it says.
    for (const from of ['', '1', "A1'", 'A1\\', "A1\\'", "'; drop table properties; --", '\\N', 'zz']) {
      const after = await queryRows<{ account: string }>(
        ctx.db,
        sql`select account from properties where roll_id = ${rollId} and account > ${from}
             order by account limit 3`,
      );
      const read = await rollIndexRepository.readBatch(ctx.db, rollId, from, 3);
      const accounts: string[] = [];
      readIndexRows(read.bytes, (r) => accounts.push(r.account));
      expect(accounts).toEqual(after.map((r) => r.account));
      expect(read).toMatchObject({ rows: after.length, lastAccount: after.at(-1)?.account ?? null });
    }
  });

  it('lists the land types and building styles present', () => {
    const { landTypes, buildingStyles } = index.landBuilding();
    expect(landTypes.sort()).toEqual([...LAND].sort());
    expect(buildingStyles.sort()).toEqual([...STYLES].sort());
  });
});

describe('compareC', () => {
  it('orders as UTF-8 bytes do, also beyond the Basic Multilingual Plane', () => {
    const values = ['b', 'a', '\u{1F600}', '\uFB01', 'é', 'ab', ''];
    const bytes = (s: string) => [...Buffer.from(s, 'utf8')];
    const byBytes = [...values].sort((x, y) => {
      const a = bytes(x);
      const b = bytes(y);
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
      return a.length - b.length;
    });
    expect([...values].sort(compareC)).toEqual(byBytes);
  });
});

describe('textRanks', () => {
  it('ranks values densely in collate "C" order, ties alike, empty values after all', () => {
    const values = ['b', null, 'a', 'b', '\u{1F600}', '\uFB01', '', null, 'a'];
    const { ranks, distinct } = textRanks(values);
    // '' < 'a' < 'b' < U+FB01 < U+1F600 as UTF-8 bytes (UTF-16 would put the emoji before U+FB01).
    expect([...ranks]).toEqual([2, 5, 1, 2, 4, 3, 0, 5, 1]);
    expect(distinct).toBe(5);
  });
});

describe('WordDictionary', () => {
  it('numbers words in the order first seen, and finds them again', () => {
    const d = new WordDictionary();
    expect(['main', 'st', 'main', '12', 'st', ''].map((w) => d.id(w))).toEqual([0, 1, 0, 2, 1, 3]);
    expect(d.size).toBe(4);
  });

  it('sorts and joins its words as sort() and join() would, past growth and wide characters', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 })), {
          maxLength: 300,
        }),
        (words) => {
          const d = new WordDictionary();
          const ids = new Map<string, number>();
          for (const w of [...words, ...words]) {
            const id = d.id(w);
            if (!ids.has(w)) ids.set(w, ids.size);
            expect(id).toBe(ids.get(w));
          }
          const distinct = [...ids.keys()];
          const order = d.sortedIds();
          const sorted = [...distinct].sort();
          expect([...order].map((id) => distinct[id])).toEqual(sorted);
          const { text, lexOff } = d.lexicon(order);
          expect(text).toBe(sorted.join(''));
          expect([...lexOff].slice(1)).toEqual(sorted.map((_, k) => sorted.slice(0, k + 1).join('').length));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps 100,000 distinct words apart', () => {
    const d = new WordDictionary();
    const words = Array.from({ length: 100_000 }, (_, i) => (i * 7919).toString(36));
    words.forEach((w, i) => expect(d.id(w)).toBe(i));
    words.forEach((w, i) => expect(d.id(w)).toBe(i));
    expect(d.size).toBe(100_000);
  });
});
