import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../src/features/properties/property-row.ts';
const N = 10000;
const rows = fs.readFileSync('/tmp/h1scratch/bench-100000.jsonl', 'utf8').split('\n').slice(0, N).map((l) => toPropertyRow(PropertyRecord.parse(JSON.parse(l))));
const B = 500;
const payloads: string[] = [];
for (let i = 0; i < N; i += B) payloads.push(JSON.stringify(rows.slice(i, i + B).map((r) => ({
    account: r.account, account_key: r.accountKey, record: r.record, summary: r.summary, map_lot_key: r.mapLotKey, name_key: r.nameKey, location_key: r.locationKey,
    building_land: r.buildingLand, total_acres: r.totalAcres, sale_date: r.saleDate, sale_price: r.salePrice, living_area: r.livingArea, bedrooms: r.bedrooms, bathrooms: r.bathrooms,
    has_residential: r.hasResidential, has_commercial: r.hasCommercial, land_types: r.landTypes, building_styles: r.buildingStyles, search_text: r.searchText }))));
const q = async (db: any, text: string, params: unknown[] = []) => (db instanceof PGlite ? db.query(text, params) : db.query(text, params));
const db: any = process.env.BENCH_PG ? new pg.Client(process.env.BENCH_PG) : await PGlite.create();
if (!(db instanceof PGlite)) await db.connect();
const cols = `account text, account_key text collate "C", record jsonb, summary jsonb, map_lot_key text collate "C", name_key text collate "C", location_key text collate "C", building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential bool, has_commercial bool, land_types text[], building_styles text[]`;
const variants: Record<string, string> = {
  bare: `create temp table t (roll_id int, ${cols}, search_doc tsvector)`,
  pk: `create temp table t (roll_id int, ${cols}, search_doc tsvector, primary key (roll_id, account))`,
  idx: `create temp table t (roll_id int, ${cols}, search_doc tsvector, primary key (roll_id, account));
   create index on t (roll_id, map_lot_key, account_key); create index on t (roll_id, name_key, account_key); create index on t (roll_id, location_key, account_key);
   create index on t (roll_id, building_land, account_key); create index on t (roll_id, total_acres, account_key); create index on t (roll_id, sale_date, account_key); create index on t (roll_id, sale_price, account_key)`,
  gin: `create temp table t (roll_id int, ${cols}, search_doc tsvector, primary key (roll_id, account));
   create index on t (roll_id, map_lot_key, account_key); create index on t (roll_id, name_key, account_key); create index on t (roll_id, location_key, account_key);
   create index on t (roll_id, building_land, account_key); create index on t (roll_id, total_acres, account_key); create index on t (roll_id, sale_date, account_key); create index on t (roll_id, sale_price, account_key); create index on t using gin (search_doc)`,
};
for (const [name, ddl] of Object.entries(variants)) {
  await q(db, 'drop table if exists t');
  if (db instanceof PGlite) await db.exec(ddl); else await db.query(ddl);
  const t = performance.now();
  for (const p of payloads) await q(db, `insert into t select 1, x.account, x.account_key, x.record, x.summary, x.map_lot_key, x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price, x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial,
      array(select jsonb_array_elements_text(x.land_types)), array(select jsonb_array_elements_text(x.building_styles)), to_tsvector('simple', x.search_text)
    from jsonb_to_recordset($1::jsonb) as x(account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text, location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential bool, has_commercial bool, land_types jsonb, building_styles jsonb, search_text text)`, [p]);
  console.log(name, Math.round(N / ((performance.now() - t) / 1000)), 'rows/s');
}
await (db instanceof PGlite ? db.close() : db.end());
