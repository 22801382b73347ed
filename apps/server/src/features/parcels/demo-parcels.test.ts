import { describe, expect, it } from 'vitest';
import type { AbuttersResponse, ParcelCollection } from '@opp/contracts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { DEMO_TOWNS, demoRecords } from '../demo/demo-records.ts';
import { createDemo } from '../demo/demo.service.ts';
import { createDemoParcelLayer } from './demo-parcels.ts';

const ctx = setupTestApp();

describe('demo parcel layer', () => {
  it("gives every record of a demo town's roll a lot, contiguous with its neighbours, around the town", async () => {
    const town = DEMO_TOWNS[0]!;
    const client = await buildClient(ctx.db);
    const records = [...demoRecords(town)];
    await publishRoll(ctx.db, client.id, records);
    const report = await createDemoParcelLayer(ctx.db, client.id, town, town.city);
    expect(report).toMatchObject({
      recordsMatched: records.length,
      recordsWithoutShape: { count: 0 },
      shapesWithoutRecord: { count: 0 },
      warnings: { count: 0 },
      problems: { count: 0 },
    });

    const box = `${town.lon - 0.05},${town.lat - 0.05},${town.lon + 0.05},${town.lat + 0.05}`;
    const map = (
      await ctx.app.inject({ url: `/api/parcels/${client.id}?bbox=${box}` })
    ).json<ParcelCollection>();
    expect(map.features.length).toBeGreaterThan(100);

    // A lot in a block touches a few lots (its sides, its rear, their corners), never dozens: the lots
    // share boundaries but do not overlap.
    const single = records.find((r) => records.filter((o) => o.MapLot === r.MapLot).length === 1)!;
    const res = await ctx.app.inject({
      url: `/api/abutters/${client.id}/${String(single.Account)}?distance=0`,
    });
    const touching = res.json<AbuttersResponse>().Abutters;
    expect(touching.length).toBeGreaterThanOrEqual(1);
    expect(touching.length).toBeLessThanOrEqual(8);
    // Condominium units share their building's lot.
    const condo = records.find((r) => /^U\d+-\d+-\d{3}$/.test(r.MapLot ?? ''))!;
    const units = (
      await ctx.app.inject({ url: `/api/abutters/${client.id}/${String(condo.Account)}?distance=0` })
    ).json<AbuttersResponse>().Abutters;
    const sameBuilding = records.filter(
      (r) => r.Account !== condo.Account && r.MapLot?.slice(0, 7) === condo.MapLot!.slice(0, 7),
    );
    expect(units.map((u) => u.Account)).toEqual(
      expect.arrayContaining(sameBuilding.map((r) => String(r.Account))),
    );
  });

  it('is drawn for every demo town when the demo is created, so the map shows on the first start', async () => {
    const demo = await createDemo(ctx.db, { parcels: 90 });
    for (const t of demo.towns) {
      const town = DEMO_TOWNS.find((d) => d.city === t.city)!;
      const box = `${town.lon - 0.05},${town.lat - 0.05},${town.lon + 0.05},${town.lat + 0.05}`;
      const res = await ctx.app.inject({ url: `/api/parcels/${t.clientId}?bbox=${box}` });
      expect(res.statusCode, t.city).toBe(200);
      expect(res.json<ParcelCollection>().features.length, t.city).toBeGreaterThan(0);
    }
  });
});
