import fs from 'node:fs';
import { openDatabase } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { importRoll } from '../src/features/imports/import.service.ts';
import { recordSourceFor } from '../src/features/imports/record-sources.ts';
import { clientsRepository } from '../src/features/clients/clients.repository.ts';

const N = Number(process.argv[2] ?? 100000);
const file = `/tmp/h1scratch/bench-${N}.jsonl`;
if (!fs.existsSync(file)) {
  const out = fs.createWriteStream(file);
  for (let i = 1; i <= N; i++) {
    const rec = {
      Account: String(i), StreetNumber: String(i % 500), StreetName: `ELM ${i % 97} ST`, MapLot: `R${i % 40}-${i}`,
      LandValue: 50000 + i, TotalBuildingValue: 100000 + i, TotalAcres: 1.5, Book: '1234', Page: String(i % 300),
      Owners: [{ OwnerName: `SMITH${i % 1000}, JOHN`, Address1: '1 MAIN ST', City: 'HARRISON', State: 'ME', ZipCode: '04040' }, { OwnerName: `DOE, JANE ${i % 7}` }],
      Sales: [{ SaleDate: '2019-05-01', SalePrice: 200000, Book: '123', Page: '45', SaleParty: 'X', SaleType: 'Arms' }, { SaleDate: '2001-05-01', SalePrice: 90000 }],
      Land: [{ LandCode: '1', LandDescription: 'House Lot', UnitType: 'Acres', Amount: 1 }, { LandCode: '2', LandDescription: 'Rear Land', Amount: 0.5 }],
      Buildings: [{ BuildingType: 'Cape', Area: 1500, Bedrooms: 3, FullBaths: 2, HalfBaths: 1, YearBuilt: 1970, BuildingValue: 100000 }],
      Taxes: [2022, 2023, 2024].map((y) => ({ TaxYear: y, Rate: 0.0148, LandValue: 50000, BuildingValue: 100000, TaxableValue: 150000, OriginalTaxAmount: 2220, OutstandingTaxBalance: 0, EffectiveDate: `${y}-04-01` })),
    };
    out.write(JSON.stringify(rec) + '\n');
  }
  await new Promise((r) => out.end(r));
}
const url = process.env.BENCH_PG;
const database = url ? await openDatabase({ engine: 'postgres', url }) : await openDatabase({ engine: 'pglite', dataDir: process.env.BENCH_DIR ?? null });
await migrate(database);
const client = await clientsRepository.insert(database.db, { city: `Bench ${Date.now()}`, stateProvince: 'Maine' });
const c0 = process.cpuUsage(); const t0 = performance.now();
let tv = 0;
const outcome = await importRoll(database.db, { clientId: client.id, userId: null, actor: 'bench', fileName: 'b.jsonl' }, recordSourceFor(file), (p) => {
  if (p.phase === 'importing' && !tv) tv = performance.now();
});
const t1 = performance.now(); const c1 = process.cpuUsage(c0);
console.log(database.engine, outcome.ok, outcome.total, `validate ${((tv - t0) / 1000).toFixed(1)}s`, `total ${((t1 - t0) / 1000).toFixed(1)}s`, `${Math.round(outcome.total / ((t1 - t0) / 1000))} rec/s`, `cpu ${((c1.user + c1.system) / 1e6).toFixed(1)}s`, `${Math.round(outcome.total / ((c1.user + c1.system) / 1e6))} rec/cpu-s`);
await database.close();
