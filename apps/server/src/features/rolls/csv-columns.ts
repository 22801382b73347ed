import {
  BuildingAddition,
  CommercialBuilding,
  Exemption,
  LandLine,
  Owner,
  PropertyRecord,
  Residence,
  Sale,
  TaxRow,
  USER_DEFINED_FIELDS,
  ValuationYear,
} from '@opp/contracts';
import type { z } from 'zod';
import { toFlag } from './mapping/transforms.ts';

/*
 * How a CSV roll's columns map onto the §3 record (docs/import-format.md is the user-facing version).
 *
 *   - A plain field of the record is a column of the same name: Account, MapLot, LandValue, …
 *   - A user-defined value is its name (the value) plus `<Name>Description`: PropertyCode, PropertyCodeDescription.
 *   - Repeated groups are numbered from 1: Owner1Name, Owner1Address1, Sale2Price, Building1Bedrooms,
 *     Image1 … Each group accepts the §3 field name after the number (Sale1SalePrice) and a short form
 *     without the repeated word (Sale1Price). Owner and Sale columns may drop the number to mean 1
 *     (OwnerName, SaleDate, SalePrice), the common single-owner, last-sale export.
 * Column names match ignoring case, spaces, underscores and punctuation ("Owner 1 Name" = owner1name).
 */

type Kind = 'text' | 'number' | 'flag';
type ListKey =
  | 'Owners'
  | 'Exemptions'
  | 'Sales'
  | 'Land'
  | 'Buildings'
  | 'CommercialBuildings'
  | 'BuildingAdditions'
  | 'Taxes'
  | 'ValueHistory';

interface GroupDef {
  key: ListKey;
  prefix: string;
  /** Field name → kind, for every §3 field of one item. */
  fields: Map<string, Kind>;
  /** Short suffix → §3 field name (Price → SalePrice). */
  aliases: Record<string, string>;
  /** Unnumbered columns (OwnerName, SaleDate) mean item 1. */
  unnumbered: boolean;
}

/** A value a number field accepts but a text field does not: tells the kinds apart from the schemas. */
const PROBE = 2000;

function kindsOf(shape: Record<string, z.ZodType>): Map<string, Kind> {
  const out = new Map<string, Kind>();
  for (const [name, schema] of Object.entries(shape)) {
    out.set(
      name,
      schema.safeParse(PROBE).success ? 'number' : schema.safeParse(true).success ? 'flag' : 'text',
    );
  }
  return out;
}

const GROUPS: GroupDef[] = [
  {
    key: 'Owners',
    prefix: 'Owner',
    fields: kindsOf(Owner.shape),
    aliases: { Name: 'OwnerName' },
    unnumbered: true,
  },
  {
    key: 'Exemptions',
    prefix: 'Exemption',
    fields: kindsOf(Exemption.shape),
    aliases: { ID: 'ExemptionID' },
    unnumbered: false,
  },
  {
    key: 'Sales',
    prefix: 'Sale',
    fields: kindsOf(Sale.shape),
    aliases: { Date: 'SaleDate', Price: 'SalePrice', Party: 'SaleParty', Type: 'SaleType' },
    unnumbered: true,
  },
  {
    key: 'Land',
    prefix: 'Land',
    fields: kindsOf(LandLine.shape),
    aliases: { Code: 'LandCode', Description: 'LandDescription' },
    unnumbered: false,
  },
  {
    key: 'Buildings',
    prefix: 'Building',
    fields: kindsOf(Residence.shape),
    aliases: { Type: 'BuildingType', Value: 'BuildingValue', Stories: 'BuildingStories' },
    unnumbered: false,
  },
  {
    key: 'CommercialBuildings',
    prefix: 'Commercial',
    fields: kindsOf(CommercialBuilding.shape),
    aliases: {},
    unnumbered: false,
  },
  {
    key: 'BuildingAdditions',
    prefix: 'Addition',
    fields: kindsOf(BuildingAddition.shape),
    aliases: { Type: 'AdditionType', Value: 'AdditionValue' },
    unnumbered: false,
  },
  {
    key: 'Taxes',
    prefix: 'Tax',
    fields: kindsOf(TaxRow.shape),
    aliases: { Year: 'TaxYear' },
    unnumbered: false,
  },
  {
    key: 'ValueHistory',
    prefix: 'History',
    fields: kindsOf(ValuationYear.shape),
    aliases: { Land: 'LandValue', Building: 'BuildingValue', Total: 'TotalValue' },
    unnumbered: false,
  },
];

const LIST_KEYS = new Set<string>([...GROUPS.map((g) => g.key), 'Images']);
const UDV = new Set<string>(USER_DEFINED_FIELDS);
/** Plain fields of the record; Account stays text so leading zeros survive. */
const SCALARS = new Map<string, Kind>(
  [...kindsOf(PropertyRecord.shape)].filter(([name]) => !LIST_KEYS.has(name) && !UDV.has(name)),
);
SCALARS.set('Account', 'text');

/** Where one column's cell goes. */
export type ColumnTarget =
  | { to: 'scalar'; field: string; kind: Kind }
  | { to: 'udv'; field: string; part: 'UserDefinedValue' | 'Description' }
  | { to: 'group'; group: ListKey; n: number; field: string; kind: Kind }
  | { to: 'image'; n: number };

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

const scalarByKey = new Map([...SCALARS].map(([name, kind]) => [norm(name), { name, kind }]));
const udvByKey = new Map<string, ColumnTarget>();
for (const name of USER_DEFINED_FIELDS) {
  udvByKey.set(norm(name), { to: 'udv', field: name, part: 'UserDefinedValue' });
  udvByKey.set(norm(`${name}Description`), { to: 'udv', field: name, part: 'Description' });
}
const groupByPrefix = new Map<string, { def: GroupDef; suffixes: Map<string, string> }>();
for (const def of GROUPS) {
  const suffixes = new Map<string, string>();
  for (const field of def.fields.keys()) suffixes.set(norm(field), field);
  for (const [alias, field] of Object.entries(def.aliases)) suffixes.set(norm(alias), field);
  groupByPrefix.set(norm(def.prefix), { def, suffixes });
}
const NUMBERED = new RegExp(`^(${[...groupByPrefix.keys(), 'image'].join('|')})(\\d+)([a-z0-9]*)$`);
const UNNUMBERED = /^(owner|sale)([a-z][a-z0-9]*)$/;
/** More than this many items in one group is a header mistake, not a roll. */
const MAX_ITEMS = 500;

/** The target of a header cell, or an error message naming the problem. */
export function resolveColumn(header: string): ColumnTarget | string {
  const key = norm(header);
  if (!key) return 'a column has no name';
  const scalar = scalarByKey.get(key);
  if (scalar) return { to: 'scalar', field: scalar.name, kind: scalar.kind };
  const udv = udvByKey.get(key);
  if (udv) return udv;
  const numbered = NUMBERED.exec(key);
  if (numbered) {
    const [, prefix, digits, suffix] = numbered as unknown as [string, string, string, string];
    const n = Number(digits);
    if (n < 1 || n > MAX_ITEMS) return `column "${header}": numbers run from 1 to ${MAX_ITEMS}`;
    if (prefix === 'image') return suffix === '' ? { to: 'image', n } : `unknown column "${header}"`;
    const g = groupByPrefix.get(prefix)!;
    const field = g.suffixes.get(suffix);
    if (field) return { to: 'group', group: g.def.key, n, field, kind: g.def.fields.get(field)! };
    return `unknown column "${header}" (${g.def.prefix}${n}… takes ${[...g.def.fields.keys()].join(', ')})`;
  }
  const unnumbered = UNNUMBERED.exec(key);
  if (unnumbered) {
    const g = groupByPrefix.get(unnumbered[1]!)!;
    const field = g.suffixes.get(unnumbered[2]!);
    if (field && g.def.unnumbered)
      return { to: 'group', group: g.def.key, n: 1, field, kind: g.def.fields.get(field)! };
  }
  return `unknown column "${header}"`;
}

export interface ColumnLayout {
  targets: ColumnTarget[];
  headers: string[];
  /** Header of the column behind a record path, for error messages: "Sales[0].SalePrice" → "Sale1Price". */
  columnOf: Map<string, string>;
}

/** Reads the header row. Returns the layout, or every problem found in it. */
export function readHeader(headers: string[]): { layout: ColumnLayout } | { errors: string[] } {
  const errors: string[] = [];
  const targets: ColumnTarget[] = [];
  const columnOf = new Map<string, string>();
  const seen = new Map<string, string>();
  for (const header of headers) {
    const t = resolveColumn(header);
    if (typeof t === 'string') {
      errors.push(t);
      continue;
    }
    const id = targetId(t);
    const first = seen.get(id);
    if (first !== undefined) errors.push(`columns "${first}" and "${header}" both fill ${id}`);
    seen.set(id, header);
    targets.push(t);
    columnOf.set(id, header);
  }
  if (!targets.some((t) => t.to === 'scalar' && t.field === 'Account')) errors.push('no Account column');
  return errors.length ? { errors } : { layout: { targets, headers, columnOf } };
}

/**
 * The record fields a CSV file's columns fill, as a mapping's fields name them: a plain or user-defined
 * field by its name, a field of a list's items as `Owners.OwnerName` (a file with Owner1Address1 alone
 * fills no owner names).
 */
export function layoutFields(layout: ColumnLayout): string[] {
  const out = new Set<string>();
  for (const t of layout.targets)
    out.add(t.to === 'group' ? `${t.group}.${t.field}` : t.to === 'image' ? 'Images' : t.field);
  return [...out];
}

/** A target's identity, written like the record path it fills (Sales#2.SalePrice; # = CSV number). */
function targetId(t: ColumnTarget): string {
  switch (t.to) {
    case 'scalar':
      return t.field;
    case 'udv':
      return `${t.field}.${t.part}`;
    case 'group':
      return `${t.group}#${t.n}.${t.field}`;
    case 'image':
      return `Images#${t.n}`;
  }
}

/**
 * Digits with an optional sign, decimal part, thousands commas, leading "$" and an exponent as
 * spreadsheets write small numbers (`2.3e-05`); nothing else.
 */
const NUMBER = /^[-+]?\$?(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d{1,3})?$/;

/** Strict number parsing: "1,250.50" → 1250.5; "N/A" stays a string so validation names it. */
export function parseNumberCell(cell: string): number | string {
  if (!NUMBER.test(cell)) return cell;
  return Number(cell.replace(/[$,]/g, ''));
}

/** A yes/no cell (`Y`, `1`, `TRUE`…, as a mapping's flag transform reads it); anything else stays text. */
function parseFlagCell(cell: string): boolean | string {
  const flag = toFlag(cell);
  return 'value' in flag && typeof flag.value === 'boolean' ? flag.value : cell;
}

const readCell = (kind: Kind, cell: string) =>
  kind === 'number' ? parseNumberCell(cell) : kind === 'flag' ? parseFlagCell(cell) : cell;

export interface CsvRecord {
  value: Record<string, unknown>;
  /** For each group, the CSV numbers of the items kept, in order (Owner1, Owner3 → [1, 3]). */
  numbers: Map<string, number[]>;
}

/**
 * One row as a §3 record. Empty cells are left out (the record's empty value applies); a group item
 * with every cell empty is dropped, and the rest keep their order.
 */
export function rowToRecord(layout: ColumnLayout, cells: string[]): CsvRecord {
  const value: Record<string, unknown> = {};
  const groups = new Map<string, Map<number, Record<string, unknown>>>();
  const images = new Map<number, string>();
  const { targets } = layout;
  for (let i = 0; i < targets.length; i++) {
    const raw = cells[i];
    if (raw === undefined) continue;
    const cell = raw.trim();
    if (cell === '') continue;
    const t = targets[i]!;
    switch (t.to) {
      case 'scalar':
        value[t.field] = readCell(t.kind, cell);
        break;
      case 'udv': {
        const udv = (value[t.field] ??= { Description: '', UserDefinedValue: '' }) as Record<string, string>;
        udv[t.part] = cell;
        break;
      }
      case 'group': {
        let items = groups.get(t.group);
        if (!items) groups.set(t.group, (items = new Map()));
        let item = items.get(t.n);
        if (!item) items.set(t.n, (item = {}));
        item[t.field] = readCell(t.kind, cell);
        break;
      }
      case 'image':
        images.set(t.n, cell);
        break;
    }
  }
  // A user-defined value given without a description is labelled with its field name.
  for (const name of USER_DEFINED_FIELDS) {
    const udv = value[name] as Record<string, string> | undefined;
    if (udv && udv.Description === '') udv.Description = name;
  }
  const numbers = new Map<string, number[]>();
  for (const [key, items] of groups) {
    const order = [...items.keys()].sort((a, b) => a - b);
    value[key] = order.map((n) => items.get(n));
    numbers.set(key, order);
  }
  if (images.size) {
    const order = [...images.keys()].sort((a, b) => a - b);
    value.Images = order.map((n) => images.get(n));
    numbers.set('Images', order);
  }
  return { value, numbers };
}

/** The CSV column behind a validation issue's path, or null to fall back to the record path. */
export function columnForPath(layout: ColumnLayout, rec: CsvRecord, path: PropertyKey[]): string | null {
  const [first, second, third] = path;
  if (typeof first !== 'string') return null;
  if (LIST_KEYS.has(first)) {
    if (typeof second !== 'number') return null;
    const n = rec.numbers.get(first)?.[second];
    if (n === undefined) return null;
    const id = first === 'Images' ? `Images#${n}` : `${first}#${n}.${String(third)}`;
    return layout.columnOf.get(id) ?? null;
  }
  if (UDV.has(first)) return layout.columnOf.get(`${first}.${String(second)}`) ?? null;
  return layout.columnOf.get(first) ?? null;
}
