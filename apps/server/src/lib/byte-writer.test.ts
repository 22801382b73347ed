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

  it('is empty before anything is written', () => {
    expect(new ByteWriter().toBytes().length).toBe(0);
  });
});
