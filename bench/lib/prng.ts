import { Prng, round } from '../../apps/server/src/features/demo/prng.ts';

/*
 * The demo's seeded generator (sfc32), so the data set is the same on every machine and every run: the
 * cache key only has to name the inputs, never the output. Math.random would make runs incomparable.
 */
export class Rng extends Prng {
  /**
   * Log-normal-ish: most values near `median`, a long tail up to `max`, at least one step. Wider than
   * the demo's `skewed`, and the data set's own since its first version: changing it would change every
   * cached data set and the figures measured on them.
   */
  longTail(median: number, max: number, step = 1): number {
    const u = this.next() + this.next() + this.next() - 1.5; // ~N(0, 0.5)
    const v = median * Math.exp(u * 1.6);
    return round(Math.max(step, Math.min(max, v)), step);
  }
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
