import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type {
  AbuttersResponse,
  FullProperty,
  PropertyRecordInput,
  PublicClient,
  SearchResponse,
  Suggestion,
} from '@opp/contracts';
import { authHeader, buildClient, buildUser, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { lotRow } from '../../../test/parcel-layers.ts';
import { featuresOfJson } from '../parcels/parcel-files.ts';
import { importParcelLayer } from '../parcels/parcel-import.ts';

/*
 * Owners are people (issue 39): a record's SuppressOwner flag and the town's PublishOwnerNames and
 * OwnerNameSearch settings, on every public path: search results (roll index and SQL), the record, the
 * CSV export, the type-ahead, the abutters list, its CSV and its labels.
 */

const ctx = setupTestApp({ publicRateLimitPerMinute: 1_000_000, exportRateLimitPerMinute: 1_000_000 });

const mail = (OwnerName: string, Address1: string) => ({
  OwnerName,
  Address1,
  City: 'Testville',
  State: 'ME',
  ZipCode: '04330',
});

// Three lots side by side, 100 ft wide: each abuts the next.
const ROLL: PropertyRecordInput[] = [
  {
    Account: 'P1',
    MapLot: 'A-1',
    StreetNumber: '1',
    StreetName: 'ELM ST',
    Owners: [mail('QUIMBY, HAROLD', '12 Orchard Way')],
    Sales: [
      { SaleDate: '2020-05-01', SalePrice: 250000, SaleParty: 'QUIMBY HAROLD' },
      { SaleDate: '2001-03-01', SalePrice: 90000, SaleParty: 'EARLIER SELLER' },
    ],
  },
  {
    Account: 'P2',
    MapLot: 'A-2',
    StreetNumber: '3',
    StreetName: 'ELM ST',
    SuppressOwner: true,
    Owners: [mail('ZELLWEGER, NORA', '77 Hidden Ln')],
    // The registry spells the owner its own way (a middle name, initials, a trust): no name matching.
    Sales: [
      { SaleDate: '2021-06-01', SalePrice: 1, Book: '5012', Page: '77', SaleParty: 'ZELLWEGER NORA ANNE' },
      { SaleDate: '2020-01-01', SalePrice: 1, Book: '4980', Page: '12', SaleParty: 'ZELLWEGER FAMILY TRUST' },
      { SaleDate: '2019-01-01', SalePrice: 300000, SaleParty: 'N. ZELLWEGER & T. ZELLWEGER' },
      { SaleDate: '1999-01-01', SalePrice: 80000, SaleParty: 'PRIOR OWNER TRUST' },
    ],
  },
  {
    Account: 'P3',
    MapLot: 'A-3',
    StreetNumber: '5',
    StreetName: 'ELM ST',
    // A name sharing a word with the street: with name search off, "elm" still finds it by its address.
    Owners: [mail('ELM HOLDINGS', '5 Elm St')],
  },
];

let townId = 0;
let provider: Record<string, string> = {};

beforeAll(async () => {
  const client = await buildClient(ctx.db);
  townId = client.id;
  const { client: published } = await publishRoll(ctx.db, client.id, ROLL);
  const report = await importParcelLayer(ctx.db, featuresOfJson(lotRow(['A-1', 'A-2', 'A-3']), 'test'), {
    clientId: client.id,
    rollId: published.activeRollId,
    key: 'MapLot',
    fileName: 'lots.geojson',
    dryRun: false,
  });
  expect(report.problems.count).toBe(0);
  provider = await authHeader(ctx.app, (await buildUser(ctx.db, { roleId: 1 })).id);
});

const get = (url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: 'GET', url, headers });

async function settings(body: { PublishOwnerNames?: boolean; OwnerNameSearch?: boolean }) {
  const res = await ctx.app.inject({
    method: 'PATCH',
    url: `/api/client/${townId}`,
    headers: provider,
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PublicClient;
}

async function search(query: string, sort?: object) {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/propertysearch/${townId}?pagesize=500&query=${encodeURIComponent(query)}`,
    payload: sort ? { sort } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SearchResponse;
}

/** The accounts a query finds, in account order. */
const found = async (query: string) => (await search(query)).SearchProperties.map((p) => p.Account).sort();

async function record(account: string) {
  const res = await get(`/api/fullproperty/${account}?state=ME&city=${encodeURIComponent(await city())}`);
  expect(res.statusCode, res.body).toBe(200);
  return { body: res.body, json: res.json() as FullProperty, etag: res.headers.etag };
}

async function city() {
  return ((await get(`/api/client/${townId}`)).json() as PublicClient).City;
}

async function csv(query: string) {
  const res = await get(`/api/propertysearch/${townId}/export.csv?query=${encodeURIComponent(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

async function suggest(q: string) {
  const res = await get(`/api/suggest/${townId}?q=${encodeURIComponent(q)}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { suggestions: Suggestion[] }).suggestions;
}

async function abutters(account: string) {
  const res = await get(`/api/abutters/${townId}/${account}?distance=0`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as AbuttersResponse;
}

async function abuttersFiles(account: string) {
  const csvRes = await get(`/api/abutters/${townId}/${account}/abutters.csv?distance=0`);
  expect(csvRes.statusCode).toBe(200);
  const pdf = await get(`/api/abutters/${townId}/${account}/abutters.pdf?distance=0`);
  expect(pdf.statusCode).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'opp-privacy-')), 'labels.pdf');
  fs.writeFileSync(file, pdf.rawPayload);
  const labels = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true });
  return { csv: csvRes.body, labels };
}

/** A check on both search paths: the roll index and SQL. */
const bothPaths = (name: string, check: () => Promise<void>) => {
  it(`${name} (roll index)`, check);
  it(`${name} (SQL)`, () => ctx.app.rollIndexes!.withoutIndexes(check));
};

describe('a record whose owners are suppressed (SuppressOwner)', () => {
  it('has both settings on by default, in the client record', async () => {
    const town = (await get(`/api/client/${townId}`)).json() as PublicClient;
    expect(town).toMatchObject({ PublishOwnerNames: true, OwnerNameSearch: true });
  });

  it('serves the record without owners or any sale party, and says so', async () => {
    const { body, json } = await record('P2');
    expect(json.SuppressOwner).toBe(true);
    expect(json.Owners).toEqual([]);
    expect(json.Sales.map((s) => s.SaleParty)).toEqual(['', '', '', '']);
    expect(body).not.toMatch(/ZELLWEGER|Hidden Ln|PRIOR OWNER/i);
    // The rest of each sale stays, the registry's book and page included.
    expect(json.Sales.slice(0, 2)).toMatchObject([
      { SaleDate: '2021-06-01', SalePrice: 1, Book: '5012', Page: '77' },
      { SaleDate: '2020-01-01', Book: '4980', Page: '12' },
    ]);
    // Another record of the town keeps its owners.
    const other = (await record('P1')).json;
    expect(other.SuppressOwner).toBe(false);
    expect(other.Owners.map((o) => o.OwnerName)).toEqual(['QUIMBY, HAROLD']);
  });

  bothPaths('is not found by its owner’s name, and its result has no owners', async () => {
    expect(await found('zellweger')).toEqual([]);
    expect(await found('nora')).toEqual([]);
    expect(await found('quimby')).toEqual(['P1']);
    const all = await search('elm');
    expect(all.SearchProperties.find((p) => p.Account === 'P2')!.Owners).toEqual([]);
    expect(JSON.stringify(all)).not.toMatch(/ZELLWEGER/i);
  });

  bothPaths('is left out of the CSV export’s owners and the type-ahead', async () => {
    const file = await csv('elm');
    expect(file).toContain('QUIMBY, HAROLD');
    expect(file).toContain('"P2"');
    expect(file).not.toMatch(/ZELLWEGER/i);
    expect(await suggest('zell')).toEqual([]);
    expect(await suggest('quim')).toEqual([{ kind: 'owner', text: 'QUIMBY, HAROLD', account: 'P1' }]);
  });

  it('is listed among abutters without owners, in the list, its CSV and its labels', async () => {
    const list = await abutters('P1');
    const p2 = list.Abutters.find((a) => a.Account === 'P2')!;
    expect(p2).toMatchObject({ Owners: [], SuppressOwner: true });
    const { csv: file, labels } = await abuttersFiles('P3');
    expect(file).toContain('"P2","A-2","3 ELM ST","Owner information withheld"');
    expect(file).not.toMatch(/ZELLWEGER|Hidden/i);
    expect(labels).not.toMatch(/ZELLWEGER|Hidden/i);
    // Parcels whose owners are published still get their labels.
    expect((await abuttersFiles('P2')).labels).toContain('12 Orchard Way');
  });
});

describe('a town whose owner names are not searchable (OwnerNameSearch off)', () => {
  beforeAll(async () => {
    const town = await settings({ OwnerNameSearch: false });
    expect(town).toMatchObject({ PublishOwnerNames: true, OwnerNameSearch: false });
  });

  bothPaths('is not searched by owner names, but by every other word', async () => {
    expect(await found('quimby')).toEqual([]);
    expect(await found('holdings')).toEqual([]);
    expect(await found('elm holdings')).toEqual([]);
    // "elm" is P3's owner's word and every parcel's street.
    expect(await found('elm')).toEqual(['P1', 'P2', 'P3']);
    expect(await found('a-3')).toEqual(['P3']);
    expect(await suggest('quim')).toEqual([]);
    expect((await suggest('elm')).filter((s) => s.kind === 'owner')).toEqual([]);
  });

  bothPaths('still shows the names on records, results and the export', async () => {
    expect((await record('P1')).json.Owners.map((o) => o.OwnerName)).toEqual(['QUIMBY, HAROLD']);
    const result = (await search('elm')).SearchProperties.find((p) => p.Account === 'P1')!;
    expect(result.Owners).toEqual([{ OwnerName: 'QUIMBY, HAROLD' }]);
    expect(await csv('elm')).toContain('QUIMBY, HAROLD');
  });

  it('searches by names again when turned back on', async () => {
    await settings({ OwnerNameSearch: true });
    expect(await found('quimby')).toEqual(['P1']);
    await ctx.app.rollIndexes!.withoutIndexes(async () => expect(await found('quimby')).toEqual(['P1']));
  });
});

describe('a town that does not publish owner names (PublishOwnerNames off)', () => {
  let publishedEtag: string | undefined;
  beforeAll(async () => {
    publishedEtag = (await record('P1')).etag;
    const town = await settings({ PublishOwnerNames: false });
    expect(town).toMatchObject({ PublishOwnerNames: false, OwnerNameSearch: true });
  });

  it('serves no record’s owners, nor any sale party, and a new validator', async () => {
    const { body, json, etag } = await record('P1');
    expect(json.SuppressOwner).toBe(true);
    expect(json.Owners).toEqual([]);
    expect(json.Sales.map((s) => [s.SaleDate, s.SalePrice, s.SaleParty])).toEqual([
      ['2020-05-01', 250000, ''],
      ['2001-03-01', 90000, ''],
    ]);
    expect(body).not.toMatch(/QUIMBY|Orchard|EARLIER SELLER/i);
    expect(etag).not.toBe(publishedEtag);
    // A browser holding the copy with names is not told it is current.
    const again = await get(`/api/fullproperty/P1?state=ME&city=${encodeURIComponent(await city())}`, {
      'if-none-match': publishedEtag!,
    });
    expect(again.statusCode).toBe(200);
  });

  bothPaths('has no owners in results, export or type-ahead, and no search by names', async () => {
    const all = await search('elm');
    expect(all.SearchProperties.map((p) => p.Owners)).toEqual([[], [], []]);
    expect(await found('quimby')).toEqual([]);
    const file = await csv('elm');
    expect(file).not.toMatch(/QUIMBY|HOLDINGS/i);
    expect(file).toContain('"P1"');
    expect(await suggest('quim')).toEqual([]);
    // Sorting by owner name would tell the names' order: it sorts by location instead.
    const byName = await search('elm', { sortby: 'Name', descending: true });
    expect(byName.SearchProperties.map((p) => p.Account)).toEqual(['P3', 'P2', 'P1']);
  });

  it('lists abutters without owners, in the list, its CSV and its labels', async () => {
    const list = await abutters('P2');
    expect(list.Abutters.map((a) => [a.Account, a.Owners, a.SuppressOwner])).toEqual([
      ['P1', [], true],
      ['P3', [], true],
    ]);
    const { csv: file, labels } = await abuttersFiles('P2');
    expect(file).not.toMatch(/QUIMBY|HOLDINGS|Orchard/i);
    expect(file.match(/Owner information withheld/g)).toHaveLength(2);
    expect(labels).not.toMatch(/QUIMBY|HOLDINGS|Orchard/i);
  });

  it('is visible but not changeable by the town’s Super Administrator', async () => {
    const admin = await buildUser(ctx.db, { roleId: 2, manages: townId });
    const headers = await authHeader(ctx.app, admin.id);
    const res = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/client/${townId}`,
      headers,
      payload: { PublishOwnerNames: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('PublishOwnerNames');
    expect(((await get(`/api/client/${townId}`)).json() as PublicClient).PublishOwnerNames).toBe(false);
  });
});

describe('a roll published before owner privacy existed', () => {
  it('cannot have its names hidden from search until the town publishes again', async () => {
    const town = await buildClient(ctx.db, { stateProvince: 'Maine' });
    const { client } = await publishRoll(ctx.db, town.id, [
      { Account: 'OLD1', StreetName: 'ELM ST', Owners: [mail('QUIMBY, HAROLD', '1 ELM ST')] },
    ]);
    // As migrations/0019 marks every roll published before: its rows carry no owner_words.
    await ctx.db.execute(sql`update import_runs set owner_words = false where id = ${client.activeRollId}`);
    const patch = (payload: object) =>
      ctx.app.inject({ method: 'PATCH', url: `/api/client/${town.id}`, headers: provider, payload });
    for (const payload of [{ OwnerNameSearch: false }, { PublishOwnerNames: false }]) {
      const refused = await patch(payload);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/published before owner privacy.*Publish the roll again/);
    }
    expect(((await get(`/api/client/${town.id}`)).json() as PublicClient).OwnerNameSearch).toBe(true);
    // Other settings still change; and once the roll is published again, so do these.
    expect((await patch({ IsProduction: true })).statusCode).toBe(200);
    await publishRoll(ctx.db, town.id, [
      { Account: 'OLD1', StreetName: 'ELM ST', Owners: [mail('QUIMBY, HAROLD', '1 ELM ST')] },
    ]);
    expect((await patch({ OwnerNameSearch: false })).statusCode).toBe(200);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/api/propertysearch/${town.id}?query=quimby`,
      payload: {},
    });
    expect((res.json() as SearchResponse).TotalRecords).toBe(0);
  });
});
