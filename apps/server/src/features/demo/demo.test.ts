import { describe, expect, it } from 'vitest';
import { PropertyRecord, type PropertyRecord as Rec } from '@opp/contracts';
import { setupTestApp } from '../../../test/helpers.ts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { DEMO_NOTE, DEMO_TOWNS, demoRecords, demoTownSizes, TAX_YEARS } from './demo-records.ts';
import { createDemo, DemoConflictError } from './demo.service.ts';

const IMAGES = ['demo-x-house-1.jpg', 'demo-x-house-2.jpg', 'demo-x-house-3.jpg'];

describe('demo records', () => {
  const towns = DEMO_TOWNS.map((town) => ({
    town,
    records: [...demoRecords(town, { images: IMAGES })].map((r) => PropertyRecord.parse(r)),
  }));
  const all: Rec[] = towns.flatMap((t) => t.records);

  it('are the same on every run', () => {
    for (const town of DEMO_TOWNS) {
      const a = JSON.stringify([...demoRecords(town, { images: IMAGES })]);
      const b = JSON.stringify([...demoRecords(town, { images: IMAGES })]);
      expect(a).toBe(b);
    }
    // Different towns are different rolls, not one roll renamed.
    expect(towns[0]!.records[0]).not.toEqual(towns[1]!.records[0]);
  });

  it('make three towns of different sizes, with unique accounts, and scale with --parcels', () => {
    expect(towns.map((t) => [t.town.city, t.records.length])).toEqual([
      ['Denmark', 300],
      ['Harrison', 1500],
      ['Bridgton', 5000],
    ]);
    for (const t of towns) expect(new Set(t.records.map((r) => r.Account)).size).toBe(t.records.length);
    const sizes = demoTownSizes(680);
    expect(sizes).toEqual([30, 150, 500]);
    expect([...demoRecords(DEMO_TOWNS[0]!, { parcels: 30 })]).toHaveLength(30);
  });

  it('hold the promised variety', () => {
    const share = (pred: (r: Rec) => boolean) => all.filter(pred).length / all.length;
    expect(share((r) => r.Owners.length > 1)).toBeGreaterThan(0.3);
    const condos = all.filter((r) => r.Apartment !== '' && r.Buildings[0]?.BuildingType === 'Condominium');
    expect(condos.length).toBeGreaterThan(100);
    expect(share((r) => r.CommercialBuildings.length > 0)).toBeGreaterThan(0.02);
    expect(share((r) => r.BuildingAdditions.length > 0)).toBeGreaterThan(0.15);
    expect(share((r) => r.Sales.length >= 2)).toBeGreaterThan(0.2);
    expect(share((r) => r.Images.length > 0)).toBeGreaterThan(0.05);
    for (const r of all.filter((x) => x.Images.length))
      for (const src of r.Images) expect(IMAGES.map((n) => `/api/files/image/${n}`)).toContain(src);

    const exemptions = new Set(all.flatMap((r) => r.Exemptions.map((e) => e.Description)));
    expect([...exemptions]).toEqual(expect.arrayContaining(['Homestead', 'Veteran']));
    const land = new Set(all.flatMap((r) => r.Land.map((l) => l.LandDescription)));
    expect([...land]).toEqual(
      expect.arrayContaining(['House Lot', 'Rear Land', 'Tree Growth Softwood', 'Waterfront']),
    );
    const styles = new Set(all.flatMap((r) => r.Buildings.map((b) => b.BuildingType)));
    expect([...styles]).toEqual(expect.arrayContaining(['Cape', 'Colonial', 'Ranch', 'Mobile Home']));
    expect(
      all.some((r) => (r.Buildings[0]?.Bedrooms ?? 0) >= 3 && (r.Buildings[0]?.FullBaths ?? 0) >= 2),
    ).toBe(true);
    expect(share((r) => (r.TotalTaxOutstanding ?? 0) > 0)).toBeGreaterThan(0.03);
    expect(all.every((r) => r.Open1?.UserDefinedValue === DEMO_NOTE)).toBe(true);
  });

  it('add up like a real roll: totals, taxes at a fractional rate, every tax year', () => {
    for (const r of all) {
      const land = r.Land.reduce((s, l) => s + (l.Amount ?? 0), 0);
      const buildings =
        r.Buildings.reduce((s, b) => s + (b.BuildingValue ?? 0), 0) +
        r.CommercialBuildings.reduce((s, c) => s + (c.Value ?? 0), 0) +
        r.BuildingAdditions.reduce((s, a) => s + (a.AdditionValue ?? 0), 0);
      expect(r.LandValue).toBe(land);
      expect(r.TotalBuildingValue).toBe(buildings);
      expect(r.Taxable).toBe(Math.max(0, land + buildings - (r.TotalExemption ?? 0)));
      expect(r.Taxes.map((t) => t.TaxYear)).toEqual([...TAX_YEARS].reverse());
      const latest = r.Taxes[0]!;
      expect(latest.TaxableValue).toBe(r.Taxable);
      expect(latest.Rate).toBeGreaterThan(0.005);
      expect(latest.Rate).toBeLessThan(0.03);
      // Rounded to the cent.
      expect(Math.abs(latest.OriginalTaxAmount! - (r.Taxable ?? 0) * latest.Rate!)).toBeLessThanOrEqual(
        0.005 + 1e-9,
      );
      const owed = r.Taxes.reduce((s, t) => s + (t.OutstandingTaxBalance ?? 0), 0);
      expect(r.TotalTaxOutstanding).toBeCloseTo(owed, 2);
    }
  });
});

describe('createDemo', () => {
  const ctx = setupTestApp();
  const passwords = { provider: 'demo-provider-pass-1', superAdmin: 'demo-super-pass-1' };

  const login = async (Identity: string, Password: string) =>
    (await ctx.app.inject({ method: 'POST', url: '/api/login', payload: { Identity, Password } })).statusCode;

  it('publishes the towns through the import, with photos, banner, contacts, payment link and logins', async () => {
    const summary = await createDemo(ctx.db, { parcels: 120, passwords });
    expect(summary.towns.map((t) => [t.city, t.parcels])).toEqual([
      ['Denmark', 5],
      ['Harrison', 26],
      ['Bridgton', 88],
    ]);
    const [, harrison, bridgton] = summary.towns;

    const hClient = (await ctx.app.inject(`/api/client/${harrison!.clientId}`)).json();
    expect(hClient).toMatchObject({ City: 'Harrison', StateProvince: 'Maine', ParcelCount: 26 });
    expect(hClient.Description).toMatch(/demo data/i);
    const banner = await ctx.app.inject(`/api/files/image/${hClient.BannerImage}`);
    expect(banner.statusCode).toBe(200);
    expect(banner.headers['content-type']).toBe('image/jpeg');
    const contacts = (await ctx.app.inject(`/api/contacts/${harrison!.clientId}`)).json();
    expect(contacts.length).toBeGreaterThanOrEqual(2);
    expect(contacts[0].FreeFormMessage).toMatch(/demo/i);

    const bClient = (await ctx.app.inject(`/api/client/${bridgton!.clientId}`)).json();
    expect(bClient).toMatchObject({ AllowPaymentLink: true, BannerImage: null });
    expect(bClient.PaymentLink).not.toBe('');

    const states = (await ctx.app.inject('/api/states')).json();
    expect(states).toContain('Maine');

    // A property with a photo serves it.
    let photo: string | undefined;
    for (let a = 1; a <= 88 && !photo; a++) {
      const res = await ctx.app.inject(`/api/fullproperty/${a}?city=Bridgton&state=Maine`);
      photo = res.json().Images?.[0];
    }
    expect(photo).toMatch(/^\/api\/files\/image\/demo-bridgton-house-\d\.jpg$/);
    expect((await ctx.app.inject(photo!)).statusCode).toBe(200);

    expect(summary.logins.map((l) => [l.username, l.roleId])).toEqual([
      ['demo-provider', 1],
      ['demo-harrison-admin', 2],
    ]);
    expect(await login('demo-provider', passwords.provider)).toBe(200);
    expect(await login('demo-harrison-admin', passwords.superAdmin)).toBe(200);
  }, 120_000);

  it('runs again over its own towns, with new passwords', async () => {
    const first = (await ctx.app.inject('/api/client/Maine/Harrison')).json().ClientID;
    const again = await createDemo(ctx.db, { parcels: 120 });
    expect(again.towns.map((t) => t.parcels)).toEqual([5, 26, 88]);
    expect(again.towns[1]!.clientId).toBe(first);
    expect(again.logins[0]!.password).not.toBe(passwords.provider);
    expect(await login('demo-provider', passwords.provider)).toBe(401);
    expect(await login('demo-provider', again.logins[0]!.password)).toBe(200);
  }, 120_000);
});

describe('createDemo next to real data', () => {
  const ctx = setupTestApp();

  it('refuses to touch a town of the same name that holds real data', async () => {
    const real = await buildClient(ctx.db, { city: 'Harrison', stateProvince: 'Maine' });
    await publishRoll(ctx.db, real.id, [{ Account: '1', Owners: [{ OwnerName: 'REAL OWNER' }] }]);
    await expect(createDemo(ctx.db, { parcels: 30 })).rejects.toBeInstanceOf(DemoConflictError);
    const res = await ctx.app.inject('/api/fullproperty/1?city=Harrison&state=Maine');
    expect(res.json().Owners).toEqual([expect.objectContaining({ OwnerName: 'REAL OWNER' })]);
  }, 120_000);
});
