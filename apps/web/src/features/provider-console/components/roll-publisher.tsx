import { useEffect, useId, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  isRunInProgress,
  ROLL_ACCEPT,
  ROLL_MAX_BYTES,
  type ImportRunDto,
  type PublicClient,
} from '@opp/contracts';
import { ApiError } from '@/lib/api-client';
import { publishRoll, type UploadProgress } from '../api/publish-roll';
import { useRollRun, useRollRuns } from '../api/get-roll-runs';
import { providerKeys } from '../api/query-keys';
import { formatCount } from '@/utils/format';
import { FileField } from '@/components/ui/file-field';

const MAX_SIZE_TEXT = `${Math.round(ROLL_MAX_BYTES / 1024 ** 3)} GB`;

/**
 * Spec issue 6 "Publish roll": upload a JSON Lines or CSV roll; the server checks every record before
 * anything changes (problems are listed by line), then imports it in the background while this shows
 * its progress. Reopening the settings of a client whose import is running picks the progress up again.
 */
export function RollPublisher({ client }: { client: PublicClient }) {
  const id = useId();
  const queryClient = useQueryClient();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [upload, setUpload] = useState<UploadProgress | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const runs = useRollRuns(client.ClientID);
  const run = useRollRun(client.ClientID, runId);

  // An import started earlier (here or in another browser) is still running: follow it.
  const latest = runs.data?.[0];
  useEffect(() => {
    if (runId === null && latest && isRunInProgress(latest.Status)) setRunId(latest.RunID);
  }, [latest, runId]);

  // The history's line for the run follows its stage; when the import ends, the client list (parcel
  // count, date) changes too.
  const status = run.data?.Status;
  const indexing = run.data?.Indexing;
  useEffect(() => {
    if (!status) return;
    void queryClient.invalidateQueries({ queryKey: providerKeys.rollRuns(client.ClientID) });
    if (status === 'succeeded' || status === 'failed')
      void queryClient.invalidateQueries({ queryKey: providerKeys.clients() });
  }, [status, indexing, queryClient, client.ClientID]);

  useEffect(() => () => abortRef.current?.abort(), []);

  const busy = upload !== null || (run.data ? isRunInProgress(run.data.Status) : runId !== null);

  const start = async () => {
    setFileError(null);
    if (!file) {
      setFileError('Choose a roll file to publish.');
      fileRef.current?.focus();
      return;
    }
    if (file.size > ROLL_MAX_BYTES) {
      setFileError(`The roll file is larger than ${MAX_SIZE_TEXT}.`);
      fileRef.current?.focus();
      return;
    }
    const abort = new AbortController();
    abortRef.current = abort;
    setUpload({ loaded: 0, total: file.size });
    try {
      const started = await publishRoll(client.ClientID, file, setUpload, abort.signal);
      queryClient.setQueryData(providerKeys.rollRun(client.ClientID, started.RunID), started);
      setRunId(started.RunID);
      setFile(null);
      if (fileRef.current) fileRef.current.value = '';
      void queryClient.invalidateQueries({ queryKey: providerKeys.rollRuns(client.ClientID) });
    } catch (err) {
      if ((err as Error).name !== 'AbortError')
        setFileError(err instanceof ApiError ? err.message : 'The file could not be uploaded. Try again.');
    } finally {
      setUpload(null);
      abortRef.current = null;
    }
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h3 id={`${id}-heading`} className="margin-bottom-1">
        Publish roll
      </h3>
      <p className="usa-hint margin-top-0">
        A JSON Lines (.jsonl) or CSV (.csv) file of at most {MAX_SIZE_TEXT}. Every record is checked before
        anything changes; the new roll then replaces {client.City}’s records in one step.
      </p>
      <FileField
        id={`${id}-file`}
        label="Roll file"
        accept={ROLL_ACCEPT}
        error={fileError}
        disabled={busy}
        inputRef={fileRef}
        onPick={(picked) => {
          setFile(picked);
          setFileError(null);
        }}
      />
      <button type="button" className="usa-button margin-top-2" disabled={busy} onClick={() => void start()}>
        Publish roll
      </button>
      <RunProgress upload={upload} run={runId !== null ? (run.data ?? null) : null} />
    </section>
  );
}

function percent(part: number, whole: number) {
  return whole > 0 ? Math.min(100, Math.floor((part / whole) * 100)) : 0;
}

/**
 * How far a run is through its file. The record total is known only once the whole file is read, so the
 * share read is the progress; a run that reports no file size (started from the command line) shows
 * its count alone.
 */
function fileProgress(run: ImportRunDto, done: string) {
  const { FileBytes: size, BytesRead: read } = run;
  return size !== null && read !== null && size > 0
    ? { value: read, max: size, text: `${done} (${percent(read, size)}% of the file read)` }
    : { text: `${done} so far` };
}

/** The upload, then the server's progress, then the outcome; phase changes are announced politely. */
function RunProgress({ upload, run }: { upload: UploadProgress | null; run: ImportRunDto | null }) {
  const id = useId();
  let phase: string | null = null;
  let bar: { value?: number; max?: number; text: string } | null = null;
  if (upload) {
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
    bar = fileProgress(run, `${formatCount(run.TotalRecords)} records checked, ${problems} found`);
  } else if (run?.Status === 'validating') {
    phase = 'Checking every record…';
    bar = fileProgress(run, `${formatCount(run.TotalRecords)} records checked`);
  } else if (run?.Status === 'importing' && run.Indexing) {
    // The record count no longer moves (a county's roll spends a minute or more here): say why.
    phase = 'Building the search indexes…';
    bar = {
      text: `All ${formatCount(run.ImportedRecords)} records are in. The roll is published as soon as its search indexes are ready.`,
    };
  } else if (run?.Status === 'importing') {
    phase = 'Importing…';
    bar = fileProgress(run, `${formatCount(run.ImportedRecords)} records imported`);
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
      {run?.Status === 'succeeded' ? (
        <div className="usa-alert usa-alert--success usa-alert--slim">
          <div className="usa-alert__body">
            <p className="usa-alert__text">{phase}</p>
          </div>
        </div>
      ) : null}
      {run?.Status === 'failed' ? (
        <div className="usa-alert usa-alert--error">
          <div className="usa-alert__body">
            <h4 className="usa-alert__heading">{phase}</h4>
            <p className="usa-alert__text">{run.Message}</p>
            {run.Errors.length > 0 ? (
              <ul className="opp-run-errors">
                {run.Errors.map((e, i) => (
                  <li key={i}>{e}</li>
                ))}
              </ul>
            ) : null}
            {run.ErrorCount > run.Errors.length ? (
              <p className="usa-alert__text">…and {formatCount(run.ErrorCount - run.Errors.length)} more.</p>
            ) : null}
          </div>
        </div>
      ) : null}
    </div>
  );
}
