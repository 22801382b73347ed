import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { build } from 'esbuild';

/*
 * A worker thread running a TypeScript module bundled, with everything it imports, into one script
 * (esbuild, in memory, once per entry and process). Through tsx (ts-worker.ts) a thread loads each of its
 * modules by asking a loader thread of its own: the import's two parsing threads took 0.43 s and 0.8 s of
 * CPU to start, on every large import. The bundle is one script and needs no loader. The thread is given
 * its text (`eval`), so it suits code that never resolves files next to itself (`import.meta.url`), loads
 * no native addon and has no top-level await; esbuild comes with tsx, which runs the server (decision
 * 0003). A CommonJS script rather than an ES module: a module has to arrive as a URL, and a data: URL of
 * an 800 kB bundle was percent-encoded here, then parsed, copied and decoded by every thread (measured on
 * the import's two threads: 310 ms to start instead of 200, 550 ms of CPU instead of 370).
 */

const bundles = new Map<string, Promise<string>>();

function bundle(entry: URL): Promise<string> {
  let code = bundles.get(entry.href);
  if (!code) {
    code = build({
      entryPoints: [fileURLToPath(entry)],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      write: false,
      logLevel: 'silent',
    }).then((result) => {
      // A bundle that looks for files beside itself has no "itself": esbuild leaves import.meta empty in
      // a script, and says so.
      if (result.warnings.some((w) => w.id === 'empty-import-meta'))
        throw new Error(`${entry.pathname} cannot run bundled: it uses import.meta`);
      return result.outputFiles[0]!.text;
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
  return new Worker(code, { eval: true, execArgv: [], ...options });
}
