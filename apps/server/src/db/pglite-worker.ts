import { parentPort, workerData } from 'node:worker_threads';
import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { copiedIn, copiedOut, createPglite } from './pglite-create.ts';
import {
  toWireError,
  type WireQueryOptions,
  type WireResults,
  type WorkerData,
  type WorkerReady,
  type WorkerRequest,
  type WorkerResponse,
} from './pglite-protocol.ts';

/*
 * The thread that owns the embedded database (decision 0007). PGlite runs PostgreSQL compiled to
 * WebAssembly synchronously on whichever thread calls it; here that is this thread, so the server's
 * event loop keeps answering while a query runs. PGlite is one connection: its own mutex runs
 * statements one at a time, and an open transaction holds it until the main thread ends it, so other
 * requests' statements queue behind the transaction exactly as they would in process.
 */

const port = parentPort!;
const { dataPath } = workerData as WorkerData;

/** Open transactions by id: the PGlite handle and how to finish the callback that holds the database. */
const transactions = new Map<number, { tx: Transaction; finish: (commit: boolean) => void }>();
let nextTx = 1;

const identity = (value: string) => value;

function queryOptions(o: WireQueryOptions): QueryOptions {
  const options: QueryOptions = {};
  if (o.rowMode) options.rowMode = o.rowMode;
  if (o.paramTypes) options.paramTypes = o.paramTypes;
  if (o.rawTypes?.length) options.parsers = Object.fromEntries(o.rawTypes.map((t) => [t, identity]));
  return options;
}

function wireResults(
  r: { rows: unknown[]; fields: WireResults['fields'] } & Partial<WireResults>,
): WireResults {
  // Only the cloneable parts: a result may also carry a Blob and the caller's options.
  return {
    rows: r.rows,
    fields: r.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
    affectedRows: r.affectedRows,
    command: r.command,
    rowCount: r.rowCount,
  };
}

function transaction(id: number): Transaction {
  const open = transactions.get(id);
  if (!open) throw new Error('Transaction is closed');
  return open.tx;
}

const ROLLBACK = Symbol('rollback');

/**
 * Starts a transaction whose callback stays open until the main thread ends it: PGlite holds the
 * database for it meanwhile. Answers once BEGIN has run.
 */
function begin(db: PGlite): Promise<number> {
  const id = nextTx++;
  return new Promise<number>((started, failed) => {
    let isOpen = false;
    const settled = db.transaction(
      (tx) =>
        new Promise<void>((commit, rollback) => {
          // Rejecting the callback makes PGlite roll back; the sentinel is not an error.
          transactions.set(id, { tx, finish: (ok) => (ok ? commit() : rollback(ROLLBACK)) });
          isOpen = true;
          started(id);
        }),
    );
    const outcome = settled.then(
      () => undefined,
      (err: unknown) => {
        if (err === ROLLBACK) return;
        if (!isOpen) failed(err);
        throw err;
      },
    );
    // Awaited by `end`; a BEGIN that failed was reported above.
    outcome.catch(() => {});
    outcomes.set(id, outcome);
  });
}

/** Settles when COMMIT (or ROLLBACK) has run: a commit can still fail (a deferred constraint). */
const outcomes = new Map<number, Promise<void>>();

async function end(id: number, commit: boolean): Promise<void> {
  const open = transactions.get(id);
  const outcome = outcomes.get(id);
  transactions.delete(id);
  outcomes.delete(id);
  if (!open || !outcome) {
    if (commit) throw new Error('Transaction is closed');
    return;
  }
  open.finish(commit);
  await outcome;
}

async function handle(db: PGlite, msg: WorkerRequest): Promise<unknown> {
  switch (msg.op) {
    case 'query': {
      const runner = msg.tx === null ? db : transaction(msg.tx);
      return wireResults(await runner.query(msg.sql, msg.params, queryOptions(msg.options)));
    }
    case 'exec': {
      const runner = msg.tx === null ? db : transaction(msg.tx);
      const results = await runner.exec(msg.sql, queryOptions(msg.options));
      return results.map(wireResults);
    }
    case 'copyFrom':
      await copiedIn(db, msg.sql, msg.data);
      return null;
    case 'copyTo':
      return copiedOut(await db.query(msg.sql));
    case 'begin':
      return begin(db);
    case 'end':
      return end(msg.tx, msg.commit);
    case 'snapshot': {
      await db.exec('checkpoint');
      // Holding the transaction lock keeps every other transaction out: the copy is taken between them.
      const blob = await db.transaction(async () => db.dumpDataDir('gzip'));
      return new Uint8Array(await blob.arrayBuffer());
    }
    case 'close':
      await db.close();
      return null;
  }
}

function reply(response: WorkerResponse) {
  const value = response.ok ? response.value : null;
  // A snapshot's or a COPY's bytes move instead of being copied.
  port.postMessage(response, value instanceof Uint8Array ? [value.buffer as ArrayBuffer] : []);
}

async function main() {
  let db: PGlite;
  try {
    db = await createPglite(dataPath);
  } catch (err) {
    port.postMessage({ ready: false, error: toWireError(err) } satisfies WorkerReady);
    return;
  }
  port.on('message', (msg: WorkerRequest) => {
    handle(db, msg).then(
      (value) => reply({ id: msg.id, ok: true, value }),
      (err: unknown) => reply({ id: msg.id, ok: false, error: toWireError(err) }),
    );
  });
  port.postMessage({ ready: true } satisfies WorkerReady);
}

void main();
