/*
 * Column storage for the in-process indexes (the roll index, the parcel index): values held in typed
 * arrays and large strings rather than as a JavaScript value each, since V8 spends about 40 bytes on every
 * short string or number box and a million parcels have several of each.
 */

/** A typed array that grows (a builder reading rows in batches does not know their count up front). */
export class Grow<A extends Uint32Array | Float32Array | Float64Array | Uint8Array> {
  data: A;
  length = 0;
  constructor(private readonly make: (length: number) => A) {
    this.data = make(1024);
  }
  push(v: number) {
    if (this.length === this.data.length) {
      const next = this.make(Math.max(1024, this.data.length * 2));
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = v;
  }
  trimmed(): A {
    return this.data.slice(0, this.length) as A;
  }
  clear() {
    this.data = this.make(0);
    this.length = 0;
  }
}

/** Many short strings as one string and where each ends: value i is `text` from off[i] to off[i + 1]. */
export interface PackedTexts {
  text: string;
  off: Uint32Array;
}

export function packTexts(values: readonly string[]): PackedTexts {
  const off = new Uint32Array(values.length + 1);
  for (let i = 0; i < values.length; i++) off[i + 1] = off[i]! + values[i]!.length;
  return { text: values.join(''), off };
}

export const textAt = (p: PackedTexts, i: number): string => p.text.slice(p.off[i], p.off[i + 1]);

/** The bytes a PackedTexts holds (a character a byte, two beyond Latin-1: counted as two to be safe). */
export const packedBytes = (p: PackedTexts): number => p.text.length * 2 + p.off.byteLength;
