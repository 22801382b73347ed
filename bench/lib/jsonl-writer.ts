import fs from 'node:fs';
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startThread, startThreads, whenReady } from '../../apps/server/src/lib/thread-start.ts';
import type { ClientSpec } from './generator.ts';
import type { JsonlChunk, JsonlWorkerData } from './jsonl.worker.ts';

/*
 * Writes a client's records as JSON Lines, generated on one thread per core: on one thread the county's
 * 1,000,000 records took up to four minutes (on a slow machine) of a benchmark run that has twenty. Ranges come back in any
 * order and are written in record order, so the file is byte for byte the one a single thread writes.
 */

interface Thread {
  worker: Worker;
  waiting: { resolve: (c: JsonlChunk) => void; reject: (e: Error) => void }[];
}

function threadOf(worker: Worker): Thread {
  const thread: Thread = { worker, waiting: [] };
  const fail = (err: Error) => {
    for (const w of thread.waiting.splice(0)) w.reject(err);
  };
  worker.on('message', (chunk: JsonlChunk) => thread.waiting.shift()?.resolve(chunk));
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`a JSON Lines thread stopped (exit code ${code})`)));
  return thread;
}

function generate(thread: Thread, start: number, end: number): Promise<JsonlChunk> {
  const p = new Promise<JsonlChunk>((resolve, reject) => {
    thread.waiting.push({ resolve, reject });
    thread.worker.postMessage({ start, end });
  });
  // Awaited in order later; until then a failure must not count as unhandled.
  p.catch(() => {});
  return p;
}

const write = (s: fs.WriteStream, bytes: Uint8Array) =>
  s.write(bytes) ? Promise.resolve() : new Promise<void>((r) => s.once('drain', () => r()));

const end = (s: fs.WriteStream) =>
  new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.end(() => resolve());
  });

/** The byte length of the first `lines` lines of `bytes`. */
function prefixOfLines(bytes: Uint8Array, lines: number): number {
  let at = 0;
  for (let n = 0; n < lines; n++) at = bytes.indexOf(10, at) + 1;
  return at;
}

/**
 * Writes all of `spec`'s records to `file` and the first `head.records` of them again to `head.file`.
 */
export async function writeClientJsonl(
  seed: string,
  spec: ClientSpec,
  file: string,
  head: { file: string; records: number },
  options: { threads?: number; chunk?: number } = {},
): Promise<void> {
  const chunk = options.chunk ?? 5_000;
  const count = Math.max(1, options.threads ?? os.availableParallelism());
  const entry = new URL('./jsonl.worker.ts', import.meta.url);
  const data: JsonlWorkerData = { seed, spec };
  const workers = await startThreads(count, () =>
    whenReady(startThread(entry, { workerData: data }), 'a JSON Lines thread'),
  );
  const threads = workers.map(threadOf);
  const out = fs.createWriteStream(file);
  const headOut = fs.createWriteStream(head.file);
  try {
    // Two ranges per thread in flight: one being made, one waiting, and at most that many held here.
    const inFlight: Promise<JsonlChunk>[] = [];
    let next = 0;
    let turn = 0;
    const refill = () => {
      while (inFlight.length < count * 2 && next < spec.parcels) {
        const start = next;
        next = Math.min(spec.parcels, next + chunk);
        inFlight.push(generate(threads[turn++ % count]!, start, next));
      }
    };
    refill();
    while (inFlight.length) {
      const c = await inFlight.shift()!;
      refill();
      await write(out, c.bytes);
      if (c.start < head.records)
        await write(
          headOut,
          c.end <= head.records
            ? c.bytes
            : c.bytes.subarray(0, prefixOfLines(c.bytes, head.records - c.start)),
        );
    }
    await Promise.all([end(out), end(headOut)]);
  } finally {
    out.destroy();
    headOut.destroy();
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }
}
