import { useEffect, useId, useRef } from 'react';
import { fillPercent, formatLocation, type RollPreviewDto } from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { formatAcres, formatCount, formatCountOf as plural, formatMoney } from '@/utils/format';
import { rollDatesText } from '@/utils/roll-dates';
import { AdjustedList, FirstLines, WarningList, warningsTitle } from './import-notes';

type Loose = Record<string, unknown>;

/** A mapped value as text: the preview's records are not checked yet, so any shape may arrive. */
const text = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const money = (v: unknown) => (typeof v === 'number' ? formatMoney(v) : text(v));
const acres = (v: unknown) => (typeof v === 'number' ? formatAcres(v) : text(v));
const owners = (v: unknown) =>
  Array.isArray(v)
    ? v
        .map((o) => (o && typeof o === 'object' ? text((o as Loose).OwnerName) : ''))
        .filter(Boolean)
        .join('; ')
    : '';

/** The sample's columns: what a clerk checks first in a roll. */
const COLUMNS: Array<{ label: string; value: (r: Loose) => string }> = [
  { label: 'Account', value: (r) => text(r.Account) },
  { label: 'Map/Lot', value: (r) => text(r.MapLot) },
  {
    label: 'Location',
    value: (r) =>
      formatLocation({
        StreetNumber: text(r.StreetNumber),
        Apartment: text(r.Apartment),
        StreetName: text(r.StreetName),
      }),
  },
  { label: 'Owner', value: (r) => owners(r.Owners) },
  { label: 'Land value', value: (r) => money(r.LandValue) },
  { label: 'Building value', value: (r) => money(r.TotalBuildingValue) },
  { label: 'Acres', value: (r) => acres(r.TotalAcres) },
];

/**
 * The preview step of a roll upload (issue 39): what the server found in the files, exactly as the
 * import checks them, before anything is published. Focus moves to its heading when it appears, so a
 * keyboard or screen reader user lands on it; Confirm publish is offered only when nothing is wrong.
 */
export function RollPreview({
  preview,
  busy,
  onConfirm,
  onCancel,
}: {
  preview: RollPreviewDto;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), [preview]);
  const how = preview.Format
    ? `read as the format ${preview.Format}`
    : preview.Mapping
      ? `read through the mapping ${preview.Mapping}`
      : 'in the portal’s own format';
  const ok = preview.ProblemCount === 0 && preview.Records > 0;

  return (
    <section aria-labelledby={`${id}-heading`} className="opp-roll-preview margin-top-2">
      <h3 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="margin-bottom-1">
        Preview: nothing is published yet
      </h3>
      <p className="margin-top-0 opp-break">
        {plural(preview.Records, 'record')} in {preview.SourceFiles.join(', ')}, {how}.{' '}
        {ok
          ? preview.WarningCount > 0
            ? `No problems found; ${plural(preview.WarningCount, 'warning')} (published as given).`
            : 'No problems found.'
          : `${plural(preview.ProblemCount, 'problem')} found: this roll cannot be published as it is.`}
      </p>
      <p className="margin-top-0">
        {preview.FiscalYear !== null || preview.ValuationDate !== null
          ? `${rollDatesText({ TaxYear: preview.FiscalYear, ValuationDate: preview.ValuationDate })}, as you gave them.`
          : 'No fiscal year or valuation date given: the public pages will date the roll by the day it is published.'}
      </p>
      {preview.HeaderLines.map((h) => (
        <p key={h.File} className="margin-top-0 opp-break">
          {h.File}: the header row is line {h.Line}; the line{h.Line > 2 ? 's' : ''} above it{' '}
          {h.Line > 2 ? 'are' : 'is'} not part of the roll.
        </p>
      ))}

      <RollChanges changes={preview.Changes} />

      {preview.Problems.length > 0 ? (
        <Alert type="error">
          <FirstLines
            lines={preview.Problems}
            total={preview.ProblemCount}
            label="Problems"
            className="opp-run-errors usa-alert__text"
          />
        </Alert>
      ) : null}

      {preview.WarningCount > 0 ? (
        <Alert type="warning" heading={<h4 className="usa-alert__heading">{warningsTitle(preview)}</h4>}>
          <WarningList notes={preview} />
        </Alert>
      ) : null}

      <AdjustedList notes={preview} />

      {preview.Sample.length > 0 ? (
        <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={`${id}-sample`}>
          <table className="usa-table usa-table--borderless usa-table--compact width-full opp-history">
            <caption id={`${id}-sample`}>
              The first {plural(preview.Sample.length, 'record')} as they will be published
            </caption>
            <thead>
              <tr>
                <th scope="col">Line</th>
                {COLUMNS.map((c) => (
                  <th key={c.label} scope="col">
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {preview.Sample.map((s) => (
                <tr key={s.Line}>
                  <td>{s.Line}</td>
                  {COLUMNS.map((c) => (
                    <td key={c.label} className="opp-break">
                      {c.value(s.Record)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {preview.Fill.length > 0 ? (
        <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={`${id}-fill`}>
          <table className="usa-table usa-table--borderless usa-table--compact opp-history">
            <caption id={`${id}-fill`}>
              How many records got a value, by portal field
              {preview.Changes ? ', beside the published roll' : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Filled</th>
                <th scope="col">Share</th>
                {preview.Changes ? <th scope="col">Published now</th> : null}
              </tr>
            </thead>
            <tbody>
              {preview.Fill.map((f) => (
                <tr key={f.Field}>
                  <th scope="row" className="opp-break">
                    {f.Field}
                  </th>
                  <td>
                    {formatCount(f.Filled)} of {formatCount(f.Of)}
                  </td>
                  <td>{fillPercent(f.Filled, f.Of)}%</td>
                  {preview.Changes ? (
                    <td>
                      {fillPercent(f.PublishedFilled ?? 0, f.PublishedOf ?? 0)}% (
                      {formatCount(f.PublishedFilled ?? 0)} of {formatCount(f.PublishedOf ?? 0)})
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      {preview.UnusedColumns.length > 0 ? (
        <>
          <p className="margin-bottom-0">Columns the portal does not read:</p>
          <ul className="margin-top-05 opp-break">
            {preview.UnusedColumns.map((u) => (
              <li key={u.File}>
                {u.File}: {u.Columns.join(', ')}
                {u.Count > u.Columns.length ? ` … (${formatCount(u.Count)} in all)` : ''}
              </li>
            ))}
          </ul>
        </>
      ) : null}

      {preview.AbsentColumns.length > 0 ? (
        <p className="opp-break">
          Optional columns the files do not have: {preview.AbsentColumns.join(', ')}
        </p>
      ) : null}

      {!ok ? <p className="usa-hint">Correct the files (or the mapping) and preview them again.</p> : null}
      <div className="opp-roll-preview__actions margin-top-2">
        {ok ? (
          <button type="button" className="usa-button" disabled={busy} onClick={onConfirm}>
            Confirm publish
          </button>
        ) : null}
        <button type="button" className="usa-button usa-button--outline" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}

const listed = (records: Array<{ Account: string; MapLot: string }>, count: number) =>
  `${records.map((r) => (r.MapLot ? `${r.Account} (map/lot ${r.MapLot})` : r.Account)).join(', ')}${count > records.length ? ', …' : ''}`;

/** What publishing would do to the town's published roll, by Account (issue 45). */
function RollChanges({ changes }: { changes: RollPreviewDto['Changes'] }) {
  if (!changes) return <p className="margin-top-0">The town has no published roll: every record is new.</p>;
  const rows: Array<[string, number, Array<{ Account: string; MapLot: string }>]> = [
    ['add', changes.Added, changes.FirstAdded],
    ['remove', changes.Removed, changes.FirstRemoved],
    ['change', changes.Changed, changes.FirstChanged],
  ];
  return (
    <>
      <p className="margin-bottom-0">
        Compared with the published roll ({plural(changes.Published, 'record')}), publishing would:
      </p>
      <ul className="margin-top-05 opp-break" aria-label="Changes to the published roll">
        {rows.map(([label, count, first]) => (
          <li key={label}>
            {`${label} ${plural(count, 'record')}${first.length ? `: ${listed(first, count)}` : ''}`}
          </li>
        ))}
        <li>leave {plural(changes.Unchanged, 'record')} unchanged</li>
      </ul>
    </>
  );
}
