import { createHash } from 'node:crypto';

/*
 * A small seeded generator (sfc32) so the data set is the same on every machine and every run: the
 * cache key only has to name the inputs, never the output. Math.random would make runs incomparable.
 */
export class Rng {
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
    this.a |= 0;
    this.b |= 0;
    this.c |= 0;
    this.d |= 0;
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

  /** Rounded to a step (prices to the nearest 100, acres to 0.01). */
  range(min: number, max: number, step = 1): number {
    return snap(min + this.next() * (max - min), step);
  }

  /** Log-normal-ish: most values near `median`, a long tail up to `max`. */
  skewed(median: number, max: number, step = 1): number {
    const u = this.next() + this.next() + this.next() - 1.5; // ~N(0, 0.5)
    const v = median * Math.exp(u * 1.6);
    return snap(Math.max(step, Math.min(max, v)), step);
  }
}

/** Rounds to a multiple of step without binary noise (0.94, not 0.9400000000000001). */
function snap(v: number, step: number): number {
  const r = Math.round(v / step) * step;
  if (step >= 1) return r;
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  return Number(r.toFixed(decimals));
}

/**
 * Picks items with Zipf-like weights (rank r has weight 1/(r+1)^s): a few names are very common, most
 * are rare, as in a real roll. Sampling is a binary search over the cumulative weights.
 */
export class Zipf<T> {
  private readonly cumulative: Float64Array;

  constructor(
    readonly items: readonly T[],
    s = 1,
  ) {
    this.cumulative = new Float64Array(items.length);
    let total = 0;
    for (let i = 0; i < items.length; i++) {
      total += 1 / Math.pow(i + 1, s);
      this.cumulative[i] = total;
    }
    for (let i = 0; i < items.length; i++) this.cumulative[i]! /= total;
  }

  sample(rng: Rng): T {
    const u = rng.next();
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return this.items[lo]!;
  }
}
