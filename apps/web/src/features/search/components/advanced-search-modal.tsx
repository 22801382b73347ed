import { useId, useRef, useState, type ReactNode } from 'react';
import { Modal } from '@/components/ui/modal';
import { filterBy } from '@/utils/filter';
import { useLandBuilding } from '../api/get-land-building';
import { numberError, rangeError, type NumberRule } from '../utils/filter-input';
import {
  DEFAULT_SORT,
  EMPTY_FILTERS,
  SORT_CHOICES,
  type FilterForm,
  type Ownership,
  type SortState,
} from '../utils/search-state';

const MONEY: NumberRule = { example: '250,000' };
const ACRES: NumberRule = { example: '2.5' };
const SQFT: NumberRule = { example: '1,500' };
const BEDS: NumberRule = { whole: true, example: '3' };
const BATHS: NumberRule = { example: '2.5' };
const YEAR: NumberRule = { whole: true, example: '1950' };

export interface AdvancedSearchModalProps {
  clientId: number;
  open: boolean;
  filters: FilterForm;
  sort: SortState;
  onClose: () => void;
  /** Closes the modal and runs the search on page 1 (spec §2). */
  onApply: (filters: FilterForm, sort: SortState) => void;
}

/**
 * Spec §2 Advanced Search: Sale Data (price range, numbers only; date range, date pickers), Land (area
 * range as free text, land type checkboxes), Building (area range, style checkboxes, bedrooms and
 * bathrooms as numbers, ownership, the years built), the sort (any of the results' columns, or year
 * built, which has none), and Search. Closes on the backdrop, Escape or ×.
 */
export function AdvancedSearchModal({
  clientId,
  open,
  filters,
  sort,
  onClose,
  onApply,
}: AdvancedSearchModalProps) {
  return (
    <Modal open={open} onClose={onClose} title="Advanced Search" size="lg">
      {/* The modal unmounts its body after closing, so each opening starts from the current filters. */}
      <AdvancedSearchForm clientId={clientId} initial={filters} initialSort={sort} onApply={onApply} />
    </Modal>
  );
}

function AdvancedSearchForm({
  clientId,
  initial,
  initialSort,
  onApply,
}: {
  clientId: number;
  initial: FilterForm;
  initialSort: SortState;
  onApply: (f: FilterForm, sort: SortState) => void;
}) {
  const id = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [f, setF] = useState<FilterForm>(initial);
  const [sort, setSort] = useState<SortState>(initialSort);
  const options = useLandBuilding(clientId, true);
  const set = <K extends keyof FilterForm>(key: K, value: FilterForm[K]) =>
    setF((prev) => ({ ...prev, [key]: value }));
  const toggle = (key: 'landTypes' | 'buildingStyles' | 'ownership', value: string) =>
    setF((prev) => {
      const list = prev[key] as string[];
      const next = list.includes(value) ? list.filter((v) => v !== value) : [...list, value];
      return { ...prev, [key]: next };
    });

  /*
   * Every typed number is checked as it is typed: the message says what is accepted, and Search stays
   * put until it is fixed (nothing is rewritten into another number, nothing unreadable is sent).
   */
  const errorOf = (key: keyof FilterForm, rule: NumberRule, from?: keyof FilterForm): string | null =>
    numberError(f[key] as string, rule) ?? (from ? rangeError(f[from] as string, f[key] as string) : null);
  const numberField = (key: keyof FilterForm, label: string, rule: NumberRule, from?: keyof FilterForm) => {
    const error = errorOf(key, rule, from);
    const fieldId = `${id}-${key}`;
    return (
      <Field id={fieldId} label={label} error={error}>
        <input
          id={fieldId}
          className={`usa-input${error ? ' usa-input--error' : ''}`}
          inputMode={rule.whole ? 'numeric' : 'decimal'}
          autoComplete="off"
          maxLength={30}
          value={f[key] as string}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : undefined}
          onChange={(e) => set(key, e.target.value as FilterForm[typeof key])}
        />
      </Field>
    );
  };
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
      ref={formRef}
      className="opp-advanced"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
        if (invalid) invalid.focus();
        else onApply(f, sort);
      }}
    >
      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Sale Data</legend>
        <div className="opp-advanced__pair">
          {numberField('salePriceMin', 'Sale price from ($)', MONEY)}
          {numberField('salePriceMax', 'Sale price to ($)', MONEY, 'salePriceMin')}
        </div>
        <div className="opp-advanced__pair">
          {dateField('saleDateFrom', 'Sale date from')}
          {dateField('saleDateTo', 'Sale date to')}
        </div>
      </fieldset>

      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Land</legend>
        <div className="opp-advanced__pair">
          {numberField('landAreaMin', 'Land area from (acres)', ACRES)}
          {numberField('landAreaMax', 'Land area to (acres)', ACRES, 'landAreaMin')}
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
          {numberField('buildingAreaMin', 'Building area from (sq ft)', SQFT)}
          {numberField('buildingAreaMax', 'Building area to (sq ft)', SQFT, 'buildingAreaMin')}
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
          {numberField('bedrooms', 'Bedrooms (at least)', BEDS)}
          {numberField('bathrooms', 'Bathrooms (at least)', BATHS)}
        </div>
        <div className="opp-advanced__pair">
          {numberField('yearBuiltMin', 'Year built from', YEAR)}
          {numberField('yearBuiltMax', 'Year built to', YEAR, 'yearBuiltMin')}
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

      <fieldset className="usa-fieldset opp-advanced__section">
        <legend className="usa-legend opp-advanced__legend">Sort</legend>
        <div className="opp-advanced__pair">
          <Field id={`${id}-sortby`} label="Sort by">
            <select
              id={`${id}-sortby`}
              className="usa-select"
              value={sort.sortby}
              onChange={(e) => setSort({ ...sort, sortby: e.target.value as SortState['sortby'] })}
            >
              {SORT_CHOICES.map(({ column, label }) => (
                <option key={column} value={column}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          <Field id={`${id}-order`} label="Order">
            <select
              id={`${id}-order`}
              className="usa-select"
              value={sort.descending ? 'descending' : 'ascending'}
              onChange={(e) => setSort({ ...sort, descending: e.target.value === 'descending' })}
            >
              <option value="ascending">Lowest, oldest or A first</option>
              <option value="descending">Highest, newest or Z first</option>
            </select>
          </Field>
        </div>
      </fieldset>

      {/* Kept in view at the dialog's bottom edge however far the form scrolls (styles/public.css). */}
      <div className="opp-advanced__footer">
        <button
          type="button"
          className="usa-button usa-button--outline"
          onClick={() => {
            setF(EMPTY_FILTERS);
            setSort(DEFAULT_SORT);
          }}
        >
          Reset
        </button>
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
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className={`opp-advanced__field${error ? ' usa-form-group--error' : ''}`}>
      <label className={`usa-label${error ? ' usa-label--error' : ''}`} htmlFor={id}>
        {label}
        {hint ? <span className="opp-visually-hidden"> ({hint})</span> : null}
      </label>
      {error ? (
        <span className="usa-error-message" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
      {children}
    </div>
  );
}

/** A list longer than this gets a box that narrows it as one types (a town may record dozens of styles). */
const FILTER_FROM = 8;

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
  const [query, setQuery] = useState('');
  const long = options.length > FILTER_FROM;
  // What is ticked stays in view whatever is typed: the box narrows the choices, not the search.
  const matching = new Set(long ? filterBy(options, query, (o) => labels?.[o] ?? o) : options);
  const shown = options.filter((o) => matching.has(o) || selected.includes(o));
  return (
    <fieldset className="usa-fieldset opp-advanced__checks">
      <legend className="usa-legend opp-advanced__sublegend">{legend}</legend>
      {loading ? <p className="opp-muted">Loading choices…</p> : null}
      {failed ? <p className="opp-muted">The choices could not be loaded.</p> : null}
      {!loading && !failed && options.length === 0 ? (
        <p className="opp-muted">None recorded for this town.</p>
      ) : null}
      {long ? (
        <div className="opp-advanced__find">
          <label className="usa-label" htmlFor={`${id}-find`}>
            Find a {legend.toLowerCase()}
          </label>
          <input
            className="usa-input"
            id={`${id}-find`}
            type="search"
            autoComplete="off"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            // Enter here narrows the list; it does not run the search.
            onKeyDown={(e) => {
              if (e.key === 'Enter') e.preventDefault();
            }}
            aria-describedby={`${id}-found`}
          />
          <p id={`${id}-found`} className="opp-muted" aria-live="polite">
            {query.trim()
              ? `${shown.length} of ${options.length} ${legend.toLowerCase()} choices shown`
              : `${options.length} choices`}
          </p>
        </div>
      ) : null}
      <div className="opp-advanced__checklist">
        {shown.map((o) => (
          <div key={o} className="usa-checkbox">
            <input
              className="usa-checkbox__input"
              id={`${id}-${options.indexOf(o)}`}
              type="checkbox"
              checked={selected.includes(o)}
              onChange={() => onToggle(o)}
            />
            <label className="usa-checkbox__label" htmlFor={`${id}-${options.indexOf(o)}`}>
              {labels?.[o] ?? o}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
