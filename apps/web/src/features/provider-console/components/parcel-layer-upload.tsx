import { useId, useRef, useState } from 'react';
import {
  PARCEL_LAYER_MAX_BYTES,
  ParcelLayerKey,
  type CountedList,
  type ParcelLayerReport,
  type PublicClient,
} from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { formatCount } from '@/utils/format';
import { uploadParcelLayer } from '../api/upload-parcel-layer';
import { FileField } from '@/components/ui/file-field';

const MAX_SIZE_TEXT = `${Math.round(PARCEL_LAYER_MAX_BYTES / 1024 ** 2)} MB`;
const KEY_LABELS: Record<ParcelLayerKey, string> = { MapLot: 'Map/Lot', Account: 'Account' };

type Step =
  | { kind: 'idle' }
  | { kind: 'busy'; text: string }
  | { kind: 'checked'; report: ParcelLayerReport }
  | { kind: 'replaced'; report: ParcelLayerReport };

/**
 * Issue 40 "Parcel layer": the town's parcel map from a GeoJSON, TopoJSON or zipped Shapefile. The file
 * is checked first (a dry run answering its join report); the map is replaced only once the provider
 * has read the report and confirmed.
 */
export function ParcelLayerUpload({ client }: { client: PublicClient }) {
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [key, setKey] = useState<ParcelLayerKey>('MapLot');
  const [property, setProperty] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'idle' });

  const send = async (dryRun: boolean) => {
    setFileError(null);
    if (!file) {
      setFileError('Choose a parcel map file.');
      fileRef.current?.focus();
      return;
    }
    if (file.size > PARCEL_LAYER_MAX_BYTES) {
      setFileError(`The parcel map file is larger than ${MAX_SIZE_TEXT}.`);
      fileRef.current?.focus();
      return;
    }
    setStep({ kind: 'busy', text: dryRun ? 'Checking the file…' : 'Replacing the parcel map…' });
    try {
      const report = await uploadParcelLayer(client.ClientID, { file, key, property, dryRun });
      setStep({ kind: dryRun ? 'checked' : 'replaced', report });
    } catch (err) {
      setStep({ kind: 'idle' });
      setFileError(
        err instanceof ApiError && err.status !== 422
          ? err.message
          : 'The parcel map was not replaced. Check the file again to see why.',
      );
    }
  };

  const busy = step.kind === 'busy';
  const reset = () => setStep({ kind: 'idle' });

  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h3 id={`${id}-heading`} className="margin-bottom-1">
        Parcel layer
      </h3>
      <p className="usa-hint margin-top-0">
        The parcels’ shapes for the map and abutters lists: a GeoJSON, TopoJSON or zipped Shapefile (with its
        .prj) of at most {MAX_SIZE_TEXT}. The file is checked first; {client.City}’s map changes only when you
        confirm.
      </p>
      <FileField
        id={`${id}-file`}
        label="Parcel map file"
        accept={'.geojson,.json,.topojson,.zip'}
        error={fileError}
        disabled={busy}
        inputRef={fileRef}
        onPick={(picked) => {
          setFile(picked);
          setFileError(null);
          reset();
        }}
      />
      <div className="usa-form-group">
        <label className="usa-label" htmlFor={`${id}-key`}>
          Shapes are matched to records by
        </label>
        <select
          id={`${id}-key`}
          className="usa-select"
          value={key}
          disabled={busy}
          onChange={(e) => {
            setKey(e.target.value as ParcelLayerKey);
            reset();
          }}
        >
          {ParcelLayerKey.options.map((k) => (
            <option key={k} value={k}>
              {KEY_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="usa-form-group">
        <label className="usa-label" htmlFor={`${id}-property`}>
          Feature property holding it (optional)
        </label>
        <span className="usa-hint" id={`${id}-property-hint`}>
          The name of the field in the file, such as ML; by default {key}.
        </span>
        <input
          id={`${id}-property`}
          className="usa-input"
          value={property}
          maxLength={100}
          disabled={busy}
          aria-describedby={`${id}-property-hint`}
          onChange={(e) => {
            setProperty(e.target.value);
            reset();
          }}
        />
      </div>
      <button
        type="button"
        className="usa-button margin-top-2"
        disabled={busy}
        onClick={() => void send(true)}
      >
        Check file
      </button>
      <p role="status" className="margin-y-1">
        {step.kind === 'busy' ? step.text : ''}
      </p>
      {step.kind === 'checked' ? (
        <div>
          <JoinReport report={step.report} />
          {step.report.Problems.Count > 0 ? (
            <Alert
              type="error"
              slim={false}
              heading={<h4 className="usa-alert__heading">{step.report.FileName} cannot be used</h4>}
              text={
                <>
                  Fix its {plural(step.report.Problems.Count, 'problem')} and check it again. Nothing was
                  changed.
                </>
              }
            />
          ) : (
            <Alert
              type="warning"
              slim={false}
              text={
                <>
                  Replace {client.City}’s parcel map with the {plural(step.report.Shapes, 'parcel shape')} of{' '}
                  {step.report.FileName}?
                </>
              }
            >
              <button type="button" className="usa-button" onClick={() => void send(false)}>
                Replace parcel map
              </button>
              <button type="button" className="usa-button usa-button--unstyled" onClick={reset}>
                Cancel
              </button>
            </Alert>
          )}
        </div>
      ) : null}
      {step.kind === 'replaced' ? (
        <Alert
          type="success"
          role="status"
          text={
            <>
              {client.City}’s parcel map now has the {plural(step.report.Shapes, 'parcel shape')} of{' '}
              {step.report.FileName}.
            </>
          }
        />
      ) : null}
    </section>
  );
}

const plural = (n: number, noun: string) => `${formatCount(n)} ${noun}${n === 1 ? '' : 's'}`;

/** The join report: counts, then the first entries of each list. */
function JoinReport({ report }: { report: ParcelLayerReport }) {
  const lists: [string, CountedList][] = [
    ['Problems', report.Problems],
    ['Warnings', report.Warnings],
    ['Records without a shape', report.RecordsWithoutShape],
    ['Shapes without a record', report.ShapesWithoutRecord],
  ];
  return (
    <div className="margin-y-2">
      <h4 className="margin-bottom-1">Join report for {report.FileName}</h4>
      <ul className="usa-list">
        <li>Features read: {formatCount(report.FeaturesRead)}</li>
        <li>Parcel shapes: {formatCount(report.Shapes)}</li>
        <li>Records matched: {formatCount(report.RecordsMatched)}</li>
        <li>Records without a shape: {formatCount(report.RecordsWithoutShape.Count)}</li>
        <li>Shapes without a record: {formatCount(report.ShapesWithoutRecord.Count)}</li>
        <li>Warnings: {formatCount(report.Warnings.Count)}</li>
        {report.Problems.Count > 0 ? <li>Problems: {formatCount(report.Problems.Count)}</li> : null}
      </ul>
      {lists
        .filter(([, l]) => l.Count > 0)
        .map(([title, l]) => (
          <details key={title} open={title === 'Problems'}>
            <summary>
              {title}
              {l.Count > l.First.length ? ` (first ${l.First.length} of ${formatCount(l.Count)})` : ''}
            </summary>
            <ul className="opp-run-errors">
              {l.First.map((e, i) => (
                <li key={i}>{e}</li>
              ))}
            </ul>
          </details>
        ))}
    </div>
  );
}
