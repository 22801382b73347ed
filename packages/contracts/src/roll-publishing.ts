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

export const ImportRunStatus = z.enum(['validating', 'importing', 'succeeded', 'failed']);
export type ImportRunStatus = z.infer<typeof ImportRunStatus>;

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
   * one pass, so the total is known only at the end: `BytesRead` of `FileBytes` is how far a run is.
   */
  TotalRecords: z.number().int(),
  /** Records written so far. */
  ImportedRecords: z.number().int(),
  /** Size of the roll file; null for runs that did not report it (the command line, older runs). */
  FileBytes: z.number().int().nullable(),
  /** How much of the file has been read; null as FileBytes. */
  BytesRead: z.number().int().nullable(),
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
});
export type ImportRunDto = z.infer<typeof ImportRunDto>;
export const ImportRunList = z.array(ImportRunDto);

export const isRunInProgress = (status: ImportRunStatus) => status === 'validating' || status === 'importing';
