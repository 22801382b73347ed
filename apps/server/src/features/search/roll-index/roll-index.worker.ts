import { parentPort, workerData } from 'node:worker_threads';
import { RollIndexBuilder, type IndexSourceRow } from './roll-index.ts';
import type { BuildRequest, BuildResponse } from './roll-index.thread.ts';

/* A thread that builds one roll's index from the rows it is sent (roll-index.thread.ts), then exits. */

const port = parentPort!;
const builder = new RollIndexBuilder((workerData as { rollId: number }).rollId);

port.on('message', (req: BuildRequest) => {
  if ('rows' in req) {
    for (const r of req.rows as IndexSourceRow[]) builder.add(r);
    return;
  }
  builder.finish().then(
    (index) => {
      const { parts, transfer } = index.exportParts();
      port.postMessage({ parts } satisfies BuildResponse, transfer);
    },
    (err: unknown) =>
      port.postMessage({ error: (err as Error).stack ?? String(err) } satisfies BuildResponse),
  );
});
port.postMessage('ready');
