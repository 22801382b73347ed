import { createHash } from 'node:crypto';

/**
 * A seeded generator (sfc32): the demo towns are the same on every machine and every run, so a screenshot,
 * a bug report or a test can name "account 812 of the Harrison demo" and mean one record.
 */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string) {
    const h = createHash('sha256').update(seed).digest();
    this.a = h.readUInt32LE(0);
    this.b = h.readUInt32LE(4);
    this.c = h.readUInt32LE(8);
    this.d = h.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One of the items, each with its weight: `weighted([['Cape', 3], ['Ranch', 1]])`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** Uniform in [min, max], rounded to a step (prices to 100, acres to 0.01). */
  range(min: number, max: number, step = 1): number {
    return round(min + this.next() * (max - min), step);
  }

  /** Mostly near `median`, with a long tail up to `max` (values, areas, acres are skewed like this). */
  skewed(median: number, min: number, max: number, step = 1): number {
    const u = this.next() + this.next() + this.next() - 1.5;
    return Math.max(min, Math.min(max, round(median * Math.exp(u * 1.4), step)));
  }

  /** A shuffled copy. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = items.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  }
}

/** Rounds to a step without binary noise (0.1 + 0.2 style tails would show up in the records). */
export function round(value: number, step = 1): number {
  const decimals = step >= 1 ? 0 : Math.max(0, Math.ceil(-Math.log10(step)));
  return Number((Math.round(value / step) * step).toFixed(decimals));
}
