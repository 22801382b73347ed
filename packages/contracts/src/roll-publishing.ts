import { z } from 'zod';

/*
 * Publishing a town's roll over HTTP (provider console). The upload's limits are shared so the web
 * form's `accept` list and the server's checks cannot drift apart.
 */

/** Largest roll file accepted by POST /api/rolls/{clientId}: 1 GiB (about a million full records). */
export const ROLL_MAX_BYTES = 1024 * 1024 * 1024;
/** Roll file formats, by extension: JSON Lines (one record per line) or CSV (one record per row). */
export const ROLL_EXTENSIONS = ['jsonl', 'ndjson', 'csv'] as const;
export const ROLL_ACCEPT = '.jsonl,.ndjson,.csv,text/csv,application/x-ndjson,application/jsonl';

/** A town's own export read through a format or a mapping: CSV, TSV or DBF files, several joined by a key. */
export const EXPORT_ACCEPT = '.csv,.tsv,.txt,.tab,.dbf,text/csv,text/tab-separated-values,text/plain';
/** A mapping file (docs/import-format.md, "Mappings"): a small JSON document. */
export const MAPPING_ACCEPT = '.json,application/json';
export const MAPPING_MAX_BYTES = 1024 * 1024;
/** Files of one export (a Vision export is a few tables joined by the account). */
export const ROLL_MAX_FILES = 10;
/** Records a preview shows (the whole input is still checked). */
export const PREVIEW_RECORDS = 10;

/**
 * What the provider says of a roll's values when publishing it (issue 48): the fiscal (tax) year they
 * are for and the date they are as of (a valuation date: Massachusetts values fiscal year 2014 as of
 * January 1, 2013). Both optional; the CLI's --fiscal-year and --valuation-date and the upload's
 * `fiscalYear` and `valuationDate` fields. A fiscal year given replaces the one the records carry.
 */
export const FISCAL_YEAR_MIN = 1900;
export const FISCAL_YEAR_MAX = 2200;
export const RollDatingInput = z.object({
  fiscalYear: z
    .string()
    .trim()
    .regex(/^\d{4}$/, { message: 'Fiscal year must be a year such as 2014' })
    .transform(Number)
    .refine((y) => y >= FISCAL_YEAR_MIN && y <= FISCAL_YEAR_MAX, {
      message: `Fiscal year must be between ${FISCAL_YEAR_MIN} and ${FISCAL_YEAR_MAX}`,
    })
    .optional(),
  valuationDate: z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Valuation date must be a date such as 2013-01-01' })
    .refine(
      (s) =>
        !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
      { message: 'Valuation date must be a real date' },
    )
    .optional(),
});
export type RollDatingInput = z.input<typeof RollDatingInput>;
/** A roll's dating as stored: null where the provider and the records gave none. */
export interface RollDating {
  fiscalYear: number | null;
  valuationDate: string | null;
}

export const ImportRunStatus = z.enum(['validating', 'importing', 'succeeded', 'failed']);
export type ImportRunStatus = z.infer<typeof ImportRunStatus>;

/**
 * What an import says besides its errors (docs/import-format.md, "Errors and warnings"), the same in a
 * preview and in a published run: values read but doubtful, published as given (the count, the count
 * per portal field, the first by line), and values the mapping left out or changed on purpose.
 */
const importNotes = {
  WarningCount: z.number().int(),
  /** The first warnings, each naming its line: `line 12: Sales[0].SaleDate: the year 0987 is unlikely; …`. */
  Warnings: z.array(z.string()),
  /** Warnings per portal field (`Sales.SaleDate`), most first. */
  WarningFields: z.array(z.object({ Field: z.string(), Count: z.number().int() })),
  /** Values the mapping left out or changed on purpose, per field, with the first few by line. */
  Adjusted: z.array(
    z.object({ Field: z.string(), What: z.string(), Count: z.number().int(), Examples: z.array(z.string()) }),
  ),
};
export const ImportNotesDto = z.object(importNotes);
export type ImportNotesDto = z.infer<typeof ImportNotesDto>;

/** One publishing attempt: who, when, which file, how far it got and how it ended. */
export const ImportRunDto = z.object({
  RunID: z.number().int(),
  ClientID: z.number().int(),
  /** Username of whoever published it (or the CLI's actor name). */
  Actor: z.string(),
  FileName: z.string(),
  Status: ImportRunStatus,
  /**
   * Records read so far; once the run has ended, the file's records. The file is checked and written in
   * one pass: the total it is heading for is `ExpectedRecords` (the confirmed preview's count) where
   * the upload gave it, else `BytesRead` of `FileBytes` is how far a run is.
   */
  TotalRecords: z.number().int(),
  /** Records written so far. */
  ImportedRecords: z.number().int(),
  /** Size of the roll file; null for runs that did not report it (the command line, older runs). */
  FileBytes: z.number().int().nullable(),
  /** How much of the file has been read; null as FileBytes. */
  BytesRead: z.number().int().nullable(),
  /**
   * The records the run will hold if every one is good: the count of the preview the provider confirmed
   * (the same files, checked the same way). Null when the run was not started from a preview (the
   * command line, older runs).
   */
  ExpectedRecords: z.number().int().nullable(),
  /**
   * Every record is written and the roll's search indexes are being built; the roll is published when
   * they are ready (for a county-sized roll, a minute or more).
   */
  Indexing: z.boolean(),
  ErrorCount: z.number().int(),
  /** The first problems found, each naming its line: `line 12: Sales[0].SalePrice: expected a number`. */
  Errors: z.array(z.string()),
  Message: z.string().nullable(),
  StartedAt: z.string(),
  FinishedAt: z.string().nullable(),
  /** The built-in format the files were read as (`vision`), or null. */
  Format: z.string().nullable(),
  /** The name of the mapping file the files were read through, or null. */
  Mapping: z.string().nullable(),
  /** The names of the files the roll was read from, as given. */
  SourceFiles: z.array(z.string()),
  /** A published run's warnings and changed values; none for other runs and runs from before. */
  ...importNotes,
});
export type ImportRunDto = z.infer<typeof ImportRunDto>;
export const ImportRunList = z.array(ImportRunDto);

export const isRunInProgress = (status: ImportRunStatus) => status === 'validating' || status === 'importing';

/** A built-in source format (GET /api/roll-formats): a mapping shipped with the portal. */
export const RollFormatDto = z.object({ Name: z.string(), Description: z.string() });
export type RollFormatDto = z.infer<typeof RollFormatDto>;
export const RollFormatList = z.array(RollFormatDto);

/** How many records (or, for a field of a list's items, items) got a value for one portal field. */
export const FieldFill = z.object({
  /** `TotalAcres`, or `Sales.SalePrice` for a field of a list's items. */
  Field: z.string(),
  Filled: z.number().int(),
  /** Records, or for an item field the items of its list. */
  Of: z.number().int(),
  /** The same in the town's published roll, when it has one. */
  PublishedFilled: z.number().int().optional(),
  PublishedOf: z.number().int().optional(),
});
export type FieldFill = z.infer<typeof FieldFill>;

/** A record a publish would add, remove or change, as a clerk finds it. */
const ListedRecord = z.object({ Account: z.string(), MapLot: z.string() });

/** What publishing the file would do to the town's published roll, by Account. */
export const RollChangesDto = z.object({
  /** Records published now. */
  Published: z.number().int(),
  Added: z.number().int(),
  Removed: z.number().int(),
  Changed: z.number().int(),
  Unchanged: z.number().int(),
  FirstAdded: z.array(ListedRecord),
  FirstRemoved: z.array(ListedRecord),
  FirstChanged: z.array(ListedRecord),
});
export type RollChangesDto = z.infer<typeof RollChangesDto>;

/**
 * POST /api/rolls/{clientId}/preview: what publishing these files would do, found by mapping and
 * checking every record exactly as the import does, with nothing written.
 */
export const RollPreviewDto = z.object({
  /** The files read, as given. */
  SourceFiles: z.array(z.string()),
  Format: z.string().nullable(),
  Mapping: z.string().nullable(),
  Records: z.number().int(),
  /** The fiscal year and valuation date given with the files (RollDatingInput), null where none was. */
  FiscalYear: z.number().int().nullable(),
  ValuationDate: z.string().nullable(),
  /** Files whose header row is not on line 1 (a junk line above it), and the line it was found on. */
  HeaderLines: z.array(z.object({ File: z.string(), Line: z.number().int() })),
  /** Optional columns the format or mapping reads that the files do not have, with the fields they fill. */
  AbsentColumns: z.array(z.string()),
  Fill: z.array(FieldFill),
  /** Columns of each file that no part of the mapping reads: the first 50 names, and how many. */
  UnusedColumns: z.array(
    z.object({ File: z.string(), Columns: z.array(z.string()), Count: z.number().int() }),
  ),
  /** The first records as mapped, in the §3 shape (not yet checked: a problem below may be in one). */
  Sample: z.array(z.object({ Line: z.number().int(), Record: z.record(z.string(), z.unknown()) })),
  ProblemCount: z.number().int(),
  /** The first problems, each naming its line, portal field and source column. */
  Problems: z.array(z.string()),
  ...importNotes,
  /** The comparison with the town's published roll; null when it has none. */
  Changes: RollChangesDto.nullable(),
});
export type RollPreviewDto = z.infer<typeof RollPreviewDto>;

/**
 * A fill rate as a percentage with one decimal, never rounded up to 100 nor down to 0: a field missing
 * from one record in ten thousand must not read as complete.
 */
export function fillPercent(filled: number, of: number): string {
  if (of === 0 || filled === 0) return '0';
  if (filled === of) return '100';
  return Math.min(99.9, Math.max(0.1, Math.floor((1000 * filled) / of) / 10)).toFixed(1);
}
