import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { PropertyRecord } from '@opp/contracts';
import { toPropertyRow } from '../src/features/properties/property-row.ts';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { rollsRepository } from '../src/features/imports/rolls.repository.ts';
import { clientsRepository } from '../src/features/clients/clients.repository.ts';
const N = 6000;
const rows = fs.readFileSync('/tmp/h1scratch/bench-30000.jsonl', 'utf8').split('\n').slice(0, N).map((l) => toPropertyRow(PropertyRecord.parse(JSON.parse(l))));
const database = await openDatabase({ engine: 'pglite', dataDir: null });
await migrate(database);
const db = database.db;
const client = await clientsRepository.insert(db, { city: `Bench`, stateProvince: 'Maine' });
const ins = (table: string, rollId: number, batch: typeof rows, opts: { summary?: boolean; record?: boolean; tsv?: boolean; jsonb?: boolean } = {}) => {
  const fn = opts.jsonb ? 'jsonb' : 'json';
  const payload = JSON.stringify(batch.map((r) => ({ account: r.account, account_key: r.accountKey, record: opts.record === false ? null : r.record, summary: opts.summary === false ? null : r.summary, map_lot_key: r.mapLotKey, name_key: r.nameKey, location_key: r.locationKey, building_land: r.buildingLand, total_acres: r.totalAcres, sale_date: r.saleDate, sale_price: r.salePrice, living_area: r.livingArea, bedrooms: r.bedrooms, bathrooms: r.bathrooms, has_residential: r.hasResidential, has_commercial: r.hasCommercial, land_types: r.landTypes, building_styles: r.buildingStyles, search_text: r.searchText })));
  return db.execute(sql`insert into ${sql.raw(table)} (roll_id, client_id, account, account_key, record, summary, map_lot_key, name_key, location_key, building_land, total_acres, sale_date, sale_price, living_area, bedrooms, bathrooms, has_residential, has_commercial, land_types, building_styles, search_doc)
      select ${rollId}::int, ${client.id}::int, x.account, x.account_key, coalesce(x.record, '{}'), coalesce(x.summary, '{}'), x.map_lot_key, x.name_key, x.location_key, x.building_land, x.total_acres, x.sale_date, x.sale_price, x.living_area, x.bedrooms, x.bathrooms, x.has_residential, x.has_commercial, array(select ${sql.raw(fn)}_array_elements_text(x.land_types)), array(select ${sql.raw(fn)}_array_elements_text(x.building_styles)), ${opts.tsv === false ? sql`''::tsvector` : sql`to_tsvector('simple', x.search_text)`}
        from ${sql.raw(fn)}_to_recordset(${payload}::${sql.raw(fn)}) as x(account text, account_key text, record jsonb, summary jsonb, map_lot_key text, name_key text, location_key text, building_land float8, total_acres float8, sale_date date, sale_price float8, living_area float8, bedrooms float8, bathrooms float8, has_residential boolean, has_commercial boolean, land_types ${sql.raw(fn)}, building_styles ${sql.raw(fn)}, search_text text)`);
};
const variants: [string, string, object][] = [
  ['real', '', {}],
  ['real-jsonb', '', { jsonb: true }],
  ['real', '', {}],
  ['copy-nofk', 'create table p2 (like properties including all)', {}],
  ['external', 'create table p2 (like properties including all); alter table p2 alter column record set storage external', {}],
  ['no-summary', 'create table p2 (like properties including all)', { summary: false }],
  ['no-record', 'create table p2 (like properties including all)', { record: false }],
  ['no-tsv', 'create table p2 (like properties including all)', { tsv: false }],
  ['no-indexes', 'create table p2 (like properties including defaults)', {}],
];
for (const [name, ddl, opts] of variants) {
  await database.execScript('drop table if exists p2');
  if (ddl) await database.execScript(ddl);
  const run = await rollsRepository.createRun(db, { clientId: client.id, userId: null, actor: 'x', fileName: 'x' });
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i += 1000) await ins(ddl ? 'p2' : 'properties', run.id, rows.slice(i, i + 1000), opts);
  const c = process.cpuUsage(c0);
  console.log(name, Math.round(N / ((c.user + c.system) / 1e6)), 'rows/cpu-s');
  await rollsRepository.fail(db, run.id, 'x', [], 0);
}
await database.close();
