import { useId } from 'react';
import type { ImportRunDto } from '@opp/contracts';
import { useRollRuns } from '../api/get-roll-runs';
import { formatCount, formatDateAndTime } from '@/utils/format';

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

/** Who published which files when (and how they were read), how many records, and how it ended; newest first. */
export function ImportHistory({ clientId }: { clientId: number }) {
  const id = useId();
  const runs = useRollRuns(clientId);
  return (
    <section aria-labelledby={`${id}-heading`} className="margin-top-4">
      <h3 id={`${id}-heading`} className="margin-bottom-1">
        Import history
      </h3>
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
                  <td>{outcome(r)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
