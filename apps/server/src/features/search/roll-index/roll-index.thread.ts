import type { Worker } from 'node:worker_threads';
import { transferList } from '../../../lib/transfer-list.ts';
import { startThread, whenReady } from '../../../lib/thread-start.ts';
import { RollIndex, type RollIndexParts } from './roll-index.ts';

/*
 * Builds a roll's index on a thread of its own (roll-index.worker.ts). Sorting a large roll's keys and
 * words takes steps of up to two seconds each on a million parcels, and a step cannot be interrupted: on
 * the server's thread every other request waited for it. The thread receives the rows as they are read
 * (the database stays on the server's thread), as the bytes the database wrote them in, answers with the
 * index's typed arrays moved rather than copied, and exits, taking the build's working memory with it.
 */

/** `rows`: a batch in COPY's text format (roll-index.rows.ts). */
export type BuildRequest = { rows: Uint8Array } | { finish: true };
/** `read`: a batch has been read (the sender may send another). */
export type BuildResponse = { read: true } | { parts: RollIndexParts } | { error: string };

/**
 * Batches sent and not yet read, at most: the database reads faster than the thread builds (on both
 * engines since batches come as COPY's bytes), and unread batches would pile up in memory.
 */
const MAX_UNREAD = 4;

export class RollIndexThread {
  readonly #worker: Worker;
  #failure: Error | null = null;
  readonly #done: Promise<RollIndexParts>;
  #unread = 0;
  /** Called when a batch has been read or the thread has failed: ends the wait of add(). */
  #wake: (() => void) | null = null;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#done = new Promise((resolve, reject) => {
      const fail = (err: Error) => {
        reject((this.#failure ??= err));
        this.#wake?.();
      };
      worker.on('message', (res: BuildResponse | 'ready') => {
        if (res === 'ready') return;
        if ('read' in res) {
          this.#unread--;
          this.#wake?.();
        } else if ('parts' in res) resolve(res.parts);
        else fail(new Error(`building the search index failed: ${res.error}`));
      });
      worker.on('error', fail);
      worker.on('exit', (code) => fail(new Error(`the search index thread stopped (exit code ${code})`)));
    });
    // Awaited by finish(); a failure before then must not count as unhandled.
    this.#done.catch(() => {});
  }

  /** Starts the thread and waits until it has loaded its code. */
  static async start(rollId: number): Promise<RollIndexThread> {
    const worker = startThread(new URL('./roll-index.worker.ts', import.meta.url), {
      workerData: { rollId },
    });
    await whenReady(worker, 'the search index thread');
    return new RollIndexThread(worker);
  }

  /**
   * Hands a batch of rows on (their buffer moves to the thread: the caller's array is left empty), and
   * resolves once few enough are waiting to be read.
   */
  async add(rows: Uint8Array): Promise<void> {
    if (this.#failure) throw this.#failure;
    this.#worker.postMessage({ rows } satisfies BuildRequest, transferList(rows));
    this.#unread++;
    while (this.#unread > MAX_UNREAD) {
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = null;
      if (this.#failure) throw this.#failure;
    }
  }

  /** The finished index. */
  async finish(): Promise<RollIndex> {
    if (this.#failure) throw this.#failure;
    this.#worker.postMessage({ finish: true } satisfies BuildRequest);
    return new RollIndex(await this.#done);
  }

  /** Stops the thread (after finish(), or to abandon the build). */
  async close(): Promise<void> {
    this.#failure ??= new Error('the search index thread was stopped');
    await this.#worker.terminate();
  }
}
