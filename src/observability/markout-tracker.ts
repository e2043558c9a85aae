/**
 * Live markouts: for each fill of ours, how far the book mid (without our own orders) moved from
 * the fill to `h` seconds later, signed from our side of the trade (up after a buy, down after a
 * sell is positive), in bps of the mid at the fill. The simulator measures the same against the
 * venue's true reference (src/lab/simulate/figures/markouts.ts); live, the book is all there is.
 *
 * Fed by fills and by book mids as they are polled; time is the injected `now`. A fill takes the
 * latest mid of its pair as its starting point when that mid is no older than `maxMidAgeMs`
 * (otherwise it is not measured). A horizon is measured at the first mid polled at or after it
 * (a poll interval late at most), and dropped when no mid comes within `maxMidAgeMs` after it.
 * At most `maxPending` fills wait; the oldest is dropped beyond that. No IO; the caller turns
 * samples into metrics.
 */
import type { Dec } from '../core/decimal.js';

/** The default horizons, seconds (the simulator's). */
export const LIVE_MARKOUT_HORIZONS_S = [5, 30, 60, 300] as const;

/** One measured markout. */
export interface MarkoutSample {
  readonly pair: string;
  readonly side: 'BUY' | 'SELL';
  readonly horizonS: number;
  readonly bps: number;
  /** The fill measured, when {@link MarkoutTracker.onFill} was told which it was. */
  readonly fill?: FillRef;
}

/** Which fill a markout belongs to: its orderId and cumulative filled (the journal's key). */
export interface FillRef {
  readonly orderId: string;
  readonly filled: Dec;
}

/** Options of {@link MarkoutTracker}. */
export interface MarkoutTrackerOptions {
  readonly now: () => number;
  readonly horizonsS?: readonly number[];
  /** Oldest mid a fill or a horizon may use, ms. Default 10 s. */
  readonly maxMidAgeMs?: number;
  /** Most fills waiting for their horizons. Default 1000. */
  readonly maxPending?: number;
}

interface Pending {
  readonly pair: string;
  readonly side: 'BUY' | 'SELL';
  readonly at: number;
  readonly mid: Dec;
  readonly fill: FillRef | undefined;
  /** Index of the next horizon to measure. */
  next: number;
}

/** See the module doc. */
export class MarkoutTracker {
  private readonly horizonsMs: readonly number[];
  private readonly maxMidAgeMs: number;
  private readonly maxPending: number;
  private readonly mids = new Map<string, { price: Dec; at: number }>();
  private pending: Pending[] = [];

  constructor(private readonly o: MarkoutTrackerOptions) {
    this.horizonsMs = [...(o.horizonsS ?? LIVE_MARKOUT_HORIZONS_S)]
      .sort((a, b) => a - b)
      .map((h) => h * 1000);
    this.maxMidAgeMs = o.maxMidAgeMs ?? 10_000;
    this.maxPending = o.maxPending ?? 1_000;
  }

  /** Fills waiting for a horizon. */
  get waiting(): number {
    return this.pending.length;
  }

  /**
   * A fill of ours now; false when there is no fresh mid to measure it from. `fill` names it in
   * the samples it gives.
   */
  onFill(pair: string, side: 'BUY' | 'SELL', fill?: FillRef): boolean {
    const now = this.o.now();
    const mid = this.mids.get(pair);
    if (mid === undefined || now - mid.at > this.maxMidAgeMs) return false;
    this.pending.push({ pair, side, at: now, mid: mid.price, fill, next: 0 });
    if (this.pending.length > this.maxPending) this.pending.splice(0, this.pending.length - this.maxPending);
    return true;
  }

  /** The pair's book mid without our orders, as polled at `at`; returns the markouts it completes. */
  onMid(pair: string, price: Dec, at: number): MarkoutSample[] {
    const last = this.mids.get(pair);
    if (last !== undefined && last.at > at) return [];
    this.mids.set(pair, { price, at });
    const out: MarkoutSample[] = [];
    for (const p of this.pending) {
      if (p.pair !== pair) continue;
      while (p.next < this.horizonsMs.length && at >= p.at + this.horizonsMs[p.next]!) {
        const due = p.at + this.horizonsMs[p.next]!;
        if (at - due <= this.maxMidAgeMs && p.mid.gt(0)) {
          const move = p.side === 'BUY' ? price.minus(p.mid) : p.mid.minus(price);
          out.push({
            pair,
            side: p.side,
            horizonS: this.horizonsMs[p.next]! / 1000,
            bps: move.div(p.mid).times(10_000).toNumber(),
            ...(p.fill === undefined ? {} : { fill: p.fill }),
          });
        }
        p.next += 1;
      }
    }
    this.pending = this.pending.filter((p) => p.next < this.horizonsMs.length);
    return out;
  }
}
