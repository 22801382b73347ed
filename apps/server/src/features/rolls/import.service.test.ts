import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/database.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { importRoll } from './import.service.ts';

const ctx = setupTestApp();

const rec = (account: string, extra: Record<string, unknown> = {}) => ({
  Account: account,
  StreetNumber: '12',
  StreetName: 'Elm St',
  MapLot: `R01-00${account}`,
  Owners: [{ OwnerName: `OWNER ${account}` }],
  ...extra,
});

async function counts(clientId: number) {
  const rows = await queryRows<{ n: number; roll: number | null }>(
    ctx.db,
    sql`select (select count(*)::int from properties p where p.roll_id = c.active_roll_id) as n, c.active_roll_id as roll
          from clients c where c.id = ${clientId}`,
  );
  return rows[0]!;
}

describe('importRoll', () => {
  it('publishes a good roll and replaces it wholesale with the next one', async () => {
    const client = await buildClient(ctx.db);
    const first = await publishRoll(ctx.db, client.id, [rec('1'), rec('2'), rec('3')]);
    expect(first.client.parcelCount).toBe(3);
    expect(first.client.lastUpdated).toBeInstanceOf(Date);
    expect((await counts(client.id)).n).toBe(3);

    const second = await publishRoll(ctx.db, client.id, [rec('7'), rec('8')]);
    expect(second.client.parcelCount).toBe(2);
    const after = await queryRows<{ account: string }>(
      ctx.db,
      sql`select account from properties where client_id = ${client.id} order by account`,
    );
    // The old roll's rows are gone, not merely hidden.
    expect(after.map((r) => r.account)).toEqual(['7', '8']);
  });

  it('indexes a word the database reads as a number as its own search would look for it', async () => {
    // '12E3A' is '12e3' and 'a' to PostgreSQL's text parser: the SQL search's to_tsquery looks for those.
    const client = await buildClient(ctx.db);
    await publishRoll(ctx.db, client.id, [rec('1', { MapLot: '12E3A' }), rec('2')]);
    const rows = await queryRows<{ account: string; same: boolean }>(
      ctx.db,
      sql`select p.account,
                 tsvector_to_array(p.search_doc) = tsvector_to_array(to_tsvector('simple',
                   array_to_string(tsvector_to_array(p.search_doc), ' '))) as same
            from properties p join clients c on c.active_roll_id = p.roll_id
           where c.id = ${client.id} order by p.account`,
    );
    expect(rows).toEqual([
      { account: '1', same: true },
      { account: '2', same: true },
    ]);
    const found = await queryRows<{ account: string }>(
      ctx.db,
      sql`select p.account from properties p join clients c on c.active_roll_id = p.roll_id
           where c.id = ${client.id} and p.search_doc @@ to_tsquery('simple', '12e3a:*')`,
    );
    expect(found.map((r) => r.account)).toEqual(['1']);
  });

  it('rejects a file with any bad record and changes nothing, naming line and field', async () => {
    const client = await buildClient(ctx.db);
    await publishRoll(ctx.db, client.id, [rec('1')]);
    const before = await counts(client.id);
    const outcome = await importRoll(
      ctx.db,
      { clientId: client.id, userId: null, actor: 'test', fileName: 'bad.jsonl' },
      async function* () {
        yield { line: 1, value: rec('5') };
        yield { line: 2, value: rec('6', { Sales: [{ SalePrice: 'N/A' }] }) };
        yield { line: 3, value: rec('5') };
        yield { line: 4, error: 'not valid JSON' };
      },
    );
    expect(outcome.ok).toBe(false);
    expect(outcome.errors).toContain('line 2: Sales[0].SalePrice: expected a number, got "N/A"');
    expect(outcome.errors).toContain('line 3: Account: 5 appears again (first on line 1)');
    expect(outcome.errors).toContain('line 4: not valid JSON');
    expect(await counts(client.id)).toEqual(before);
    const leftovers = await queryRows<{ n: number }>(
      ctx.db,
      sql`select count(*)::int as n from properties where roll_id = ${outcome.run.id}`,
    );
    expect(leftovers[0]!.n).toBe(0);
    expect(outcome.run.status).toBe('failed');
  });

  it('says it is only checking once a problem has stopped the writing, until the file ends', async () => {
    const client = await buildClient(ctx.db);
    const runStatus = async () => {
      const [run] = await queryRows<{ status: string; error_count: number }>(
        ctx.db,
        sql`select status, error_count from import_runs where client_id = ${client.id} order by id desc limit 1`,
      );
      return run && `${run.status}, ${run.error_count} problems`;
    };
    const seen: Array<string | undefined> = [];
    const outcome = await importRoll(
      ctx.db,
      { clientId: client.id, userId: null, actor: 'test', fileName: 'late.jsonl' },
      async function* () {
        for (let line = 1; line <= 3_000; line++) {
          // Before any problem, and once the batch holding the problem (line 1,200) has been read.
          if (line === 500 || line === 2_900) seen.push(await runStatus());
          const bad = line === 1_200 ? { Sales: [{ SalePrice: 'N/A' }] } : {};
          yield { line, value: rec(String(line), bad) };
        }
      },
    );
    expect(seen).toEqual(['importing, 0 problems', 'validating, 1 problems']);
    expect(outcome.ok).toBe(false);
    expect(await runStatus()).toBe('failed, 1 problems');
  });
});

describe('health and unknown API paths', () => {
  it('answers /healthz and /readyz, and a JSON 404 under /api', async () => {
    expect((await ctx.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await ctx.app.inject('/readyz')).statusCode).toBe(200);
    const res = await ctx.app.inject({ method: 'DELETE', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
