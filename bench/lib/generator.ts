import type { PropertyRecordInput } from '@opp/contracts';
import { Rng, Zipf } from './prng.ts';
import * as N from './names.ts';

/*
 * Deterministic synthetic rolls. A client's records depend only on (seed, client spec), and record i
 * only on (seed, client, i), so a roll can be regenerated record by record (the import reads its source
 * twice) and the benchmark can derive realistic query terms (an owner's full name, a real address) from
 * the same records without storing them.
 */

/** Bump when the records change shape or distribution: it invalidates cached data sets. */
export const GENERATOR_VERSION = 3;

export interface ClientSpec {
  /** Stable index within the data set (0 = the county-sized client). */
  index: number;
  city: string;
  state: string;
  parcels: number;
}

export interface DatasetSpec {
  name: 'full' | 'quick';
  seed: string;
  big: ClientSpec;
  towns: ClientSpec[];
}

const TOWN_SKEW = 1.9;
const ALL_SURNAMES = [...N.SURNAMES, ...N.syntheticSurnames()];
const surnameZipf = new Zipf(ALL_SURNAMES, 0.7);
const firstZipf = new Zipf(N.FIRST_NAMES, 0.8);

/**
 * The full data set: one 1,000,000-parcel client plus 300 towns of 500 to 20,000 parcels (skewed
 * towards small towns, about 2 million parcels in all, as in a real provider's book of towns).
 */
export function datasetSpec(name: 'full' | 'quick', seed = 'opp-bench-1'): DatasetSpec {
  const quick = name === 'quick';
  const rng = new Rng(`${seed}:towns:${name}`);
  const townCount = quick ? 10 : 300;
  const [min, max] = quick ? [500, 2_000] : [500, 20_000];
  const used = new Set<string>();
  const towns: ClientSpec[] = [];
  for (let i = 0; i < townCount; i++) {
    // u^k with k near 2 puts the mean near a third of the range: many small towns, a few large ones.
    const parcels =
      i === 0 ? min : i === 1 ? max : Math.round(min + (max - min) * Math.pow(rng.next(), TOWN_SKEW));
    let city = '';
    do {
      const root = rng.pick(N.TOWN_ROOTS);
      const suffix = rng.pick(N.TOWN_SUFFIXES);
      const prefix = rng.chance(0.2) ? `${rng.pick(['North', 'South', 'East', 'West', 'New'])} ` : '';
      city = `${prefix}${title(root)}${suffix.toLowerCase()}`;
    } while (used.has(city));
    used.add(city);
    towns.push({
      index: i + 1,
      city,
      state: rng.pick(['Maine', 'Maine', 'New Hampshire', 'Vermont']),
      parcels,
    });
  }
  return {
    name,
    seed,
    big: { index: 0, city: 'Bench County', state: 'Maine', parcels: quick ? 40_000 : 1_000_000 },
    towns,
  };
}

function title(s: string): string {
  return s.charAt(0) + s.slice(1).toLowerCase();
}

/** Per-client layout that records share: streets, map sizes. Built once per client. */
export interface ClientLayout {
  spec: ClientSpec;
  streets: Zipf<string>;
  streetList: string[];
  lotsPerMap: number;
  taxRate: number;
  /** Where owners who live out of town get their mail. */
  mailTowns: string[];
}

export function clientLayout(seed: string, spec: ClientSpec): ClientLayout {
  const rng = new Rng(`${seed}:layout:${spec.index}`);
  // About 60 parcels per street; the big county gets thousands of streets.
  const count = Math.max(8, Math.round(spec.parcels / 60));
  const names = new Set<string>(['MAIN ST']);
  let guard = 0;
  while (names.size < count && guard++ < count * 20) {
    const base =
      names.size < N.STREET_BASES.length * 2 || rng.chance(0.3)
        ? rng.pick(N.STREET_BASES)
        : surnameZipf.sample(rng);
    const suffix = rng.pick(N.STREET_SUFFIXES);
    names.add(`${base.replace(/[^A-Z -]/g, '')} ${suffix}`);
  }
  const streetList = [...names];
  return {
    spec,
    streetList,
    streets: new Zipf(streetList, 0.7),
    lotsPerMap: rng.int(40, 120),
    taxRate: rng.range(0.011, 0.024, 0.00001),
    mailTowns: ['PORTLAND', 'BANGOR', 'LEWISTON', 'BOSTON', 'CONCORD', 'NAPLES', 'HARTFORD', 'NEW YORK'],
  };
}

function ownerName(rng: Rng): string {
  const r = rng.next();
  if (r < 0.06) return `${rng.pick(N.COMPANY_WORDS)} ${rng.pick(N.COMPANY_SUFFIXES)}`;
  const last = surnameZipf.sample(rng);
  if (r < 0.1) return `${last} FAMILY TRUST`;
  const first = firstZipf.sample(rng);
  const middle = rng.chance(0.5) ? ` ${String.fromCharCode(65 + rng.int(0, 25))}` : '';
  return `${last}, ${first}${middle}`;
}

const iso = (y: number, m: number, d: number) =>
  `${y}-${String(m).padStart(2, '0')}-${String(Math.min(d, 28)).padStart(2, '0')}`;

const udv = (description: string, value: string) => ({ Description: description, UserDefinedValue: value });

/** Parcel i (0-based) of the client: a complete §3 record. */
export function generateRecord(seed: string, layout: ClientLayout, i: number): PropertyRecordInput {
  const rng = new Rng(`${seed}:${layout.spec.index}:${i}`);
  const account = String(i + 1);
  const map = Math.floor(i / layout.lotsPerMap) + 1;
  const lot = (i % layout.lotsPerMap) + 1;
  const mapLot = `${String(map).padStart(3, '0')}-${String(lot).padStart(3, '0')}${rng.chance(0.05) ? `-${rng.pick(['A', 'B', 'C'])}` : ''}`;
  const street = layout.streets.sample(rng);
  const streetNumber = rng.chance(0.04) ? '' : String(rng.longTail(60, 2400));
  const apartment = rng.chance(0.06) ? rng.pick(['A', 'B', '1', '2', '3', 'UNIT 4']) : '';

  const kind = rng.next();
  const commercial = kind < 0.06;
  const vacant = !commercial && kind < 0.22;
  const residential = !commercial && !vacant;

  const ownerCount = rng.chance(0.45) ? 2 : rng.chance(0.08) ? 3 : 1;
  const owners = [] as NonNullable<PropertyRecordInput['Owners']>;
  const localMail = rng.chance(0.75);
  const mailCity = localMail ? layout.spec.city.toUpperCase() : rng.pick(layout.mailTowns);
  const mailStreet = localMail
    ? `${streetNumber || rng.int(1, 300)} ${street}`
    : `PO BOX ${rng.int(1, 9999)}`;
  for (let o = 0; o < ownerCount; o++) {
    owners.push({
      OwnerName: ownerName(rng),
      Address1: mailStreet,
      Address2: '',
      Address3: '',
      City: mailCity,
      State: localMail ? 'ME' : rng.pick(['ME', 'NH', 'MA', 'NY', 'FL']),
      ZipCode: `0${rng.int(3900, 4999)}`,
      Country: 'US',
    });
  }

  const acres = vacant ? rng.longTail(4, 400, 0.01) : rng.longTail(0.7, 60, 0.01);
  const landLines = [] as NonNullable<PropertyRecordInput['Land']>;
  const lineCount = vacant ? rng.int(1, 3) : rng.int(1, 2);
  let landValue = 0;
  for (let l = 0; l < lineCount; l++) {
    const type = l === 0 && !vacant ? 'HOUSE LOT' : rng.pick(N.LAND_TYPES);
    const amount = rng.longTail(vacant ? 25_000 : 45_000, 900_000, 100);
    landValue += amount;
    landLines.push({
      LandCode: String(N.LAND_TYPES.indexOf(type) + 10),
      LandDescription: type,
      UnitType: rng.pick(N.LAND_UNITS),
      InfluenceDescription: rng.chance(0.2) ? rng.pick(['TOPOGRAPHY', 'ACCESS', 'VIEW', 'WET']) : '',
      InfluencePercentage: rng.chance(0.2) ? rng.int(-30, 30) : null,
      Amount: amount,
    });
  }

  const buildings = [] as NonNullable<PropertyRecordInput['Buildings']>;
  const commercialBuildings = [] as NonNullable<PropertyRecordInput['CommercialBuildings']>;
  const additions = [] as NonNullable<PropertyRecordInput['BuildingAdditions']>;
  let buildingValue = 0;
  const yearBuilt = rng.int(1780, 2024);
  if (residential) {
    const area = rng.longTail(1_600, 9_000, 10);
    const value = rng.longTail(160_000, 2_500_000, 100);
    buildingValue += value;
    buildings.push({
      BuildingType: rng.pick(N.BUILDING_STYLES),
      Area: area,
      Attic: rng.pick(['NONE', 'UNFINISHED', 'FINISHED']),
      Basement: rng.pick(N.BASEMENTS),
      BasementGarage: rng.chance(0.1) ? '1 CAR' : 'NONE',
      BathStyle: rng.pick(['MODERN', 'AVERAGE', 'OLD']),
      DwellingUnits: 1,
      Condition: rng.pick(N.CONDITIONS),
      CoolType: rng.pick(['NONE', 'CENTRAL', 'HEAT PUMP']),
      EconomicCode: '',
      EconomicPercent: 100,
      ExteriorWalls: rng.pick(N.EXTERIOR_WALLS),
      Grade: rng.pick(['C', 'C+', 'B', 'B+', 'A']),
      Factor: rng.range(0.9, 1.3, 0.05),
      FinishedBasementGrade: '',
      FinishedBasementFactor: null,
      Foundation: rng.pick(N.FOUNDATIONS),
      FunctionalPercent: 100,
      HeatType: rng.pick(N.HEAT_TYPES),
      Insulation: rng.pick(['FULL', 'PARTIAL', 'NONE']),
      KitchenStyle: rng.pick(['MODERN', 'AVERAGE', 'OLD']),
      Layout: rng.pick(['TYPICAL', 'INADEQUATE']),
      NumberOfAdditionalFixtures: rng.int(0, 4),
      Bedrooms: rng.int(1, 6),
      NumCars: rng.int(0, 3),
      Fireplaces: rng.int(0, 2),
      FullBaths: rng.int(1, 4),
      HalfBaths: rng.int(0, 2),
      Rooms: rng.int(3, 12),
      OtherUnits: 0,
      PercentCooled: 0,
      PercentHeated: 100,
      PercentUnfinished: rng.chance(0.2) ? rng.int(5, 40) : 0,
      PhysicalPercent: rng.int(60, 100),
      RoofSurface: rng.pick(N.ROOFS),
      SquareFootBasementLiving: rng.chance(0.2) ? rng.int(200, 1200) : 0,
      SquareFootMasonryTrim: 0,
      BuildingStories: rng.pick([1, 1.5, 2, 2.5]),
      WetBasement: rng.pick(['DRY', 'DAMP', 'WET']),
      YearBuilt: yearBuilt,
      YearRemodeled: rng.chance(0.3) ? rng.int(yearBuilt, 2025) : null,
      BuildingValue: value,
    });
  }
  if (commercial) {
    const value = rng.longTail(450_000, 20_000_000, 100);
    buildingValue += value;
    commercialBuildings.push({
      OccupancyCode: rng.pick(N.OCCUPANCIES),
      Class: rng.pick(['A', 'B', 'C', 'D']),
      Quality: rng.pick(['LOW', 'AVERAGE', 'GOOD']),
      GradeFactor: rng.range(0.8, 1.4, 0.05),
      NumberDwellingUnits: rng.int(0, 12),
      ExteriorWalls: rng.pick(N.EXTERIOR_WALLS),
      Stories: rng.int(1, 4),
      HeightPerStory: rng.int(9, 16),
      BaseFloorArea: rng.longTail(4_000, 80_000, 10),
      PerimeterOrUnits: rng.int(200, 1600),
      HeatingCooling: rng.pick(N.HEAT_TYPES),
      YearBuilt: yearBuilt,
      YearRemodeled: null,
      StructureCondition: rng.pick(N.CONDITIONS),
      PhysicalPercentGood: rng.int(50, 100),
      FunctionalPercentGood: 100,
      EconomicPercentGood: 100,
      Value: value,
    });
  }
  if (!vacant) {
    const n = rng.int(0, 3);
    for (let a = 0; a < n; a++) {
      const value = rng.longTail(9_000, 150_000, 100);
      buildingValue += value;
      additions.push({
        AdditionType: rng.pick(N.ADDITIONS),
        YearBuilt: rng.int(yearBuilt, 2025),
        Units: rng.int(100, 900),
        Grade: rng.pick(['C', 'B', 'A']),
        Factor: 1,
        Condition: rng.pick(N.CONDITIONS),
        PhysicalPercent: rng.int(50, 100),
        FunctionalPercentGood: 100,
        AdditionValue: value,
      });
    }
  }

  const sales = [] as NonNullable<PropertyRecordInput['Sales']>;
  const saleCount = rng.chance(0.15) ? 0 : rng.int(1, 4);
  let year = rng.int(1975, 2024);
  for (let s = 0; s < saleCount && year <= 2025; s++) {
    const grown = Math.pow(1.045, year - 1975);
    sales.push({
      SaleDate: iso(year, rng.int(1, 12), rng.int(1, 28)),
      SalePrice: rng.chance(0.08) ? 0 : Math.round(((landValue + buildingValue) * 0.3 * grown) / 100) * 100,
      Book: String(rng.int(1000, 40000)),
      Page: String(rng.int(1, 400)),
      SaleParty: ownerName(rng),
      SaleType: rng.pick(N.SALE_TYPES),
    });
    year += rng.int(1, 15);
  }
  const lastSale = sales[sales.length - 1];

  const exemptions = [] as NonNullable<PropertyRecordInput['Exemptions']>;
  if (residential && rng.chance(0.55)) exemptions.push(exemption(N.EXEMPTIONS[0]));
  if (rng.chance(0.05)) exemptions.push(exemption(rng.pick(N.EXEMPTIONS.slice(1))));
  const totalExemption = exemptions.reduce((t, e) => t + (e.Value ?? 0), 0);
  const taxable = Math.max(0, landValue + buildingValue - totalExemption);

  const taxes = [] as NonNullable<PropertyRecordInput['Taxes']>;
  let outstanding = 0;
  for (const taxYear of [2025, 2024]) {
    const original = Math.round(taxable * layout.taxRate * 100) / 100;
    const balance = rng.chance(taxYear === 2025 ? 0.25 : 0.04)
      ? Math.round(original * rng.next() * 100) / 100
      : 0;
    outstanding += balance;
    taxes.push({
      TaxYear: taxYear,
      Rate: layout.taxRate,
      LandValue: landValue,
      BuildingValue: buildingValue,
      ExemptionValue: totalExemption,
      TaxableValue: taxable,
      OriginalTaxAmount: original,
      OutstandingTaxBalance: balance,
      EffectiveDate: iso(taxYear, 4, 1),
    });
  }

  return {
    Account: account,
    StreetNumber: streetNumber,
    Apartment: apartment,
    StreetName: street,
    GISLink: '',
    MapLot: mapLot,
    Book: lastSale?.Book ?? '',
    Page: lastSale?.Page ?? '',
    DateUpdated: iso(2025, rng.int(1, 6), rng.int(1, 28)),
    LandValue: landValue,
    TotalBuildingValue: buildingValue,
    TotalExemption: totalExemption,
    Taxable: taxable,
    TotalAcres: acres,
    TotalTaxOutstanding: Math.round(outstanding * 100) / 100,
    LandCode: landLines[0]?.LandCode ?? '',
    BuildingCode: commercial ? 'COM' : residential ? 'RES' : '',
    Neighborhood: String(rng.int(1, 40)),
    Zone: rng.pick(N.ZONES),
    SecondaryZone: rng.chance(0.1) ? rng.pick(N.ZONES) : '',
    StreetType: street.split(' ').pop() ?? '',
    TopographyDescription1: rng.pick(N.TOPOGRAPHY),
    TopographyDescription2: '',
    UtilitiesDescription1: rng.pick(N.UTILITIES),
    UtilitiesDescription2: rng.chance(0.5) ? rng.pick(N.UTILITIES) : '',
    Images: [],
    Owners: owners,
    Exemptions: exemptions,
    Sales: sales,
    Land: landLines,
    Buildings: buildings,
    CommercialBuildings: commercialBuildings,
    BuildingAdditions: additions,
    Taxes: taxes,
    PropertyCode: udv('Property Code', commercial ? '300' : vacant ? '130' : '101'),
    TaxLimit: null,
    TreeGrowthYear: vacant && rng.chance(0.2) ? udv('Tree Growth Year', String(rng.int(1975, 2024))) : null,
    XCoord: udv('X Coordinate', String(rng.range(2_700_000, 3_100_000, 0.01))),
    YCoord: udv('Y Coordinate', String(rng.range(200_000, 600_000, 0.01))),
    Open1: null,
    Open2: null,
    Open3: null,
    Open4: null,
    Reference1: rng.chance(0.1) ? udv('Reference 1', `PLAN ${rng.int(1, 300)}`) : null,
    Reference2: null,
    TranCode: udv('Tran Code', String(rng.int(1, 9))),
  };
}

function exemption(e: (typeof N.EXEMPTIONS)[number]) {
  return { ExemptionID: e[0], Description: e[1], Value: e[2] };
}

/** The client's records in account order (a fresh iterator each call: import reads it twice). */
export function* clientRecords(seed: string, spec: ClientSpec): Generator<PropertyRecordInput> {
  const layout = clientLayout(seed, spec);
  for (let i = 0; i < spec.parcels; i++) yield generateRecord(seed, layout, i);
}
