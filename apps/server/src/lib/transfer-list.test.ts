import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { transferList } from './transfer-list.ts';

describe('transferList', () => {
  it('moves whole buffers, each once, and copies views into larger ones', () => {
    const whole = new Uint8Array([1, 2, 3]);
    const big = new Uint8Array(8);
    const view = big.subarray(2, 4);
    const { port1, port2 } = new MessageChannel();
    try {
      // The same array twice (a COPY handed over in pieces may repeat one): postMessage would throw.
      port1.postMessage([whole, whole, view], transferList(whole, whole, view));
      const [a, b, c] = receiveMessageOnPort(port2)!.message as Uint8Array[];
      expect([...a!]).toEqual([1, 2, 3]);
      expect(b!.buffer).toBe(a!.buffer);
      expect([...c!]).toEqual([0, 0]);
      expect(whole.byteLength).toBe(0); // moved
      expect(big.byteLength).toBe(8); // copied: the rest stays usable
    } finally {
      port1.close();
    }
  });
});
