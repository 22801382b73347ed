/*
 * The messages between the main thread's PGlite proxy (pglite-client.ts) and the worker thread that
 * owns the PGlite instance (pglite-worker.ts). Everything here must survive structured cloning:
 * parameters and rows may hold Date, Uint8Array (bytea) and bigint, never functions.
 */

import type { CopyInput } from './copy-text.ts';

/** What the caller's QueryOptions become: type parsers are functions, so only their type ids travel. */
export interface WireQueryOptions {
  rowMode?: 'object' | 'array';
  paramTypes?: number[];
  /** Types the worker leaves as PostgreSQL text; the main thread applies the caller's parser to them. */
  rawTypes?: number[];
}

export type WorkerRequest =
  | { id: number; op: 'query'; tx: number | null; sql: string; params: unknown[]; options: WireQueryOptions }
  | { id: number; op: 'exec'; tx: number | null; sql: string; options: WireQueryOptions }
  /** `COPY … FROM '/dev/blob'` with `data` as the file: bulk loading (see Database.copyFrom). */
  | { id: number; op: 'copyFrom'; sql: string; data: CopyInput }
  /** `COPY … TO '/dev/blob'`: answers with the file's bytes (see Database.copyTo). */
  | { id: number; op: 'copyTo'; sql: string }
  /** Answers with a transaction id once BEGIN has run and the database is held for it. */
  | { id: number; op: 'begin' }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  /** `dumpDataDir`, taken between transactions after a checkpoint. */
  | { id: number; op: 'snapshot' }
  | { id: number; op: 'close' };

export interface WireResults {
  rows: unknown[];
  fields: Array<{ name: string; dataTypeID: number }>;
  affectedRows?: number;
  command?: string;
  rowCount?: number;
}

/** A PostgreSQL error's fields (DatabaseError), or a plain error's message. */
export interface WireError {
  message: string;
  name?: string;
  stack?: string;
  fields: Record<string, string | number | undefined>;
}

export type WorkerResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireError };

/** The first message the worker sends: the database is open, or could not be. */
export type WorkerReady = { ready: true } | { ready: false; error: WireError };

export interface WorkerData {
  /** The PGlite data folder; null: in memory. */
  dataPath: string | null;
}

/** The PostgreSQL error fields kept across the boundary (pg-protocol's DatabaseError). */
export const DATABASE_ERROR_FIELDS = [
  'severity',
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'where',
  'schema',
  'table',
  'column',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

export function toWireError(err: unknown): WireError {
  if (!(err instanceof Error)) return { message: String(err), fields: {} };
  const fields: WireError['fields'] = {};
  const source = err as unknown as Record<string, unknown>;
  for (const key of DATABASE_ERROR_FIELDS) {
    const v = source[key];
    if (typeof v === 'string' || typeof v === 'number') fields[key] = v;
  }
  return { message: err.message, name: err.name, stack: err.stack, fields };
}
