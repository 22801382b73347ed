import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { build, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { writeFileAtomic } from './write-file-atomic.ts';

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
 *
 * Bundles are also kept on disk (node_modules/.cache), each with a digest of every file that went into
 * it: making one reads and parses about a megabyte (zod is most of it), 75–80 ms on the critical path of
 * a large import's start in every new process (each `portal import`, the server's first import after a
 * restart); checking the digest reads the same files and takes a few milliseconds.
 */

const OPTIONS = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  write: false,
  logLevel: 'silent',
  metafile: true,
} satisfies BuildOptions;

/** The project's installed packages (the folder esbuild is in), or null if it cannot be found. */
function nodeModules(): string | null {
  try {
    return path.dirname(path.dirname(createRequire(import.meta.url).resolve('esbuild/package.json')));
  } catch {
    return null;
  }
}

/**
 * Where the project's own entries are kept: beside its packages, where build tools keep their caches.
 * Null for an entry outside the project (a test's, in a temporary folder: each would be kept for good).
 */
function cacheDirFor(entryPath: string): string | null {
  const modules = nodeModules();
  if (!modules || !entryPath.startsWith(path.dirname(modules) + path.sep)) return null;
  return path.join(modules, '.cache', 'opp-worker-bundles');
}

/** What a stored bundle was made of: its files (absolute paths) and their digest (digestOf). */
interface Manifest {
  inputs: string[];
  digest: string;
}

/*
 * Read synchronously: a few milliseconds, once per entry and process, where reading a hundred small files
 * through the thread pool took three times as long.
 */

/**
 * One digest of the files' names and contents; null when one cannot be read (moved, deleted) or, given
 * `changedSince` (ms since the epoch), when one was written since.
 */
function digestOf(files: string[], changedSince = Infinity): string | null {
  try {
    const hash = createHash('sha256');
    for (const f of files) {
      if (changedSince !== Infinity && fs.statSync(f).mtimeMs >= changedSince) return null;
      const content = fs.readFileSync(f);
      hash.update(`${f}\0${content.length}\0`).update(content);
    }
    return hash.digest('hex');
  } catch {
    return null;
  }
}

/** A stored bundle (its manifest on the first line, the code after it) whose files are unchanged. */
function readStored(file: string): string | null {
  try {
    const bytes = fs.readFileSync(file);
    const lineEnd = bytes.indexOf(0x0a);
    const manifest = JSON.parse(bytes.toString('utf8', 0, lineEnd)) as Manifest;
    return digestOf(manifest.inputs) === manifest.digest ? bytes.toString('utf8', lineEnd + 1) : null;
  } catch {
    return null;
  }
}

/** Written whole or not at all: two processes may store one at once. */
function store(file: string, manifest: Manifest, code: string): void {
  try {
    writeFileAtomic(file, `${JSON.stringify(manifest)}\n${code}`);
  } catch {
    // A read-only installation runs without the cache.
  }
}

/**
 * The bundle of `entry`: the one stored in `cacheDir` while none of its files has changed, else a new
 * one (stored there for the next process). `cacheDir` null: no cache.
 */
export async function bundleScript(entry: URL, cacheDir: string | null): Promise<string> {
  const entryPath = fileURLToPath(entry);
  const key = createHash('sha256')
    .update(JSON.stringify([entryPath, esbuildVersion, OPTIONS]))
    .digest('hex')
    .slice(0, 32);
  const file = cacheDir && path.join(cacheDir, `${key}.js`);
  const cached = file && readStored(file);
  if (cached) return cached;

  const workingDir = path.dirname(entryPath);
  const started = Date.now();
  const result = await build({ ...OPTIONS, entryPoints: [entryPath], absWorkingDir: workingDir });
  // A bundle that looks for files beside itself has no "itself": esbuild leaves import.meta empty in
  // a script, and says so.
  if (result.warnings.some((w) => w.id === 'empty-import-meta'))
    throw new Error(`${entry.pathname} cannot run bundled: it uses import.meta`);
  const code = result.outputFiles[0]!.text;
  if (cacheDir && file) {
    // npm's record of the installed packages too: an upgrade can change how an import resolves without
    // changing any file the bundle read.
    const modules = nodeModules();
    const installed = modules && path.join(modules, '.package-lock.json');
    const inputs = [
      ...Object.keys(result.metafile.inputs).map((f) => path.resolve(workingDir, f)),
      ...(installed && fs.existsSync(installed) ? [installed] : []),
    ];
    // Not stored if a file changed while it was bundled (or a moment before): the code might not be
    // what the digest describes. The next start bundles again.
    const digest = digestOf(inputs, started - 1000);
    if (digest) store(file, { inputs, digest }, code);
  }
  return code;
}

const bundles = new Map<string, Promise<string>>();

function bundle(entry: URL): Promise<string> {
  let code = bundles.get(entry.href);
  if (!code) {
    code = bundleScript(entry, cacheDirFor(fileURLToPath(entry)));
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
