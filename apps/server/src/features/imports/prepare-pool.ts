import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startBundledWorker } from '../../lib/bundled-worker.ts';
import { startThreads, whenReady } from '../../lib/thread-start.ts';
import type { LineBlock } from './jsonl-records.ts';
import type { BatchBuffers, PreparedBatch, RollTarget } from './roll-rows.ts';

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
  /** The batch's COPY text stays in the thread's write buffers, which go with it (PreparePool.start). */
  handOff: boolean;
  /** Buffers of a batch already written, for the thread to write into again. */
  reuse?: BatchBuffers;
}

export type PrepareResponse =
  { id: number; batch: PreparedBatch; spare: ArrayBuffer } | { id: number; error: string };

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
  /** Buffers of blocks the threads have parsed, for the reader's next reads (bounded: see below). */
  readonly #spare: ArrayBuffer[] = [];
  readonly #handOff: boolean;
  /** Buffers of batches written to the database, for the threads' next batches (written). */
  readonly #written: BatchBuffers[] = [];

  private constructor(workers: Worker[], handOff: boolean) {
    this.#workers = workers;
    this.#handOff = handOff;
    for (const w of workers) {
      w.on('message', (res: PrepareResponse) => {
        const waiting = this.#pending.get(res.id);
        if (!waiting) return;
        this.#pending.delete(res.id);
        // No more than the blocks that can be in flight at once are kept (one per thread, one more).
        if ('spare' in res && this.#spare.length <= this.#workers.length) this.#spare.push(res.spare);
        if ('batch' in res) waiting.resolve(res.batch);
        else waiting.reject(new Error(`preparing records failed: ${res.error}`));
      });
      w.on('error', (err) => this.#fail(err));
      w.on('exit', (code) => this.#fail(new Error(`an import thread stopped (exit code ${code})`)));
    }
  }

  /**
   * Starts `size` threads and waits until each has loaded its code. `handOff`: the caller hands each
   * batch's buffers back (written) once the database has read them, so the threads write the next
   * batches into them instead of into fresh memory. Not for a caller that gives the buffers away:
   * the embedded engine's client moves them to its own thread.
   */
  static async start(size: number, options: { handOff?: boolean } = {}): Promise<PreparePool> {
    const entry = new URL('./prepare-worker.ts', import.meta.url);
    const workers = await startThreads(size, async () =>
      whenReady(await startBundledWorker(entry), 'an import thread'),
    );
    return new PreparePool(workers, options.handOff ?? false);
  }

  get size(): number {
    return this.#workers.length;
  }

  /** A buffer of a block already parsed, no longer used by anyone, or undefined (see LineBlock). */
  readonly spareBuffer = (): ArrayBuffer | undefined => this.#spare.pop();

  /**
   * A batch the database has read whole (its COPY finished), from a pool started with `handOff`: its
   * buffers go to a thread with a later block. Nothing may read the batch afterwards.
   */
  written(batch: PreparedBatch): void {
    const copy = batch.copy.buffer;
    const recordCopy = batch.recordCopy.buffer;
    // An empty one is no writer's (a batch that wrote no rows: ByteWriter.handOff), and a buffer moved
    // elsewhere meanwhile is empty too (detached); no more are kept than are in use.
    if (!this.#handOff || copy.byteLength === 0 || recordCopy.byteLength === 0) return;
    if (this.#written.length <= this.#workers.length) this.#written.push({ copy, recordCopy });
  }

  /** Prepares a block on the next thread in turn; answers come back per block, in any order. */
  prepare(block: LineBlock, target: RollTarget, checkOnly: boolean): Promise<PreparedBatch> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    const worker = this.#workers[this.#turn++ % this.#workers.length]!;
    const reuse = this.#written.pop();
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // The block's buffer moves to the thread whole (it is the block's own: see LineBlock).
      const request: PrepareRequest = { id, block, target, checkOnly, handOff: this.#handOff, reuse };
      worker.postMessage(request, [
        block.bytes.buffer as ArrayBuffer,
        ...(reuse ? [reuse.copy, reuse.recordCopy] : []),
      ]);
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
