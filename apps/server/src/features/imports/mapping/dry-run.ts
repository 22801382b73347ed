import { fullCheck } from '../full-check.ts';
import type { RecordSource } from '../import.service.ts';
import { RECORD_FIELDS } from './record-fields.ts';
import { prepareRecords, type SourceRecord } from '../roll-rows.ts';

/*
 * A dry run: every record mapped and checked exactly as an import checks it (the contract, unique
 * accounts), and nothing written. What it found is what the import would report.
 */

export interface FillRate {
  /** `TotalAcres`, or `Sales.SalePrice` for a field of a list's items. */
  field: string;
  filled: number;
  /** Records, or for an item field the items of its list. */
  of: number;
}

export interface DryRunReport {
  records: number;
  fill: FillRate[];
  problems: string[];
  problemCount: number;
}

const MAX_PROBLEMS = 100;
const BATCH = 1000;

const present = (v: unknown) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/** Maps and checks the whole source; `onRecord` sees each mapped record (for --preview). */
export async function dryRun(
  source: RecordSource,
  options: {
    mappedFields?: string[];
    onRecord?: (value: Record<string, unknown>, line: number) => void;
  } = {},
): Promise<DryRunReport> {
  const problems: string[] = [];
  let problemCount = 0;
  const report = (m: string) => {
    problemCount++;
    if (problems.length < MAX_PROBLEMS) problems.push(m);
  };
  const counts = new Map<string, number>();
  const itemCounts = new Map<string, number>();
  const seen = new Map<string, number>();
  let records = 0;
  const count = (k: string, by = 1) => counts.set(k, (counts.get(k) ?? 0) + by);

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
    records++;
    if ('value' in item && item.value !== null && typeof item.value === 'object') {
      const value = item.value as Record<string, unknown>;
      options.onRecord?.(value, item.line);
      for (const [field, v] of Object.entries(value)) {
        if (Array.isArray(v)) {
          if (v.length === 0) continue;
          count(field);
          itemCounts.set(field, (itemCounts.get(field) ?? 0) + v.length);
          for (const it of v)
            if (it && typeof it === 'object')
              for (const [f, x] of Object.entries(it as Record<string, unknown>))
                if (present(x)) count(`${field}.${f}`);
        } else if (v && typeof v === 'object') {
          if (present((v as { UserDefinedValue?: unknown }).UserDefinedValue)) count(field);
        } else if (present(v)) count(field);
      }
    }
    batch.push(item);
    if (batch.length >= BATCH) {
      check(batch);
      batch = [];
    }
  }
  if (batch.length) check(batch);
  if (records === 0) report('the file holds no records');

  const fill: FillRate[] = [];
  const mapped = new Set(options.mappedFields ?? []);
  for (const [field, part] of Object.entries(RECORD_FIELDS)) {
    const n = counts.get(field) ?? 0;
    if (n === 0 && !mapped.has(field)) continue;
    fill.push({ field, filled: n, of: records });
    if (part.k !== 'list') continue;
    const items = itemCounts.get(field) ?? 0;
    for (const f of Object.keys(part.item)) {
      const m = counts.get(`${field}.${f}`) ?? 0;
      if (m > 0) fill.push({ field: `${field}.${f}`, filled: m, of: items });
    }
  }
  return { records, fill, problems, problemCount };
}
