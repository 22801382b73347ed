import { PropertyRecord } from '@opp/contracts';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { toPropertyRow } from '../features/properties/property-row.ts';
import { indexTerms } from '../features/properties/search-text.ts';
import {
  copyBoolean,
  copyJson,
  copyNumber,
  copyText,
  copyTextArray,
  copyTsvector,
  readCopyText,
  readTextArray,
  tsvectorLiteral,
} from './copy-text.ts';
import { copyFrom, copyTo, queryRows } from './database.ts';

/*
 * The importer writes rolls with COPY (roll-rows.ts copyRow, rolls.repository copyRows): every value must reach the table
 * exactly as the importer holds it, on the engine under test.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.database.db.execute(
    sql`create table copy_probe (id int, t text, j json, n float8, b boolean, a text[], v tsvector)`,
  );
});
afterAll(() => t.drop());

const AWKWARD = [
  'plain',
  'tab\there',
  'line\nbreak',
  'carriage\rreturn',
  'back\\slash',
  '\\N',
  'NULL',
  'say "hi"',
  "O'BRIEN",
  '{braces}',
  'comma, here',
  'semi;colon',
  'ünïcödé 𝔘 ☃',
  ' spaces around ',
  '',
];

describe('COPY text values', () => {
  it('stores awkward text, JSON, numbers, booleans and arrays exactly as given', async () => {
    const numbers = [0, -0.5, 1e21, 1.5e-7, 123456789.125, null];
    const numberOf = (id: number) => numbers[id % numbers.length]!;
    let data = '';
    AWKWARD.forEach((value, id) => {
      const n = numberOf(id);
      data += `${[
        id,
        copyText(value),
        copyJson(JSON.stringify({ value, list: [value] })),
        copyNumber(n),
        copyBoolean(id % 2 === 0),
        copyTextArray([value, 'x']),
        copyTsvector(['alpha', 'b2']),
      ].join('\t')}\n`;
    });
    data += `${[99, copyText(null), '\\N', copyNumber(null), 'f', copyTextArray([]), copyTsvector([])].join('\t')}\n`;
    await copyFrom(t.database.db, 'copy_probe (id, t, j, n, b, a, v)', data);

    const rows = await queryRows<{
      id: number;
      t: string | null;
      j: string | null;
      n: number | null;
      b: boolean;
      a: string[];
      v: string[];
    }>(
      t.database.db,
      sql`select id, t, j::text as j, n, b, a, tsvector_to_array(v) as v from copy_probe order by id`,
    );
    expect(rows).toHaveLength(AWKWARD.length + 1);
    AWKWARD.forEach((value, id) => {
      const row = rows[id]!;
      expect(row.t).toBe(value);
      expect(JSON.parse(row.j!)).toEqual({ value, list: [value] });
      expect(row.n === null ? null : Number(row.n)).toBe(numberOf(id));
      expect(row.b).toBe(id % 2 === 0);
      expect(row.a).toEqual([value, 'x']);
      expect(row.v).toEqual(['alpha', 'b2']);
    });
    expect(rows.at(-1)).toMatchObject({ id: 99, t: null, j: null, n: null, b: false, a: [], v: [] });
  });

  it('stores text handed over in pieces (a batch per piece) as the same text in one piece', async () => {
    await t.database.db.execute(sql`create table copy_pieces (id int, t text)`);
    const line = (id: number) => `${id}\t${copyText(AWKWARD[id % AWKWARD.length]!)}\n`;
    const bytes = (ids: number[]) => new TextEncoder().encode(ids.map(line).join(''));
    // Pieces of several rows, of one, an empty one (a block of blank lines), and the last.
    await copyFrom(t.database.db, 'copy_pieces (id, t)', [
      bytes([1, 2, 3]),
      bytes([4]),
      new Uint8Array(0),
      bytes([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]),
    ]);
    const rows = await queryRows<{ id: number; t: string }>(
      t.database.db,
      sql`select id, t from copy_pieces order by id`,
    );
    expect(rows).toEqual(
      Array.from({ length: 14 }, (_, i) => ({ id: i + 1, t: AWKWARD[(i + 1) % AWKWARD.length] })),
    );
  });

  it('refuses a number the database could not store', () => {
    expect(() => copyNumber(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => copyNumber(Number.NaN)).toThrow(/finite/);
  });

  it("writes the word vector to_tsvector('simple') would build from the importer's words", async () => {
    // The importer skips to_tsvector (its parser costs more than the rest of a row): the literal must
    // hold the same lexemes for every text indexTerms can produce, or searches would miss parcels.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9 .'-]{1,30}$/)), { maxLength: 8 }),
        async (values) => {
          const words = new Set<string>();
          for (const v of values) indexTerms(v, words);
          // Words the parser reads as numbers ('0e0a') are re-parsed by the engine (insertRows; tested
          // in import.service.test.ts).
          const list = [...words].filter((w) => !/[0-9]e[0-9]/.test(w));
          const [row] = await queryRows<{ same: boolean; ours: string[] }>(
            t.database.db,
            sql`select tsvector_to_array(${tsvectorLiteral(list)}::tsvector) as ours,
                       tsvector_to_array(${tsvectorLiteral(list)}::tsvector)
                         = tsvector_to_array(to_tsvector('simple', ${list.join(' ')})) as same`,
          );
          expect(row!.ours).toEqual([...list].sort());
          expect(row!.same).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('writes a summary with its keys in the order the engine stores them', async () => {
    // The engine sorts every object's keys on input, in one pass when they come sorted (property-row.ts).
    // A field added to the summary in another place would cost every import that sort.
    const { summary } = toPropertyRow(
      PropertyRecord.parse({ Account: 'A-1', Owners: [{ OwnerName: 'SMITH, JO' }], Images: ['a.jpg'] }),
    );
    const [row] = await queryRows<{ keys: string[] }>(
      t.database.db,
      sql`select array(select jsonb_object_keys(${JSON.stringify(summary)}::jsonb)) as keys`,
    );
    expect(Object.keys(summary)).toEqual(row!.keys);
  });
});

describe('reading COPY text', () => {
  // Escapes COPY writes that the importer never does, and everything PostgreSQL quotes in an array.
  const READ_AWKWARD = [...AWKWARD, 'bell\bform\fvtab\v', 'NULLS', 'null', 'a\\"b"\\', '"'];

  /** What the engine writes for `query`, as rows of fields. */
  async function copiedRows(query: string): Promise<string[][]> {
    const text = new TextDecoder().decode(await copyTo(t.database.db, query));
    return text === ''
      ? []
      : text
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => line.split('\t'));
  }

  beforeAll(async () => {
    await t.database.db.execute(sql`create table copy_read (id int, t text, a text[])`);
  });

  it('reads back text and text arrays exactly as the engine stored them', async () => {
    await t.database.db.execute(sql`truncate copy_read`);
    for (const [id, value] of READ_AWKWARD.entries())
      await t.database.db.execute(
        sql`insert into copy_read values (${id}, ${value}, array[${value}, 'x', ${value}]::text[])`,
      );
    await t.database.db.execute(sql`insert into copy_read values (999, null, '{}')`);
    const rows = await copiedRows('select t, a from copy_read order by id');
    expect(rows).toHaveLength(READ_AWKWARD.length + 1);
    READ_AWKWARD.forEach((value, id) => {
      const [text, array] = rows[id]!;
      expect(readCopyText(text!)).toBe(value);
      expect(readTextArray(readCopyText(array!)!)).toEqual([value, 'x', value]);
    });
    expect(readCopyText(rows.at(-1)![0]!)).toBeNull();
    expect(readTextArray(readCopyText(rows.at(-1)![1]!)!)).toEqual([]);
  });

  it('reads any text array the engine writes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string().filter((s) => !s.includes('\0')),
          { maxLength: 6 },
        ),
        async (values) => {
          await t.database.db.execute(sql`truncate copy_read`);
          await t.database.db.execute(sql`insert into copy_read (id, a)
                values (1, array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)))`);
          const [[field]] = (await copiedRows('select a from copy_read')) as [[string]];
          expect(readTextArray(readCopyText(field)!)).toEqual(values);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('answers no bytes for no rows, and refuses what is not an array', async () => {
    expect((await copyTo(t.database.db, 'select 1 where false')).byteLength).toBe(0);
    expect(() => readTextArray('a,b')).toThrow(/array/);
    expect(() => readTextArray('{"open}')).toThrow(/unterminated/);
    expect(() => readTextArray('{a,NULL}')).toThrow(/NULL/);
  });
});
