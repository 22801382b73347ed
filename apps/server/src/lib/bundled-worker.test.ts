import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleScript, startBundledWorker } from './bundled-worker.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-bundled-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): URL {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return pathToFileURL(file);
}

/** Written as of an hour ago: not a file being edited while it is bundled. */
function writeSettled(name: string, text: string): URL {
  const url = write(name, text);
  const hourAgo = new Date(Date.now() - 3_600_000);
  fs.utimesSync(url, hourAgo, hourAgo);
  return url;
}

describe('startBundledWorker', () => {
  it('runs a TypeScript entry and the TypeScript modules it imports, on a thread without tsx', async () => {
    write('helper.ts', 'export const twice = (n: number): number => n * 2;\n');
    const entry = write(
      'entry.ts',
      [
        "import { parentPort, workerData } from 'node:worker_threads';",
        "import { twice } from './helper.ts';",
        'const n: number = workerData;',
        'parentPort!.postMessage({ result: twice(n), execArgv: process.execArgv });',
      ].join('\n'),
    );
    const worker = await startBundledWorker(entry, { workerData: 21 });
    try {
      const message = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      expect(message).toEqual({ result: 42, execArgv: [] });
    } finally {
      await worker.terminate();
    }
  });

  it('refuses an entry that looks for files beside itself, which a bundle cannot', async () => {
    const entry = write('beside.ts', "export const here = new URL('./data.bin', import.meta.url);\n");
    await expect(startBundledWorker(entry)).rejects.toThrow(/cannot run bundled: it uses import\.meta/);
  });

  it('refuses an entry that awaits at its top level, which a script cannot', async () => {
    const entry = write('awaits.ts', 'export const ready = await Promise.resolve(true);\n');
    await expect(startBundledWorker(entry)).rejects.toThrow(/Top-level await/);
  });

  it('reports code that does not compile', async () => {
    const entry = write('broken.ts', 'export const = ;\n');
    await expect(startBundledWorker(entry)).rejects.toThrow();
  });
});

describe('bundleScript, with a cache folder', () => {
  const stored = (cache: string) => fs.readdirSync(cache).map((f) => path.join(cache, f));

  it('reuses the stored bundle until a file in it changes', async () => {
    const cache = fs.mkdtempSync(path.join(dir, 'cache-'));
    writeSettled('word.ts', "export const word = 'first';\n");
    const entry = writeSettled('speaks.ts', "import { word } from './word.ts';\nconsole.log(word);\n");
    expect(await bundleScript(entry, cache)).toContain('"first"');
    const [file] = stored(cache);
    expect(stored(cache)).toHaveLength(1);

    // What is stored is what the next start runs (altered here to tell it from a new bundle).
    fs.writeFileSync(file!, fs.readFileSync(file!, 'utf8').replace('"first"', '"kept"'));
    expect(await bundleScript(entry, cache)).toContain('"kept"');

    // A changed import: bundled anew, and stored in its place.
    writeSettled('word.ts', "export const word = 'second';\n");
    const code = await bundleScript(entry, cache);
    expect(code).toContain('"second"');
    expect(code).not.toContain('"kept"');
    expect(stored(cache)).toEqual([file]);
    expect(fs.readFileSync(file!, 'utf8')).toContain('"second"');
  });

  it('does not store a bundle of files written as it was made, which it might have read half-edited', async () => {
    const cache = fs.mkdtempSync(path.join(dir, 'cache-'));
    writeSettled('stable.ts', "export const word = 'stable';\n");
    const entry = write('fresh.ts', "import { word } from './stable.ts';\nconsole.log(word);\n");
    expect(await bundleScript(entry, cache)).toContain('"stable"');
    expect(stored(cache)).toEqual([]);
  });
});
