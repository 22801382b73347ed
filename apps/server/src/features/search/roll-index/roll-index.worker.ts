import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from '../../../lib/collect-garbage.ts';
import { RollIndexBuilder } from './roll-index.ts';
import { readIndexRows } from './roll-index.rows.ts';
import type { BuildRequest, BuildResponse } from './roll-index.thread.ts';

/*
 * A thread that builds one roll's index from the rows it is sent (roll-index.thread.ts), then exits. The
 * rows come as COPY's text (roll-index.rows.ts reads them here); it says when it has read each batch.
 *
 * It collects its garbage itself, every 100,000 rows read and between the steps of the build: V8 let the
 * rows it was sent and each step's working arrays pile up until this thread's heap held
 * 1.2 GB for a county of a million parcels, of which 300 MB was live, and the server's memory peaked at
 * 2.3 GB. A full collection here stops only this thread, for a fraction of a second, about twenty times
 * in a build of a minute or more.
 */

const COLLECT_EVERY_ROWS = 100_000;

const port = parentPort!;
const builder = new RollIndexBuilder((workerData as { rollId: number }).rollId);
let sinceCollected = 0;

port.on('message', (req: BuildRequest) => {
  if ('rows' in req) {
    sinceCollected += readIndexRows(req.rows, (r) => builder.add(r));
    port.postMessage({ read: true } satisfies BuildResponse);
    if (sinceCollected >= COLLECT_EVERY_ROWS) {
      sinceCollected = 0;
      collectGarbage();
    }
    return;
  }
  builder
    .finish(async () => collectGarbage())
    .then(
      (index) => {
        const { parts, transfer } = index.exportParts();
        port.postMessage({ parts } satisfies BuildResponse, transfer);
      },
      (err: unknown) =>
        port.postMessage({ error: (err as Error).stack ?? String(err) } satisfies BuildResponse),
    );
});
port.postMessage('ready');
