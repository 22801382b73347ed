import type { Abutter } from '@opp/contracts';
import { DEFAULT_ABUTTER_DISTANCE_FEET, MAX_ABUTTER_DISTANCE_FEET } from '@opp/contracts/abutter-distance';
import { OWNER_WITHHELD } from '@opp/contracts/addresses';
import {
  noticeLabels,
  noticeRule,
  noticeTitle,
  recordsWithoutOwnerName,
  type LabelChoices,
} from '@opp/contracts/abutters-notice';
import { useEffect, useId, useMemo, useState, type ChangeEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { DownloadIcon, PrintIcon } from '@/components/ui/icons';
import { DataTable, type Column } from '@/components/ui/data-table';
import { OwnerAddress } from '@/components/ui/owner-address';
import { errorText } from '@/utils/error-text';
import { formatCount } from '@/utils/format';
import { abuttersCsvUrl, abuttersLabelsUrl, useAbutters } from '../api/get-abutters';
import { checkDistance, DISTANCE_CHOICES } from '../utils/abutter-distance';
import '../parcels.css';
import { usePrintAlone } from '@/hooks/use-print-alone';

export interface AbuttersPanelProps {
  clientId: number;
  account: string;
  hrefFor: (account: string) => string;
  /** Told the distance whenever the list is asked for a new one (the map draws the same). */
  onFeetChange?: (feet: number) => void;
}

const PRINTING_CLASS = 'opp-printing-abutters';

/**
 * Spec issue 40: the owners within a chosen distance of this parcel, with their mailing addresses, as a
 * list, a CSV file, mailing labels (PDF) and a printout: what a hearing notice needs.
 */
export function AbuttersPanel({ clientId, account, hrefFor, onFeetChange }: AbuttersPanelProps) {
  const id = useId();
  const [text, setText] = useState(String(DEFAULT_ABUTTER_DISTANCE_FEET));
  const [feet, setFeet] = useState<number>(DEFAULT_ABUTTER_DISTANCE_FEET);
  const [choices, setChoices] = useState<LabelChoices>({ perOwner: false, dedupe: false, occupants: false });
  const [inPrint, setInPrint] = useState(false);
  const check = checkDistance(text);
  const abutters = useAbutters(clientId, account, feet);
  const list = abutters.data;
  const shownFeet = list?.DistanceFeet ?? feet;
  // The counts the labels PDF prints, from the same rules (abutters-notice.ts).
  const labels = useMemo(() => (list ? noticeLabels(list, choices) : null), [list, choices]);
  const nameless = list ? recordsWithoutOwnerName(list) : 0;
  const choose = (name: keyof LabelChoices) => (checked: boolean) =>
    setChoices((c) => ({ ...c, [name]: checked }));

  useEffect(() => onFeetChange?.(feet), [feet, onFeetChange]);

  const type = (value: string) => {
    setText(value);
    const c = checkDistance(value);
    if (c.feet !== null) setFeet(c.feet);
  };

  const print = usePrintAlone(PRINTING_CLASS);

  const columns: Column<Abutter>[] = [
    {
      key: 'account',
      label: 'Account',
      render: (a) => <Link to={hrefFor(a.Account)}>{a.Account}</Link>,
    },
    { key: 'maplot', label: 'Map/Lot', render: (a) => a.MapLot },
    { key: 'location', label: 'Location', render: (a) => a.Location },
    {
      key: 'owners',
      label: 'Owners and mailing address',
      render: (a) =>
        a.SuppressOwner
          ? OWNER_WITHHELD
          : a.Owners.map((o, i) => <OwnerAddress key={i} owner={o} className="opp-abutters__owner" />),
    },
    { key: 'distance', label: 'Distance (ft)', numeric: true, render: (a) => formatCount(a.DistanceFeet) },
  ];

  const count = list?.Abutters.length ?? 0;
  const status = abutters.isError
    ? ''
    : !list || abutters.isPlaceholderData
      ? `Finding the parcels within ${feet} ft…`
      : `${formatCount(count)} ${count === 1 ? 'record' : 'records'} within ${shownFeet} ft of this parcel`;

  return (
    <section
      className={`opp-abutters${inPrint ? ' opp-abutters--in-print' : ''}`}
      aria-labelledby={`${id}-heading`}
    >
      <h3 id={`${id}-heading`} className="opp-subsection__heading">
        Abutters
      </h3>
      <p>
        The records whose parcels lie within a distance of this one (0 ft: touching), with their owners’
        mailing addresses, for notices of hearings.
      </p>
      <div className="opp-abutters__controls">
        <fieldset className="usa-fieldset">
          <legend className="usa-legend margin-top-0">Distance</legend>
          <div className="opp-abutters__choices">
            {DISTANCE_CHOICES.map((d) => (
              <button
                key={d}
                type="button"
                className={`usa-button${check.feet === d ? '' : ' usa-button--outline'}`}
                aria-pressed={check.feet === d}
                onClick={() => type(String(d))}
              >
                {d} ft
              </button>
            ))}
          </div>
        </fieldset>
        <div className={`usa-form-group margin-top-0${check.error ? ' usa-form-group--error' : ''}`}>
          <label className="usa-label margin-top-0" htmlFor={`${id}-feet`}>
            Other distance (feet)
          </label>
          <span className="usa-hint" id={`${id}-hint`}>
            0 to {formatCount(MAX_ABUTTER_DISTANCE_FEET)}
          </span>
          <span className="usa-error-message" id={`${id}-error`} aria-live="polite">
            {check.error ?? ''}
          </span>
          <input
            id={`${id}-feet`}
            className={`usa-input opp-abutters__distance${check.error ? ' usa-input--error' : ''}`}
            inputMode="numeric"
            autoComplete="off"
            maxLength={6}
            value={text}
            aria-invalid={check.error ? true : undefined}
            aria-describedby={`${id}-hint${check.error ? ` ${id}-error` : ''}`}
            onChange={(e) => type(e.target.value)}
          />
        </div>
      </div>

      <p className="opp-count" role="status" aria-live="polite">
        {status}
      </p>

      {abutters.isError ? (
        <Alert
          type="error"
          role="alert"
          text={<>The abutters could not be listed. {errorText(abutters.error)}</>}
        />
      ) : null}

      {list && !abutters.isError ? (
        <>
          <p className="opp-abutters__subject">
            <strong>{noticeTitle(list)}.</strong> {noticeRule(list)}
          </p>
          {count > 0 && nameless > 0 ? (
            <Alert
              type="info"
              className="opp-abutters__nameless"
              text={
                nameless === count ? (
                  <>
                    This roll has no owner names for these records. The list, the CSV and the labels give each
                    parcel’s map/lot and location; labels can go to “Current Occupant” at each parcel.
                  </>
                ) : (
                  <>
                    {formatCount(nameless)} of these {formatCount(count)} records have no owner name on this
                    roll; the CSV lists them with their map/lot and location.
                  </>
                )
              }
            />
          ) : null}
          <div className="opp-abutters__actions">
            <a
              className="usa-button usa-button--outline"
              href={abuttersCsvUrl(clientId, account, shownFeet)}
              download
            >
              <DownloadIcon size={20} /> Download CSV
            </a>
            <a
              className="usa-button usa-button--outline"
              href={abuttersLabelsUrl(clientId, account, shownFeet, choices)}
              download
            >
              <DownloadIcon size={20} /> Mailing labels (PDF)
            </a>
            <button type="button" className="usa-button usa-button--outline" onClick={print}>
              <PrintIcon size={20} /> Print list
            </button>
          </div>
          {labels && count > 0 ? (
            <fieldset className="usa-fieldset opp-abutters__labels">
              <legend className="usa-legend margin-top-0">Mailing labels</legend>
              <Checkbox id={`${id}-per-owner`} checked={choices.perOwner} onChange={choose('perOwner')}>
                One label per owner (otherwise co-owners at one address share a label)
              </Checkbox>
              <Checkbox id={`${id}-dedupe`} checked={choices.dedupe} onChange={choose('dedupe')}>
                One label for an owner of several of these parcels
              </Checkbox>
              {labels.withoutAddress > 0 ? (
                <Checkbox id={`${id}-occupants`} checked={choices.occupants} onChange={choose('occupants')}>
                  Add “Current Occupant” labels at the parcel’s location for the{' '}
                  {formatCount(labels.withoutAddress)} {labels.withoutAddress === 1 ? 'record' : 'records'}{' '}
                  with no mailing address
                </Checkbox>
              ) : null}
              <p className="opp-abutters__label-count" aria-live="polite">
                {labelCountText(labels, choices)}
              </p>
            </fieldset>
          ) : null}
          {count > 0 ? (
            <Checkbox
              id={`${id}-in-print`}
              checked={inPrint}
              onChange={setInPrint}
              className="opp-abutters__in-print"
            >
              Include the abutters list when printing this record
            </Checkbox>
          ) : null}
          {count === 0 ? (
            <p className="opp-empty">No other parcel lies within {shownFeet} ft of this one.</p>
          ) : (
            <DataTable
              caption={`Abutters within ${shownFeet} ft, nearest first`}
              columns={columns}
              rows={list.Abutters}
              className="opp-abutters__table"
            />
          )}
        </>
      ) : null}
    </section>
  );
}

/** "The labels PDF holds 12 owner labels and 3 “Current Occupant” labels." */
function labelCountText(labels: ReturnType<typeof noticeLabels>, choices: LabelChoices): string {
  const n = (count: number, what: string) => `${formatCount(count)} ${what}${count === 1 ? '' : 's'}`;
  const parts = [n(labels.owners, 'owner label')];
  if (choices.occupants) parts.push(n(labels.occupants, '“Current Occupant” label'));
  const left = labels.withoutAddress - labels.occupants;
  const none =
    left > 0 ? ` ${n(left, 'record')} with no mailing address ${left === 1 ? 'gets' : 'get'} no label.` : '';
  return `The labels PDF holds ${parts.join(' and ')}.${none}`;
}

function Checkbox(props: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={`usa-checkbox${props.className ? ` ${props.className}` : ''}`}>
      <input
        className="usa-checkbox__input"
        id={props.id}
        type="checkbox"
        checked={props.checked}
        onChange={(e: ChangeEvent<HTMLInputElement>) => props.onChange(e.target.checked)}
      />
      <label className="usa-checkbox__label" htmlFor={props.id}>
        {props.children}
      </label>
    </div>
  );
}
