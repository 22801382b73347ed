import { parentPort } from 'node:worker_threads';
import { transferList } from '../../lib/transfer-list.ts';
import { jsonlRecords } from './record-sources.ts';
import { prepareRecords, reuseBuffers } from './roll-rows.ts';
import type { PrepareRequest, PrepareResponse } from './prepare-pool.ts';

/*
 * A thread of the prepare pool: parses and checks blocks of JSON Lines, answering in COPY text as UTF-8
 * bytes whose buffers move to the importing thread (as strings they were copied into its heap, where
 * only a full collection freed them).
 */

const port = parentPort!;
port.on('message', (req: PrepareRequest) => {
  let res: PrepareResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    if (req.reuse) reuseBuffers(req.reuse);
    const batch = prepareRecords(jsonlRecords(req.block), req.target, req.checkOnly, req.handOff);
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
});
port.postMessage('ready');
