import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { WORD_FORMS_MIGRATION, wordFormsMigrationScript } from './word-forms.migration.ts';

/*
 * A roll published before street suffixes and ordinals were indexed by what they stand for holds the
 * words as written; the migration leaves its rows as a fresh import writes them today.
 */

const ctx = setupTestApp();

interface Stored {
  account: string;
  words: string[];
  owner_words: string[];
}

const stored = (rollId: number) =>
  queryRows<Stored>(
    ctx.db,
    sql`select account, tsvector_to_array(search_doc) as words, owner_words
          from properties where roll_id = ${rollId} order by account`,
  );

const sorted = (rows: Stored[]) =>
  rows.map((r) => ({ ...r, words: [...r.words].sort(), owner_words: [...r.owner_words].sort() }));

describe(WORD_FORMS_MIGRATION, () => {
  it('is applied by migrate()', async () => {
    const rows = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from schema_migrations where version = ${WORD_FORMS_MIGRATION}`,
    );
    expect(rows[0]?.n).toBe(1);
  });

  it('re-indexes the words of a roll published before as an import indexes them now', async () => {
    const client = await buildClient(ctx.db, { city: 'Oldtown' });
    const { client: published } = await publishRoll(ctx.db, client.id, [
      {
        Account: '1',
        StreetNumber: '212',
        StreetName: 'THIRD ST',
        Owners: [{ OwnerName: 'STREET, JOHN' }],
      },
      { Account: '2', StreetNumber: '4', StreetName: 'CANAL PK', Owners: [{ OwnerName: 'DOE, JANE' }] },
      { Account: '3', StreetNumber: '9', StreetName: 'OAK LANE', Owners: [{ OwnerName: 'ROE, RD' }] },
    ]);
    const rollId = published.activeRollId!;
    const fresh = await stored(rollId);
    // As the importer wrote them before 0023: each word as the roll spelled it (the account is a word
    // too), owner-only words apart; and as 0021 left them, several forms of a word.
    const before: Record<string, [string[], string[]]> = {
      '1': [
        ['1', '212', 'third', 'st', 'street', 'john'],
        ['street', 'john'],
      ],
      '2': [
        ['2', '4', 'canal', 'pk', 'doe', 'jane'],
        ['doe', 'jane'],
      ],
      '3': [
        ['3', '9', 'oak', 'lane', 'roe', 'rd'],
        ['roe', 'rd'],
      ],
    };
    for (const [account, [words, owners]] of Object.entries(before))
      await ctx.db.execute(sql`
        update properties
           set search_doc = array_to_tsvector(${`{${words.join(',')}}`}::text[]),
               owner_words = ${`{${owners.join(',')}}`}::text[]
         where roll_id = ${rollId} and account = ${account}`);

    await ctx.database.execScriptInTransaction(wordFormsMigrationScript());

    const after = await stored(rollId);
    expect(sorted(after)).toEqual(sorted(fresh));
    // What that means: ST is `street` (and no longer an owner-only word once the address gives it),
    // THIRD stays `third`, PK is `park`, the owner's RD is `road`.
    expect(sorted(after)).toEqual([
      { account: '1', words: ['1', '212', 'john', 'street', 'third'], owner_words: ['john'] },
      { account: '2', words: ['2', '4', 'canal', 'doe', 'jane', 'park'], owner_words: ['doe', 'jane'] },
      { account: '3', words: ['3', '9', 'lane', 'oak', 'road', 'roe'], owner_words: ['road', 'roe'] },
    ]);
  });
});
