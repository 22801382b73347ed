import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchResponse } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient } from '../../../test/factories.ts';
import { haveExample, importExample, realworldDir } from '../../../test/real-exports.ts';

/*
 * The real Lyme, NH roll (../shared/data/realworld/lyme-nh), read through its mapping
 * (docs/examples/lyme-nh.json) and published through the real import, answers text searches the way its source file says it should. The
 * expected counts come straight from the CAMA file with a plain "some word starts with the term" reading
 * of the owner, co-owner, address, map/lot and parcel id columns. Skipped when the data is absent.
 */

const sourceDir = path.join(realworldDir, 'lyme-nh');
const haveData = haveExample('lyme-nh', 'Lyme search tests');

type Row = Record<string, string>;

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000 });

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
const value = (v: string | undefined) => (v === undefined || v.trim() === 'NULL' ? '' : v);

describe.skipIf(!haveData)('Lyme, NH: text search against the source file', () => {
  let clientId = 0;
  let cama: Row[] = [];

  beforeAll(async () => {
    const client = await buildClient(ctx.db, { city: 'Lyme', stateProvince: 'New Hampshire' });
    clientId = client.id;
    const outcome = await importExample(ctx.db, client.id, 'lyme-nh');
    if (!outcome.ok) throw new Error(`the Lyme roll did not import: ${outcome.errors.join('; ')}`);
    cama = parse(fs.readFileSync(path.join(sourceDir, 'lyme_cama_2022.csv')), {
      columns: true,
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as Row[];
  }, 180_000);

  /** Source rows in which every term starts a word of one of the searched columns. */
  function expectedAccounts(query: string): string[] {
    const terms = fold(query).split(/\s+/).filter(Boolean);
    return cama
      .filter((r) => {
        const text = [r.OwnerName, r.CoOwnerName, r.StreetAddress, r.DisplayId, r.LocalCamaId]
          .map((v) => fold(value(v)))
          .join(' ');
        return terms.every((t) => new RegExp(`(^|[^a-z0-9])${t}`).test(text));
      })
      .map((r) => r.LocalCamaId!)
      .sort();
  }

  async function searchAccounts(query: string): Promise<{ accounts: string[]; body: SearchResponse }> {
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/propertysearch/${clientId}?query=${encodeURIComponent(query)}&pagesize=500`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as SearchResponse;
    return { accounts: body.SearchProperties.map((p) => p.Account).sort(), body };
  }

  it('holds the whole roll', async () => {
    const res = await ctx.app.inject({ method: 'POST', url: `/api/propertysearch/${clientId}` });
    expect(res.json()).toMatchObject({ TotalRecords: cama.length, TotalIsEstimate: false });
    expect(cama.length).toBe(1083);
  });

  it('finds owners by surname exactly as often as the source file names them', async () => {
    for (const surname of ['smith', 'roby', 'pike', 'nichols', 'green']) {
      const expected = expectedAccounts(surname);
      expect(expected.length, surname).toBeGreaterThanOrEqual(5);
      const { accounts, body } = await searchAccounts(surname);
      expect(body.TotalRecords, surname).toBe(expected.length);
      expect(accounts, surname).toEqual(expected);
    }
  });

  it('finds streets, and owner plus street, as the source addresses say', async () => {
    for (const query of [
      'dorchester',
      'dorchester rd',
      'goose pond',
      'river rd',
      'orford',
      'smith dorchester',
    ]) {
      const expected = expectedAccounts(query);
      const { accounts } = await searchAccounts(query);
      expect(accounts, query).toEqual(expected);
    }
    expect(expectedAccounts('dorchester rd').length).toBeGreaterThanOrEqual(100);
  });

  it('finds map/lots starting with a punctuated prefix, as the DisplayId column has them', async () => {
    const prefix = '401-55';
    const expected = cama
      .filter((r) => value(r.DisplayId).startsWith(prefix))
      .map((r) => r.LocalCamaId!)
      .sort();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    expect((await searchAccounts(prefix)).accounts).toEqual(expected);
  });

  it("serves a parcel's full record with the source file's owners", async () => {
    const row = cama.find((r) => value(r.CoOwnerName) !== '')!;
    const res = await ctx.app.inject(`/api/fullproperty/${row.LocalCamaId}?city=Lyme&state=NH`);
    expect(res.statusCode).toBe(200);
    const owners = res.json().Owners.map((o: { OwnerName: string }) => o.OwnerName);
    const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(owners.map(squash)).toEqual([squash(row.OwnerName!), squash(row.CoOwnerName!)]);
  });
});
