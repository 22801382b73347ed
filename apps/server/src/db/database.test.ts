import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildClient } from '../../test/factories.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers.ts';
import { copyTo, DatabaseUseInTransactionError, type Db } from './database.ts';
import { clients } from './schema.ts';

/*
 * The database used directly, not through the transaction's handle, by code running inside one of its
 * transactions: on the embedded engine (one connection) it used to wait for ever.
 */

let testDb: TestDatabase;
let db: Db;
beforeAll(async () => {
  testDb = await createTestDatabase();
  db = testDb.database.db;
});
afterAll(() => testDb?.drop());

const clientCount = async (on: Pick<Db, 'select'>) => (await on.select({ n: count() }).from(clients))[0]!.n;

describe('the database used inside one of its own transactions', () => {
  it('is refused at once, and the transaction rolls back', async () => {
    const before = await clientCount(db);
    const failure = await db
      .transaction(async (tx) => {
        await buildClient(tx as unknown as Db);
        await clientCount(db);
      })
      .catch((err: unknown) => err);
    // Drizzle reports the statement it could not run, with the reason as its cause.
    expect((failure as Error).cause).toBeInstanceOf(DatabaseUseInTransactionError);
    // Nothing was written, and the database answers again.
    expect(await clientCount(db)).toBe(before);
  });

  it('refuses a transaction begun on the database, a bulk read, and a call deep in awaited code', async () => {
    const deep = async () => {
      await Promise.resolve();
      return copyTo(db, 'select 1');
    };
    for (const misuse of [() => db.transaction(async () => {}), deep])
      await expect(db.transaction(async () => misuse())).rejects.toThrow(
        /used directly inside one of its transactions: use the transaction \(tx\)/,
      );
  });

  it('lets the transaction use its own handle, a savepoint in it, and the database once it has ended', async () => {
    const before = await clientCount(db);
    let later: Promise<number> | null = null;
    await db.transaction(async (tx) => {
      await buildClient(tx as unknown as Db);
      await tx.transaction(async (savepoint) => {
        expect(await clientCount(savepoint)).toBe(before + 1);
      });
      // Work the transaction starts but does not await runs after it, on the database.
      later = new Promise((resolve) => setImmediate(resolve)).then(() => clientCount(db));
    });
    expect(await later!).toBe(before + 1);
  });
});
