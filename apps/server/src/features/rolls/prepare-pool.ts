import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread, startThreads, whenReady } from '../../lib/thread-start.ts';
import type { LineBlock } from './jsonl-records.ts';
import type { PreparedBatch, RollTarget } from './roll-rows.ts';
import type { NotesOptions } from './import-notes.ts';

/*
 * Worker threads that turn blocks of JSON Lines into COPY text (roll-rows.ts prepareRecords). Parsing,
 * checking and formatting a 3 kB record takes 45–100 µs of CPU, most of an import's work on the Node
 * side: on one thread it bounded how fast a PostgreSQL server or the embedded engine could be fed.
 */

export interface PrepareRequest {
  id: number;
  block: LineBlock;
  target: RollTarget;
  checkOnly: boolean;
  /** Note the block's records (warnings, fill) as the importing thread would: import-notes.ts. */
  notes: NotesOptions | null;
}

export type PrepareResponse = { id: number; batch: PreparedBatch } | { id: number; error: string };

/**
 * Threads for a pool: one per core, less the core the embedded engine's own thread keeps busy storing
 * rows; at least one, at most four (beyond that the database is the limit). Measured on 2 cores with
 * a 100,000-record roll: the embedded engine loads it in about the same time with one thread or two,
 * and a second thread only adds its memory.
 */
export function defaultPoolSize(engine?: 'pglite' | 'postgres'): number {
  const cores = os.availableParallelism() - (engine === 'pglite' ? 1 : 0);
  return Math.max(1, Math.min(4, cores));
}

export class PreparePool {
  readonly #workers: Worker[];
  readonly #pending = new Map<number, { resolve: (b: PreparedBatch) => void; reject: (e: Error) => void }>();
  #nextId = 1;
  #turn = 0;
  #failure: Error | null = null;

  private constructor(workers: Worker[]) {
    this.#workers = workers;
    for (const w of workers) {
      w.on('message', (res: PrepareResponse) => {
        const waiting = this.#pending.get(res.id);
        if (!waiting) return;
        this.#pending.delete(res.id);
        if ('batch' in res) waiting.resolve(res.batch);
        else waiting.reject(new Error(`preparing records failed: ${res.error}`));
      });
      w.on('error', (err) => this.#fail(err));
      w.on('exit', (code) => this.#fail(new Error(`an import thread stopped (exit code ${code})`)));
    }
  }

  /** Starts `size` threads and waits until each has loaded its code. */
  static async start(size: number): Promise<PreparePool> {
    const workers = await startThreads(size, () =>
      whenReady(startThread(new URL('./prepare-worker.ts', import.meta.url)), 'an import thread'),
    );
    return new PreparePool(workers);
  }

  get size(): number {
    return this.#workers.length;
  }

  /** Prepares a block on the next thread in turn; answers come back per block, in any order. */
  prepare(
    block: LineBlock,
    target: RollTarget,
    checkOnly: boolean,
    notes: NotesOptions | null = null,
  ): Promise<PreparedBatch> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    const worker = this.#workers[this.#turn++ % this.#workers.length]!;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // The block's buffer moves to the thread whole (it is the block's own: see LineBlock).
      const request: PrepareRequest = { id, block, target, checkOnly, notes };
      worker.postMessage(request, [block.bytes.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    this.#failure ??= new Error('the import threads were stopped');
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }

  #fail(err: Error) {
    if (!this.#failure) this.#failure = err;
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }
}
