import { useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  describeMapLoss,
  PARCEL_LAYER_MAX_BYTES,
  PARCEL_LAYER_KEY_LABELS,
  ParcelLayerKey,
  type CountedList,
  type ParcelLayerEntry,
  type ParcelLayerReport,
  type PublicClient,
} from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { formatCount, formatCountOf, formatDateAndTime } from '@/utils/format';
import { useParcelLayers } from '../api/get-parcel-layers';
import { providerKeys } from '../api/query-keys';
import { uploadParcelLayer } from '../api/upload-parcel-layer';
import { FileField } from '@/components/ui/file-field';

const MAX_SIZE_TEXT = `${Math.round(PARCEL_LAYER_MAX_BYTES / 1024 ** 2)} MB`;

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
  const queryClient = useQueryClient();
  const layers = useParcelLayers(client.ClientID);

  const send = async (dryRun: boolean, { confirmLoss = false, as = property } = {}) => {
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
      const report = await uploadParcelLayer(client.ClientID, {
        file,
        key,
        property: as,
        dryRun,
        confirmLoss,
      });
      setStep({ kind: dryRun ? 'checked' : 'replaced', report });
      if (report.Replaced)
        void queryClient.invalidateQueries({ queryKey: providerKeys.parcelLayers(client.ClientID) });
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
      <h2 id={`${id}-heading`} className="margin-bottom-1">
        Parcel layer
      </h2>
      <p className="usa-hint margin-top-0">
        The parcels’ shapes for the map and abutters lists: a GeoJSON, TopoJSON or zipped Shapefile (with its
        .prj) of at most {MAX_SIZE_TEXT}. The file is checked first; {client.City}’s map changes only when you
        confirm.
      </p>
      <LiveLayer live={layers.data?.Live} loading={layers.isPending} />
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
              {PARCEL_LAYER_KEY_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className="usa-form-group">
        <label className="usa-label" htmlFor={`${id}-property`}>
          Feature property holding it (optional)
        </label>
        <span className="usa-hint" id={`${id}-property-hint`}>
          The name of the field in the file, such as ML; by default the one that matches the most records.
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
              heading={<h3 className="usa-alert__heading">{step.report.FileName} cannot be used</h3>}
              text={
                <>
                  {step.report.RecordsMatched === 0 ? (
                    <>
                      No record’s {PARCEL_LAYER_KEY_LABELS[step.report.Key]} matches the file’s “
                      {step.report.Property}” property. The file’s features have{' '}
                      {step.report.FileProperties.length
                        ? step.report.FileProperties.join(', ')
                        : 'no properties'}
                      .{' '}
                    </>
                  ) : null}
                  Fix its {plural(step.report.Problems.Count, 'problem')} and check it again. Nothing was
                  changed.
                </>
              }
            >
              {step.report.Suggestion ? (
                <button
                  type="button"
                  className="usa-button"
                  onClick={() => {
                    const suggested = step.report.Suggestion!.Property;
                    setProperty(suggested);
                    void send(true, { as: suggested });
                  }}
                >
                  Check again with {step.report.Suggestion.Property} (matches{' '}
                  {plural(step.report.Suggestion.RecordsJoined, 'record')})
                </button>
              ) : null}
            </Alert>
          ) : step.report.NeedsConfirmation && step.report.Loss ? (
            <Alert
              type="warning"
              slim={false}
              heading={
                <h3 className="usa-alert__heading">
                  {plural(step.report.Loss.RecordsOnMapNow - step.report.Loss.RecordsOnMapAfter, 'record')}{' '}
                  would leave the map
                </h3>
              }
              text={
                <>
                  {describeMapLoss(step.report.Loss)} Replace {client.City}’s parcel map with the{' '}
                  {plural(step.report.Shapes, 'parcel shape')} of {step.report.FileName} all the same?
                </>
              }
            >
              <button
                type="button"
                className="usa-button usa-button--secondary"
                onClick={() => void send(false, { confirmLoss: true })}
              >
                Replace, removing{' '}
                {plural(step.report.Loss.RecordsOnMapNow - step.report.Loss.RecordsOnMapAfter, 'record')} from
                the map
              </button>
              <button type="button" className="usa-button usa-button--unstyled" onClick={reset}>
                Cancel
              </button>
            </Alert>
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
      <LayerHistory history={layers.data?.History ?? []} />
    </section>
  );
}

/** Which layer the town's map shows now, and the layers loaded before it. */
function LiveLayer({ live, loading }: { live: ParcelLayerEntry | null | undefined; loading: boolean }) {
  if (loading) return null;
  return (
    <p className="margin-y-1" data-testid="live-parcel-layer">
      {live ? (
        <>
          Live: <strong>{live.FileName}</strong>, {plural(live.Shapes, 'parcel shape')}, loaded{' '}
          {formatDateAndTime(live.ImportedAt)}
          {live.ImportedBy ? ` by ${live.ImportedBy}` : ''}.
        </>
      ) : (
        'No parcel map is live yet.'
      )}
    </p>
  );
}

function LayerHistory({ history }: { history: ParcelLayerEntry[] }) {
  if (history.length === 0) return null;
  return (
    <details className="margin-y-2">
      <summary>Parcel layers loaded ({formatCount(history.length)})</summary>
      <table className="usa-table usa-table--compact">
        <thead>
          <tr>
            <th scope="col">Loaded</th>
            <th scope="col">File</th>
            <th scope="col">Shapes</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {history.map((h, i) => (
            <tr key={i}>
              <td>{formatDateAndTime(h.ImportedAt)}</td>
              <td>{h.FileName}</td>
              <td>{formatCount(h.Shapes)}</td>
              <td>{h.ImportedBy ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

const plural = formatCountOf;

/** The join report: counts, then the first entries of each list. */
function JoinReport({ report }: { report: ParcelLayerReport }) {
  const lists: [string, CountedList][] = [
    ['Problems', report.Problems],
    ['Warnings', report.Warnings],
    ...(report.Loss
      ? [['Records that would lose their shape', report.Loss.RecordsLosingShape] as [string, CountedList]]
      : []),
    ['Records on the parcel they sit on', report.RecordsOnMasterParcel],
    ['Records without a shape', report.RecordsWithoutShape],
    ['Shapes without a record', report.ShapesWithoutRecord],
  ];
  return (
    <div className="margin-y-2">
      <h3 className="margin-bottom-1">Join report for {report.FileName}</h3>
      <ul className="usa-list">
        <li>
          Key property: {report.Property}
          {report.PropertyChosen
            ? ` (chosen: it matches ${plural(report.RecordsMatched, 'record')}${
                report.RunnerUp
                  ? `; next best ${report.RunnerUp.Property}, ${plural(report.RunnerUp.RecordsJoined, 'record')}`
                  : ''
              })`
            : ''}
        </li>
        <li>Features read: {formatCount(report.FeaturesRead)}</li>
        <li>Parcel shapes: {formatCount(report.Shapes)}</li>
        <li>Records matched: {formatCount(report.RecordsMatched)}</li>
        {report.RecordsOnMasterParcel.Count > 0 ? (
          <li>Records on the parcel they sit on: {formatCount(report.RecordsOnMasterParcel.Count)}</li>
        ) : null}
        <li>Records without a shape: {formatCount(report.RecordsWithoutShape.Count)}</li>
        <li>Shapes without a record: {formatCount(report.ShapesWithoutRecord.Count)}</li>
        <li>Warnings: {formatCount(report.Warnings.Count)}</li>
        {report.Problems.Count > 0 ? <li>Problems: {formatCount(report.Problems.Count)}</li> : null}
        {report.Loss ? <li>{describeMapLoss(report.Loss)}</li> : null}
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
