import proj4 from 'proj4';
import { beforeAll, describe, expect, it } from 'vitest';
import { ComparablesResponse, type Comparable, type PropertyRecordInput } from '@opp/contracts';
import { buildClient, publishRoll } from '../../../test/factories.ts';
import { setupTestApp } from '../../../test/helpers.ts';
import { featuresOfJson } from '../parcels/parcel-files.ts';
import { importParcelLayer } from '../parcels/parcel-import.ts';

/*
 * A hand-made town for comparable sales: lots laid out in feet (an azimuthal equidistant projection, not
 * the server's transverse Mercator), each with its class, living area, year built and sales written out,
 * and every sale's arm's-length status stated by hand. The expected comparables of a dozen subjects are
 * computed here from those facts alone (centroid distances, the period, the class, the size range, the
 * documented score) and compared with the API's answers, on the embedded engine and on PostgreSQL.
 */

const ctx = setupTestApp({
  publicRateLimitPerMinute: 1_000_000,
  exportRateLimitPerMinute: 1_000_000,
  mapRateLimitKbPerMinute: 1_000_000,
});

interface LotSale {
  date: string;
  price: number | null;
  type?: string;
  /** The sale party: '' or the parcel's current owner (a party a privacy rule may withhold). */
  party?: string;
  /** Why the sale is not arm's length, as the docs define it; absent: arm's length. */
  not?: 'Qualification' | 'NominalPrice';
}

interface Lot {
  account: string;
  mapLot: string;
  /** Rectangles [x0, y0, x1, y1] in feet whose union is the lot (none: the record has no shape). */
  parts: [number, number, number, number][];
  landCode: string;
  /** The class the docs give the use code. */
  cls: string | null;
  area: number | null;
  year: number | null;
  owner: string;
  suppress?: boolean;
  sales: LotSale[];
}

/** A 100 ft square lot centred on (x, y). */
const sq = (x: number, y: number): [number, number, number, number][] => [[x - 50, y - 50, x + 50, y + 50]];

const LOTS: Lot[] = [
  {
    account: '1',
    mapLot: 'C-1',
    parts: sq(0, 0),
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'ABLE, ANN',
    sales: [{ date: '2015-04-01', price: 250000, party: 'ABLE, ANN' }],
  },
  {
    account: '2',
    mapLot: 'C-2',
    parts: sq(300, 0),
    landCode: '1013',
    cls: '101',
    area: 1900,
    year: 1985,
    owner: 'BAKER, BEN',
    sales: [
      { date: '2024-05-01', price: 400000, type: 'Q', party: 'BAKER, BEN' },
      { date: '2019-01-01', price: 300000 },
    ],
  },
  {
    account: '3',
    mapLot: 'C-3',
    parts: sq(0, 600),
    landCode: '101',
    cls: '101',
    area: 2400,
    year: 2000,
    owner: 'CARTER, CY',
    sales: [{ date: '2025-06-30', price: 520000, party: 'CARTER, CY' }],
  },
  {
    account: '4',
    mapLot: 'C-4',
    parts: sq(900, 900),
    landCode: '1010',
    cls: '101',
    area: 2600,
    year: 1970,
    owner: 'DIAZ, DANA',
    sales: [{ date: '2024-01-15', price: 610000, type: 'Arms Length' }],
  },
  {
    account: '5',
    mapLot: 'C-5',
    parts: sq(-1200, 0),
    landCode: '1010',
    cls: '101',
    area: 1600,
    year: 1995,
    owner: 'EVANS, ED',
    sales: [
      { date: '2023-09-01', price: 350000, type: 'U', party: 'EVANS, ED', not: 'Qualification' },
      { date: '2024-11-20', price: 380000, party: 'EVANS, ED' },
    ],
  },
  {
    account: '6',
    mapLot: 'C-6',
    parts: sq(0, -1500),
    landCode: '1010',
    cls: '101',
    area: 2100,
    year: 2010,
    owner: 'FOX, FAY',
    sales: [{ date: '2024-08-08', price: 500, type: 'Q', not: 'NominalPrice' }],
  },
  {
    account: '7',
    mapLot: 'C-7',
    parts: sq(1800, 1800),
    landCode: '1010',
    cls: '101',
    area: 2050,
    year: 1992,
    owner: 'SECRET, SAM',
    suppress: true,
    sales: [{ date: '2023-12-12', price: 455000, party: 'SECRET, SAM' }],
  },
  {
    account: '8',
    mapLot: 'C-8',
    parts: sq(2000, 2000),
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'GRAY, GUS',
    sales: [{ date: '2024-02-02', price: 470000, party: 'GRAY, GUS' }],
  },
  {
    account: '9',
    mapLot: 'C-9',
    parts: sq(400, 400),
    landCode: '102',
    cls: '102',
    area: 2000,
    year: 2005,
    owner: 'HILL, HAL',
    sales: [{ date: '2024-03-03', price: 300000 }],
  },
  {
    account: '10',
    mapLot: 'C-10',
    parts: sq(-600, -600),
    landCode: '3400',
    cls: '340',
    area: null,
    year: 1960,
    owner: 'IVY LLC',
    sales: [{ date: '2024-04-04', price: 900000, party: 'IVY LLC' }],
  },
  {
    account: '11',
    mapLot: 'C-11',
    parts: sq(600, 0),
    landCode: '1010',
    cls: '101',
    area: null,
    year: null,
    owner: 'JAY, JO',
    sales: [{ date: '2024-06-06', price: 200000 }],
  },
  {
    account: '12',
    mapLot: 'C-12',
    parts: sq(-300, 300),
    landCode: '1010',
    cls: '101',
    area: 1950,
    year: 1988,
    owner: 'KING, KIT',
    sales: [{ date: '2022-01-01', price: 410000, type: 'Arms Length' }],
  },
  // An L: 200 × 100 ft with 100 × 100 ft on top of its western half; centroid (83⅓, 83⅓) from its corner.
  {
    account: '13',
    mapLot: 'C-13',
    parts: [
      [-1000, 800, -800, 900],
      [-1000, 900, -900, 1000],
    ],
    landCode: '1010',
    cls: '101',
    area: 2200,
    year: 1960,
    owner: 'LEE, LU',
    sales: [
      { date: '2024-07-07', price: 430000, type: "Non-arm's length", not: 'Qualification' },
      { date: '2025-01-01', price: null, not: 'NominalPrice' },
    ],
  },
  // A second record on the subject's lot (a condominium unit): 0 miles away.
  {
    account: '15',
    mapLot: 'C-1',
    parts: [],
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'JONES, AMY',
    sales: [{ date: '2024-10-10', price: 480000, party: 'JONES, AMY' }],
  },
  {
    account: '16',
    mapLot: 'C-16',
    parts: sq(0, 300),
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'MAY, MO',
    sales: [{ date: '2023-06-30', price: 440000, type: '=1+2' }],
  },
  {
    account: '17',
    mapLot: 'C-17',
    parts: sq(0, -300),
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'NASH, NED',
    sales: [{ date: '2023-06-29', price: 440000 }],
  },
  // No shape on the map: never a comparable, and no subject.
  {
    account: '18',
    mapLot: 'Z-18',
    parts: [],
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'OAK, OLA',
    sales: [{ date: '2024-05-05', price: 450000 }],
  },
  {
    account: '19',
    mapLot: 'C-19',
    parts: sq(500, 400),
    landCode: '1021',
    cls: '102',
    area: 2100,
    year: 2006,
    owner: 'PAGE, PIA',
    sales: [{ date: '2024-09-09', price: 310000 }],
  },
  {
    account: '20',
    mapLot: 'C-20',
    parts: sq(5000, 0),
    landCode: '1010',
    cls: '101',
    area: 2000,
    year: 1990,
    owner: 'QUINN, QI',
    sales: [{ date: '2024-12-24', price: 495000 }],
  },
  {
    account: '21',
    mapLot: 'C-21',
    parts: sq(-3000, -3000),
    landCode: '13',
    cls: '013',
    area: 3000,
    year: 1920,
    owner: 'ROSE, RAY',
    sales: [{ date: '2024-02-29', price: 700000 }],
  },
  {
    account: '22',
    mapLot: 'C-22',
    parts: sq(-3200, -3000),
    landCode: '013',
    cls: '013',
    area: 2900,
    year: 1925,
    owner: 'STONE, SUE',
    sales: [{ date: '2024-03-01', price: 650000, type: 'U-FAMILY', not: 'Qualification' }],
  },
];
const LATEST_SALE = '2025-06-30';

const lotOf = (account: string) => LOTS.find((l) => l.account === account)!;
const shapeLot = (l: Lot) => (l.parts.length ? l : LOTS.find((o) => o.mapLot === l.mapLot && o.parts.length));

/** The lot's centroid in feet: its rectangles' centres weighted by their areas. */
function centroid(l: Lot): [number, number] | null {
  const lot = shapeLot(l);
  if (!lot) return null;
  let a = 0;
  let x = 0;
  let y = 0;
  for (const [x0, y0, x1, y1] of lot.parts) {
    const w = (x1 - x0) * (y1 - y0);
    a += w;
    x += w * ((x0 + x1) / 2);
    y += w * ((y0 + y1) / 2);
  }
  return [x / a, y / a];
}

const ORIGIN = { lon: -70.25, lat: 43.66 };
const toLonLat = proj4(
  'EPSG:4326',
  `+proj=aeqd +lat_0=${ORIGIN.lat} +lon_0=${ORIGIN.lon} +x_0=0 +y_0=0 +ellps=WGS84 +units=ft +no_defs`,
);
const at = (x: number, y: number) => toLonLat.inverse([x, y]) as [number, number];

/** The layer: one feature per lot with a shape, its rectangles as one polygon or several. */
function layer() {
  return {
    type: 'FeatureCollection',
    features: LOTS.filter((l) => l.parts.length).map((l) => {
      // The L's two rectangles as one outline, so the lot is one polygon as a real L would be.
      const rings =
        l.parts.length === 1
          ? l.parts.map(([x0, y0, x1, y1]) => [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1), at(x0, y0)])
          : [
              [
                at(-1000, 800),
                at(-800, 800),
                at(-800, 900),
                at(-900, 900),
                at(-900, 1000),
                at(-1000, 1000),
                at(-1000, 800),
              ],
            ];
      return {
        type: 'Feature',
        properties: { MapLot: l.mapLot },
        geometry: { type: 'Polygon', coordinates: rings },
      };
    }),
  };
}

function record(l: Lot): PropertyRecordInput {
  const [number, ...street] = `${l.account} Comparison Way`.split(' ');
  return {
    Account: l.account,
    MapLot: l.mapLot,
    StreetNumber: number,
    StreetName: street.join(' '),
    LandCode: l.landCode,
    SuppressOwner: l.suppress ?? false,
    Owners: [{ OwnerName: l.owner, Address1: '1 Post Rd', City: 'Portland', State: 'ME', ZipCode: '04101' }],
    Buildings:
      l.area === null && l.year === null
        ? []
        : [{ BuildingType: 'Colonial', Area: l.area, YearBuilt: l.year }],
    CommercialBuildings: [],
    Sales: l.sales.map((s) => ({
      SaleDate: s.date,
      SalePrice: s.price,
      SaleType: s.type ?? '',
      SaleParty: s.party ?? '',
      Book: '100',
      Page: s.date.slice(5, 7),
    })),
  };
}

interface Criteria {
  distance?: number;
  years?: number;
  size?: '10' | '25' | '50' | 'any';
  allSales?: boolean;
}

const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 86_400_000;

/** The comparables the docs promise, from the lots' facts. */
function expected(subjectAccount: string, c: Criteria, withheldParties: (l: Lot) => boolean) {
  const distance = c.distance ?? 0.5;
  const years = c.years ?? 2;
  const size = c.size ?? '25';
  const subject = lotOf(subjectAccount);
  const [sx, sy] = centroid(subject)!;
  const to = LATEST_SALE;
  const from = `${Number(to.slice(0, 4)) - years}${to.slice(4)}`;
  const share = size === 'any' || subject.area === null ? null : Number(size) / 100;
  const list: Omit<Comparable, 'Centroid' | 'Location' | 'Book' | 'Page'>[] = [];
  const not = { Qualification: 0, NominalPrice: 0 };
  for (const l of LOTS) {
    const c0 = centroid(l);
    if (l === subject || !c0) continue;
    const feet = Math.hypot(c0[0] - sx, c0[1] - sy);
    if (feet > distance * 5280) continue;
    if (subject.cls !== null && l.cls !== subject.cls) continue;
    if (
      share !== null &&
      (l.area === null || Math.abs(l.area - subject.area!) > share * subject.area! + 1e-9)
    )
      continue;
    for (const s of l.sales) {
      if (s.date < from || s.date > to) continue;
      if (s.not) not[s.not]++;
      if (s.not && !c.allSales) continue;
      const unlikeSize =
        subject.area && l.area !== null ? Math.min(1, Math.abs(l.area - subject.area) / subject.area) : 0.5;
      const unlikeAge = subject.year && l.year ? Math.min(1, Math.abs(l.year - subject.year) / 50) : 0.5;
      const recency = (day(to) - day(s.date)) / (day(to) - day(from));
      const score =
        100 * (1 - (0.35 * (feet / (distance * 5280)) + 0.25 * unlikeSize + 0.2 * unlikeAge + 0.2 * recency));
      list.push({
        Account: l.account,
        MapLot: l.mapLot,
        SaleDate: s.date,
        SalePrice: s.price ?? 0,
        PricePerSqFt: l.area ? (s.price ?? 0) / l.area : null,
        LivingArea: l.area,
        YearBuilt: l.year,
        DistanceMiles: feet / 5280,
        Score: score,
        SaleType: s.type ?? '',
        SaleParty: withheldParties(l) ? '' : (s.party ?? ''),
        ArmsLength: !s.not,
      });
    }
  }
  return { list, not, from, to };
}

const get = (url: string) => ctx.app.inject({ method: 'GET', url });

const query = (c: Criteria) =>
  new URLSearchParams(
    Object.entries({
      distance: c.distance,
      years: c.years,
      size: c.size,
      allSales: c.allSales ? '1' : undefined,
    })
      .filter(([, v]) => v !== undefined)
      .map(([k, v]): [string, string] => [k, String(v)]),
  ).toString();

async function town(overrides: { publishOwnerNames?: boolean } = {}) {
  const client = await buildClient(ctx.db, overrides);
  const { client: published } = await publishRoll(ctx.db, client.id, LOTS.map(record));
  const report = await importParcelLayer(ctx.db, featuresOfJson(layer(), 'test'), {
    clientId: client.id,
    rollId: published.activeRollId,
    key: 'MapLot',
    fileName: 'comparison-way.geojson',
    dryRun: false,
  });
  expect(report.problems.count).toBe(0);
  return published.id;
}

/** The API's answer held to the expected list: same sales, values, counts, and best first. */
function compare(body: ComparablesResponse, want: ReturnType<typeof expected>, label: string) {
  expect(ComparablesResponse.safeParse(body).success, label).toBe(true);
  expect(body.Criteria.PeriodFrom, label).toBe(want.from);
  expect(body.Criteria.PeriodTo, label).toBe(want.to);
  expect(body.NotArmsLength, label).toEqual(want.not);
  const key = (c: { Account: string; SaleDate: string }) => `${c.Account} ${c.SaleDate}`;
  expect(body.Comparables.map(key).sort(), label).toEqual(want.list.map(key).sort());
  expect(body.Total, label).toBe(want.list.length);
  for (const got of body.Comparables) {
    const w = want.list.find((c) => key(c) === key(got))!;
    const where = `${label}: ${key(got)}`;
    expect(Math.abs(got.DistanceMiles - w.DistanceMiles), where).toBeLessThan(0.0051);
    expect(Math.abs(got.Score - w.Score), where).toBeLessThan(0.11);
    if (w.PricePerSqFt === null) expect(got.PricePerSqFt, where).toBeNull();
    else expect(Math.abs(got.PricePerSqFt! - w.PricePerSqFt), where).toBeLessThan(0.0051);
    expect(
      { ...got, DistanceMiles: 0, Score: 0, PricePerSqFt: 0, Centroid: 0, Location: 0, Book: 0, Page: 0 },
      where,
    ).toEqual({
      ...w,
      DistanceMiles: 0,
      Score: 0,
      PricePerSqFt: 0,
      Centroid: 0,
      Location: 0,
      Book: 0,
      Page: 0,
    });
    // Its centroid on the map: within a foot of the lot's (a millionth of a degree is under 4 inches).
    const [x, y] = centroid(lotOf(got.Account))!;
    const [lon, lat] = at(x, y);
    expect(Math.abs(got.Centroid[0] - lon), where).toBeLessThan(4e-6);
    expect(Math.abs(got.Centroid[1] - lat), where).toBeLessThan(4e-6);
  }
  // Best first: the order agrees with the expected scores wherever they differ by more than rounding.
  const scores = body.Comparables.map((c) => want.list.find((w) => key(w) === key(c))!.Score);
  for (let i = 1; i < scores.length; i++) {
    expect(body.Comparables[i - 1]!.Score, label).toBeGreaterThanOrEqual(body.Comparables[i]!.Score);
    expect(scores[i - 1]! + 0.2, label).toBeGreaterThanOrEqual(scores[i]!);
  }
}

describe('comparable sales of a hand-made town', () => {
  let clientId: number;
  let hiddenNamesId: number;
  const suppressedOnly = (l: Lot) => l.suppress === true;

  beforeAll(async () => {
    clientId = await town();
    hiddenNamesId = await town({ publishOwnerNames: false });
  });

  const cases: [string, Criteria][] = [
    ['1', {}],
    ['1', { size: '10' }],
    ['1', { size: '50', years: 5 }],
    ['1', { size: 'any', allSales: true }],
    ['1', { distance: 1, years: 3 }],
    ['1', { distance: 0.1 }],
    ['2', {}],
    ['3', { size: 'any' }],
    ['4', { size: '50', distance: 1.5 }],
    ['5', { allSales: true, size: '50' }],
    ['7', { years: 5, distance: 3 }],
    ['9', { size: 'any' }],
    ['10', { distance: 3, years: 5 }],
    ['11', {}],
    ['13', { distance: 2, allSales: true }],
    ['15', {}],
    ['20', { distance: 1, size: 'any' }],
    ['20', { distance: 3, size: 'any', years: 5 }],
    ['21', { allSales: true, years: 5 }],
  ];

  it.each(cases)(
    'subject %s with %j: the sales the criteria describe, ranked by score',
    async (account, c) => {
      const res = await get(`/api/comparables/${clientId}/${account}?${query(c)}`);
      expect(res.statusCode).toBe(200);
      compare(res.json(), expected(account, c, suppressedOnly), `${account} ${JSON.stringify(c)}`);
    },
  );

  it("gives the subject's own values, and the criteria used", async () => {
    const body = (await get(`/api/comparables/${clientId}/13?size=10`)).json<ComparablesResponse>();
    expect(body.Subject).toMatchObject({
      Account: '13',
      MapLot: 'C-13',
      PropertyClass: '101',
      LivingArea: 2200,
      YearBuilt: 1960,
    });
    const [lon, lat] = at(...centroid(lotOf('13'))!);
    expect(body.Subject.Centroid[0]).toBeCloseTo(lon, 5);
    expect(body.Subject.Centroid[1]).toBeCloseTo(lat, 5);
    expect(body.Criteria).toMatchObject({
      DistanceMiles: 0.5,
      Years: 2,
      Size: '10',
      LivingAreaMin: 1980,
      LivingAreaMax: 2420,
      AllSales: false,
    });
    expect(body.DataAsOf).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('withholds the sale parties of a parcel whose owners are withheld, in the list and its CSV', async () => {
    const list = await get(`/api/comparables/${clientId}/1?distance=3&years=5`);
    const seven = list.json<ComparablesResponse>().Comparables.find((c) => c.Account === '7')!;
    expect(seven.SaleParty).toBe('');
    expect(list.body).not.toContain('SECRET');
    // Another parcel's buyer is shown where the town publishes names.
    expect(list.json<ComparablesResponse>().Comparables.find((c) => c.Account === '15')!.SaleParty).toBe(
      'JONES, AMY',
    );
    const csv = await get(`/api/comparables/${clientId}/1/comparables.csv?distance=3&years=5`);
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('JONES, AMY');
    expect(csv.body).not.toContain('SECRET');
  });

  it('shows no owner or sale-party name at all in a town that does not publish owners', async () => {
    for (const [account, c] of cases) {
      const res = await get(`/api/comparables/${hiddenNamesId}/${account}?${query(c)}`);
      compare(
        res.json(),
        expected(account, c, () => true),
        `hidden names: ${account}`,
      );
      const csv = await get(`/api/comparables/${hiddenNamesId}/${account}/comparables.csv?${query(c)}`);
      for (const l of LOTS) {
        expect(res.body).not.toContain(l.owner);
        expect(csv.body).not.toContain(l.owner);
      }
    }
  });

  it('answers the list as formula-safe CSV, in rank order', async () => {
    const list = (
      await get(`/api/comparables/${clientId}/1?size=any&allSales=1`)
    ).json<ComparablesResponse>();
    const res = await get(`/api/comparables/${clientId}/1/comparables.csv?size=any&allSales=1`);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="comparables-1.csv"');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"Rank","Score","Account","Map/Lot","Location","Sale date","Sale price","Price per sq ft",' +
        '"Living area (sq ft)","Year built","Distance (mi)","Book","Page","Sale type","Arm\'s length","Sale party"',
    );
    expect(lines).toHaveLength(list.Comparables.length + 1);
    list.Comparables.forEach((c, i) => {
      expect(lines[i + 1]).toMatch(new RegExp(`^${i + 1},${c.Score},"${c.Account}","${c.MapLot}"`));
      expect(lines[i + 1]).toContain(c.ArmsLength ? '"Yes"' : '"No"');
    });
    // A sale type a spreadsheet could run is written as text.
    expect(res.body).toContain(`"'=1+2"`);
    expect(res.body).not.toContain(`,"=1+2"`);
  });

  it('refuses criteria out of range with a 400 naming the criterion', async () => {
    for (const [q, field] of [
      ['distance=0.05', 'distance'],
      ['distance=3.5', 'distance'],
      ['distance=-1', 'distance'],
      ['distance=1e1', 'distance'],
      ['years=0', 'years'],
      ['years=6', 'years'],
      ['years=1.5', 'years'],
      ['size=30', 'size'],
      ['allSales=maybe', 'allSales'],
    ] as const) {
      const res = await get(`/api/comparables/${clientId}/1?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json(), q).toMatchObject({ code: 'validation_failed', fields: [{ field }] });
    }
  });

  it('answers 404 JSON for an unknown account, a record without a shape, or a town without a map', async () => {
    for (const url of [
      `/api/comparables/${clientId}/999`,
      `/api/comparables/${clientId}/18`,
      `/api/comparables/${clientId}/18/comparables.csv`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toMatchObject({ code: 'not_found' });
    }
    const noMap = await buildClient(ctx.db);
    await publishRoll(ctx.db, noMap.id, LOTS.map(record));
    expect((await get(`/api/comparables/${noMap.id}/1`)).statusCode).toBe(404);
  });
});
