import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript module. Node 20 cannot load TypeScript by itself: a tiny ES
 * module (a data: URL) registers tsx in the worker and imports the entry. tsx is a runtime dependency
 * already (the server runs through it, decision 0003).
 */
export function startTsWorker(entry: URL, options?: WorkerOptions): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const code =
    `const { tsImport } = await import(${JSON.stringify(tsx)});\n` +
    `await tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(import.meta.url)});\n`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), options);
}
