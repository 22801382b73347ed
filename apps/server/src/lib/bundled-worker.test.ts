import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startBundledWorker } from './bundled-worker.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opp-bundled-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): URL {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return pathToFileURL(file);
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
