import type { PropertyRecordInput } from '@opp/contracts';
import { Prng, round } from './prng.ts';

/*
 * Synthetic, deterministic property rolls for the demo towns. The towns are real Maine towns (their
 * names, counties and ZIP codes are public facts); every record in them is invented: owner names are
 * drawn from generic first-name and surname lists, streets are generic, values follow simple formulas.
 * Every record says so in its Open1 entry.
 */

export interface DemoTown {
  city: string;
  county: string;
  zip: string;
  /** Parcels at the default demo size. */
  parcels: number;
  /** Town centre, for map links. */
  lat: number;
  lon: number;
  /** Mill rate per tax year, as a fraction (0.01485 = $14.85 per $1,000). */
  rates: Record<number, number>;
  /** Share of parcels on a lake (waterfront land lines, camps). */
  lakeShare: number;
  /** Street names in this town, besides the generic ones. */
  streets: string[];
}

export const DEMO_TOWNS: readonly DemoTown[] = [
  {
    city: 'Denmark',
    county: 'Oxford',
    zip: '04022',
    parcels: 300,
    lat: 43.9709,
    lon: -70.8048,
    rates: { 2022: 0.01295, 2023: 0.0134, 2024: 0.0127, 2025: 0.01315 },
    lakeShare: 0.12,
    streets: ['Hio Ridge Rd', 'Boston Hill Rd', 'East Main St', 'Bush Row Rd', 'Mountain Rd'],
  },
  {
    city: 'Harrison',
    county: 'Cumberland',
    zip: '04040',
    parcels: 1500,
    lat: 44.1106,
    lon: -70.6795,
    rates: { 2022: 0.0121, 2023: 0.01245, 2024: 0.0119, 2025: 0.0122 },
    lakeShare: 0.22,
    streets: [
      'Waterford Rd',
      'Naples Rd',
      'Bolsters Mills Rd',
      'Edes Falls Rd',
      'Norway Rd',
      'Cape Monday Rd',
    ],
  },
  {
    city: 'Bridgton',
    county: 'Cumberland',
    zip: '04009',
    parcels: 5000,
    lat: 44.0548,
    lon: -70.7128,
    rates: { 2022: 0.01485, 2023: 0.0152, 2024: 0.01395, 2025: 0.0144 },
    lakeShare: 0.18,
    streets: ['Portland Rd', 'North High St', 'South High St', 'Kansas Rd', 'Highland Rd', 'Sandy Creek Rd'],
  },
];

/** One of the keys, each with its weight (Prng.weighted over the keys in their order). */
const weightedPick = <K extends string>(r: Prng, weights: Record<K, number>): K =>
  r.weighted(Object.entries(weights) as [K, number][]);

/** A list written as text: split at commas when it has any, else at spaces. */
const list = (text: string) => text.trim().split(text.includes(',') ? /\s*,\s*/ : /\s+/);

export const TAX_YEARS = [2022, 2023, 2024, 2025] as const;
const LATEST_YEAR = 2025;
export const DEMO_NOTE = 'Demo data: a synthetic record, not a real property or owner';

const GENERIC_STREETS = list(
  `Main St, Maple St, Elm St, Pleasant St, High St, Depot St, Mill St, School St, Church St,
   Pond Rd, Lake Rd, Ridge Rd, Hill Rd, North Rd, River Rd, Meadow Ln, Birch Ln, Pine St, Oak St,
   Cedar Ln, Spruce Dr, Sunset Dr, Cove Rd, Brook Rd, Orchard Ln, Fern Way, Shore Rd,
   Old County Rd, Quarry Rd, Fox Run, Deer Hill Rd, Blueberry Ln, Hemlock Dr, Granite Way`,
);
const LAKE_STREETS = ['Shore Rd', 'Cove Rd', 'Lake Rd', 'Beach Ln', 'Point Rd', 'Island View Dr'];

const FIRST = list(
  `Aaron Abigail Alice Andrew Anna Arthur Barbara Benjamin Beth Brian Carl Carol Catherine Charles
   Christine Daniel David Deborah Dennis Diane Donald Dorothy Edward Eleanor Emily Eric Frances
   Frank Gary George Grace Harold Helen Henry Irene Jacob James Janet Jean Jeffrey Joan John
   Joseph Joyce Judith Karen Kenneth Laura Linda Lucy Margaret Mark Martha Mary Matthew Michael
   Nancy Nathan Patricia Paul Peter Rachel Raymond Richard Robert Ruth Samuel Sarah Scott Stephen
   Susan Thomas Timothy Walter William`,
);
const SURNAMES = list(
  `Abbott Allard Bailey Beaulieu Bennett Bouchard Bragdon Brewer Caron Chase Cloutier Cole
   Cummings Cyr Dearborn Dube Dunn Emery Fogg Foster Fournier Gagnon Gilman Gould Grant Hale
   Hamlin Hanson Haskell Hayes Hodgdon Hutchins Jordan Keene Knight Lambert Leavitt Levesque Libby
   Lord Marston Martin McAllister Merrill Michaud Morin Moulton Nadeau Nason Ouellette Paradis
   Parker Pelletier Perkins Plummer Poirier Quimby Ricker Roy Sawyer Small Snow Staples Stevens
   Thibodeau Thompson Tibbetts Tripp Varney Violette Wentworth Whitney Wiggin Witham York`,
);
const BUSINESS_A = list(
  `Pine Cove, Lakeside, North Woods, Crooked River, Long Lake, Granite Ridge, Birch Hill, Sebago,
   Moose Pond, Oxford Hills`,
);
const BUSINESS_B = list(
  `Holdings LLC, Properties LLC, Realty Trust, Timber Co, Rentals LLC, Land Co, Investments LLC,
   Partners LP`,
);
/** Owners' mailing cities elsewhere: city, state and the first three digits of its ZIP codes. */
const MAILING = list(
  `PORTLAND ME 041, LEWISTON ME 042, BANGOR ME 044, AUGUSTA ME 043, BOSTON MA 021, WORCESTER MA 016,
   NASHUA NH 030, CONCORD NH 033, HARTFORD CT 061, PROVIDENCE RI 029, NEW YORK NY 100, ALBANY NY 122,
   PHILADELPHIA PA 191, SARASOTA FL 342, NAPLES FL 341, CHARLOTTE NC 282`,
).map((place) => /^(.+) ([A-Z]{2}) (\d{3})$/.exec(place)!.slice(1) as [string, string, string]);

const STYLES = {
  Cape: 22,
  Ranch: 17,
  Colonial: 13,
  'Old Style': 10,
  Cottage: 8,
  'Raised Ranch': 5,
  Contemporary: 6,
  'Split Level': 4,
  Bungalow: 4,
  Garrison: 3,
  Log: 3,
  Farmhouse: 5,
};
const CONDITIONS = ['Poor', 'Fair', 'Average', 'Average', 'Good', 'Good', 'Very Good', 'Excellent'] as const;
const GRADES: ReadonlyArray<readonly [string, number, number]> = [
  ['D', 0.85, 1],
  ['C-', 0.92, 3],
  ['C', 1, 8],
  ['C+', 1.05, 5],
  ['B-', 1.1, 3],
  ['B', 1.18, 2],
  ['A', 1.35, 1],
];
const ADDITIONS = list(`Open Porch, Enclosed Porch, Deck, Attached Garage, Breezeway, Shed Dormer, Sunroom`);
const OCCUPANCY = [
  ['Retail Store', 'C'],
  ['Restaurant', 'C'],
  ['Office', 'C'],
  ['Service Garage', 'S'],
  ['Warehouse', 'S'],
  ['Motel', 'D'],
  ['Marina', 'S'],
  ['General Store', 'C'],
  ['Bank', 'B'],
  ['Medical Office', 'C'],
] as const;

type Kind = 'house' | 'mobile' | 'vacant' | 'woodland' | 'condo' | 'commercial' | 'exempt';
// A condo pick is a whole building of 4–12 units, so its weight is small.
const KINDS: Record<Kind, number> = {
  house: 60,
  vacant: 15,
  mobile: 5,
  condo: 0.8,
  commercial: 6,
  woodland: 6,
  exempt: 3,
};

/** How a parcel count scales across the towns: `--parcels N` is the total, split like the defaults. */
export function demoTownSizes(totalParcels?: number): number[] {
  const defaults = DEMO_TOWNS.map((t) => t.parcels);
  if (totalParcels === undefined) return defaults;
  const sum = defaults.reduce((a, b) => a + b, 0);
  return defaults.map((d) => Math.max(1, Math.round((d / sum) * totalParcels)));
}

const upper = (s: string) => s.toUpperCase();
const money = (v: number) => Math.max(0, round(v, 100));
const cents = (v: number) => round(v, 0.01);

/** A person's name as a roll prints it: "LIBBY, SARAH J". */
function personName(r: Prng, surname = r.pick(SURNAMES)): string {
  return upper(
    `${surname}, ${r.pick(FIRST)}${r.chance(0.7) ? ` ${String.fromCharCode(65 + r.int(0, 25))}` : ''}`,
  );
}

interface Ctx {
  r: Prng;
  town: DemoTown;
  images: readonly string[];
}

/**
 * The town's roll, record by record, identical on every call for the same inputs. `images` are the
 * stored photo file names records may show; `parcels` overrides the town's default size.
 */
export function* demoRecords(
  town: DemoTown,
  options: { parcels?: number; images?: readonly string[] } = {},
): Generator<PropertyRecordInput> {
  const r = new Prng(`open-property-portal demo ${town.city} v1`);
  const ctx: Ctx = { r, town, images: options.images ?? [] };
  const total = options.parcels ?? town.parcels;
  const streets = r.shuffle([...town.streets, ...GENERIC_STREETS]);
  const nextNumber = new Map<string, number>();
  const lotsPerMap = 40;
  let account = 0;
  while (account < total) {
    const kind = weightedPick(r, KINDS);
    const onLake = r.chance(town.lakeShare);
    const street = onLake && kind !== 'commercial' ? r.pick(LAKE_STREETS) : r.pick(streets);
    const number = (nextNumber.get(street) ?? r.int(2, 20)) + r.int(2, 40);
    nextNumber.set(street, number);
    const units = kind === 'condo' ? Math.min(r.int(4, 12), total - account) : 1;
    const mapNo = Math.floor(account / lotsPerMap) + 1;
    const lotNo = (account % lotsPerMap) + 1;
    const rural = kind === 'woodland' || (kind !== 'condo' && kind !== 'commercial' && r.chance(0.55));
    const baseMapLot = `${rural ? 'R' : 'U'}${String(mapNo).padStart(2, '0')}-${String(lotNo).padStart(3, '0')}`;
    for (let u = 1; u <= units; u++) {
      account++;
      yield parcel(ctx, {
        account,
        kind,
        onLake,
        street,
        streetNumber:
          kind === 'vacant' || kind === 'woodland' ? (r.chance(0.3) ? String(number) : '') : String(number),
        apartment:
          kind === 'condo'
            ? r.chance(0.5)
              ? String(u)
              : `${String.fromCharCode(64 + Math.ceil(u / 4))}${((u - 1) % 4) + 1}`
            : '',
        mapLot:
          kind === 'condo'
            ? `${baseMapLot}-${String(u).padStart(3, '0')}`
            : r.chance(0.05)
              ? `${baseMapLot}-A`
              : baseMapLot,
      });
    }
  }
}

interface ParcelPlan {
  account: number;
  kind: Kind;
  onLake: boolean;
  street: string;
  streetNumber: string;
  apartment: string;
  mapLot: string;
}

function parcel(ctx: Ctx, p: ParcelPlan): PropertyRecordInput {
  const { r, town } = ctx;
  const owners = ownersFor(ctx, p);
  const acres =
    p.kind === 'condo'
      ? 0
      : p.kind === 'woodland'
        ? r.skewed(60, 10, 640, 0.01)
        : p.kind === 'vacant'
          ? r.skewed(4, 0.25, 120, 0.01)
          : p.kind === 'commercial'
            ? r.skewed(1.2, 0.2, 20, 0.01)
            : r.skewed(1.4, 0.12, 60, 0.01);
  const land = landLines(ctx, p, acres);
  const landValue = land.reduce((s, l) => s + (l.Amount ?? 0), 0);
  const buildings =
    p.kind === 'house' || p.kind === 'mobile' || p.kind === 'condo' ? [residence(ctx, p)] : [];
  // A few houses have a second dwelling (an in-law apartment or a guest camp).
  if (p.kind === 'house' && r.chance(0.04))
    buildings.push(residence(ctx, { ...p, kind: 'house' }, 'Cottage'));
  const commercial = p.kind === 'commercial' ? commercialBuildings(ctx) : [];
  const additions =
    buildings.length && p.kind !== 'condo' && r.chance(0.45)
      ? buildingAdditions(ctx, buildings[0]!.YearBuilt!)
      : [];
  const buildingValue =
    buildings.reduce((s, b) => s + (b.BuildingValue ?? 0), 0) +
    commercial.reduce((s, c) => s + (c.Value ?? 0), 0) +
    additions.reduce((s, a) => s + (a.AdditionValue ?? 0), 0);
  const ownerOccupied = owners[0]!.City === upper(town.city);
  const exemptions = exemptionsFor(ctx, p, ownerOccupied, landValue + buildingValue);
  const totalExemption = exemptions.reduce((s, e) => s + e.Value, 0);
  const taxable = Math.max(0, landValue + buildingValue - totalExemption);
  const taxes = taxRows(ctx, p, landValue, buildingValue, totalExemption);
  const outstanding = cents(taxes.reduce((s, t) => s + t.OutstandingTaxBalance, 0));
  const sales = salesFor(ctx, p, landValue + buildingValue, owners);
  const lat = round(town.lat + r.range(-0.035, 0.035, 0.00001), 0.00001);
  const lon = round(town.lon + r.range(-0.045, 0.045, 0.00001), 0.00001);
  const hasPhoto = buildings.length + commercial.length > 0 && ctx.images.length > 0 && r.chance(0.15);
  const images = hasPhoto ? r.shuffle(ctx.images).slice(0, r.int(1, Math.min(3, ctx.images.length))) : [];
  const landCode = {
    house: 'R',
    mobile: 'R',
    condo: 'R',
    vacant: 'L',
    woodland: 'T',
    commercial: 'C',
    exempt: 'E',
  }[p.kind];
  const villageZone = p.streetNumber !== '' && !p.mapLot.startsWith('R');

  return {
    Account: String(p.account),
    StreetNumber: p.streetNumber,
    Apartment: p.apartment,
    StreetName: upper(p.street),
    GISLink: r.chance(0.75)
      ? `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`
      : '',
    MapLot: p.mapLot,
    Book: sales[0]?.Book ?? '',
    Page: sales[0]?.Page ?? '',
    DateUpdated: r.chance(0.8) ? '2025-04-01' : `2025-0${r.int(5, 9)}-${String(r.int(10, 28))}`,
    LandValue: landValue,
    TotalBuildingValue: buildingValue,
    TotalExemption: totalExemption,
    Taxable: taxable,
    TotalAcres: acres,
    TotalTaxOutstanding: outstanding,
    LandCode: landCode,
    BuildingCode: buildings[0]
      ? p.kind === 'mobile'
        ? 'M'
        : p.kind === 'condo'
          ? 'CD'
          : '1'
      : commercial.length
        ? 'C'
        : '',
    Neighborhood: p.onLake ? 'Lakefront' : villageZone ? 'Village' : 'Rural',
    Zone: p.kind === 'commercial' ? 'Commercial' : p.onLake ? 'Shoreland' : villageZone ? 'Village' : 'Rural',
    SecondaryZone: p.onLake && r.chance(0.3) ? 'Resource Protection' : '',
    StreetType: weightedPick(r, { Paved: 8, Gravel: 2, Private: 1 }),
    TopographyDescription1: weightedPick(r, { Level: 5, Rolling: 3, Steep: 1, Low: 1 }),
    TopographyDescription2: r.chance(0.15) ? 'Wet' : '',
    UtilitiesDescription1:
      villageZone && r.chance(0.6) ? 'Public Water' : r.pick(['Drilled Well', 'Drilled Well', 'Dug Well']),
    UtilitiesDescription2: villageZone && r.chance(0.5) ? 'Public Sewer' : 'Septic',
    Images: images.map((name) => `/api/files/image/${name}`),
    Owners: owners,
    Exemptions: exemptions,
    Sales: sales,
    Land: land,
    Buildings: buildings,
    CommercialBuildings: commercial,
    BuildingAdditions: additions,
    Taxes: taxes,
    PropertyCode: { Description: 'Property Code', UserDefinedValue: propertyCode(p.kind) },
    TaxLimit: null,
    TreeGrowthYear:
      p.kind === 'woodland'
        ? { Description: 'Tree Growth Year', UserDefinedValue: String(r.int(1975, 2020)) }
        : null,
    XCoord: { Description: 'Longitude', UserDefinedValue: lon.toFixed(5) },
    YCoord: { Description: 'Latitude', UserDefinedValue: lat.toFixed(5) },
    Open1: { Description: 'Note', UserDefinedValue: DEMO_NOTE },
    Open2: null,
    Open3: null,
    Open4: null,
    Reference1: sales[0]
      ? { Description: 'Deed', UserDefinedValue: `${sales[0].Book}/${sales[0].Page}` }
      : null,
    Reference2: null,
    TranCode: { Description: 'Tran Code', UserDefinedValue: p.kind === 'commercial' ? '2' : '1' },
  };
}

function propertyCode(kind: Kind): string {
  return {
    house: '101 Single Family',
    mobile: '102 Mobile Home',
    condo: '105 Condominium',
    vacant: '130 Vacant Land',
    woodland: '140 Tree Growth',
    commercial: '300 Commercial',
    exempt: '900 Exempt',
  }[kind];
}

type OwnerRec = {
  OwnerName: string;
  Address1: string;
  Address2: string;
  Address3: string;
  City: string;
  State: string;
  ZipCode: string;
  Country: string;
};

function ownersFor(ctx: Ctx, p: ParcelPlan): OwnerRec[] {
  const { r, town } = ctx;
  const local = p.kind !== 'exempt' && r.chance(p.onLake ? 0.35 : p.kind === 'woodland' ? 0.4 : 0.65);
  // A mailing address in the town itself.
  const inTown = (Address1: string) => ({
    Address1,
    Address2: '',
    Address3: '',
    City: upper(town.city),
    State: 'ME',
    ZipCode: town.zip,
    Country: '',
  });
  let address: Omit<OwnerRec, 'OwnerName'>;
  if (p.kind === 'exempt') address = inTown('1 MAIN ST');
  else if (local && p.streetNumber)
    address = inTown(`${p.streetNumber} ${upper(p.street)}${p.apartment ? ` UNIT ${p.apartment}` : ''}`);
  else if (local) address = inTown(`PO BOX ${r.int(1, 900)}`);
  else {
    const [city, state, zip3] = r.pick(MAILING);
    address = {
      Address1: `${r.int(1, 999)} ${upper(r.pick(GENERIC_STREETS))}`,
      Address2: r.chance(0.08) ? `APT ${r.int(1, 40)}` : '',
      Address3: '',
      City: city,
      State: state,
      ZipCode: `${zip3}${String(r.int(1, 99)).padStart(2, '0')}${r.chance(0.2) ? `-${String(r.int(1, 9999)).padStart(4, '0')}` : ''}`,
      Country: r.chance(0.1) ? 'USA' : '',
    };
  }
  if (p.kind === 'exempt') {
    const name = r.pick([
      `TOWN OF ${upper(town.city)}`,
      `${upper(town.city)} WATER DISTRICT`,
      'FIRST CONGREGATIONAL CHURCH',
      `${upper(town.city)} HISTORICAL SOCIETY`,
      'SCHOOL ADMINISTRATIVE DISTRICT 61',
    ]);
    return [{ OwnerName: name, ...address }];
  }
  if (p.kind === 'commercial' || (p.kind === 'woodland' && r.chance(0.4)) || r.chance(0.04))
    return [{ OwnerName: upper(`${r.pick(BUSINESS_A)} ${r.pick(BUSINESS_B)}`), ...address }];
  const surname = r.pick(SURNAMES);
  if (r.chance(0.08)) {
    // A family trust with its trustees listed after it.
    const trustees = [personName(r, surname) + ' TRUSTEE'];
    if (r.chance(0.5)) trustees.push(personName(r, surname) + ' TRUSTEE');
    return [
      { OwnerName: upper(`${surname} FAMILY TRUST`), ...address },
      ...trustees.map((OwnerName) => ({ OwnerName, ...address })),
    ];
  }
  if (r.chance(0.03))
    return [
      { OwnerName: `${personName(r, surname)} ESTATE OF`, ...address },
      { OwnerName: `${personName(r)} PERSONAL REP`, ...address },
    ];
  const owners: OwnerRec[] = [{ OwnerName: personName(r, surname), ...address }];
  if (r.chance(0.55))
    owners.push({ OwnerName: personName(r, r.chance(0.8) ? surname : r.pick(SURNAMES)), ...address });
  if (r.chance(0.06)) owners.push({ OwnerName: personName(r), ...address });
  return owners;
}

type LandRec = {
  LandCode: string;
  LandDescription: string;
  UnitType: string;
  InfluenceDescription: string;
  InfluencePercentage: number | null;
  Amount: number;
};

function landLines(ctx: Ctx, p: ParcelPlan, acres: number): LandRec[] {
  const { r } = ctx;
  const line = (code: string, description: string, unitType: string, amount: number): LandRec => {
    const influence = r.chance(0.12)
      ? r.pick([
          ['Topography', -10],
          ['Wetness', -15],
          ['View', 15],
          ['Access', -20],
        ] as const)
      : null;
    return {
      LandCode: code,
      LandDescription: description,
      UnitType: unitType,
      InfluenceDescription: influence ? influence[0] : '',
      InfluencePercentage: influence ? influence[1] : null,
      Amount: money(amount * (influence ? 1 + influence[1] / 100 : 1)),
    };
  };
  if (p.kind === 'condo')
    return [line('5', 'Condo Common Land', 'Site', r.range(18000, 60000, 100) * (p.onLake ? 2 : 1))];
  const out: LandRec[] = [];
  if (p.kind === 'woodland') {
    let left = acres;
    const types = r
      .shuffle(['Tree Growth Softwood', 'Tree Growth Mixed Wood', 'Tree Growth Hardwood'])
      .slice(0, r.int(1, 3));
    for (const [i, t] of types.entries()) {
      const a = i === types.length - 1 ? left : round(left * r.range(0.3, 0.7, 0.01), 0.01);
      left = round(left - a, 0.01);
      out.push(
        line(
          String(21 + i),
          t,
          'Acres',
          a * { 'Tree Growth Softwood': 150, 'Tree Growth Mixed Wood': 170, 'Tree Growth Hardwood': 190 }[t]!,
        ),
      );
    }
    if (r.chance(0.3)) out.push(line('1', 'House Lot', 'Site', r.range(25000, 45000, 100)));
    return out;
  }
  const site = p.kind === 'commercial' ? r.range(60000, 180000, 100) : r.range(28000, 70000, 100);
  if (p.onLake) {
    const frontage = r.int(60, 300);
    out.push(line('3', 'Waterfront', 'Front Foot', frontage * r.range(900, 2200, 10)));
  } else {
    out.push(line('1', p.kind === 'commercial' ? 'Commercial Site' : 'House Lot', 'Site', site));
  }
  const rest = round(Math.max(0, acres - 1), 0.01);
  if (rest > 0) {
    if (rest > 10 && r.chance(0.25)) out.push(line('30', 'Farmland', 'Acres', rest * r.range(400, 700, 10)));
    else if (rest > 5 && r.chance(0.2))
      out.push(line('40', 'Open Space', 'Acres', rest * r.range(500, 900, 10)));
    else out.push(line('2', 'Rear Land', 'Acres', rest * r.range(700, 1400, 10)));
  }
  if (!p.onLake && r.chance(0.06)) out.push(line('9', 'Excess Frontage', 'Front Foot', r.int(50, 300) * 40));
  return out;
}

type ResRec = NonNullable<PropertyRecordInput['Buildings']>[number];

function residence(ctx: Ctx, p: ParcelPlan, forceStyle?: string): ResRec {
  const { r } = ctx;
  const style =
    forceStyle ??
    (p.kind === 'mobile'
      ? 'Mobile Home'
      : p.kind === 'condo'
        ? 'Condominium'
        : p.onLake && r.chance(0.4)
          ? 'Cottage'
          : weightedPick(r, STYLES));
  const old = style === 'Old Style' || style === 'Farmhouse';
  const yearBuilt = old ? r.int(1780, 1925) : style === 'Mobile Home' ? r.int(1972, 2022) : r.int(1950, 2023);
  const stories =
    {
      Colonial: 2,
      Garrison: 2,
      'Old Style': r.pick([1.5, 2]),
      Farmhouse: r.pick([1.5, 2]),
      Cape: 1.5,
      Contemporary: r.pick([1.5, 2]),
      'Split Level': 1.5,
    }[style] ?? 1;
  const area =
    style === 'Mobile Home'
      ? r.range(720, 1400, 10)
      : style === 'Cottage'
        ? r.range(480, 1100, 10)
        : style === 'Condominium'
          ? r.range(650, 1600, 10)
          : r.skewed(1600, 700, 4800, 10);
  const bedrooms = Math.max(1, Math.min(6, Math.round(area / 520) + r.int(-1, 1)));
  const fullBaths = Math.max(1, Math.min(4, Math.round(area / 1100) + r.int(0, 1)));
  const halfBaths = area > 1400 && r.chance(0.5) ? 1 : 0;
  const [grade, gradeFactor] = r.weighted(GRADES.map(([g, f, w]) => [[g, f] as const, w] as const));
  const age = 2025 - yearBuilt;
  const physical = Math.max(35, Math.min(100, Math.round(100 - age * r.range(0.25, 0.6, 0.01))));
  const remodeled = age > 30 && r.chance(0.35) ? r.int(Math.max(yearBuilt + 10, 1985), 2024) : null;
  const finishedBasement =
    style !== 'Mobile Home' && style !== 'Condominium' && r.chance(0.18) ? r.range(200, 900, 10) : 0;
  const value = money(area * r.range(95, 140, 1) * gradeFactor * (physical / 100) + finishedBasement * 35);
  return {
    BuildingType: style,
    Area: area,
    Attic: r.pick(['None', 'None', 'Unfinished', 'Finished']),
    Basement:
      style === 'Mobile Home'
        ? 'None'
        : style === 'Condominium'
          ? 'None'
          : weightedPick(r, { Full: 6, Partial: 2, 'Crawl Space': 1, Slab: 1 }),
    BasementGarage: r.chance(0.1) ? '1 Car' : 'None',
    BathStyle: remodeled ? 'Modern' : r.pick(['Typical', 'Typical', 'Old', 'Modern']),
    DwellingUnits: style === 'Cottage' && forceStyle ? 1 : r.chance(0.04) ? 2 : 1,
    Condition: r.pick(CONDITIONS),
    CoolType: weightedPick(r, { None: 6, 'Heat Pump': 3, Central: 1 }),
    EconomicCode: '',
    EconomicPercent: 100,
    ExteriorWalls: weightedPick(r, { Vinyl: 5, Clapboard: 4, 'Wood Shingle': 2, 'T1-11': 1, Brick: 1 }),
    Grade: grade,
    Factor: gradeFactor,
    FinishedBasementGrade: finishedBasement ? grade : '',
    FinishedBasementFactor: finishedBasement ? 0.8 : null,
    Foundation: old
      ? 'Granite'
      : style === 'Mobile Home'
        ? 'Piers'
        : r.pick(['Concrete', 'Concrete', 'Concrete', 'Slab']),
    FunctionalPercent: r.chance(0.08) ? r.int(75, 95) : 100,
    HeatType: weightedPick(r, {
      'Hot Water': 4,
      'Forced Hot Air': 4,
      'Heat Pump': 2,
      'Wood Stove': 1,
      'Electric Baseboard': 1,
    }),
    Insulation: old ? r.pick(['Partial', 'None', 'Full']) : 'Full',
    KitchenStyle: remodeled ? 'Modern' : r.pick(['Typical', 'Typical', 'Old', 'Modern']),
    Layout: r.chance(0.05) ? 'Inadequate' : 'Typical',
    NumberOfAdditionalFixtures: r.int(0, 3),
    Bedrooms: bedrooms,
    NumCars: r.chance(0.25) ? r.int(1, 2) : 0,
    Fireplaces: r.chance(0.3) ? r.int(1, 2) : 0,
    FullBaths: fullBaths,
    HalfBaths: halfBaths,
    Rooms: bedrooms + r.int(2, 4),
    OtherUnits: 0,
    PercentCooled: 0,
    PercentHeated: style === 'Cottage' && r.chance(0.5) ? 0 : 100,
    PercentUnfinished: r.chance(0.1) ? r.int(10, 40) : 0,
    PhysicalPercent: physical,
    RoofSurface: weightedPick(r, { 'Asphalt Shingle': 8, Metal: 3, Slate: 1 }),
    SquareFootBasementLiving: finishedBasement,
    SquareFootMasonryTrim: r.chance(0.05) ? r.int(20, 120) : 0,
    BuildingStories: stories,
    WetBasement: weightedPick(r, { Dry: 8, Damp: 2, Wet: 1 }),
    YearBuilt: yearBuilt,
    YearRemodeled: remodeled,
    BuildingValue: value,
  };
}

type AddRec = NonNullable<PropertyRecordInput['BuildingAdditions']>[number];

function buildingAdditions(ctx: Ctx, houseYear: number): AddRec[] {
  const { r } = ctx;
  return r
    .shuffle(ADDITIONS)
    .slice(0, r.int(1, 3))
    .map((type) => {
      const units = type === 'Attached Garage' ? r.pick([288, 484, 576, 720]) : r.range(60, 420, 2);
      const physical = r.int(55, 100);
      return {
        AdditionType: type,
        YearBuilt: Math.min(2024, houseYear + r.int(0, 40)),
        Units: units,
        Grade: r.pick(['C', 'C', 'C+', 'B']),
        Factor: 1,
        Condition: r.pick(CONDITIONS),
        PhysicalPercent: physical,
        FunctionalPercentGood: 100,
        AdditionValue: money(units * r.range(18, 55, 1) * (physical / 100)),
      };
    });
}

type ComRec = NonNullable<PropertyRecordInput['CommercialBuildings']>[number];

function commercialBuildings(ctx: Ctx): ComRec[] {
  const { r } = ctx;
  const count = r.chance(0.15) ? 2 : 1;
  return Array.from({ length: count }, () => {
    const [occupancy, cls] = r.pick(OCCUPANCY);
    const stories = r.weighted([
      [1, 6],
      [2, 3],
      [3, 1],
    ] as const);
    const base = r.skewed(2800, 800, 16000, 10);
    const yearBuilt = r.int(1890, 2020);
    const physical = Math.max(40, Math.min(100, 100 - Math.round((2025 - yearBuilt) * 0.45)));
    const quality = weightedPick(r, { Low: 1, Average: 5, Good: 2 });
    const gradeFactor = { Low: 0.9, Average: 1, Good: 1.15 }[quality];
    return {
      OccupancyCode: occupancy,
      Class: cls,
      Quality: quality,
      GradeFactor: gradeFactor,
      NumberDwellingUnits: occupancy === 'Retail Store' && r.chance(0.3) ? r.int(1, 3) : 0,
      ExteriorWalls: r.pick(['Vinyl', 'Clapboard', 'Metal', 'Brick', 'Concrete Block']),
      Stories: stories,
      HeightPerStory: r.int(10, 16),
      BaseFloorArea: base,
      PerimeterOrUnits: Math.round(4 * Math.sqrt(base)),
      HeatingCooling: r.pick(['Hot Air', 'Package Unit', 'Heat Pump', 'Hot Water']),
      YearBuilt: yearBuilt,
      YearRemodeled: r.chance(0.4) ? r.int(Math.max(yearBuilt + 5, 1980), 2024) : null,
      StructureCondition: r.pick(CONDITIONS),
      PhysicalPercentGood: physical,
      FunctionalPercentGood: r.chance(0.2) ? r.int(70, 95) : 100,
      EconomicPercentGood: 100,
      Value: money(base * stories * r.range(55, 110, 1) * gradeFactor * (physical / 100)),
    };
  });
}

type ExRec = { ExemptionID: string; Description: string; Value: number };

function exemptionsFor(ctx: Ctx, p: ParcelPlan, ownerOccupied: boolean, assessed: number): ExRec[] {
  const { r } = ctx;
  if (p.kind === 'exempt') {
    const what = r.pick([
      ['MUN', 'Municipal'],
      ['REL', 'Religious'],
      ['BEN', 'Benevolent & Charitable'],
      ['LIT', 'Literary & Scientific'],
    ] as const);
    return [{ ExemptionID: what[0], Description: what[1], Value: assessed }];
  }
  const out: ExRec[] = [];
  const residential = p.kind === 'house' || p.kind === 'mobile' || p.kind === 'condo';
  if (residential && ownerOccupied && r.chance(0.8))
    out.push({ ExemptionID: 'HOM', Description: 'Homestead', Value: 25000 });
  if (residential && r.chance(0.07))
    out.push({
      ExemptionID: 'VET',
      Description: r.chance(0.8) ? 'Veteran' : 'Veteran - Widow(er)',
      Value: 6000,
    });
  if (residential && r.chance(0.006)) out.push({ ExemptionID: 'BLI', Description: 'Blind', Value: 4000 });
  // Never exempt more than is assessed.
  let left = assessed;
  return out.map((e) => {
    const value = Math.min(e.Value, left);
    left -= value;
    return { ...e, Value: value };
  });
}

type TaxRec = {
  TaxYear: number;
  Rate: number;
  LandValue: number;
  BuildingValue: number;
  ExemptionValue: number;
  TaxableValue: number;
  OriginalTaxAmount: number;
  OutstandingTaxBalance: number;
  EffectiveDate: string;
};

function taxRows(ctx: Ctx, p: ParcelPlan, land: number, building: number, exemption: number): TaxRec[] {
  const { r, town } = ctx;
  // Values grew a little each year until this year's roll; earlier years are scaled back.
  const growth = r.range(0.02, 0.06, 0.001);
  const rows: TaxRec[] = [];
  const delinquent = p.kind !== 'exempt' && r.chance(0.09);
  for (const year of [...TAX_YEARS].reverse()) {
    const f = Math.pow(1 - growth, LATEST_YEAR - year);
    const landValue = money(land * f);
    const buildingValue = money(building * f);
    const exemptionValue = Math.min(exemption, landValue + buildingValue);
    const taxable = Math.max(0, landValue + buildingValue - exemptionValue);
    const rate = town.rates[year]!;
    const original = cents(taxable * rate);
    let outstanding = 0;
    if (original > 0 && delinquent && year === LATEST_YEAR)
      outstanding = r.chance(0.5) ? original : cents(original / 2);
    else if (original > 0 && delinquent && year === LATEST_YEAR - 1 && r.chance(0.25))
      outstanding = cents(original * r.range(0.1, 1, 0.01));
    rows.push({
      TaxYear: year,
      Rate: rate,
      LandValue: landValue,
      BuildingValue: buildingValue,
      ExemptionValue: exemptionValue,
      TaxableValue: taxable,
      OriginalTaxAmount: original,
      OutstandingTaxBalance: outstanding,
      EffectiveDate: `${year}-04-01`,
    });
  }
  return rows;
}

type SaleRec = {
  SaleDate: string;
  SalePrice: number;
  Book: string;
  Page: string;
  SaleParty: string;
  SaleType: string;
};

/**
 * Sales newest first; SaleParty is the buyer, so the newest sale names the current owner. The registry
 * book number grows with the date, as a county registry's does.
 */
function salesFor(ctx: Ctx, p: ParcelPlan, assessed: number, owners: OwnerRec[]): SaleRec[] {
  const { r } = ctx;
  if (p.kind === 'exempt' && r.chance(0.8)) return [];
  const count = r.weighted([
    [0, 1],
    [1, 4],
    [2, 3],
    [3, 2],
    [4, 1],
  ] as const);
  const sales: SaleRec[] = [];
  let year = r.int(2008, 2025);
  let buyer = owners[0]!.OwnerName;
  for (let i = 0; i < count && year >= 1978; i++) {
    const month = r.int(1, 12);
    const day = r.int(1, month === 2 ? 28 : 30);
    const type = weightedPick(r, {
      'Arms Length': 10,
      Family: 2,
      Estate: 1,
      Foreclosure: 1,
      'Land Only': p.kind === 'vacant' ? 4 : 0,
    });
    const marketFactor = Math.pow(1.045, year - 2025) * r.range(0.85, 1.3, 0.01);
    const price =
      type === 'Family' || type === 'Estate'
        ? 0
        : money(assessed * marketFactor * (type === 'Foreclosure' ? 0.7 : 1));
    sales.push({
      SaleDate: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      SalePrice: price,
      Book: String(Math.round(14000 + (year - 1978) * 580 + month * 45)),
      Page: String(r.int(1, 350)),
      SaleParty: buyer,
      SaleType: type,
    });
    // Whoever bought at the sale before this one.
    buyer = personName(r);
    year -= r.int(2, 18);
  }
  return sales;
}
