import { parentPort } from 'node:worker_threads';
import { transferList } from '../../lib/transfer-list.ts';
import { fullCheck } from './full-check.ts';
import { ImportNotes } from './import-notes.ts';
import { jsonlRecords } from './jsonl-records.ts';
import { prepareRecords } from './roll-rows.ts';
import type { PrepareRequest, PrepareResponse } from './prepare-pool.ts';

/*
 * A thread of the prepare pool: parses and checks blocks of JSON Lines, answering in COPY text as UTF-8
 * bytes whose buffers move to the importing thread (as strings they were copied into its heap, where
 * only a full collection freed them).
 */

/** Each record noted as it goes by (the warnings of a publishing run, as its dry run finds them). */
function* noted<T extends Parameters<ImportNotes['add']>[0]>(records: Iterable<T>, notes: ImportNotes) {
  for (const r of records) {
    notes.add(r);
    yield r;
  }
}

const port = parentPort!;
port.on('message', (req: PrepareRequest) => {
  let res: PrepareResponse;
  let transfer: ArrayBuffer[] = [];
  try {
    const notes = req.notes ? new ImportNotes(req.notes) : null;
    const records = jsonlRecords(req.block);
    const batch = prepareRecords(notes ? noted(records, notes) : records, req.target, {
      fullCheck,
      checkOnly: req.checkOnly,
    });
    res = { id: req.id, batch: notes ? { ...batch, notes: notes.snapshot() } : batch };
    transfer = transferList(batch.copy, batch.recordCopy, batch.historyCopy);
  } catch (err) {
    res = { id: req.id, error: (err as Error).stack ?? String(err) };
  }
  port.postMessage(res, transfer);
});
port.postMessage('ready');
