import path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/*
 * Starting worker threads that say, with their first message, that they have loaded their code. Shared
 * by the embedded engine's thread, the import's parsing threads, the search index's thread and the
 * benchmark's generator threads.
 */

/** Running the build (apps/server/dist, decision 0015) rather than the TypeScript sources. */
const BUILT = import.meta.url.endsWith('.js');

/**
 * A worker thread running `entry`, a thread module named by its TypeScript source
 * (`new URL('./<name>.ts', import.meta.url)`). Built, each such module is a script of its own beside
 * the server's (dist/x.worker.js: the build finds them by that expression). From the sources (tests,
 * the benchmark, `npm run dev`) a tiny module registers tsx in the thread and imports the entry: Node 20
 * loads no TypeScript by itself, and a worker does not inherit the loader of its parent.
 */
export function startThread(entry: URL, options?: WorkerOptions): Worker {
  if (BUILT)
    return new Worker(new URL(`./${path.basename(entry.pathname, '.ts')}.js`, import.meta.url), options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const code =
    `const { tsImport } = await import(${JSON.stringify(tsx)});\n` +
    `await tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), options);
}

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
