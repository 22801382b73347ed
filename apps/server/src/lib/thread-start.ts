import type { Worker } from 'node:worker_threads';

/*
 * Starting worker threads that say, with their first message, that they have loaded their code. Shared
 * by the import's parsing threads, the search index's thread and the benchmark's generator threads.
 */

/**
 * The thread once its first message has come. If it fails or stops before then, it is stopped and the
 * error thrown (`name` names it: "an import thread stopped (exit code 1)").
 */
export async function whenReady(worker: Worker, name: string): Promise<Worker> {
  try {
    await new Promise<void>((resolve, reject) => {
      const onMessage = () => settle(resolve);
      const onError = (err: Error) => settle(() => reject(err));
      const onExit = (code: number) => settle(() => reject(new Error(`${name} stopped (exit code ${code})`)));
      const settle = (then: () => void) => {
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        then();
      };
      worker.once('message', onMessage).once('error', onError).once('exit', onExit);
    });
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return worker;
}

/** Starts `count` threads with `start`; if any fails, those that started are stopped and its error thrown. */
export async function startThreads(count: number, start: () => Promise<Worker>): Promise<Worker[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => start()));
  const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await Promise.all(workers.map((w) => w.terminate()));
    throw failed.reason;
  }
  return workers;
}
