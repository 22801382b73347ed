import { sql } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PropertyRecord, SORT_COLUMNS } from '@opp/contracts';
import { queryRows } from '../../db/database.ts';
import { properties } from '../../db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/helpers.ts';
import { copyRow, ROLL_COPY_COLUMNS } from '../rolls/roll-rows.ts';
import { toPropertyRow } from '../properties/property-row.ts';
import { INDEX_COLUMNS, SEARCH_COLUMNS, SORT_COLUMN_OF } from './search-columns.ts';

/*
 * The search row's one definition against the migrations: every column the list describes is in the
 * migrated `properties` with the type and nullability it says, and nothing a migration added is missing
 * from it (the importer would leave it empty, the index would never read it).
 */

let testDb: TestDatabase;
beforeAll(async () => {
  testDb = await createTestDatabase();
}, 60_000);
afterAll(() => testDb?.drop());

interface DbColumn {
  name: string;
  type: string;
  not_null: boolean;
}

describe('search columns', () => {
  it('are the columns of the migrated properties table, with their types and nullability', async () => {
    const columns = await queryRows<DbColumn>(
      testDb.database.db,
      sql`select a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
            from pg_attribute a
           where a.attrelid = 'properties'::regclass and a.attnum > 0 and not a.attisdropped
           order by a.attnum`,
    );
    const inDb = new Map(columns.map((c) => [c.name, c]));
    const declared = getTableConfig(properties).columns;
    // roll_id and client_id come from the import's target, `record` only from rolls before 0009.
    expect(new Set(columns.map((c) => c.name))).toEqual(
      new Set(['roll_id', 'client_id', 'record', ...SEARCH_COLUMNS.map((c) => c.name)]),
    );
    for (const column of declared) {
      const db = inDb.get(column.name);
      expect(db, column.name).toBeDefined();
      expect({ name: column.name, type: db!.type, notNull: db!.not_null }).toEqual({
        name: column.name,
        type: column.getSQLType(),
        notNull: column.notNull,
      });
    }
  });

  it('serve every public sort, and write a COPY line of exactly their columns', () => {
    expect(Object.keys(SORT_COLUMN_OF).sort()).toEqual([...SORT_COLUMNS].sort());
    const row = toPropertyRow(PropertyRecord.parse({ Account: 'C1', Buildings: [{ YearBuilt: 1901 }] }));
    expect(copyRow({ rollId: 1, clientId: 2 }, row).split('\t')).toHaveLength(
      ROLL_COPY_COLUMNS.split(',').length,
    );
    // The index reads the account first: a batch's last account is where the next batch starts.
    expect(INDEX_COLUMNS[0]!.name).toBe('account');
  });
});
