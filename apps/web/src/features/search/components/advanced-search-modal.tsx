import { useId, useState, type ReactNode } from 'react';
import { Modal } from '@/components/ui/modal';
import { numbersOnly } from '@/utils/paging';
import { useLandBuilding } from '../api/get-land-building';
import type { FilterForm, Ownership } from '../utils/search-state';

export interface AdvancedSearchModalProps {
  clientId: number;
  open: boolean;
  filters: FilterForm;
  onClose: () => void;
  /** Closes the modal and runs the search on page 1 (spec §2). */
  onApply: (filters: FilterForm) => void;
}

/**
 * Spec §2 Advanced Search: Sale Data (price range, numbers only; date range, date pickers), Land (area
 * range as free text, land type checkboxes), Building (area range, style checkboxes, bedrooms and
 * bathrooms as numbers, ownership), and Search. Closes on the backdrop, Escape or ×.
 */
export function AdvancedSearchModal({ clientId, open, filters, onClose, onApply }: AdvancedSearchModalProps) {
  return (
    <Modal open={open} onClose={onClose} title="Advanced Search" size="lg">
      {/* The modal unmounts its body after closing, so each opening starts from the current filters. */}
      <AdvancedSearchForm clientId={clientId} initial={filters} onApply={onApply} />
    </Modal>
  );
}

function AdvancedSearchForm({
  clientId,
  initial,
  onApply,
}: {
  clientId: number;
  initial: FilterForm;
  onApply: (f: FilterForm) => void;
}) {
  const id = useId();
  const [f, setF] = useState<FilterForm>(initial);
  const options = useLandBuilding(clientId, true);
  const set = <K extends keyof FilterForm>(key: K, value: FilterForm[K]) =>
    setF((prev) => ({ ...prev, [key]: value }));
  const toggle = (key: 'landTypes' | 'buildingStyles' | 'ownership', value: string) =>
    setF((prev) => {
      const list = prev[key] as string[];
      const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
      return { ...prev, [key]: next };
    });

  const numberField = (key: keyof FilterForm, label: string, decimal = true) => (
    <Field id={`${id}-${key}`} label={label}>
      <input
        id={`${id}-${key}`}
        className="usa-input"
        inputMode={decimal ? 'decimal' : 'numeric'}
        autoComplete="off"
        value={f[key] as string}
        onChange={(e) => set(key, numbersOnly(e.target.value, decimal) as FilterForm[typeof key])}
      />
    </Field>
  );
  const textField = (key: keyof FilterForm, label: string) => (
    <Field id={`${id}-${key}`} label={label}>
      <input
        id={`${id}-${key}`}
        className="usa-input"
        autoComplete="off"
        maxLength={30}
        value={f[key] as string}
        onChange={(e) => set(key, e.target.value as FilterForm[typeof key])}
      />
    </Field>
  );
  const dateField = (key: 'saleDateFrom' | 'saleDateTo', label: string) => (
    <Field id={`${id}-${key}`} label={label} hint="mm/dd/yyyy">
      <input
        id={`${id}-${key}`}
        className="usa-input"
        type="date"
        min="1800-01-01"
        max="2200-12-31"
        value={f[key]}
        onChange={(e) => set(key, e.target.value)}
      />
    </Field>
  );

  const landTypes = options.data?.landType ?? [];
  const styles = options.data?.buildingStyle ?? [];

  return (
    <form
      className="opp-advanced"
      onSubmit={(e) => {
        e.preventDefault();
        onApply(f);
      }}
    >
      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Sale Data</legend>
        <div className="opp-advanced__pair">
          {numberField('salePriceMin', 'Sale price from ($)')}
          {numberField('salePriceMax', 'Sale price to ($)')}
        </div>
        <div className="opp-advanced__pair">
          {dateField('saleDateFrom', 'Sale date from')}
          {dateField('saleDateTo', 'Sale date to')}
        </div>
      </fieldset>

      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Land</legend>
        <div className="opp-advanced__pair">
          {textField('landAreaMin', 'Land area from (acres)')}
          {textField('landAreaMax', 'Land area to (acres)')}
        </div>
        <CheckboxGroup
          id={`${id}-landType`}
          legend="Land type"
          options={landTypes}
          selected={f.landTypes}
          onToggle={(v) => toggle('landTypes', v)}
          loading={options.isPending}
          failed={options.isError}
        />
      </fieldset>

      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Building</legend>
        <div className="opp-advanced__pair">
          {textField('buildingAreaMin', 'Building area from (sq ft)')}
          {textField('buildingAreaMax', 'Building area to (sq ft)')}
        </div>
        <CheckboxGroup
          id={`${id}-style`}
          legend="Style"
          options={styles}
          selected={f.buildingStyles}
          onToggle={(v) => toggle('buildingStyles', v)}
          loading={options.isPending}
          failed={options.isError}
        />
        <div className="opp-advanced__pair">
          {numberField('bedrooms', 'Bedrooms (at least)', false)}
          {numberField('bathrooms', 'Bathrooms (at least)')}
        </div>
        <CheckboxGroup
          id={`${id}-own`}
          legend="Ownership"
          options={['commercial', 'residential'] satisfies Ownership[]}
          labels={{ commercial: 'Commercial', residential: 'Residential' }}
          selected={f.ownership}
          onToggle={(v) => toggle('ownership', v)}
        />
      </fieldset>

      <div className="opp-advanced__footer">
        <button type="submit" className="usa-button">
          Search
        </button>
      </div>
    </form>
  );
}

function Field({
  id,
  label,
  hint,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="opp-advanced__field">
      <label className="usa-label" htmlFor={id}>
        {label}
        {hint ? <span className="opp-visually-hidden"> ({hint})</span> : null}
      </label>
      {children}
    </div>
  );
}

function CheckboxGroup({
  id,
  legend,
  options,
  labels,
  selected,
  onToggle,
  loading,
  failed,
}: {
  id: string;
  legend: string;
  options: string[];
  labels?: Record<string, string>;
  selected: string[];
  onToggle: (value: string) => void;
  loading?: boolean;
  failed?: boolean;
}) {
  return (
    <fieldset className="usa-fieldset opp-advanced__checks">
      <legend className="usa-legend opp-advanced__sublegend">{legend}</legend>
      {loading ? <p className="opp-muted">Loading choices…</p> : null}
      {failed ? <p className="opp-muted">The choices could not be loaded.</p> : null}
      {!loading && !failed && options.length === 0 ? (
        <p className="opp-muted">None recorded for this town.</p>
      ) : null}
      <div className="opp-advanced__checklist">
        {options.map((o, i) => (
          <div key={o} className="usa-checkbox">
            <input
              className="usa-checkbox__input"
              id={`${id}-${i}`}
              type="checkbox"
              checked={selected.includes(o)}
              onChange={() => onToggle(o)}
            />
            <label className="usa-checkbox__label" htmlFor={`${id}-${i}`}>
              {labels?.[o] ?? o}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
