import type { PropertyRecord } from '@opp/contracts';

/*
 * A fast path for PropertyRecord.parse. Zod costs ~60 µs for a full record, more than everything else an
 * import does per record. This function
 * accepts only records that are plainly valid and returns exactly what zod would; on anything unusual
 * (a number given as text, a date-time, a limit exceeded, a missing required field, a wrong type) it
 * returns null and the caller asks zod, which then produces the output or the error messages.
 *
 * It must never accept what zod rejects, nor produce a different output: record-fast-path.test.ts
 * checks every field below against the zod schema (same field names, boundary values, random records).
 * When you change PropertyRecord in packages/contracts/src/property.ts, mirror it here, and give the
 * stored form a new version (properties/record-codec.ts packs records in this order).
 */

type Leaf =
  { k: 'text'; max: number; required?: true } | { k: 'num' } | { k: 'int' } | { k: 'year' } | { k: 'date' };

export type Shape = Record<string, Leaf>;

const t = (max: number): Leaf => ({ k: 'text', max });
const NUM: Leaf = { k: 'num' };
const INT: Leaf = { k: 'int' };
const DATE: Leaf = { k: 'date' };

export const OWNER: Shape = {
  OwnerName: { k: 'text', max: 200, required: true },
  Address1: t(200),
  Address2: t(200),
  Address3: t(200),
  City: t(100),
  State: t(100),
  ZipCode: t(20),
  Country: t(100),
};
export const EXEMPTION: Shape = { ExemptionID: t(50), Description: t(200), Value: NUM };
export const SALE: Shape = {
  SaleDate: DATE,
  SalePrice: NUM,
  Book: t(50),
  Page: t(50),
  SaleParty: t(200),
  SaleType: t(100),
};
export const LAND: Shape = {
  LandCode: t(50),
  LandDescription: t(200),
  UnitType: t(100),
  InfluenceDescription: t(200),
  InfluencePercentage: NUM,
  Amount: NUM,
};
const T100 = t(100);
export const RESIDENCE: Shape = {
  BuildingType: T100,
  Area: NUM,
  Attic: T100,
  Basement: T100,
  BasementGarage: T100,
  BathStyle: T100,
  DwellingUnits: NUM,
  Condition: T100,
  CoolType: T100,
  EconomicCode: T100,
  EconomicPercent: NUM,
  ExteriorWalls: T100,
  Grade: T100,
  Factor: NUM,
  FinishedBasementGrade: T100,
  FinishedBasementFactor: NUM,
  Foundation: T100,
  FunctionalPercent: NUM,
  HeatType: T100,
  Insulation: T100,
  KitchenStyle: T100,
  Layout: T100,
  NumberOfAdditionalFixtures: NUM,
  Bedrooms: NUM,
  NumCars: NUM,
  Fireplaces: NUM,
  FullBaths: NUM,
  HalfBaths: NUM,
  Rooms: NUM,
  OtherUnits: NUM,
  PercentCooled: NUM,
  PercentHeated: NUM,
  PercentUnfinished: NUM,
  PhysicalPercent: NUM,
  RoofSurface: T100,
  SquareFootBasementLiving: NUM,
  SquareFootMasonryTrim: NUM,
  BuildingStories: NUM,
  WetBasement: T100,
  YearBuilt: INT,
  YearRemodeled: INT,
  BuildingValue: NUM,
};
export const COMMERCIAL: Shape = {
  OccupancyCode: T100,
  Class: T100,
  Quality: T100,
  GradeFactor: NUM,
  NumberDwellingUnits: NUM,
  ExteriorWalls: T100,
  Stories: NUM,
  HeightPerStory: NUM,
  BaseFloorArea: NUM,
  PerimeterOrUnits: NUM,
  HeatingCooling: T100,
  YearBuilt: INT,
  YearRemodeled: INT,
  StructureCondition: T100,
  PhysicalPercentGood: NUM,
  FunctionalPercentGood: NUM,
  EconomicPercentGood: NUM,
  Value: NUM,
};
export const ADDITION: Shape = {
  AdditionType: T100,
  YearBuilt: INT,
  Units: NUM,
  Grade: T100,
  Factor: NUM,
  Condition: T100,
  PhysicalPercent: NUM,
  FunctionalPercentGood: NUM,
  AdditionValue: NUM,
};
export const TAX: Shape = {
  TaxYear: { k: 'year' },
  Rate: NUM,
  LandValue: NUM,
  BuildingValue: NUM,
  ExemptionValue: NUM,
  TaxableValue: NUM,
  OriginalTaxAmount: NUM,
  OutstandingTaxBalance: NUM,
  EffectiveDate: DATE,
};
export const UDV: Shape = { Description: t(200), UserDefinedValue: t(500) };

export type Part =
  | { k: 'leaf'; leaf: Leaf }
  | { k: 'account' }
  | { k: 'list'; item: Shape; max: number }
  | { k: 'images'; max: number; itemMax: number }
  | { k: 'udv' };

/** The record's fields in the schema's order (zod builds its output in this order too). */
export const RECORD: Record<string, Part> = {
  Account: { k: 'account' },
  StreetNumber: { k: 'leaf', leaf: t(20) },
  Apartment: { k: 'leaf', leaf: t(20) },
  StreetName: { k: 'leaf', leaf: t(200) },
  GISLink: { k: 'leaf', leaf: t(1000) },
  MapLot: { k: 'leaf', leaf: t(64) },
  Book: { k: 'leaf', leaf: t(50) },
  Page: { k: 'leaf', leaf: t(50) },
  DateUpdated: { k: 'leaf', leaf: DATE },
  LandValue: { k: 'leaf', leaf: NUM },
  TotalBuildingValue: { k: 'leaf', leaf: NUM },
  TotalExemption: { k: 'leaf', leaf: NUM },
  Taxable: { k: 'leaf', leaf: NUM },
  TotalAcres: { k: 'leaf', leaf: NUM },
  TotalTaxOutstanding: { k: 'leaf', leaf: NUM },
  LandCode: { k: 'leaf', leaf: t(50) },
  BuildingCode: { k: 'leaf', leaf: t(50) },
  Neighborhood: { k: 'leaf', leaf: t(100) },
  Zone: { k: 'leaf', leaf: t(100) },
  SecondaryZone: { k: 'leaf', leaf: t(100) },
  StreetType: { k: 'leaf', leaf: t(50) },
  TopographyDescription1: { k: 'leaf', leaf: t(200) },
  TopographyDescription2: { k: 'leaf', leaf: t(200) },
  UtilitiesDescription1: { k: 'leaf', leaf: t(200) },
  UtilitiesDescription2: { k: 'leaf', leaf: t(200) },
  Images: { k: 'images', max: 50, itemMax: 1000 },
  Owners: { k: 'list', item: OWNER, max: 50 },
  Exemptions: { k: 'list', item: EXEMPTION, max: 100 },
  Sales: { k: 'list', item: SALE, max: 200 },
  Land: { k: 'list', item: LAND, max: 200 },
  Buildings: { k: 'list', item: RESIDENCE, max: 100 },
  CommercialBuildings: { k: 'list', item: COMMERCIAL, max: 100 },
  BuildingAdditions: { k: 'list', item: ADDITION, max: 300 },
  Taxes: { k: 'list', item: TAX, max: 100 },
  PropertyCode: { k: 'udv' },
  TaxLimit: { k: 'udv' },
  TreeGrowthYear: { k: 'udv' },
  XCoord: { k: 'udv' },
  YCoord: { k: 'udv' },
  Open1: { k: 'udv' },
  Open2: { k: 'udv' },
  Open3: { k: 'udv' },
  Open4: { k: 'udv' },
  Reference1: { k: 'udv' },
  Reference2: { k: 'udv' },
  TranCode: { k: 'udv' },
};

/** Thrown inside the fast path to give up; never escapes fastParseRecord. */
const BAIL = Symbol('bail');

const ACCOUNT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function leaf(l: Leaf, v: unknown): unknown {
  switch (l.k) {
    case 'text':
      if (v === undefined || v === null) {
        if (l.required) throw BAIL;
        return '';
      }
      if (typeof v !== 'string' || v.length > l.max || v.includes('\u0000')) throw BAIL;
      return v;
    case 'num':
      if (v === undefined || v === null) return null;
      if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) >= 1e15) throw BAIL;
      return v;
    case 'int':
      if (v === undefined || v === null) return null;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < INT4_MIN || v > INT4_MAX) throw BAIL;
      return v;
    case 'year':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1800 || v > 2200) throw BAIL;
      return v;
    case 'date': {
      if (v === undefined || v === null) return null;
      // Only the plain form; zod trims and cuts date-times, which the slow path handles.
      if (typeof v !== 'string') throw BAIL;
      const m = DATE_RE.exec(v);
      if (!m) throw BAIL;
      const month = Number(m[2]);
      const day = Number(m[3]);
      const year = Number(m[1]);
      if (month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) throw BAIL;
      if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)))
        throw BAIL;
      // Years before 1 or after 9999 do not print back as four digits; leave those to zod.
      if (year < 1) throw BAIL;
      return v;
    }
  }
}

type Reader = (v: unknown) => Record<string, unknown>;

/**
 * A reader for one shape, compiled once at start-up into a function that builds its output as a single
 * object literal with fixed keys. A loop over the shape's keys (`out[key] = …`) costs several times more
 * per record: every store and load goes through a generic keyed lookup and every output object changes
 * shape as it grows. Only the constant shapes above become code (keys as JSON string literals); input
 * values are never part of it.
 */
function compile(shape: Shape): Reader {
  const leaves = Object.values(shape);
  const keys = Object.keys(shape);
  const body = keys
    .map((key, i) => `${JSON.stringify(key)}: leaf(leaves[${i}], v[${JSON.stringify(key)}])`)
    .join(',\n');
  const make = new Function(
    'leaf',
    'leaves',
    'isPlainObject',
    'BAIL',
    `return function read(v) { if (!isPlainObject(v)) throw BAIL; return {\n${body}\n}; };`,
  ) as (l: typeof leaf, ls: Leaf[], p: typeof isPlainObject, b: symbol) => Reader;
  return make(leaf, leaves, isPlainObject, BAIL);
}

const readers = new Map<Shape, Reader>();
function object(shape: Shape, v: unknown): Record<string, unknown> {
  let read = readers.get(shape);
  if (!read) readers.set(shape, (read = compile(shape)));
  return read(v);
}

function part(p: Part, v: unknown): unknown {
  switch (p.k) {
    case 'leaf':
      return leaf(p.leaf, v);
    case 'account':
      if (typeof v !== 'string' || v.length > 64 || !ACCOUNT.test(v)) throw BAIL;
      return v;
    case 'list': {
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || v.length > p.max) throw BAIL;
      const items = new Array<unknown>(v.length);
      for (let i = 0; i < v.length; i++) items[i] = object(p.item, v[i]);
      return items;
    }
    case 'images':
      if (v === undefined || v === null) return [];
      if (!Array.isArray(v) || v.length > p.max) throw BAIL;
      for (const s of v)
        if (typeof s !== 'string' || s.length > p.itemMax || s.includes('\u0000')) throw BAIL;
      return v.slice();
    case 'udv':
      return v === undefined || v === null ? null : object(UDV, v);
  }
}

/** The record's reader, compiled like the shapes' (see compile). */
const readRecord = (() => {
  const parts = Object.values(RECORD);
  const body = Object.keys(RECORD)
    .map((key, i) => `${JSON.stringify(key)}: part(parts[${i}], v[${JSON.stringify(key)}])`)
    .join(',\n');
  const make = new Function(
    'part',
    'parts',
    'isPlainObject',
    'BAIL',
    `return function readRecord(v) { if (!isPlainObject(v)) throw BAIL; return {\n${body}\n}; };`,
  ) as (f: typeof part, ps: Part[], p: typeof isPlainObject, b: symbol) => Reader;
  return make(part, parts, isPlainObject, BAIL);
})();

/** The parsed record, identical to `PropertyRecord.parse(value)`, or null when zod must decide. */
export function fastParseRecord(value: unknown): PropertyRecord | null {
  try {
    return readRecord(value) as PropertyRecord;
  } catch (err) {
    if (err === BAIL) return null;
    throw err;
  }
}
