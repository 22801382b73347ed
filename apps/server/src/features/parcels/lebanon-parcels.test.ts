import { describe, expect, it } from 'vitest';
import type { AbuttersResponse, ParcelFeature } from '@opp/contracts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { hasLebanon, LEBANON_LAYER, LEBANON_MISSING, lebanonRoll } from '../../../test/parcel-layers.ts';
import { importParcelFile } from './parcel-import.ts';

/*
 * Lebanon, NH's real parcel Shapefile (4,364 features, NH State Plane feet) joined to its Vision master
 * export (5,660 parcels), from ../shared (read-only). Its condominium units and mobile homes have map/lots
 * of their own (`4-23-906`) that no polygon carries: they sit on their master parcel (`4-23`).
 */

if (!hasLebanon) {
  if (process.env.CI === 'true') throw new Error(`Lebanon parcel tests ${LEBANON_MISSING}`);
  console.warn(`Lebanon parcel tests ${LEBANON_MISSING}`);
}

const ctx = setupTestApp();

describe.skipIf(!hasLebanon)("Lebanon, NH: the city's real Shapefile and master export", () => {
  it('picks MAP_LOT by itself and puts condominium units and mobile homes on the parcel they sit on', async () => {
    const roll = lebanonRoll();
    const client = await buildClient(ctx.db, { city: 'Lebanon', stateProvince: 'New Hampshire' });
    await publishRoll(ctx.db, client.id, roll);
    const report = await importParcelFile(ctx.db, {
      clientId: client.id,
      filePath: LEBANON_LAYER,
      fileName: 'LebParcels.zip',
      key: 'MapLot',
      dryRun: false,
      audit: { actor: null, ip: null },
    });
    expect(report.problems.count).toBe(0);
    expect(report).toMatchObject({ property: 'MAP_LOT', propertyChosen: true, featuresRead: 4364 });
    expect(report.fileProperties).toEqual(
      expect.arrayContaining(['GIS_ID', 'MAP_LOT', 'CALC_ACRES', 'Shape_Leng', 'Shape_Area']),
    );
    // SOURCE.md: 4,281 of the master's records have a polygon of their own.
    const own = report.recordsMatched - report.recordsOnMasterParcel.count;
    expect(own).toBe(4281);
    expect(report.recordsOnMasterParcel.count).toBeGreaterThan(1000);
    expect(report.recordsMatched + report.recordsWithoutShape.count).toBe(roll.length);

    const account = (mapLot: string) => roll.find((r) => r.MapLot === mapLot)!.Account;
    const unit = await ctx.app.inject(`/api/parcels/${client.id}/${account('4-23-906')}`);
    expect(unit.statusCode).toBe(200);
    expect(unit.json<ParcelFeature>().properties).toMatchObject({ MapLot: '4-23-906', OnParcel: '4-23' });
    expect(unit.json<ParcelFeature>().properties.Records).toBeGreaterThan(1);
    // The master's neighbours are notified with its units.
    const abutters = await ctx.app.inject(`/api/abutters/${client.id}/${account('4-23')}?distance=0`);
    expect(abutters.json<AbuttersResponse>().Abutters.map((a) => a.MapLot)).toContain('4-23-906');
  }, 300_000);
});
