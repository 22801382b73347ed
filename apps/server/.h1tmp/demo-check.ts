import { PropertyRecord } from '@opp/contracts';
import { DEMO_TOWNS, demoRecords } from '../src/features/demo/demo-records.ts';
import { fastParseRecord } from '../src/features/imports/record-fast-path.ts';
const t = performance.now();
let n = 0, bad = 0, slow = 0; const styles = new Map<string, number>(); const land = new Map<string, number>();
let photos = 0, condos = 0, com = 0, add = 0, out = 0, multi = 0, bytes = 0;
for (const town of DEMO_TOWNS) for (const rec of demoRecords(town, { images: ['a.jpg', 'b.jpg', 'c.jpg'] })) {
  n++;
  bytes += JSON.stringify(rec).length;
  const p = PropertyRecord.safeParse(rec);
  if (!p.success) { bad++; if (bad < 3) console.log(JSON.stringify(p.error.issues).slice(0, 500)); continue; }
  if (!fastParseRecord(rec)) slow++;
  for (const b of p.data.Buildings) styles.set(b.BuildingType, (styles.get(b.BuildingType) ?? 0) + 1);
  for (const l of p.data.Land) land.set(l.LandDescription, (land.get(l.LandDescription) ?? 0) + 1);
  if (p.data.Images.length) photos++;
  if (p.data.Apartment) condos++;
  if (p.data.CommercialBuildings.length) com++;
  if (p.data.BuildingAdditions.length) add++;
  if ((p.data.TotalTaxOutstanding ?? 0) > 0) out++;
  if (p.data.Owners.length > 1) multi++;
  if (n === 7) console.log(JSON.stringify(rec, null, 1).slice(0, 3500));
}
console.log({ n, bad, slow, photos, condos, com, add, out, multi, avgBytes: Math.round(bytes / n), ms: Math.round(performance.now() - t) });
console.log(styles, land);
