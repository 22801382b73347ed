import { parentPort } from 'node:worker_threads';
import { jsonlRecords } from './record-sources.ts';
import { prepareRecords } from './roll-rows.ts';
import type { PrepareRequest, PrepareResponse } from './prepare-pool.ts';

/* A thread of the prepare pool: parses and checks blocks of JSON Lines, answering in COPY text. */

const port = parentPort!;
port.on('message', (req: PrepareRequest) => {
  let res: PrepareResponse;
  try {
    res = { id: req.id, batch: prepareRecords(jsonlRecords(req.block), req.target, req.checkOnly) };
  } catch (err) {
    res = { id: req.id, error: (err as Error).stack ?? String(err) };
  }
  port.postMessage(res);
});
port.postMessage('ready');
