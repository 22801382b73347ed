/*
 * Converts the real assessing records of Lyme, New Hampshire (../shared/data/realworld/lyme-nh, see its
 * SOURCE.md) into a roll file the portal imports: JSON Lines, one §3 property record per line.
 *
 *   npx tsx scripts/lyme/convert-lyme.ts [--source DIR] [--out FILE]
 *   npm run portal -- client add --state NH --city Lyme
 *   npm run portal -- import --state NH --city Lyme FILE
 *
 * Defaults: --source ../shared/data/realworld/lyme-nh (beside the repository), --out data/lyme-nh.jsonl.
 *
 * What comes from where (all joined on the Vision parcel id, PID = LocalCamaId):
 *   - lyme_cama_2022.csv, one row per parcel, is the roll: every row becomes one record (1,083).
 *     Account = PID; MapLot = DisplayId; StreetAddress is split into StreetNumber ("26+28" and "63-69"
 *     kept whole), Apartment (the "#1010" or "UNIT #3" suffix) and StreetName (runs of spaces folded);
 *     Owners = OwnerName and CoOwnerName, each with the mailing address, whose ZIP lost its leading zero
 *     in the extract ("3768" → "03768"; "0" means none); LandValue = TaxLand; TotalBuildingValue =
 *     TaxBldg + TaxFeatures (Vision's "improvements"); Taxable = TaxTotal; TotalAcres = LandArea;
 *     LandCode and the land line = LandUseCode, described from lyme_land_use_codes.csv (X = any digit).
 *     The CAMA file is the 2022 roll, so its owners stand even where the 2023 scrape shows a later sale.
 *   - lyme_vgsi_parcels_2023-05-02.csv: Book and Page of the latest deed.
 *   - lyme_vgsi_owner_history_2023-05-02.csv: Sales, newest first (SaleParty = the buyer, SaleType = the
 *     instrument code; the blank separator rows and the mis-decoded "¬†" cells are dropped; two dates
 *     typed with an impossible year, "07/23/0987", become unknown rather than a guess).
 *   - lyme_vgsi_buildings_2023-05-10.tsv: Buildings (residential, mobile home and condo models) and
 *     CommercialBuildings (commercial and industrial); "Vacant Land" and empty accessory rows are not
 *     buildings. Parcels the scrape missed fall back to the CAMA row's main structure.
 *   - Taxes: 2022 from TaxTotal, 2020 and 2021 from lyme_vgsi_assessment_history, each × that year's
 *     NH DRA total rate for Lyme (nh_dra_municipal_tax_rates.csv; 2022: 23.98 per $1,000), rounded to
 *     cents. Exemptions and payments are not public, so TotalExemption is 0 and balances are unknown.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';

type Row = Record<string, string>;

const repoRoot = path.resolve(import.meta.dirname, '../..');

function readCsv(file: string, delimiter = ','): Row[] {
  return parse(fs.readFileSync(file), {
    columns: (header: string[]) => header.map((h, i) => (header.indexOf(h) === i ? h : `${h} (${i})`)),
    bom: true,
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  }) as Row[];
}

/** "NULL", blanks and the scrape's mis-decoded non-breaking space ("¬†", "\u00a0") are missing values. */
function clean(v: string | undefined): string {
  const s = (v ?? '')
    .replace(/¬†|\u00a0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return s === 'NULL' || s === '-' ? '' : s;
}

function num(v: string | undefined): number | null {
  const s = clean(v);
  if (!/^-?\d+(\.\d+)?$/.test(s)) return null;
  return Number(s);
}

function int(v: string | undefined): number | null {
  const n = num(v);
  return n !== null && Number.isInteger(n) ? n : null;
}

/** "1 1/4" stories → 1.25. */
function stories(v: string | undefined): number | null {
  const s = clean(v);
  const mixed = /^(\d+) (\d+)\/(\d+)$/.exec(s);
  return mixed ? Number(mixed[1]) + Number(mixed[2]) / Number(mixed[3]) : num(s);
}

/**
 * Sale dates are ISO, except a few typed as MM/DD/YYYY with a garbled year ("07/23/0987"): those
 * become unknown (null) rather than a guess.
 */
export function saleDate(v: string | undefined): string | null {
  const s = clean(v);
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  const iso = us ? `${us[3]}-${us[1]}-${us[2]}` : s;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(iso) || Number(iso.slice(0, 4)) < 1700) return null;
  return Number.isNaN(Date.parse(`${iso}T00:00:00Z`)) ? null : iso;
}

const cents = (v: number) => Math.round(v * 100) / 100;

/** ZIP codes lost their leading zero in the CAMA extract: 3768 → 03768. */
export function restoreZip(v: string | undefined): string {
  const s = clean(v);
  if (/^\d{4}$/.test(s)) return `0${s}`;
  if (/^\d{4}-\d{4}$/.test(s)) return `0${s}`;
  if (/^0*$/.test(s)) return '';
  return s;
}

/** "85  DARTMOUTH COLLEGE HY #1010" → number 85, apartment 1010, street DARTMOUTH COLLEGE HY. */
export function splitAddress(address: string): { number: string; apartment: string; street: string } {
  let rest = clean(address);
  let apartment = '';
  const apt = /\s*(?:UNIT\s*)?#\s*(\S+)$/i.exec(rest);
  if (apt) {
    apartment = apt[1]!;
    rest = rest.slice(0, apt.index).trim();
  }
  const m = /^(\d+[A-Z]?(?:\s*[-+&]\s*\d+[A-Z]?)*)\s+(.+)$/i.exec(rest);
  if (!m) return { number: '', apartment, street: rest };
  return { number: m[1]!.replace(/\s+/g, ''), apartment, street: m[2]! };
}

function landUseDescriber(codes: Array<[string, string]>) {
  const exact = new Map(codes.filter(([c]) => !c.includes('X')));
  const patterns = codes
    .filter(([c]) => c.includes('X'))
    .map(([c, d]) => [new RegExp(`^${c.replace(/X/g, '\\d')}$`), d] as const);
  return (code: string): string => {
    for (const c of [code, code.padStart(4, '0')]) {
      const hit = exact.get(c) ?? patterns.find(([re]) => re.test(c))?.[1];
      if (hit) return hit;
    }
    return '';
  };
}

const RESIDENTIAL_MODELS = new Set(['Residential', 'Mobile Home', 'Res Condo']);
const COMMERCIAL_MODELS = new Set(['Commercial', 'Industrial', 'Com Condo']);

/** The Lyme roll as §3 records, in CAMA order. */
export function convertLyme(sourceDir: string): Array<Record<string, unknown>> {
  const src = (f: string) => path.join(sourceDir, f);
  const cama = readCsv(src('lyme_cama_2022.csv'));
  const parcels = new Map(readCsv(src('lyme_vgsi_parcels_2023-05-02.csv')).map((r) => [r.PID!, r]));
  const byPid = <T extends Row>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) {
      const pid = clean(r.PID);
      if (!pid) continue;
      m.set(pid, [...(m.get(pid) ?? []), r]);
    }
    return m;
  };
  const sales = byPid(readCsv(src('lyme_vgsi_owner_history_2023-05-02.csv')));
  const history = byPid(readCsv(src('lyme_vgsi_assessment_history_2023-05-02.csv')));
  const buildings = byPid(readCsv(src('lyme_vgsi_buildings_2023-05-10.tsv'), '\t'));
  const landUse = landUseDescriber(
    fs
      .readFileSync(src('lyme_land_use_codes.csv'), 'utf8')
      .split(/\r?\n/)
      .filter((l) => l.includes(','))
      .map((l) => {
        const i = l.indexOf(',');
        return [l.slice(0, i).trim(), l.slice(i + 1).trim()] as [string, string];
      }),
  );
  const rates = new Map<number, { rate: number; date: string }>();
  for (const r of readCsv(src('nh_dra_municipal_tax_rates.csv')))
    if (r.Municipality === 'Lyme')
      rates.set(Number(r.Year), { rate: Number(r['Total Rate']) / 1000, date: r.DateComputed! });

  return cama.map((c) => {
    const pid = clean(c.LocalCamaId);
    const scraped = parcels.get(pid);
    const { number, apartment, street } = splitAddress(c.StreetAddress ?? '');
    const mailing = {
      Address1: clean(c.MailingAddress),
      Address2: clean(c.MailingAddress2),
      Address3: '',
      City: clean(c.MailingCity),
      State: clean(c.MailingState),
      ZipCode: restoreZip(c.MailingZip),
      Country: '',
    };
    const ownerNames = [clean(c.OwnerName), clean(c.CoOwnerName)].filter(
      (n, i, all) => n !== '' && all.indexOf(n) === i,
    );
    const land = num(c.TaxLand) ?? 0;
    const building = (num(c.TaxBldg) ?? 0) + (num(c.TaxFeatures) ?? 0);
    const total = num(c.TaxTotal) ?? land + building;
    const code = clean(c.LandUseCode);

    const saleRows = (sales.get(pid) ?? [])
      .map((s) => ({
        SaleDate: saleDate(s['Sale Date']),
        SalePrice: num(s['Sale Price']),
        Book: clean(s.Book),
        Page: clean(s.Page),
        SaleParty: clean(s.Owner),
        SaleType: clean(s.Instrument),
      }))
      .sort((a, b) => (b.SaleDate ?? '').localeCompare(a.SaleDate ?? ''));

    const residences: Array<Record<string, unknown>> = [];
    const commercial: Array<Record<string, unknown>> = [];
    for (const b of buildings.get(pid) ?? []) {
      const model = clean(b.Model);
      const style = clean(b.Style);
      const value = num(b['Value after Depreciation']);
      if (style === 'Vacant Land' || (!model && !value)) continue;
      const area = num(b['Living Area']);
      if (COMMERCIAL_MODELS.has(model)) {
        commercial.push({
          OccupancyCode: style,
          Quality: clean(b.Grade),
          Stories: stories(b.Stories),
          BaseFloorArea: area,
          YearBuilt: int(b['Year Built']),
          PhysicalPercentGood: num(b['Percent Good']),
          Value: value,
        });
      } else if (RESIDENTIAL_MODELS.has(model) || model === '') {
        residences.push({
          BuildingType: style,
          Area: area,
          Grade: clean(b.Grade),
          Bedrooms: num(b['Total Bedrooms']),
          FullBaths: num(b['Total Bthrms']),
          HalfBaths: num(b['Total Half Baths']),
          Rooms: num(b['Total Rooms']),
          BuildingStories: stories(b.Stories),
          PhysicalPercent: num(b['Percent Good']),
          YearBuilt: int(b['Year Built']),
          BuildingValue: value,
        });
      }
    }
    if (!buildings.has(pid) && clean(c.StructureType1)) {
      residences.push({
        BuildingType: clean(c.StructureType1),
        Area: num(c.StructureAreaNet),
        Bedrooms: num(c.BedroomCount),
        FullBaths: num(c.FullBathroomCount),
        HalfBaths: num(c.HalfBathroomCount),
        Rooms: num(c.RoomCount),
        YearBuilt: int(c.YearBuiltActual),
        ExteriorWalls: clean(c.WallTypeExterior),
        RoofSurface: clean(c.RoofCover),
        BuildingValue: num(c.TaxBldg),
      });
    }

    const taxYears = new Map<number, { land: number; building: number; total: number }>();
    for (const h of history.get(pid) ?? []) {
      const year = int(h['Ass. Year']);
      if (year && year !== 2022)
        taxYears.set(year, {
          land: num(h.Land) ?? 0,
          building: num(h.Improvements) ?? 0,
          total: num(h.Total) ?? 0,
        });
    }
    taxYears.set(2022, { land, building, total });
    const taxes = [...taxYears.entries()]
      .filter(([year]) => rates.has(year))
      .sort(([a], [b]) => b - a)
      .map(([year, v]) => {
        const { rate, date } = rates.get(year)!;
        return {
          TaxYear: year,
          Rate: rate,
          LandValue: v.land,
          BuildingValue: v.building,
          ExemptionValue: 0,
          TaxableValue: v.total,
          OriginalTaxAmount: cents(v.total * rate),
          OutstandingTaxBalance: null,
          EffectiveDate: date,
        };
      });

    return {
      Account: pid,
      StreetNumber: number,
      Apartment: apartment,
      StreetName: street,
      GISLink: `https://gis.vgsi.com/lymenh/Parcel.aspx?pid=${pid}`,
      MapLot: clean(c.DisplayId),
      Book: clean(scraped?.Book) || (saleRows[0]?.Book ?? ''),
      Page: clean(scraped?.Page) || (saleRows[0]?.Page ?? ''),
      DateUpdated: clean(c.CurrentTo) || null,
      LandValue: land,
      TotalBuildingValue: building,
      TotalExemption: 0,
      Taxable: total,
      TotalAcres: num(c.LandArea),
      TotalTaxOutstanding: null,
      LandCode: code,
      BuildingCode: '',
      Neighborhood: clean(c.LocalNBC),
      Zone: clean(c.ZoneCode),
      Owners: ownerNames.map((OwnerName) => ({ OwnerName, ...mailing })),
      Sales: saleRows,
      Land: [
        {
          LandCode: code,
          LandDescription: landUse(code) || clean(c.SLUC_desc),
          UnitType: 'Acres',
          Amount: land,
        },
      ],
      Buildings: residences,
      CommercialBuildings: commercial,
      Taxes: taxes,
      PropertyCode: {
        Description: 'State land use class',
        UserDefinedValue: [clean(c.SLUC), clean(c.SLUC_desc)].filter(Boolean).join(' '),
      },
      Reference1: clean(c.NHGIS_ID)
        ? { Description: 'NH GIS ID', UserDefinedValue: clean(c.NHGIS_ID) }
        : null,
      Open1: {
        Description: 'Source',
        UserDefinedValue: 'Town of Lyme NH public assessing records (2022 CAMA, 2023 Vision scrape)',
      },
    };
  });
}

function main() {
  const { values } = parseArgs({
    options: { source: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write('Usage: npx tsx scripts/lyme/convert-lyme.ts [--source DIR] [--out FILE]\n');
    return;
  }
  const source = path.resolve(values.source ?? path.join(repoRoot, '../shared/data/realworld/lyme-nh'));
  if (!fs.existsSync(path.join(source, 'lyme_cama_2022.csv'))) {
    process.stderr.write(`convert-lyme: no Lyme files in ${source} (pass --source DIR)\n`);
    process.exitCode = 1;
    return;
  }
  const out = path.resolve(values.out ?? path.join(repoRoot, 'data/lyme-nh.jsonl'));
  const records = convertLyme(source);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, records.map((r) => JSON.stringify(r)).join('\n') + '\n');
  process.stdout.write(`Wrote ${records.length} Lyme, NH records to ${out}\n`);
}

if (import.meta.filename === path.resolve(process.argv[1] ?? '')) main();
