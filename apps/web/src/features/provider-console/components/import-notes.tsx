import type { ImportNotesDto } from '@opp/contracts';
import { formatCount, formatCountOf as plural } from '@/utils/format';

/**
 * The first lines of a list the server cut short (problems, warnings, errors), then how many more there
 * were: "…and 1,305 more."
 */
export function FirstLines({
  lines,
  total,
  label,
  className,
}: {
  lines: string[];
  total: number;
  label?: string;
  className: string;
}) {
  return (
    <>
      {lines.length > 0 ? (
        <ul className={className} aria-label={label}>
          {lines.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ul>
      ) : null}
      {total > lines.length ? (
        <p className="usa-alert__text">…and {formatCount(total - lines.length)} more.</p>
      ) : null}
    </>
  );
}

/** `3 warnings: read as given, and published so`: what a roll's warnings are called everywhere. */
export const warningsTitle = (notes: ImportNotesDto) =>
  `${plural(notes.WarningCount, 'warning')}: read as given, and published so`;

/**
 * A roll's warnings, the same in the upload's preview and in the import history: how many per portal
 * field, then the first by line.
 */
export function WarningList({ notes }: { notes: ImportNotesDto }) {
  if (notes.WarningCount === 0) return null;
  return (
    <>
      {notes.WarningFields.length > 0 ? (
        <ul className="usa-alert__text opp-break" aria-label="Warnings by field">
          {notes.WarningFields.map((f) => (
            <li key={f.Field}>
              {f.Field}: {plural(f.Count, 'warning')}
            </li>
          ))}
        </ul>
      ) : null}
      <FirstLines
        lines={notes.Warnings}
        total={notes.WarningCount}
        label="Warnings"
        className="usa-alert__text opp-break"
      />
    </>
  );
}

/** The values the mapping left out or changed, per field, with the first few by line. */
export function AdjustedList({ notes }: { notes: ImportNotesDto }) {
  if (notes.Adjusted.length === 0) return null;
  return (
    <>
      <p className="margin-bottom-0">Values the mapping changed:</p>
      <ul className="margin-top-05 opp-break" aria-label="Values the mapping changed">
        {notes.Adjusted.map((a) => (
          <li key={`${a.Field} ${a.What}`}>
            {a.Field}: {plural(a.Count, 'value')} {a.What} ({a.Examples.join('; ')}
            {a.Count > a.Examples.length ? '; …' : ''})
          </li>
        ))}
      </ul>
    </>
  );
}
