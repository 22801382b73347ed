import type { Worker } from 'node:worker_threads';
import { transferList } from '../lib/transfer-list.ts';
import { startThread } from '../lib/thread-start.ts';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { copyPieces, type CopyInput } from './copy-text.ts';
import type {
  WireError,
  WireQueryOptions,
  WireResults,
  WorkerData,
  WorkerReady,
  WorkerRequest,
  WorkerResponse,
} from './pglite-protocol.ts';

/*
 * The main thread's side of the PGlite worker (decision 0007): an object with the methods drizzle's
 * PGlite driver calls on its client (`query`, `exec`, `transaction` handing out a tx with `query`,
 * `exec`, `rollback`), plus `dumpDataDir` for backups and `close`. Every call is a message to the
 * worker that owns the database.
 */

/** A PostgreSQL error raised in the worker, with the fields the app inspects (`code`, `constraint`…). */
export class PgliteError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  severity?: string;
  table?: string;
  column?: string;
  schema?: string;
  constructor(wire: WireError) {
    super(wire.message);
    this.name = wire.name && wire.name.length > 2 ? wire.name : 'DatabaseError';
    Object.assign(this, wire.fields);
    // The worker's stack says where PostgreSQL was called; the caller's (kept by the await) says why.
    if (wire.stack) this.stack = `${this.stack}\n    --- in the database worker ---\n${wire.stack}`;
  }
}

type Pending = { resolve: (value: unknown) => void; reject: (err: Error) => void };
type Parsers = NonNullable<QueryOptions['parsers']>;

export interface PgliteTx {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string, options?: QueryOptions): Promise<Array<Results>>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export class PgliteWorkerClient {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #dead: Error | null = null;
  #closed = false;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (msg: WorkerResponse) => this.#settle(msg));
    worker.on('error', (err) => this.#fail(err));
    worker.on('exit', (code) => this.#fail(new Error(`The database worker stopped (exit code ${code})`)));
    // Idle, the worker must not keep the process alive (a CLI command ends when its work does); a
    // pending call holds it (see #send).
    worker.unref();
  }

  /** Starts the worker and waits until it has opened the database (or failed to). */
  static async start(dataPath: string | null): Promise<PgliteWorkerClient> {
    const worker = startThread(new URL('./pglite-worker.ts', import.meta.url), {
      workerData: { dataPath } satisfies WorkerData,
    });
    let onMessage!: (ready: WorkerReady) => void;
    let onError!: (err: Error) => void;
    let onExit!: (code: number) => void;
    const ready = await new Promise<WorkerReady>((resolve, reject) => {
      onMessage = resolve;
      onError = reject;
      onExit = (code) => reject(new Error(`The database worker stopped (exit code ${code})`));
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    }).finally(() => {
      // Not removeAllListeners: the worker's own listeners must stay.
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
    });
    if (!ready.ready) {
      await worker.terminate();
      throw new PgliteError(ready.error);
    }
    return new PgliteWorkerClient(worker);
  }

  query<T>(sql: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.#query<T>(null, sql, params, options);
  }

  exec(sql: string, options?: QueryOptions): Promise<Array<Results>> {
    return this.#exec(null, sql, options);
  }

  /** Runs a `COPY … FROM '/dev/blob'` with `data` as the file it reads (outside any transaction). */
  async copyFrom(sql: string, data: CopyInput): Promise<void> {
    // Bytes move to the engine's thread instead of being copied.
    await this.#send(
      { op: 'copyFrom', sql, data },
      false,
      transferList(...copyPieces(data).filter((p) => typeof p !== 'string')),
    );
  }

  /** Runs `COPY … TO '/dev/blob'` (outside any transaction); its bytes move from the engine's thread. */
  async copyTo(sql: string): Promise<Uint8Array> {
    return (await this.#send({ op: 'copyTo', sql })) as Uint8Array;
  }

  /**
   * Runs `callback` in a transaction that holds the database (other statements wait for it to end):
   * committed when the callback resolves, rolled back when it throws or calls `rollback()`.
   */
  async transaction<T>(callback: (tx: PgliteTx) => Promise<T>): Promise<T> {
    const id = (await this.#send({ op: 'begin' })) as number;
    let closed = false;
    const ensureOpen = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx: PgliteTx = {
      query: async <R>(sql: string, params: unknown[] = [], options?: QueryOptions) => {
        ensureOpen();
        return this.#query<R>(id, sql, params, options);
      },
      exec: async (sql: string, options?: QueryOptions) => {
        ensureOpen();
        return this.#exec(id, sql, options);
      },
      rollback: async () => {
        ensureOpen();
        closed = true;
        await this.#send({ op: 'end', tx: id, commit: false });
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (err) {
      if (!closed) {
        closed = true;
        await this.#send({ op: 'end', tx: id, commit: false });
      }
      throw err;
    }
    if (!closed) {
      closed = true;
      await this.#send({ op: 'end', tx: id, commit: true });
    }
    return result;
  }

  /** The data folder as a gzipped tarball, taken between transactions. */
  async dumpDataDir(): Promise<Blob> {
    const bytes = (await this.#send({ op: 'snapshot' })) as Uint8Array;
    return new Blob([bytes]);
  }

  get closed(): boolean {
    return this.#closed;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (!this.#dead) await this.#send({ op: 'close' }, true);
    } finally {
      await this.#worker.terminate();
    }
  }

  async #query<T>(
    tx: number | null,
    sql: string,
    params: unknown[],
    options: QueryOptions | undefined,
  ): Promise<Results<T>> {
    const result = (await this.#send({
      op: 'query',
      tx,
      sql,
      params,
      options: wireOptions(options),
    })) as WireResults;
    return applyParsers(result, options?.parsers) as Results<T>;
  }

  async #exec(tx: number | null, sql: string, options: QueryOptions | undefined): Promise<Array<Results>> {
    const results = (await this.#send({
      op: 'exec',
      tx,
      sql,
      options: wireOptions(options),
    })) as WireResults[];
    return results.map((r) => applyParsers(r, options?.parsers) as Results);
  }

  #send(
    request: DistributiveOmit<WorkerRequest, 'id'>,
    closing = false,
    transfer: ArrayBuffer[] = [],
  ): Promise<unknown> {
    if (this.#dead) return Promise.reject(this.#dead);
    if (this.#closed && !closing) return Promise.reject(new Error('The database is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id }, transfer);
    });
  }

  #settle(msg: WorkerResponse) {
    const pending = this.#pending.get(msg.id);
    if (!pending) return;
    this.#pending.delete(msg.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (msg.ok) pending.resolve(msg.value);
    else pending.reject(new PgliteError(msg.error));
  }

  #fail(err: Error) {
    if (this.#dead) return;
    this.#dead = this.#closed ? new Error('The database is closed') : err;
    for (const p of this.#pending.values()) p.reject(this.#dead);
    this.#pending.clear();
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function wireOptions(options: QueryOptions | undefined): WireQueryOptions {
  if (!options) return {};
  const wire: WireQueryOptions = {};
  if (options.rowMode) wire.rowMode = options.rowMode;
  if (options.paramTypes) wire.paramTypes = options.paramTypes;
  if (options.serializers || options.blob)
    throw new Error('The database worker does not take serializers or blobs');
  if (options.parsers) wire.rawTypes = Object.keys(options.parsers).map(Number);
  return wire;
}

/** Applies the caller's own type parsers (functions cannot cross to the worker) to the raw text values. */
function applyParsers(result: WireResults, parsers: Parsers | undefined): WireResults {
  if (!parsers || result.rows.length === 0) return result;
  const columns = result.fields
    .map((f, index) => ({ key: f.name, index, parse: parsers[f.dataTypeID] }))
    .filter((c) => c.parse);
  if (columns.length === 0) return result;
  for (const row of result.rows) {
    for (const c of columns) {
      if (Array.isArray(row)) {
        if (row[c.index] != null) row[c.index] = c.parse!(row[c.index] as string);
      } else {
        const r = row as Record<string, unknown>;
        if (r[c.key] != null) r[c.key] = c.parse!(r[c.key] as string);
      }
    }
  }
  return result;
}
