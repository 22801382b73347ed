import { fullCheck } from '../full-check.ts';
import type { RecordSource } from '../import.service.ts';
import { ImportNotes, type FillRate, type RunNotes } from '../import-notes.ts';
import { prepareRecords, type SourceRecord } from '../roll-rows.ts';

/*
 * A dry run: every record mapped and checked exactly as an import checks it (the contract, unique
 * accounts, the refusal of a file whose needed fields are all empty), and nothing written. What it
 * found is what the import would report, warnings included.
 */

export type { FillRate } from '../import-notes.ts';

/** Besides its own counts, the notes a publishing run of the same file keeps (RunNotes). */
export interface DryRunReport extends RunNotes {
  records: number;
  fill: FillRate[];
  problems: string[];
  problemCount: number;
}

export interface DryRunOptions {
  /** The fields the format, mapping or CSV header fills; by default those the records carry (JSON Lines). */
  mappedFields?: string[];
  /** The portal's own format: a field it has none of is left out of the file (there is no mapping). */
  ownFormat?: boolean;
  /** Fields the mapping says the file has none of, on purpose. */
  absent?: string[];
  /** Whether the town publishes owner names (an empty owner column is then refused); default yes. */
  publishesOwners?: boolean;
  onRecord?: (value: Record<string, unknown>, line: number) => void;
}

const MAX_PROBLEMS = 100;
const BATCH = 1000;

/** Maps and checks the whole source; `onRecord` sees each mapped record (for --preview). */
export async function dryRun(source: RecordSource, options: DryRunOptions = {}): Promise<DryRunReport> {
  const problems: string[] = [];
  let problemCount = 0;
  const report = (m: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push(m);
  };
  const notes = new ImportNotes();
  const seen = new Map<string, number>();

  const check = (batch: SourceRecord[]) => {
    const prepared = prepareRecords(batch, { rollId: 0, clientId: 0 }, { fullCheck, checkOnly: true });
    for (const item of prepared.records) {
      if ('errors' in item) {
        item.errors.forEach(report);
        continue;
      }
      const key = item.account.toUpperCase();
      const first = seen.get(key);
      if (first !== undefined)
        report(`line ${item.line}: Account: ${item.account} appears again (first on line ${first})`);
      else seen.set(key, item.line);
    }
  };

  let batch: SourceRecord[] = [];
  for await (const item of source()) {
    notes.add(item);
    if ('value' in item && item.value !== null && typeof item.value === 'object')
      options.onRecord?.(item.value as Record<string, unknown>, item.line);
    batch.push(item);
    if (batch.length >= BATCH) {
      check(batch);
      batch = [];
    }
  }
  if (batch.length) check(batch);
  const records = notes.fill.records;
  if (records === 0) report('the file holds no records');
  for (const p of notes.emptyFields(options.mappedFields, {
    absent: options.absent,
    ownFormat: options.ownFormat ?? false,
    publishesOwners: options.publishesOwners ?? true,
  }))
    report(p);

  return {
    records,
    fill: notes.fill.rates(options.mappedFields ?? []),
    problems,
    problemCount,
    ...notes.summary(),
  };
}
