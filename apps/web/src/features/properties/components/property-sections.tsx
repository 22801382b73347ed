import { useId, useState } from 'react';
import { USER_DEFINED_FIELDS } from '@opp/contracts/record-fields';
import { DataTable, FieldList, type Column } from '@/components/ui/data-table';
import {
  formatLotArea,
  formatDate,
  formatMoney,
  formatNumber,
  formatPercent,
  formatTaxRate,
} from '@/utils/format';
import type { PropertyDetail } from '../api/get-property';
import { taxesAsOf } from '../utils/total-due';
import { PropertySection } from './property-section';

type P = PropertyDetail;
type Row<K extends keyof P> = P[K] extends (infer R)[] ? R : never;

const has = (v: unknown) => v !== null && v !== undefined && v !== '';
const text = (v: string | null | undefined) => v ?? '';
const year = (v: number | null) => (v === null ? '' : String(v));

/** Spec §2 Assessment: Land, Building, Exempt (with an expandable exemption list), Taxable. */
export function AssessmentSection({ p }: { p: P }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const empty =
    !has(p.LandValue) &&
    !has(p.TotalBuildingValue) &&
    !has(p.TotalExemption) &&
    !has(p.Taxable) &&
    p.Exemptions.length === 0;
  return (
    <PropertySection id="assessment" title="Assessment" empty={empty}>
      <dl className="opp-assessment">
        <div>
          <dt>Land</dt>
          <dd>{formatMoney(p.LandValue)}</dd>
        </div>
        <div>
          <dt>Building</dt>
          <dd>{formatMoney(p.TotalBuildingValue)}</dd>
        </div>
        <div>
          <dt>
            {p.Exemptions.length > 0 ? (
              <button
                type="button"
                className="opp-disclosure"
                aria-expanded={open}
                aria-controls={listId}
                onClick={() => setOpen((o) => !o)}
              >
                Exempt
                <span className="opp-visually-hidden"> (show the {p.Exemptions.length} exemptions)</span>
                <span aria-hidden="true" className="opp-disclosure__mark">
                  {open ? '−' : '+'}
                </span>
              </button>
            ) : (
              'Exempt'
            )}
          </dt>
          <dd>{formatMoney(p.TotalExemption)}</dd>
        </div>
        <div>
          <dt>Taxable</dt>
          <dd>{formatMoney(p.Taxable)}</dd>
        </div>
      </dl>
      {p.Exemptions.length > 0 ? (
        <div id={listId} className="opp-exemptions" hidden={!open}>
          <DataTable
            caption="Exemptions"
            rows={p.Exemptions}
            columns={[
              { key: 'id', label: 'Code', render: (e) => e.ExemptionID },
              { key: 'd', label: 'Description', render: (e) => e.Description },
              { key: 'v', label: 'Value', render: (e) => formatMoney(e.Value), numeric: true },
            ]}
          />
        </div>
      ) : null}
    </PropertySection>
  );
}

const saleColumns: Column<Row<'Sales'>>[] = [
  { key: 'date', label: 'Sale Date', render: (s) => formatDate(s.SaleDate) },
  { key: 'price', label: 'Sale Price', render: (s) => formatMoney(s.SalePrice), numeric: true },
  { key: 'book', label: 'Book', render: (s) => s.Book },
  { key: 'page', label: 'Page', render: (s) => s.Page },
  { key: 'party', label: 'Sale Party', render: (s) => s.SaleParty },
  { key: 'type', label: 'Sale Type', render: (s) => s.SaleType },
];

export function SalesSection({ p }: { p: P }) {
  return (
    <PropertySection id="sales" title="Sales" empty={p.Sales.length === 0}>
      <DataTable caption="Sales" columns={saleColumns} rows={p.Sales} />
    </PropertySection>
  );
}

export function PropertyInfoSection({ p }: { p: P }) {
  const fields = [
    { label: 'Land Code', value: p.LandCode },
    { label: 'Building Code', value: p.BuildingCode },
    { label: 'Neighborhood', value: p.Neighborhood },
    { label: 'Zone', value: p.Zone },
    { label: 'Secondary Zone', value: p.SecondaryZone },
    { label: 'Street Type', value: p.StreetType },
    {
      label: 'Topography',
      value: [p.TopographyDescription1, p.TopographyDescription2].filter(Boolean).join(', '),
    },
    {
      label: 'Utilities',
      value: [p.UtilitiesDescription1, p.UtilitiesDescription2].filter(Boolean).join(', '),
    },
    // A small lot gives its square feet beside the acres: 0.02 acres alone says too little.
    { label: 'Total Acres', value: formatLotArea(p.TotalAcres) },
  ];
  return (
    <PropertySection id="property" title="Property" empty={!fields.some((f) => has(f.value))}>
      <FieldList fields={fields} />
    </PropertySection>
  );
}

const landColumns: Column<Row<'Land'>>[] = [
  { key: 'code', label: 'Land Code', render: (l) => l.LandCode },
  { key: 'desc', label: 'Description (Units)', render: (l) => l.LandDescription },
  { key: 'unit', label: 'Unit Type', render: (l) => l.UnitType },
  { key: 'infl', label: 'Influence', render: (l) => l.InfluenceDescription },
  { key: 'pct', label: 'Influence %', render: (l) => formatPercent(l.InfluencePercentage), numeric: true },
  { key: 'amt', label: 'Amount', render: (l) => formatMoney(l.Amount), numeric: true },
];

export function LandSection({ p }: { p: P }) {
  return (
    <PropertySection id="land" title="Land" empty={p.Land.length === 0}>
      <DataTable caption="Land" columns={landColumns} rows={p.Land} />
    </PropertySection>
  );
}

function residenceFields(b: Row<'Buildings'>) {
  const n = formatNumber;
  const pct = formatPercent;
  return [
    { label: 'Building Type', value: b.BuildingType },
    { label: 'Year Built', value: year(b.YearBuilt) },
    { label: 'Year Remodeled', value: year(b.YearRemodeled) },
    { label: 'Stories', value: n(b.BuildingStories) },
    { label: 'Area (sq ft)', value: n(b.Area) },
    { label: 'Dwelling Units', value: n(b.DwellingUnits) },
    { label: 'Other Units', value: n(b.OtherUnits) },
    { label: 'Rooms', value: n(b.Rooms) },
    { label: 'Bedrooms', value: n(b.Bedrooms) },
    { label: 'Full Baths', value: n(b.FullBaths) },
    { label: 'Half Baths', value: n(b.HalfBaths) },
    { label: 'Additional Fixtures', value: n(b.NumberOfAdditionalFixtures) },
    { label: 'Bath Style', value: b.BathStyle },
    { label: 'Kitchen Style', value: b.KitchenStyle },
    { label: 'Layout', value: b.Layout },
    { label: 'Attic', value: b.Attic },
    { label: 'Insulation', value: b.Insulation },
    { label: 'Foundation', value: b.Foundation },
    { label: 'Basement', value: b.Basement },
    { label: 'Basement Garage', value: b.BasementGarage },
    { label: 'Wet Basement', value: b.WetBasement },
    { label: 'Finished Basement (sq ft)', value: n(b.SquareFootBasementLiving) },
    { label: 'Finished Basement Grade', value: b.FinishedBasementGrade },
    { label: 'Finished Basement Factor', value: n(b.FinishedBasementFactor) },
    { label: 'Exterior Walls', value: b.ExteriorWalls },
    { label: 'Roof Surface', value: b.RoofSurface },
    { label: 'Masonry Trim (sq ft)', value: n(b.SquareFootMasonryTrim) },
    { label: 'Heat Type', value: b.HeatType },
    { label: 'Percent Heated', value: pct(b.PercentHeated) },
    { label: 'Cool Type', value: b.CoolType },
    { label: 'Percent Cooled', value: pct(b.PercentCooled) },
    { label: 'Fireplaces', value: n(b.Fireplaces) },
    { label: 'Garage Cars', value: n(b.NumCars) },
    { label: 'Percent Unfinished', value: pct(b.PercentUnfinished) },
    { label: 'Grade', value: b.Grade },
    { label: 'Factor', value: n(b.Factor) },
    { label: 'Condition', value: b.Condition },
    { label: 'Physical % Good', value: pct(b.PhysicalPercent) },
    { label: 'Functional % Good', value: pct(b.FunctionalPercent) },
    { label: 'Economic Code', value: b.EconomicCode },
    { label: 'Economic % Good', value: pct(b.EconomicPercent) },
    { label: 'Building Value', value: formatMoney(b.BuildingValue) },
  ];
}

function commercialFields(c: Row<'CommercialBuildings'>) {
  const n = formatNumber;
  const pct = formatPercent;
  return [
    { label: 'Occupancy Code', value: c.OccupancyCode },
    { label: 'Class', value: c.Class },
    { label: 'Quality', value: c.Quality },
    { label: 'Grade Factor', value: n(c.GradeFactor) },
    { label: 'Dwelling Units', value: n(c.NumberDwellingUnits) },
    { label: 'Exterior Walls', value: c.ExteriorWalls },
    { label: 'Stories', value: n(c.Stories) },
    { label: 'Height per Story', value: n(c.HeightPerStory) },
    { label: 'Base Floor Area', value: n(c.BaseFloorArea) },
    { label: 'Perimeter or Units', value: n(c.PerimeterOrUnits) },
    { label: 'Heating / Cooling', value: c.HeatingCooling },
    { label: 'Year Built', value: year(c.YearBuilt) },
    { label: 'Year Remodeled', value: year(c.YearRemodeled) },
    { label: 'Condition', value: c.StructureCondition },
    { label: 'Physical % Good', value: pct(c.PhysicalPercentGood) },
    { label: 'Functional % Good', value: pct(c.FunctionalPercentGood) },
    { label: 'Economic % Good', value: pct(c.EconomicPercentGood) },
    { label: 'Value', value: formatMoney(c.Value) },
  ];
}

const additionColumns: Column<Row<'BuildingAdditions'>>[] = [
  { key: 'type', label: 'Addition', render: (a) => a.AdditionType },
  { key: 'year', label: 'Year Built', render: (a) => year(a.YearBuilt) },
  { key: 'units', label: 'Units', render: (a) => formatNumber(a.Units), numeric: true },
  { key: 'grade', label: 'Grade', render: (a) => a.Grade },
  { key: 'factor', label: 'Factor', render: (a) => formatNumber(a.Factor), numeric: true },
  { key: 'cond', label: 'Condition', render: (a) => a.Condition },
  { key: 'phys', label: 'Physical %', render: (a) => formatPercent(a.PhysicalPercent), numeric: true },
  {
    key: 'func',
    label: 'Functional %',
    render: (a) => formatPercent(a.FunctionalPercentGood),
    numeric: true,
  },
  { key: 'val', label: 'Value', render: (a) => formatMoney(a.AdditionValue), numeric: true },
];

/** Spec §2 Building: Residence and Commercial, plus the additions. */
export function BuildingSection({ p }: { p: P }) {
  const empty =
    p.Buildings.length === 0 && p.CommercialBuildings.length === 0 && p.BuildingAdditions.length === 0;
  const many = p.Buildings.length + p.CommercialBuildings.length > 1;
  return (
    <PropertySection id="building" title="Building" empty={empty}>
      {p.Buildings.map((b, i) => (
        <div key={`r${i}`} className="opp-subsection">
          <h3 className="opp-subsection__heading">Residence{many ? ` ${i + 1}` : ''}</h3>
          <FieldList fields={residenceFields(b)} />
        </div>
      ))}
      {p.CommercialBuildings.map((c, i) => (
        <div key={`c${i}`} className="opp-subsection">
          <h3 className="opp-subsection__heading">Commercial{many ? ` ${i + 1}` : ''}</h3>
          <FieldList fields={commercialFields(c)} />
        </div>
      ))}
      {p.BuildingAdditions.length > 0 ? (
        <div className="opp-subsection">
          <h3 className="opp-subsection__heading">Additions</h3>
          <DataTable caption="Building additions" columns={additionColumns} rows={p.BuildingAdditions} />
        </div>
      ) : null}
    </PropertySection>
  );
}

/** The town-defined entries of spec §3 (each a Description and a value). */
export function AdditionalAssessmentsSection({ p }: { p: P }) {
  const rows = USER_DEFINED_FIELDS.map((k) => p[k])
    .filter((v): v is NonNullable<typeof v> => v !== null && v !== undefined)
    .filter((v) => has(v.Description) || has(v.UserDefinedValue));
  return (
    <PropertySection id="additional" title="Additional Assessments" empty={rows.length === 0}>
      <DataTable
        caption="Additional assessments"
        rows={rows}
        columns={[
          { key: 'd', label: 'Description', render: (r) => text(r.Description) },
          { key: 'v', label: 'Value', render: (r) => text(r.UserDefinedValue) },
        ]}
      />
    </PropertySection>
  );
}

const taxColumns: Column<Row<'Taxes'>>[] = [
  { key: 'year', label: 'Tax Year', render: (t) => String(t.TaxYear) },
  { key: 'rate', label: 'Rate (per $1,000)', render: (t) => formatTaxRate(t.Rate), numeric: true },
  { key: 'land', label: 'Land Value', render: (t) => formatMoney(t.LandValue), numeric: true },
  { key: 'bldg', label: 'Building Value', render: (t) => formatMoney(t.BuildingValue), numeric: true },
  { key: 'ex', label: 'Exemption Value', render: (t) => formatMoney(t.ExemptionValue), numeric: true },
  { key: 'taxable', label: 'Taxable Value', render: (t) => formatMoney(t.TaxableValue), numeric: true },
  {
    key: 'orig',
    label: 'Original Tax Amount',
    render: (t) => formatMoney(t.OriginalTaxAmount),
    numeric: true,
  },
  {
    key: 'out',
    label: 'Outstanding Balance',
    render: (t) => formatMoney(t.OutstandingTaxBalance),
    numeric: true,
  },
];

const valuationColumns: Column<Row<'ValueHistory'>>[] = [
  { key: 'year', label: 'Year', render: (v) => String(v.Year) },
  { key: 'land', label: 'Land Value', render: (v) => formatMoney(v.LandValue), numeric: true },
  { key: 'bldg', label: 'Building Value', render: (v) => formatMoney(v.BuildingValue), numeric: true },
  { key: 'total', label: 'Total Value', render: (v) => formatMoney(v.TotalValue), numeric: true },
];

/**
 * Earlier years' assessed values (issue 39), newest first: from the town's assessing system, and each
 * roll the town published before this one.
 */
export function ValuationHistorySection({ p }: { p: P }) {
  const rows = [...p.ValueHistory].sort((a, b) => b.Year - a.Year);
  return (
    <PropertySection id="valuation-history" title="Valuation History" empty={rows.length === 0}>
      <DataTable caption="Valuation history" columns={valuationColumns} rows={rows} />
    </PropertySection>
  );
}

/** Spec §2 Tax Details: the effective date shows as "As Of" in the heading (the latest one given). */
export function TaxDetailsSection({ p }: { p: P }) {
  const effective = taxesAsOf(p);
  const rows = [...p.Taxes].sort((a, b) => b.TaxYear - a.TaxYear);
  return (
    <PropertySection
      id="taxes"
      title="Tax Details"
      empty={p.Taxes.length === 0}
      note={effective ? `(As Of ${formatDate(effective)})` : undefined}
    >
      <DataTable caption="Tax details" columns={taxColumns} rows={rows} className="opp-table--wide" />
    </PropertySection>
  );
}
