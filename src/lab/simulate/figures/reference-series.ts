/**
 * The simulated market's reference price of one pair as a step function of time (the venue
 * records each step of its GBM): the price at any instant is the last recorded before it.
 * Prices are parsed once; lookups are binary searches.
 */
import { Dec } from '../../../core/decimal.js';
import type { ReferencePoint } from '../run/capture.js';

/** See the module doc. */
export class ReferenceSeries {
  /** Clock ms of each step, ascending. */
  readonly times: readonly number[];
  readonly prices: readonly Dec[];

  constructor(points: readonly ReferencePoint[]) {
    const sorted = [...points].sort((a, b) => a.at - b.at);
    this.times = sorted.map((p) => p.at);
    this.prices = sorted.map((p) => new Dec(p.price));
  }

  /** Number of steps. */
  get length(): number {
    return this.times.length;
  }

  /** Index of the last step at or before `at`; -1 before the first. */
  indexAt(at: number): number {
    let lo = 0;
    let hi = this.times.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** The price in force at `at` (the first price before the first step), or null when empty. */
  at(at: number): Dec | null {
    if (this.prices.length === 0) return null;
    return this.prices[Math.max(0, this.indexAt(at))]!;
  }

  /**
   * The first instant in `[from, to)` at which the price is more than `bps` basis points away
   * from `base` (at `from` itself when it already is), or null.
   */
  firstMoveBeyond(base: Dec, bps: number, from: number, to: number): number | null {
    if (this.prices.length === 0 || !base.gt(0)) return null;
    const band = base.times(bps).div(10_000);
    const high = base.plus(band);
    const low = base.minus(band);
    const outside = (p: Dec): boolean => p.gt(high) || p.lt(low);
    let i = Math.max(0, this.indexAt(from));
    if (outside(this.prices[i]!)) return from;
    for (i += 1; i < this.times.length && this.times[i]! < to; i++) {
      if (outside(this.prices[i]!)) return Math.max(from, this.times[i]!);
    }
    return null;
  }
}
