import fs from 'node:fs';
import pg from 'pg';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../src/features/properties/property-row.ts';
const rows = fs.readFileSync('/tmp/h1scratch/bench-30000.jsonl', 'utf8').split('\n').slice(0, 3000).map((l) => toPropertyRow(PropertyRecord.parse(JSON.parse(l))));
const c = new pg.Client(process.env.BENCH_PG); await c.connect();
const cl = await c.query(`insert into clients (city, state_province) values ('Explain ${Date.now()}', 'Maine') returning id`);
const run = await c.query(`insert into import_runs (client_id, actor, file_name, status) values ($1, 'x', 'x', 'failed') returning id`, [cl.rows[0].id]);
for (let k = 0; k < 3; k++) {
const payload = JSON.stringify(rows.slice(k * 1000, k * 1000 + 1000).map((r) => ({ account: r.account, account_key: r.accountKey, record: r.record, summary: r.summary, map_lot_key: r.mapLotKey, name_key: r.nameKey, location_key: r.locationKey, building_land: r.buildingLand, total_acres: r.totalAcres, sale_date: r.saleDate, sale_price: r.salePrice, living_area: r.livingArea, bedrooms: r.bedrooms, bathrooms: r.bathrooms, has_residential: r.hasResidential, has_commercial: r.hasCommercial, land_types: r.landTypes, building_styles: r.buildingStyles, search_text: r.searchText })));
const res = await c.query(`explain (analyze, summary on) insert into properties (roll_id, client_id, account, account_key, record, summary, map_lot_key, name_key, location_key, building_land, total_acres, sale_date, sale_price, living_area, bedrooms, bathrooms, has_residential, has_commercial, land_types, building_styles, search_doc)
      select $2::int, $3::int, x.account, x.account_key, x.record, x.summary, x.map_lot_key, x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price, x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial, array(select jsonb_array_elements_text(x.land_types)), array(select jsonb_array_elements_text(x.building_styles)), to_tsvector('simple', x.search_text)
        from jsonb_to_recordset($1::jsonb) as x(account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text, location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential boolean, has_commercial boolean, land_types jsonb, building_styles jsonb, search_text text)`, [payload, run.rows[0].id, cl.rows[0].id]);
console.log(res.rows.map((r) => r['QUERY PLAN']).filter((l: string) => /Trigger|Execution|Planning/.test(l)).join('\n'));
}
await c.query('delete from clients where id = $1', [cl.rows[0].id]);
await c.end();
