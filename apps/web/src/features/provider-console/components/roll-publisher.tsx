import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  EXPORT_ACCEPT,
  isRunInProgress,
  MAPPING_ACCEPT,
  MAPPING_MAX_BYTES,
  ROLL_ACCEPT,
  ROLL_MAX_BYTES,
  ROLL_MAX_FILES,
  RollDatingInput,
  type ImportRunDto,
  type PublicClient,
  type RollPreviewDto,
} from '@opp/contracts';
import { Alert } from '@/components/ui/alert';
import { ApiError } from '@/lib/api-client';
import { publishRoll, type RollUploadParts, type UploadProgress } from '../api/publish-roll';
import { previewRoll } from '../api/preview-roll';
import { useRollFormats } from '../api/get-roll-formats';
import { useRollRun, useRollRuns } from '../api/get-roll-runs';
import { providerKeys } from '../api/query-keys';
import { formatCount } from '@/utils/format';
import { FileField } from '@/components/ui/file-field';
import { EXAMPLE_MAPPINGS } from '../utils/example-mappings';
import { FirstLines } from './import-notes';
import { RollPreview } from './roll-preview';

const MAX_SIZE_TEXT = `${Math.round(ROLL_MAX_BYTES / 1024 ** 3)} GB`;
/** The format select's value for "read through a mapping file". */
const MAPPING = '~mapping';

type FieldName = 'format' | 'file' | 'mapping' | 'fiscalYear' | 'valuationDate';
const DATING_FIELDS = ['fiscalYear', 'valuationDate'] as const;

/**
 * Spec issue 6 "Publish roll", with issue 39's preview: the provider picks how the files are read (the
 * portal's own format, a built-in format, or a mapping file uploaded beside the data), sees what the
 * server found in them (counts, fill rates, the first records, problems) with nothing written, and only
 * then confirms. Confirming sends the same files again; the server checks every record once more and
 * imports them in the background while this shows its progress. Coming back to the page of a client
 * whose import is running picks the progress up again.
 */
export function RollPublisher({ client }: { client: PublicClient }) {
  const id = useId();
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const mappingRef = useRef<HTMLInputElement>(null);
  const previewButtonRef = useRef<HTMLButtonElement>(null);
  const fiscalYearRef = useRef<HTMLInputElement>(null);
  const valuationDateRef = useRef<HTMLInputElement>(null);
  const [format, setFormat] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [mapping, setMapping] = useState<File | null>(null);
  const [dating, setDating] = useState({ fiscalYear: '', valuationDate: '' });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const [checking, setChecking] = useState(false);
  const [preview, setPreview] = useState<RollPreviewDto | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const formats = useRollFormats();
  const runs = useRollRuns(client.ClientID);
  const run = useRollRun(client.ClientID, runId);

  // An import started earlier (here or in another browser) is still running: follow it.
  const latest = runs.data?.[0];
  useEffect(() => {
    if (runId === null && latest && isRunInProgress(latest.Status)) setRunId(latest.RunID);
  }, [latest, runId]);

  // The history's line for the run says what the status line says, as soon as it says it (the history's
  // own answer follows when it is read again below).
  const current = run.data;
  useEffect(() => {
    if (!current) return;
    queryClient.setQueryData<ImportRunDto[]>(providerKeys.rollRuns(client.ClientID), (list) =>
      list?.map((r) => (r.RunID === current.RunID ? current : r)),
    );
  }, [current, queryClient, client.ClientID]);

  // The history follows the run's stage; when the import ends, the client list (parcel count, date)
  // changes too.
  const status = run.data?.Status;
  const indexing = run.data?.Indexing;
  useEffect(() => {
    if (!status) return;
    void queryClient.invalidateQueries({ queryKey: providerKeys.rollRuns(client.ClientID) });
    if (status === 'succeeded' || status === 'failed')
      void queryClient.invalidateQueries({ queryKey: providerKeys.clients() });
  }, [status, indexing, queryClient, client.ClientID]);

  useEffect(() => () => abortRef.current?.abort(), []);

  const running = run.data ? isRunInProgress(run.data.Status) : runId !== null;
  const busy = upload !== null || checking || running;
  const mapped = format !== '';

  /** Any change to what would be sent makes the preview stale. */
  const changed = (field: FieldName) => {
    setPreview(null);
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const fail = (field: FieldName, message: string) => {
    setErrors({ [field]: message });
    const refs = { mapping: mappingRef, fiscalYear: fiscalYearRef, valuationDate: valuationDateRef };
    (field in refs ? refs[field as keyof typeof refs] : fileRef).current?.focus();
  };

  /** What is missing or too large before anything is sent, by the field it concerns. */
  const missing = (): [FieldName, string] | null => {
    if (files.length === 0) return ['file', 'Choose a roll file to publish.'];
    if (files.some((f) => f.size > ROLL_MAX_BYTES))
      return ['file', `The roll file is larger than ${MAX_SIZE_TEXT}.`];
    if (!mapped && files.length > 1)
      return ['file', 'Choose one roll file, or a format or mapping for several files.'];
    if (files.length > ROLL_MAX_FILES)
      return ['file', `Choose at most ${ROLL_MAX_FILES} files of one export.`];
    if (format === MAPPING && !mapping) return ['mapping', 'Choose the mapping file.'];
    if (format === MAPPING && mapping && mapping.size > MAPPING_MAX_BYTES)
      return ['mapping', `The mapping file is larger than ${MAPPING_MAX_BYTES / 1024 ** 2} MB.`];
    // The server checks them the same way (one schema); saying so here spares an upload.
    const checked = RollDatingInput.safeParse({
      fiscalYear: dating.fiscalYear || undefined,
      valuationDate: dating.valuationDate || undefined,
    });
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      return [issue.path[0] === 'valuationDate' ? 'valuationDate' : 'fiscalYear', issue.message];
    }
    return null;
  };

  /** The parts to send, or null after saying what is missing. */
  const parts = (): RollUploadParts | null => {
    const problem = missing();
    if (problem) {
      fail(...problem);
      return null;
    }
    const given = {
      ...(dating.fiscalYear.trim() ? { fiscalYear: dating.fiscalYear.trim() } : {}),
      ...(dating.valuationDate ? { valuationDate: dating.valuationDate } : {}),
    };
    if (format === MAPPING && mapping) return { files, mapping, ...given };
    return format ? { files, format, ...given } : { files, ...given };
  };

  /** Sends the parts; a refusal is shown by the field it names. */
  const send = async <T,>(
    call: (p: RollUploadParts, progress: (u: UploadProgress) => void, signal: AbortSignal) => Promise<T>,
  ): Promise<T | null> => {
    setErrors({});
    const p = parts();
    if (!p) return null;
    const abort = new AbortController();
    abortRef.current = abort;
    setUpload({ loaded: 0, total: p.files.reduce((n, f) => n + f.size, 0) });
    try {
      return await call(
        p,
        (u) => {
          setUpload(u);
          // Every byte is sent: the server is reading and checking them now.
          if (u.loaded >= u.total) setChecking(true);
        },
        abort.signal,
      );
    } catch (err) {
      if ((err as Error).name !== 'AbortError') {
        const field = err instanceof ApiError ? err.fields[0] : undefined;
        const named = ['mapping', 'format', ...DATING_FIELDS] as const;
        const name: FieldName = named.find((n) => n === field?.field) ?? 'file';
        fail(
          name,
          field?.message ??
            (err instanceof ApiError ? err.message : 'The file could not be uploaded. Try again.'),
        );
      }
      return null;
    } finally {
      setUpload(null);
      setChecking(false);
      abortRef.current = null;
    }
  };

  const showPreview = async () => {
    setPreview(null);
    const result = await send((p, progress, signal) => previewRoll(client.ClientID, p, progress, signal));
    if (result) setPreview(result);
  };

  const confirm = async () => {
    // The preview's count goes with the files: the run's progress is then "N of that" from the start.
    const records = preview?.Records;
    const started = await send((p, progress, signal) =>
      publishRoll(client.ClientID, { ...p, records }, progress, signal),
    );
    if (!started) return;
    queryClient.setQueryData(providerKeys.rollRun(client.ClientID, started.RunID), started);
    setRunId(started.RunID);
    setPreview(null);
    setFiles([]);
    setMapping(null);
    setDating({ fiscalYear: '', valuationDate: '' });
    if (fileRef.current) fileRef.current.value = '';
    if (mappingRef.current) mappingRef.current.value = '';
    void queryClient.invalidateQueries({ queryKey: providerKeys.rollRuns(client.ClientID) });
  };

  // Cancel puts focus back on the Preview button, which returns with the form once the preview is gone.
  const refocus = useRef(false);
  const cancel = () => {
    refocus.current = true;
    setPreview(null);
  };
  useEffect(() => {
    if (preview !== null || !refocus.current) return;
    refocus.current = false;
    previewButtonRef.current?.focus();
  }, [preview]);

  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h2 id={`${id}-heading`} className="margin-bottom-1">
        Publish roll
      </h2>
      <p className="usa-hint margin-top-0">
        A file of at most {MAX_SIZE_TEXT}: the portal’s own JSON Lines (.jsonl) or CSV (.csv), or the town’s
        export read as one of the formats below or through a mapping file. Every record is checked and shown
        to you before anything changes; the new roll then replaces {client.City}’s records in one step.
      </p>
      <div className={`usa-form-group${errors.format ? ' usa-form-group--error' : ''}`}>
        <label className="usa-label" htmlFor={`${id}-format`}>
          File format
        </label>
        {errors.format ? (
          <span className="usa-error-message" id={`${id}-format-error`} role="alert">
            {errors.format}
          </span>
        ) : null}
        <select
          id={`${id}-format`}
          className="usa-select"
          value={format}
          disabled={busy}
          aria-describedby={errors.format ? `${id}-format-error` : undefined}
          onChange={(e) => {
            setFormat(e.target.value);
            changed('format');
          }}
        >
          <option value="">The portal’s own format (JSON Lines or CSV)</option>
          {(formats.data ?? []).map((f) => (
            <option key={f.Name} value={f.Name}>
              {f.Name}: {f.Description}
            </option>
          ))}
          <option value={MAPPING}>Another layout, read through a mapping file</option>
        </select>
      </div>
      <FileField
        id={`${id}-file`}
        label={mapped ? 'Roll files (one export: several files are joined by their key)' : 'Roll file'}
        accept={mapped ? EXPORT_ACCEPT : ROLL_ACCEPT}
        multiple={mapped}
        error={errors.file ?? null}
        disabled={busy}
        inputRef={fileRef}
        onPick={(_first, picked) => {
          setFiles(picked);
          changed('file');
        }}
      />
      {format === MAPPING ? (
        <>
          <FileField
            id={`${id}-mapping`}
            label="Mapping file (.json)"
            accept={MAPPING_ACCEPT}
            error={errors.mapping ?? null}
            disabled={busy}
            inputRef={mappingRef}
            onPick={(picked) => {
              setMapping(picked);
              changed('mapping');
            }}
          />
          <ExampleMappings />
        </>
      ) : null}
      <fieldset className="usa-fieldset margin-top-2">
        <legend className="usa-legend">What the values are for (optional)</legend>
        <p className="usa-hint margin-y-05">
          Shown on every public page as “values as of …, fiscal year …”. Without them the pages give only the
          day the roll is published (and the records’ own tax year, if they carry one).
        </p>
        <DatingField
          id={`${id}-fiscal-year`}
          label="Fiscal year"
          hint="The tax year the values are for, such as 2014."
          inputRef={fiscalYearRef}
          error={errors.fiscalYear}
          disabled={busy}
          value={dating.fiscalYear}
          inputMode="numeric"
          maxLength={4}
          className="usa-input usa-input--small"
          onChange={(v) => {
            setDating((d) => ({ ...d, fiscalYear: v }));
            changed('fiscalYear');
          }}
        />
        <DatingField
          id={`${id}-valuation-date`}
          label="Values as of"
          hint="The assessment (valuation) date, such as January 1, 2013 for Massachusetts fiscal year 2014."
          inputRef={valuationDateRef}
          error={errors.valuationDate}
          disabled={busy}
          value={dating.valuationDate}
          type="date"
          className="usa-input usa-input--medium"
          onChange={(v) => {
            setDating((d) => ({ ...d, valuationDate: v }));
            changed('valuationDate');
          }}
        />
      </fieldset>
      {preview === null ? (
        <button
          ref={previewButtonRef}
          type="button"
          className="usa-button margin-top-2"
          disabled={busy}
          onClick={() => void showPreview()}
        >
          Preview roll
        </button>
      ) : (
        <RollPreview preview={preview} busy={busy} onConfirm={() => void confirm()} onCancel={cancel} />
      )}
      <RunProgress
        upload={upload}
        checking={checking && preview === null && runId === null}
        run={runId !== null ? (run.data ?? null) : null}
      />
    </section>
  );
}

/** Real towns' mappings to start from: a town's own layout is usually close to one of them. */
function ExampleMappings() {
  const id = useId();
  return (
    <details className="margin-top-1">
      <summary id={id}>Start from an example mapping</summary>
      <p className="usa-hint margin-y-05">
        Download the one closest to your file, change its column names to your file’s, and choose it above.
        The guide to mapping files is docs/import-format.md, “Your system’s own export”.
      </p>
      <ul className="usa-list" aria-labelledby={id}>
        {EXAMPLE_MAPPINGS.map((m) => (
          <li key={m.file}>
            <a href={m.url} download={m.file}>
              {m.file}
            </a>
            : {m.description}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A labelled input with its hint and, when refused, the reason by it. */
function DatingField({
  id,
  label,
  hint,
  error,
  inputRef,
  onChange,
  ...input
}: {
  id: string;
  label: string;
  hint: string;
  error: string | undefined;
  inputRef: RefObject<HTMLInputElement | null>;
  onChange: (value: string) => void;
} & Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'disabled' | 'type' | 'inputMode' | 'maxLength' | 'className'
>) {
  return (
    <div className={`usa-form-group${error ? ' usa-form-group--error' : ''}`}>
      <label className="usa-label" htmlFor={id}>
        {label}
      </label>
      <span className="usa-hint" id={`${id}-hint`}>
        {hint}
      </span>
      {error ? (
        <span className="usa-error-message" id={`${id}-error`} role="alert">
          {error}
        </span>
      ) : null}
      <input
        {...input}
        id={id}
        ref={inputRef}
        aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
        aria-invalid={error ? true : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}

function percent(part: number, whole: number) {
  return whole > 0 ? Math.min(100, Math.floor((part / whole) * 100)) : 0;
}

/**
 * How far a run is: `done` records of the total the confirmed preview counted, known from the run's
 * start. A run started without a preview (the command line) says how much of its file is read, or,
 * reporting no file size either, its count alone.
 */
function runProgress(run: ImportRunDto, done: number, what: string, extra = '') {
  const expected = run.ExpectedRecords;
  if (expected !== null && expected > 0)
    return {
      value: Math.min(done, expected),
      max: expected,
      text: `${formatCount(done)} of ${formatCount(expected)} records ${what}${extra}`,
    };
  const { FileBytes: size, BytesRead: read } = run;
  const count = `${formatCount(done)} records ${what}${extra}`;
  return size !== null && read !== null && size > 0
    ? { value: read, max: size, text: `${count} (${percent(read, size)}% of the file read)` }
    : { text: `${count} so far` };
}

/** The upload, then the server's progress, then the outcome; phase changes are announced politely. */
function RunProgress({
  upload,
  checking,
  run,
}: {
  upload: UploadProgress | null;
  /** A preview's files are all sent: the server is reading and checking them. */
  checking: boolean;
  run: ImportRunDto | null;
}) {
  const id = useId();
  let phase: string | null = null;
  let bar: { value?: number; max?: number; text: string } | null = null;
  if (checking) {
    phase = 'Checking every record for the preview…';
    bar = { text: 'Nothing is published until you confirm.' };
  } else if (upload) {
    phase = 'Uploading the roll file…';
    bar = {
      value: upload.loaded,
      max: upload.total,
      text: `${percent(upload.loaded, upload.total)}% uploaded`,
    };
  } else if (run?.Status === 'validating' && run.ErrorCount > 0) {
    // Known from the first problem on: say it now, not only when the whole file has been checked.
    phase = 'This file will not be published. Checking the rest of it for more problems…';
    const problems = `${formatCount(run.ErrorCount)} problem${run.ErrorCount === 1 ? '' : 's'}`;
    bar = runProgress(run, run.TotalRecords, 'checked', `, ${problems} found`);
  } else if (run?.Status === 'validating') {
    phase = 'Checking every record…';
    bar = runProgress(run, run.TotalRecords, 'checked');
  } else if (run?.Status === 'importing' && run.Indexing) {
    // The record count no longer moves (a county's roll spends a minute or more here): say why.
    phase = 'Building the search indexes…';
    bar = {
      text: `All ${formatCount(run.ImportedRecords)} records are in. The roll is published as soon as its search indexes are ready.`,
    };
  } else if (run?.Status === 'importing') {
    phase = 'Importing…';
    bar = runProgress(run, run.ImportedRecords, 'imported');
  } else if (run?.Status === 'succeeded') {
    phase = `Published ${formatCount(run.TotalRecords)} records from ${run.FileName}.`;
  } else if (run?.Status === 'failed') {
    phase = `${run.FileName} was not published.`;
  }

  return (
    <div className="margin-top-2">
      <p
        role="status"
        className={
          run?.Status === 'succeeded' || run?.Status === 'failed' ? 'opp-visually-hidden' : 'margin-y-1'
        }
      >
        {phase ?? ''}
      </p>
      {bar ? (
        <div>
          <progress
            id={`${id}-bar`}
            className="opp-progress"
            aria-label={phase ?? 'Progress'}
            {...(bar.value !== undefined ? { value: bar.value, max: bar.max } : {})}
          />
          <div className="usa-hint">{bar.text}</div>
        </div>
      ) : null}
      {run?.Status === 'succeeded' ? <Alert type="success" text={phase} /> : null}
      {run?.Status === 'failed' ? (
        <Alert
          type="error"
          slim={false}
          heading={<h3 className="usa-alert__heading">{phase}</h3>}
          text={run.Message}
        >
          <FirstLines lines={run.Errors} total={run.ErrorCount} className="opp-run-errors" />
        </Alert>
      ) : null}
    </div>
  );
}
