import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { build } from 'esbuild';

/*
 * A worker thread running a TypeScript module bundled, with everything it imports, into one ES module
 * (esbuild, in memory, once per entry and process). Through tsx (ts-worker.ts) a thread loads each of its
 * modules by asking a loader thread of its own: the import's two parsing threads took 0.43 s and 0.8 s of
 * CPU to start, on every large import. The bundle is one module and needs no loader. It runs from a data:
 * URL, so it suits code that never resolves files next to itself (`import.meta.url`) and loads no native
 * addon; esbuild comes with tsx, which runs the server (decision 0003).
 */

const bundles = new Map<string, Promise<string>>();

function bundle(entry: URL): Promise<string> {
  let code = bundles.get(entry.href);
  if (!code) {
    code = build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    }).then((result) => {
      const text = result.outputFiles[0]!.text;
      // A bundle that looks for files beside itself would look beside a data: URL, and fail there.
      if (text.includes('import.meta'))
        throw new Error(`${entry.pathname} cannot run bundled: it uses import.meta`);
      return text;
    });
    bundles.set(entry.href, code);
    // A failed bundle is not kept: the next start tries again.
    code.catch(() => bundles.delete(entry.href));
  }
  return code;
}

export async function startBundledWorker(entry: URL, options?: WorkerOptions): Promise<Worker> {
  const code = await bundle(entry);
  // Without the parent's options: they load tsx into every thread (the server runs through it), which a
  // bundle does not need (a third of the threads' start-up).
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), {
    execArgv: [],
    ...options,
  });
}
