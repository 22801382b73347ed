import { parentPort, workerData } from 'node:worker_threads';
import { clientLayout, generateRecord, type ClientSpec } from './generator.ts';

/*
 * Generates one range of a client's records as JSON Lines (jsonl-writer.ts). Record i depends only on
 * (seed, client, i), so ranges made on different threads join into the same file one thread would write.
 */

export interface JsonlWorkerData {
  seed: string;
  spec: ClientSpec;
}
export interface JsonlRange {
  start: number;
  end: number;
}
export interface JsonlChunk extends JsonlRange {
  bytes: Uint8Array;
}

const { seed, spec } = workerData as JsonlWorkerData;
const layout = clientLayout(seed, spec);
const encoder = new TextEncoder();

parentPort!.on('message', ({ start, end }: JsonlRange) => {
  let text = '';
  for (let i = start; i < end; i++) text += `${JSON.stringify(generateRecord(seed, layout, i))}\n`;
  const bytes = encoder.encode(text);
  parentPort!.postMessage({ start, end, bytes } satisfies JsonlChunk, [bytes.buffer as ArrayBuffer]);
});
// Loading this module through tsx takes a moment: the writer sends ranges once the thread says so.
parentPort!.postMessage('ready');
