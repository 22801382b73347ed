import { parentPort } from 'node:worker_threads';
import { transferList } from '../../lib/transfer-list.ts';
import { jsonlRecords } from './jsonl-records.ts';
import { prepareRecords, reuseBuffers, type FullCheck, type PreparedBatch } from './roll-rows.ts';
import type { PrepareRequest, PrepareResponse } from './prepare-pool.ts';

/*
 * A thread of the prepare pool: parses and checks blocks of JSON Lines, answering in COPY text as UTF-8
 * bytes whose buffers move to the importing thread (as strings they were copied into its heap, where
 * only a full collection freed them).
 */

/**
 * Zod's check, loaded by the first block with a record the fast path leaves to it. Most files have
 * none, and loading zod was most of a thread's start (about 45 of 70 ms on two cores, on the critical
 * path of every large import). The block that needs it is prepared again from its start.
 */
let fullCheck: FullCheck | undefined;
const NOT_LOADED = Symbol('zod not loaded');
const notLoaded: FullCheck = () => {
  throw NOT_LOADED;
};

async function prepare(req: PrepareRequest): Promise<PreparedBatch> {
  const run = (check: FullCheck) =>
    prepareRecords(jsonlRecords(req.block), req.target, {
      fullCheck: check,
      checkOnly: req.checkOnly,
      handOff: req.handOff,
    });
  if (!fullCheck) {
    try {
      return run(notLoaded);
    } catch (err) {
      if (err !== NOT_LOADED) throw err;
    }
    fullCheck = (await import('./full-check.ts')).fullCheck;
  }
  return run(fullCheck);
}

async function answer(req: PrepareRequest): Promise<void> {
  let res: PrepareResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    if (req.reuse) reuseBuffers(req.reuse);
    const batch = await prepare(req);
    // The block's buffer goes back too, for a later read (PreparePool.spareBuffer).
    const spare = req.block.bytes.buffer as ArrayBuffer;
    res = { id: req.id, batch, spare };
    // Handed off, the COPY text's buffers go whole (the text is their start): they are the batch's.
    const output = req.handOff
      ? [batch.copy.buffer, batch.recordCopy.buffer]
      : transferList(batch.copy, batch.recordCopy);
    transfer = [...output, spare];
  } catch (err) {
    res = { id: req.id, error: (err as Error).stack ?? String(err) };
  }
  port.postMessage(res, transfer);
}

const port = parentPort!;
// One block at a time, in order: a block waiting for zod to load holds back the ones sent after it
// (they share this thread's write buffers).
let queue = Promise.resolve();
port.on('message', (req: PrepareRequest) => {
  queue = queue.then(() => answer(req));
});
port.postMessage('ready');
