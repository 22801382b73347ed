import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../src/features/properties/property-row.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { rollsRepository } from '../src/features/imports/rolls.repository.ts';
import { clientsRepository } from '../src/features/clients/clients.repository.ts';
const N = 20000;
const rows = fs.readFileSync('/tmp/h1scratch/bench-100000.jsonl', 'utf8').split('\n').slice(0, N).map((l) => toPropertyRow(PropertyRecord.parse(JSON.parse(l))));
const url = process.env.BENCH_PG;
const database = url ? await openDatabase({ engine: 'postgres', url }) : await openDatabase({ engine: 'pglite', dataDir: null });
await migrate(database);
const db = database.db;
const client = await clientsRepository.insert(db, { city: `Bench ${Date.now()}`, stateProvince: 'Maine' });
const run1 = await rollsRepository.createRun(db, { clientId: client.id, userId: null, actor: 'x', fileName: 'x' });
const B = Number(process.env.B ?? 500);
let t = performance.now();
for (let i = 0; i < N; i += B) await rollsRepository.insertRows(db, run1.id, client.id, rows.slice(i, i + B));
console.log(database.engine, 'drizzle', Math.round(N / ((performance.now() - t) / 1000)), 'rows/s');
await rollsRepository.fail(db, run1.id, 'x', [], 0);
const run2 = await rollsRepository.createRun(db, { clientId: client.id, userId: null, actor: 'x', fileName: 'x' });
t = performance.now();
let ser = 0;
for (let i = 0; i < N; i += B) {
  const t0 = performance.now();
  const payload = JSON.stringify(rows.slice(i, i + B).map((r) => ({
    account: r.account, account_key: r.accountKey, record: r.record, summary: r.summary, map_lot_key: r.mapLotKey, name_key: r.nameKey, location_key: r.locationKey,
    building_land: r.buildingLand, total_acres: r.totalAcres, sale_date: r.saleDate, sale_price: r.salePrice, living_area: r.livingArea, bedrooms: r.bedrooms, bathrooms: r.bathrooms,
    has_residential: r.hasResidential, has_commercial: r.hasCommercial, land_types: r.landTypes, building_styles: r.buildingStyles, search_text: r.searchText })));
  ser += performance.now() - t0;
  await db.execute(sql`insert into properties (roll_id, client_id, account, account_key, record, summary, map_lot_key, name_key, location_key, building_land, total_acres, sale_date, sale_price, living_area, bedrooms, bathrooms, has_residential, has_commercial, land_types, building_styles, search_doc)
    select ${run2.id}, ${client.id}, x.account, x.account_key, x.record, x.summary, x.map_lot_key, x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price, x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial,
      array(select jsonb_array_elements_text(x.land_types)), array(select jsonb_array_elements_text(x.building_styles)), to_tsvector('simple', x.search_text)
    from jsonb_to_recordset(${payload}::jsonb) as x(account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text, location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential bool, has_commercial bool, land_types jsonb, building_styles jsonb, search_text text)`);
}
console.log(database.engine, 'recordset', Math.round(N / ((performance.now() - t) / 1000)), 'rows/s', 'serialize ms', Math.round(ser));
await database.close();
