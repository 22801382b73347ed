import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byte-writer.ts';

describe('ByteWriter', () => {
  it('gathers text as UTF-8, growing past its first capacity', () => {
    const w = new ByteWriter(4);
    const pieces = ['ab', 'é', 'CAFÉ ÅSA\t', '😀', 'x'.repeat(1000), '\n'];
    for (const p of pieces) w.write(p);
    const bytes = w.toBytes();
    expect(Buffer.from(bytes).toString('utf8')).toBe(pieces.join(''));
    expect(w.length).toBe(Buffer.byteLength(pieces.join('')));
  });

  it('gives the bytes in a buffer of their own size, which can be transferred', () => {
    const w = new ByteWriter();
    w.write('abc');
    const bytes = w.toBytes();
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(3);
    w.write('d');
    expect(Buffer.from(bytes).toString()).toBe('abc');
  });

  it('takes what was written and starts again empty, leaving what it gave untouched', () => {
    const w = new ByteWriter(8);
    w.write('first batch');
    const first = w.take();
    expect(w.length).toBe(0);
    w.write('second');
    const second = w.take();
    expect(Buffer.from(first).toString()).toBe('first batch');
    expect(Buffer.from(second).toString()).toBe('second');
    expect(second.buffer.byteLength).toBe(6);
  });

  it('is empty before anything is written', () => {
    expect(new ByteWriter().toBytes().length).toBe(0);
  });
});
