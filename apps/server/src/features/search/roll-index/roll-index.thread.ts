import type { Worker } from 'node:worker_threads';
import { whenReady } from '../../../lib/thread-start.ts';
import { startTsWorker } from '../../../lib/ts-worker.ts';
import { RollIndex, type IndexSourceRow, type RollIndexParts } from './roll-index.ts';

/*
 * Builds a roll's index on a thread of its own (roll-index.worker.ts). Sorting a large roll's keys and
 * words takes steps of up to two seconds each on a million parcels, and a step cannot be interrupted: on
 * the server's thread every other request waited for it. The thread receives the rows as they are read
 * (the database stays on the server's thread), answers with the index's typed arrays moved rather than
 * copied, and exits, taking the build's working memory with it.
 */

export type BuildRequest = { rows: IndexSourceRow[] } | { finish: true };
export type BuildResponse = { parts: RollIndexParts } | { error: string };

export class RollIndexThread {
  readonly #worker: Worker;
  #failure: Error | null = null;
  readonly #done: Promise<RollIndexParts>;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#done = new Promise((resolve, reject) => {
      worker.on('message', (res: BuildResponse | 'ready') => {
        if (res === 'ready') return;
        if ('parts' in res) resolve(res.parts);
        else reject(new Error(`building the search index failed: ${res.error}`));
      });
      worker.on('error', (err) => reject((this.#failure ??= err)));
      worker.on('exit', (code) =>
        reject((this.#failure ??= new Error(`the search index thread stopped (exit code ${code})`))),
      );
    });
    // Awaited by finish(); a failure before then must not count as unhandled.
    this.#done.catch(() => {});
  }

  /** Starts the thread and waits until it has loaded its code. */
  static async start(rollId: number): Promise<RollIndexThread> {
    const worker = startTsWorker(new URL('./roll-index.worker.ts', import.meta.url), {
      workerData: { rollId },
    });
    await whenReady(worker, 'the search index thread');
    return new RollIndexThread(worker);
  }

  /** Hands a batch of rows on (copied now: the caller may drop them). */
  add(rows: IndexSourceRow[]): void {
    if (this.#failure) throw this.#failure;
    this.#worker.postMessage({ rows } satisfies BuildRequest);
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
