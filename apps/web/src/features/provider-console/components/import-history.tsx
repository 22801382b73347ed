import { useId } from 'react';
import type { ImportRunDto } from '@opp/contracts';
import { useRollRuns } from '../api/get-roll-runs';
import { formatCount, formatCountOf, formatDateAndTime } from '@/utils/format';
import { AdjustedList, WarningList, warningsTitle } from './import-notes';

function outcome(run: ImportRunDto): string {
  switch (run.Status) {
    case 'succeeded':
      return 'Published';
    case 'failed':
      return run.ErrorCount > 0
        ? `Rejected: ${formatCount(run.ErrorCount)} problem${run.ErrorCount === 1 ? '' : 's'}`
        : (run.Message ?? 'Failed');
    case 'validating':
      return 'Checking records';
    case 'importing':
      return run.Indexing ? 'Building search indexes' : 'Importing';
  }
}

/** How the run's files were read, as the history names it. */
function reading(run: ImportRunDto): string {
  if (run.Format) return `Format: ${run.Format}`;
  if (run.Mapping) return `Mapping: ${run.Mapping}`;
  return 'Portal format';
}

/**
 * A published run's warnings and the values its mapping changed, as its preview showed them: folded
 * under their count, so the history stays a list of runs.
 */
function RunNotes({ run }: { run: ImportRunDto }) {
  if (run.WarningCount === 0 && run.Adjusted.length === 0) return null;
  const changed = run.Adjusted.reduce((n, a) => n + a.Count, 0);
  return (
    <details className="opp-run-notes">
      <summary>
        {[
          run.WarningCount > 0 ? formatCountOf(run.WarningCount, 'warning') : null,
          changed > 0
            ? formatCountOf(changed, 'value changed by the mapping', 'values changed by the mapping')
            : null,
        ]
          .filter(Boolean)
          .join('; ')}
      </summary>
      {run.WarningCount > 0 ? (
        <>
          <p className="margin-bottom-0">{warningsTitle(run)}</p>
          <WarningList notes={run} />
        </>
      ) : null}
      <AdjustedList notes={run} />
    </details>
  );
}

/** Who published which files when (and how they were read), how many records, and how it ended; newest first. */
export function ImportHistory({ clientId }: { clientId: number }) {
  const id = useId();
  const runs = useRollRuns(clientId);
  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h2 id={`${id}-heading`} className="margin-bottom-1">
        Import history
      </h2>
      {runs.isPending ? <p>Loading…</p> : null}
      {runs.isError ? <p className="usa-error-message">The import history could not be loaded.</p> : null}
      {runs.data && runs.data.length === 0 ? <p>No roll has been published for this client yet.</p> : null}
      {runs.data && runs.data.length > 0 ? (
        <div className="usa-table-container--scrollable" tabIndex={0} aria-labelledby={`${id}-heading`}>
          <table className="usa-table usa-table--borderless usa-table--compact width-full opp-history">
            <thead>
              <tr>
                <th scope="col">Started by</th>
                <th scope="col">Files</th>
                <th scope="col">Records</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.map((r) => (
                <tr key={r.RunID}>
                  <td>
                    {formatDateAndTime(r.StartedAt)}
                    <br />
                    <span className="text-base-dark">{r.Actor}</span>
                  </td>
                  <td className="opp-break">
                    {r.SourceFiles.length > 0 ? r.SourceFiles.join(', ') : r.FileName}
                    <br />
                    <span className="text-base-dark">{reading(r)}</span>
                  </td>
                  <td>{formatCount(r.TotalRecords)}</td>
                  <td>
                    {outcome(r)}
                    <RunNotes run={r} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
