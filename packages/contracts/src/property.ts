import { z } from 'zod';
import { checkedLink } from './common.ts';
import { normaliseImageLink } from './links.ts';
import { USER_DEFINED_FIELDS } from './record-fields.ts';

/*
 * The property record exactly as spec §3 names it (PascalCase), as the public API returns it and as a
 * town's roll carries it. Import validates each record against `PropertyRecord`; fields a roll leaves
 * out get their empty value (null, "" or []), so a small CAMA export still imports.
 */

/**
 * What each building block of the record accepts, for the importer's fast check
 * (apps/server/src/features/rolls/record-fast-path.ts), which reads the record's fields, their order,
 * nesting and limits from these schemas and must answer exactly as they do. Declared by the helper that
 * builds the schema, so the two are written together; a field without one is checked by its schema.
 */
export type FastCheck =
  /** A string of at most `max` characters without NUL; absent (null, undefined) is "" unless required. */
  | { k: 'text'; max: number; required: boolean }
  /** A finite number below 1e15 in size; absent is null. */
  | { k: 'num' }
  /** A whole number in [min, max]; absent is null unless required. */
  | { k: 'int'; min: number; max: number; required: boolean }
  /** A real calendar date written YYYY-MM-DD (anything else is left to the schema); absent is null. */
  | { k: 'date' }
  /** An account: text matching `pattern`, at most `max` characters. */
  | { k: 'account'; pattern: RegExp; max: number }
  /** A list of at most `max` items, each checked as `item`; absent is []. */
  | { k: 'list'; max: number; item: z.ZodType }
  /** An object (`object`'s fields), or null when absent. */
  | { k: 'optObject'; object: z.ZodObject }
  /** true or false; absent is false. */
  | { k: 'flag' };

export const fastChecks = new WeakMap<z.ZodType, FastCheck>();
const fast = <T extends z.ZodType>(schema: T, check: FastCheck): T => {
  fastChecks.set(schema, check);
  return schema;
};

const text = (max = 500) =>
  fast(
    z
      .string({ error: (i) => `expected text, got ${describe(i.input)}` })
      .max(max, { message: `must be at most ${max} characters` })
      .refine((s) => !s.includes('\u0000'), { message: 'must not contain NUL characters' }),
    { k: 'text', max, required: true },
  );

const optText = (max = 500) =>
  fast(
    text(max)
      .nullish()
      .transform((v) => v ?? ''),
    { k: 'text', max, required: false },
  );

const num = z
  .number({ error: (i) => `expected a number, got ${describe(i.input)}` })
  .finite()
  .refine((n) => Math.abs(n) < 1e15, { message: 'is out of range' });
const optNum = fast(
  num.nullish().transform((v) => v ?? null),
  { k: 'num' },
);
const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };
const optInt = fast(
  z
    .number({ error: (i) => `expected a whole number, got ${describe(i.input)}` })
    .int({ message: 'expected a whole number' })
    .min(INT4.min)
    .max(INT4.max)
    .nullish()
    .transform((v) => v ?? null),
  { k: 'int', ...INT4, required: false },
);

const GIS_LINK_MESSAGE = 'must be a web address (https://…) with no control characters';
const IMAGE_LINK_MESSAGE = 'must be a web address (https://…) or a path on this portal (/…)';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date as YYYY-MM-DD (a date-time is cut to its date). */
export const IsoDate = z
  .string({ error: (i) => `expected a date (YYYY-MM-DD), got ${describe(i.input)}` })
  .transform((s) => s.trim().slice(0, 10))
  .refine(
    (s) =>
      ISO_DATE.test(s) &&
      !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
      new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: 'expected a real date (YYYY-MM-DD)',
    },
  );
const optDate = fast(
  IsoDate.nullish().transform((v) => v ?? null),
  { k: 'date' },
);

function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return String(v);
}

const list = <T extends z.ZodType>(item: T, max = 500) =>
  fast(
    z
      .array(item, { error: (i) => `expected a list, got ${describe(i.input)}` })
      .max(max)
      .nullish()
      .transform((v) => (v ?? []) as z.output<T>[]),
    { k: 'list', max, item },
  );

export const Owner = z.object({
  OwnerName: text(200),
  Address1: optText(200),
  Address2: optText(200),
  Address3: optText(200),
  City: optText(100),
  State: optText(100),
  ZipCode: optText(20),
  Country: optText(100),
});
export type Owner = z.output<typeof Owner>;

export const Exemption = z.object({
  ExemptionID: optText(50),
  Description: optText(200),
  Value: optNum,
});

export const Sale = z.object({
  SaleDate: optDate,
  SalePrice: optNum,
  Book: optText(50),
  Page: optText(50),
  SaleParty: optText(200),
  SaleType: optText(100),
});
export type Sale = z.output<typeof Sale>;

export const LandLine = z.object({
  LandCode: optText(50),
  LandDescription: optText(200),
  UnitType: optText(100),
  InfluenceDescription: optText(200),
  InfluencePercentage: optNum,
  Amount: optNum,
});
export type LandLine = z.output<typeof LandLine>;

export const Residence = z.object({
  BuildingType: optText(100),
  Area: optNum,
  Attic: optText(100),
  Basement: optText(100),
  BasementGarage: optText(100),
  BathStyle: optText(100),
  DwellingUnits: optNum,
  Condition: optText(100),
  CoolType: optText(100),
  EconomicCode: optText(100),
  EconomicPercent: optNum,
  ExteriorWalls: optText(100),
  Grade: optText(100),
  Factor: optNum,
  FinishedBasementGrade: optText(100),
  FinishedBasementFactor: optNum,
  Foundation: optText(100),
  FunctionalPercent: optNum,
  HeatType: optText(100),
  Insulation: optText(100),
  KitchenStyle: optText(100),
  Layout: optText(100),
  NumberOfAdditionalFixtures: optNum,
  Bedrooms: optNum,
  NumCars: optNum,
  Fireplaces: optNum,
  FullBaths: optNum,
  HalfBaths: optNum,
  Rooms: optNum,
  OtherUnits: optNum,
  PercentCooled: optNum,
  PercentHeated: optNum,
  PercentUnfinished: optNum,
  PhysicalPercent: optNum,
  RoofSurface: optText(100),
  SquareFootBasementLiving: optNum,
  SquareFootMasonryTrim: optNum,
  BuildingStories: optNum,
  WetBasement: optText(100),
  YearBuilt: optInt,
  YearRemodeled: optInt,
  BuildingValue: optNum,
});
export type Residence = z.output<typeof Residence>;

export const CommercialBuilding = z.object({
  OccupancyCode: optText(100),
  Class: optText(100),
  Quality: optText(100),
  GradeFactor: optNum,
  NumberDwellingUnits: optNum,
  ExteriorWalls: optText(100),
  Stories: optNum,
  HeightPerStory: optNum,
  BaseFloorArea: optNum,
  PerimeterOrUnits: optNum,
  HeatingCooling: optText(100),
  YearBuilt: optInt,
  YearRemodeled: optInt,
  StructureCondition: optText(100),
  PhysicalPercentGood: optNum,
  FunctionalPercentGood: optNum,
  EconomicPercentGood: optNum,
  Value: optNum,
});
export type CommercialBuilding = z.output<typeof CommercialBuilding>;

export const BuildingAddition = z.object({
  AdditionType: optText(100),
  YearBuilt: optInt,
  Units: optNum,
  Grade: optText(100),
  Factor: optNum,
  Condition: optText(100),
  PhysicalPercent: optNum,
  FunctionalPercentGood: optNum,
  AdditionValue: optNum,
});

export const TaxRow = z.object({
  TaxYear: fast(
    z
      .number({ error: (i) => `expected a year, got ${describe(i.input)}` })
      .int()
      .min(1800)
      .max(2200),
    { k: 'int', min: 1800, max: 2200, required: true },
  ),
  Rate: optNum,
  LandValue: optNum,
  BuildingValue: optNum,
  ExemptionValue: optNum,
  TaxableValue: optNum,
  OriginalTaxAmount: optNum,
  OutstandingTaxBalance: optNum,
  EffectiveDate: optDate,
});
export type TaxRow = z.output<typeof TaxRow>;

/**
 * One year's assessed values (Lyme's assessment history, or a town's earlier roll: each published
 * roll's values are filed under its year in the town's valuation history,
 * apps/server/src/features/rolls/value-history.ts).
 */
export const ValuationYear = z.object({
  Year: fast(
    z
      .number({ error: (i) => `expected a year, got ${describe(i.input)}` })
      .int()
      .min(1800)
      .max(2200),
    { k: 'int', min: 1800, max: 2200, required: true },
  ),
  LandValue: optNum,
  BuildingValue: optNum,
  TotalValue: optNum,
});
export type ValuationYear = z.output<typeof ValuationYear>;

export const UserDefinedValue = z.object({ Description: optText(200), UserDefinedValue: optText(500) });
const optUdv = fast(
  UserDefinedValue.nullish().transform((v) => v ?? null),
  { k: 'optObject', object: UserDefinedValue },
);
const userDefinedValues = Object.fromEntries(USER_DEFINED_FIELDS.map((k) => [k, optUdv])) as Record<
  (typeof USER_DEFINED_FIELDS)[number],
  typeof optUdv
>;

/** Account numbers appear in URLs: letters, digits and a few separators only. */
const ACCOUNT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
export const AccountText = z
  .string({ error: (i) => `expected text, got ${describe(i.input)}` })
  .trim()
  .min(1, { message: 'is required' })
  .max(64, { message: 'must be at most 64 characters' })
  .regex(ACCOUNT_PATTERN, { message: 'may hold only letters, digits, ".", "_" and "-"' });

export const PropertyRecord = z.object({
  Account: fast(z.union([AccountText, z.number().int().nonnegative().transform(String)]).pipe(AccountText), {
    k: 'account',
    pattern: ACCOUNT_PATTERN,
    max: 64,
  }),
  StreetNumber: optText(20),
  Apartment: optText(20),
  StreetName: optText(200),
  GISLink: checkedLink(text(1000), GIS_LINK_MESSAGE)
    .nullish()
    .transform((v) => v ?? ''),
  MapLot: optText(64),
  Book: optText(50),
  Page: optText(50),
  DateUpdated: optDate,
  LandValue: optNum,
  TotalBuildingValue: optNum,
  TotalExemption: optNum,
  Taxable: optNum,
  TotalAcres: optNum,
  TotalTaxOutstanding: optNum,
  LandCode: optText(50),
  BuildingCode: optText(50),
  Neighborhood: optText(100),
  Zone: optText(100),
  SecondaryZone: optText(100),
  StreetType: optText(50),
  TopographyDescription1: optText(200),
  TopographyDescription2: optText(200),
  UtilitiesDescription1: optText(200),
  UtilitiesDescription2: optText(200),
  Images: list(checkedLink(text(1000), IMAGE_LINK_MESSAGE, normaliseImageLink), 50),
  Owners: list(Owner, 50),
  Exemptions: list(Exemption, 100),
  Sales: list(Sale, 200),
  Land: list(LandLine, 200),
  Buildings: list(Residence, 100),
  CommercialBuildings: list(CommercialBuilding, 100),
  BuildingAdditions: list(BuildingAddition, 300),
  Taxes: list(TaxRow, 100),
  /** Earlier years' values, any order in a roll (the page shows the newest first). */
  ValueHistory: list(ValuationYear, 200),
  ...userDefinedValues,
  /**
   * The owners' names and mailing addresses are withheld from the public (a source flag such as
   * Vision's REM_INET_SUPPRESS): kept in the roll, never served (apps/server/…/owner-privacy.ts).
   */
  SuppressOwner: fast(
    z
      .boolean({ error: (i) => `expected true or false, got ${describe(i.input)}` })
      .nullish()
      .transform((v) => v ?? false),
    { k: 'flag' },
  ),
});
/** What a roll may carry (fields optional). */
export type PropertyRecordInput = z.input<typeof PropertyRecord>;
/** The full §3 record as stored and served. */
export type PropertyRecord = z.output<typeof PropertyRecord>;

/** The response shape of GET /api/fullproperty: the stored record (all fields present). */
export const FullProperty = z.object({
  Account: z.string(),
  StreetNumber: z.string(),
  Apartment: z.string(),
  StreetName: z.string(),
  GISLink: z.string(),
  MapLot: z.string(),
  Book: z.string(),
  Page: z.string(),
  DateUpdated: z.string().nullable(),
  LandValue: z.number().nullable(),
  TotalBuildingValue: z.number().nullable(),
  TotalExemption: z.number().nullable(),
  Taxable: z.number().nullable(),
  TotalAcres: z.number().nullable(),
  TotalTaxOutstanding: z.number().nullable(),
  LandCode: z.string(),
  BuildingCode: z.string(),
  Neighborhood: z.string(),
  Zone: z.string(),
  SecondaryZone: z.string(),
  StreetType: z.string(),
  TopographyDescription1: z.string(),
  TopographyDescription2: z.string(),
  UtilitiesDescription1: z.string(),
  UtilitiesDescription2: z.string(),
  Images: z.array(z.string()),
  Owners: z.array(z.object(mapValues(Owner.shape))),
  Exemptions: z.array(z.looseObject({})),
  Sales: z.array(z.looseObject({})),
  Land: z.array(z.looseObject({})),
  Buildings: z.array(z.looseObject({})),
  CommercialBuildings: z.array(z.looseObject({})),
  BuildingAdditions: z.array(z.looseObject({})),
  Taxes: z.array(z.looseObject({})),
  ValueHistory: z.array(
    z.object({
      Year: z.number(),
      LandValue: z.number().nullable(),
      BuildingValue: z.number().nullable(),
      TotalValue: z.number().nullable(),
    }),
  ),
  PropertyCode: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  TaxLimit: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  TreeGrowthYear: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  XCoord: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  YCoord: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Open1: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Open2: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Open3: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Open4: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Reference1: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  Reference2: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  TranCode: z.object({ Description: z.string(), UserDefinedValue: z.string() }).nullable(),
  /**
   * Not in the original: true when the owners' names and mailing addresses are withheld (the record's
   * flag, or a town that does not publish owners); the page then says "Owner information withheld".
   */
  SuppressOwner: z.boolean(),
  /** Not in the original: when the town's roll was last published (ISO date-time). */
  LastUpdated: z.string().nullable(),
});
export type FullProperty = z.infer<typeof FullProperty>;

function mapValues(shape: typeof Owner.shape) {
  return Object.fromEntries(Object.keys(shape).map((k) => [k, z.string()])) as {
    [K in keyof typeof shape]: z.ZodString;
  };
}

/** §3 property summary: one search result. */
export const PropertySummary = z.object({
  Account: z.string(),
  MapLot: z.string(),
  /** Every owner, in roll order; the UI shows the first two. Objects, like the full record's Owners. */
  Owners: z.array(z.object({ OwnerName: z.string() })),
  StreetNumber: z.string(),
  Apartment: z.string(),
  StreetName: z.string(),
  TotalBuildingValue: z.number().nullable(),
  LandValue: z.number().nullable(),
  TotalAcres: z.number().nullable(),
  SaleDate: z.string().nullable(),
  SalePrice: z.number().nullable(),
  ImageURL: z.string().nullable(),
});
export type PropertySummary = z.infer<typeof PropertySummary>;
