import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { startThreads, whenReady } from './thread-start.ts';

const thread = (code: string) => new Worker(code, { eval: true });
const READY = "require('node:worker_threads').parentPort.postMessage('ready'); setInterval(() => {}, 1000);";

describe('whenReady', () => {
  it('gives the thread once it says it is ready', async () => {
    const worker = await whenReady(thread(READY), 'a test thread');
    try {
      expect(worker.threadId).toBeGreaterThan(0);
    } finally {
      await worker.terminate();
    }
  });

  it('names a thread that stops before it is ready', async () => {
    await expect(whenReady(thread('process.exit(3)'), 'a test thread')).rejects.toThrow(
      'a test thread stopped (exit code 3)',
    );
  });

  it('passes on the error of a thread that fails while loading', async () => {
    await expect(whenReady(thread("throw new Error('no such module')"), 'a test thread')).rejects.toThrow(
      'no such module',
    );
  });
});

describe('startThreads', () => {
  it('stops the threads that started when one fails, and throws its error', async () => {
    const started: Worker[] = [];
    let n = 0;
    const start = async () => {
      if (n++ === 1) throw new Error('could not start');
      const worker = await whenReady(thread(READY), 'a test thread');
      started.push(worker);
      return worker;
    };
    await expect(startThreads(3, start)).rejects.toThrow('could not start');
    expect(started).toHaveLength(2);
    // A stopped thread's terminate() resolves at once with no exit code.
    for (const w of started) expect(await w.terminate()).toBeUndefined();
  });

  it('gives every thread when all start', async () => {
    const workers = await startThreads(2, () => whenReady(thread(READY), 'a test thread'));
    expect(workers).toHaveLength(2);
    await Promise.all(workers.map((w) => w.terminate()));
  });
});
