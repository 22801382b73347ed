import type { ImportNotesDto } from '@opp/contracts';
import { RECORD_FIELDS } from './mapping/record-fields.ts';
import type { RecordSource } from './import.service.ts';
import type { SourceRecord } from './roll-rows.ts';

/*
 * What an import says besides its errors (docs/import-format.md, "Errors and warnings"), the same in a
 * dry run and in a publishing run:
 *
 *   - warnings: a value the portal can read but doubts (a sale in the year 0987, a sale price with no
 *     date). Listed by line; the value is published as given.
 *   - values a mapping left out or changed on purpose (`invalid: empty`, a code table without the
 *     code, a unit conversion), counted per field with the first few lines.
 *   - each field's fill, and the refusal of a file in which a field the format or mapping reads, and
 *     that a published roll needs, came out empty on every record.
 */

/** Why a mapping left a value out or changed it. */
export type AdjustKind = 'invalid' | 'code' | 'unit';

/** One value a mapping left out or changed, and what became of it (`"9XX" is not in the table`). */
export interface ValueNote {
  field: string;
  kind: AdjustKind;
  text: string;
}

export interface Adjusted {
  field: string;
  kind: AdjustKind;
  count: number;
  /** The first few, `line 12: expected a number, got "N/A"`. */
  examples: string[];
}

export interface FillRate {
  /** `TotalAcres`, or `Sales.SalePrice` for a field of a list's items. */
  field: string;
  filled: number;
  /** Records, or for an item field the items of its list. */
  of: number;
}

const MAX_WARNINGS = 100;
const MAX_EXAMPLES = 5;

/** What each kind of adjustment says in a report. */
export const ADJUST_WORDS: Record<AdjustKind, string> = {
  invalid: 'left empty (a value the field cannot take, and the mapping says "invalid": "empty")',
  code: 'left empty (a code not in the code table)',
  unit: 'converted between square feet and acres',
};

const present = (v: unknown) =>
  v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * How many records (or list items) got a value in each field. Every record counts, including one with
 * a problem: what the file holds, not only what would be published.
 */
export class FillCounter {
  records = 0;
  private readonly counts = new Map<string, number>();
  private readonly items = new Map<string, number>();
  /**
   * The fields some record carries at all, even empty (`Owners.OwnerName` for an item's): in the
   * portal's own JSON Lines, the fields the file gives.
   */
  readonly keys = new Set<string>();

  /** `only`: the top-level fields worth counting (a publishing run needs only the refusal's). */
  constructor(private readonly only: Set<string> | null = null) {}

  add(value: Record<string, unknown>) {
    this.records++;
    for (const field in value) {
      if (this.only && !this.only.has(field)) continue;
      this.keys.add(field);
      const v = value[field];
      if (Array.isArray(v)) {
        if (v.length === 0) continue;
        this.bump(field);
        this.items.set(field, (this.items.get(field) ?? 0) + v.length);
        for (const it of v)
          if (it && typeof it === 'object')
            for (const [f, x] of Object.entries(it as Record<string, unknown>)) {
              this.keys.add(`${field}.${f}`);
              if (present(x)) this.bump(`${field}.${f}`);
            }
      } else if (v && typeof v === 'object') {
        if (present((v as { UserDefinedValue?: unknown }).UserDefinedValue)) this.bump(field);
      } else if (present(v)) this.bump(field);
    }
  }

  /** A record that could not be read at all still counts: it has no value in any field. */
  addUnread() {
    this.records++;
  }

  filled(field: string): number {
    return this.counts.get(field) ?? 0;
  }

  /** Fill rates in the record's field order: the fields some record has, and `always` even at 0. */
  rates(always: Iterable<string> = []): FillRate[] {
    const keep = new Set(always);
    const out: FillRate[] = [];
    for (const [field, part] of Object.entries(RECORD_FIELDS)) {
      const n = this.filled(field);
      if (n === 0 && !keep.has(field)) continue;
      out.push({ field, filled: n, of: this.records });
      if (part.k !== 'list') continue;
      const items = this.items.get(field) ?? 0;
      for (const f of Object.keys(part.item)) {
        const m = this.filled(`${field}.${f}`);
        if (m > 0 || keep.has(`${field}.${f}`)) out.push({ field: `${field}.${f}`, filled: m, of: items });
      }
    }
    return out;
  }

  /** What has been counted, as plain data (it crosses from an import thread: mergeFrom). */
  snapshot(): FillSnapshot {
    return { records: this.records, counts: [...this.counts], items: [...this.items], keys: [...this.keys] };
  }

  /** Adds the counts of records noted elsewhere (an import thread's block). */
  mergeFrom(s: FillSnapshot) {
    this.records += s.records;
    for (const [k, n] of s.counts) this.counts.set(k, (this.counts.get(k) ?? 0) + n);
    for (const [k, n] of s.items) this.items.set(k, (this.items.get(k) ?? 0) + n);
    for (const k of s.keys) this.keys.add(k);
  }

  private bump(key: string) {
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
}

export interface FillSnapshot {
  records: number;
  counts: Array<[string, number]>;
  items: Array<[string, number]>;
  keys: string[];
}

/**
 * What a run says besides its errors, kept with the run (import_runs.notes, migrations/0024) and shown
 * in the console's history: the warnings (the count, the count per field, the first by line) and the
 * values the mapping left out or changed.
 */
export interface RunNotes {
  warnings: string[];
  warningCount: number;
  /** Per portal field (`Sales.SaleDate`), most first. */
  warningFields: Array<{ field: string; count: number }>;
  adjusted: Adjusted[];
}

/** Everything an ImportNotes has gathered, as plain data: an import thread's notes of one block. */
export interface NotesSnapshot extends RunNotes {
  fill: FillSnapshot;
}

/**
 * The fields a published roll needs when the file has them at all: a file in which one of these comes
 * out empty on every record almost always means a column the portal did not find.
 */
const NEEDED: Array<{ field: string; words: string; owners?: true }> = [
  { field: 'Owners.OwnerName', words: 'owner name', owners: true },
  { field: 'LandValue', words: 'land value' },
  { field: 'TotalBuildingValue', words: 'building value' },
  { field: 'Taxable', words: 'total value' },
  { field: 'TotalAcres', words: 'area' },
  { field: 'StreetName', words: 'address (street)' },
];

const THIS_YEAR = new Date().getUTCFullYear();

export interface NotesOptions {
  refusalOnly?: boolean;
}

/** The import's notes, gathered record by record. */
export class ImportNotes {
  readonly fill: FillCounter;
  warnings: string[] = [];
  warningCount = 0;
  private readonly warningFields = new Map<string, number>();
  private readonly adjusted = new Map<string, Adjusted>();

  /** `refusalOnly`: count the fill of the fields the refusal reads only (a publishing run's need). */
  constructor(readonly options: NotesOptions = {}) {
    this.fill = new FillCounter(
      options.refusalOnly ? new Set(NEEDED.map((n) => n.field.split('.')[0]!)) : null,
    );
  }

  /** Notes one record as read (before the contract's check: a record with problems counts too). */
  add(item: SourceRecord) {
    const value = 'value' in item ? item.value : item.partial;
    if (value === null || typeof value !== 'object') {
      this.fill.addUnread();
      return;
    }
    this.fill.add(value as Record<string, unknown>);
    for (const n of item.notes ?? []) {
      const a = this.adjustedOf(n.field, n.kind);
      a.count++;
      if (a.examples.length < MAX_EXAMPLES) a.examples.push(`line ${item.line}: ${n.text}`);
    }
    const sales = (value as { Sales?: unknown }).Sales;
    if (!('value' in item) || !Array.isArray(sales)) return;
    sales.forEach((sale: unknown, i) => {
      if (!sale || typeof sale !== 'object') return;
      const s = sale as { SaleDate?: unknown; SalePrice?: unknown };
      const where = (field: string) => item.field?.(['Sales', i, field]) ?? `Sales[${i}].${field}`;
      if (typeof s.SaleDate === 'string') {
        const year = Number(s.SaleDate.slice(0, 4));
        if (year < 1700 || year > THIS_YEAR + 1)
          this.warn(
            item.line,
            'Sales.SaleDate',
            where('SaleDate'),
            `the year ${s.SaleDate.slice(0, 4)} is unlikely`,
          );
      }
      if (!present(s.SaleDate) && typeof s.SalePrice === 'number' && s.SalePrice > 0)
        this.warn(
          item.line,
          'Sales.SalePrice',
          where('SalePrice'),
          `a sale price (${s.SalePrice}) with no sale date`,
        );
    });
  }

  /** `field`: the portal field it is counted under; `where`: the field or column as the line names it. */
  private warn(line: number, field: string, where: string, text: string) {
    this.warningCount++;
    this.warningFields.set(field, (this.warningFields.get(field) ?? 0) + 1);
    if (this.warnings.length < MAX_WARNINGS)
      this.warnings.push(`line ${line}: ${where}: ${text}; published as given`);
  }

  /** What the run says besides its errors, as the run keeps it. */
  summary(): RunNotes {
    return {
      warnings: this.warnings,
      warningCount: this.warningCount,
      warningFields: [...this.warningFields]
        .map(([field, count]) => ({ field, count }))
        .sort((a, b) => b.count - a.count),
      adjusted: this.adjustments(),
    };
  }

  /** Everything gathered, as plain data, for the importing thread to merge (prepare-worker.ts). */
  snapshot(): NotesSnapshot {
    return { ...this.summary(), fill: this.fill.snapshot() };
  }

  /**
   * Adds the notes of records noted elsewhere, which come after those noted so far (an import thread's
   * block, merged in file order): the first warnings and examples stay the file's first.
   */
  merge(s: NotesSnapshot) {
    this.fill.mergeFrom(s.fill);
    this.warningCount += s.warningCount;
    for (const w of s.warnings) if (this.warnings.length < MAX_WARNINGS) this.warnings.push(w);
    for (const { field, count } of s.warningFields)
      this.warningFields.set(field, (this.warningFields.get(field) ?? 0) + count);
    for (const x of s.adjusted) {
      const a = this.adjustedOf(x.field, x.kind);
      a.count += x.count;
      for (const e of x.examples) if (a.examples.length < MAX_EXAMPLES) a.examples.push(e);
    }
  }

  private adjustedOf(field: string, kind: AdjustKind): Adjusted {
    const key = `${field}\u0000${kind}`;
    let a = this.adjusted.get(key);
    if (!a) this.adjusted.set(key, (a = { field, kind, count: 0, examples: [] }));
    return a;
  }

  /** The values the mapping left out or changed, by field, most first. */
  adjustments(): Adjusted[] {
    return [...this.adjusted.values()].sort((a, b) => b.count - a.count);
  }

  /**
   * Why the file must be refused: each field the file gives (`mapped`: the format's, the mapping's or a
   * CSV header's fields; by default those the records carry, as in JSON Lines), that a published roll
   * needs, and that came out empty on every record. Owner names count only where the town publishes
   * owners; a field the mapping declares `absent` never. In the portal's own format (`ownFormat`) a field
   * the town has none of is left out of the file.
   */
  emptyFields(
    mapped: string[] | undefined,
    options: { absent?: string[]; publishesOwners: boolean; ownFormat?: boolean },
  ): string[] {
    if (this.fill.records === 0) return [];
    // A mapping's list field fills its items' fields; records carry each item field by name.
    const listed = mapped ? new Set(mapped) : null;
    const gives = (field: string, top: string) =>
      listed ? listed.has(top) || listed.has(field) : this.fill.keys.has(field);
    const absent = new Set(options.absent ?? []);
    const out: string[] = [];
    for (const n of NEEDED) {
      const top = n.field.split('.')[0]!;
      if (!gives(n.field, top)) continue;
      if (absent.has(top) || absent.has(n.field)) continue;
      if (n.owners && !options.publishesOwners) continue;
      if (this.fill.filled(n.field) > 0) continue;
      out.push(
        `every record's ${n.words} (${n.field}) came out empty: the file's column for it is missing or empty, so nothing was published. ${
          options.ownFormat
            ? `If the town has none on purpose, leave the field out of the file (in CSV, its column${n.field === top ? '' : 's'})`
            : `If the town's file has none on purpose, say so in a mapping: "absent": ["${top}"]`
        }`,
      );
    }
    return out;
  }
}

/** A run's or a dry run's notes as the console is sent them; none for a run that kept none. */
export function notesDto(notes: RunNotes | null): ImportNotesDto {
  return {
    WarningCount: notes?.warningCount ?? 0,
    Warnings: notes?.warnings ?? [],
    WarningFields: (notes?.warningFields ?? []).map((f) => ({ Field: f.field, Count: f.count })),
    Adjusted: (notes?.adjusted ?? []).map((a) => ({
      Field: a.field,
      What: ADJUST_WORDS[a.kind],
      Count: a.count,
      Examples: a.examples,
    })),
  };
}

/**
 * The source with each record noted on its way to the import (a large JSON Lines file parsed on worker
 * threads is noted there instead: import.service.ts).
 */
export function notedSource(source: RecordSource, notes: ImportNotes): RecordSource {
  return async function* () {
    for await (const item of source()) {
      notes.add(item);
      yield item;
    }
  };
}
