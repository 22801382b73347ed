import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../src/features/properties/property-row.ts';
const N = 10000;
const rows = fs.readFileSync('/tmp/h1scratch/bench-100000.jsonl', 'utf8').split('\n').slice(0, N).map((l) => toPropertyRow(PropertyRecord.parse(JSON.parse(l))));
const B = Number(process.env.B ?? 500);
const payloads: string[] = [];
for (let i = 0; i < N; i += B) payloads.push(JSON.stringify(rows.slice(i, i + B).map((r) => ({
    account: r.account, account_key: r.accountKey, record: r.record, summary: r.summary, map_lot_key: r.mapLotKey, name_key: r.nameKey, location_key: r.locationKey,
    building_land: r.buildingLand, total_acres: r.totalAcres, sale_date: r.saleDate, sale_price: r.salePrice, living_area: r.livingArea, bedrooms: r.bedrooms, bathrooms: r.bathrooms,
    has_residential: r.hasResidential, has_commercial: r.hasCommercial, land_types: r.landTypes, building_styles: r.buildingStyles, search_text: r.searchText }))));
const isLite = !process.env.BENCH_PG;
const db: any = isLite ? await PGlite.create() : new pg.Client(process.env.BENCH_PG);
if (!isLite) await db.connect();
const exec = (t: string) => (isLite ? db.exec(t) : db.query(t));
const cols = `account text, account_key text collate "C", record jsonb, summary jsonb, map_lot_key text collate "C", name_key text collate "C", location_key text collate "C", building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential bool, has_commercial bool, land_types text[], building_styles text[]`;
const bare = `create table t (roll_id int, ${cols}, search_doc tsvector)`;
const sel = (fn: string, cast: string) => `insert into t select 1, x.account, x.account_key, x.record, x.summary, x.map_lot_key, x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price, x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial,
      array(select ${fn}_array_elements_text(x.land_types)), array(select ${fn}_array_elements_text(x.building_styles)), to_tsvector('simple', x.search_text)
    from ${fn}_to_recordset($1::${cast}) as x(account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text, location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential bool, has_commercial bool, land_types ${cast}, building_styles ${cast}, search_text text)`;
const variants: [string, string, string][] = [
  ['jsonb', bare, sel('jsonb', 'jsonb')],
  ['json', bare, sel('json', 'json')],
  ['json+toast8160', bare + ' with (toast_tuple_target = 8160)', sel('json', 'json')],
  ['json+storage main', bare + '; alter table t alter column record set storage main', sel('json', 'json')],
  ['json no tsv', bare, sel('json', 'json').replace(`to_tsvector('simple', x.search_text)`, 'null')],
];
for (const [name, ddl, ins] of variants) {
  await exec('drop table if exists t');
  await exec(ddl);
  const t = performance.now();
  for (const p of payloads) await db.query(ins, [p]);
  console.log(name, Math.round(N / ((performance.now() - t) / 1000)), 'rows/s');
}
await (isLite ? db.close() : db.end());
