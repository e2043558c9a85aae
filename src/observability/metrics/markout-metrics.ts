/**
 * Markouts as Prometheus histograms: `ledger_mm_fill_markout_bps{pair, side, horizon}`, the move
 * of the book mid without our own orders from each fill to 5, 30, 60 and 300 s later, signed from
 * our side (negative: adverse selection). Fed by the daemon's stream: each `fill`, and each
 * quote cycle's snapshot and own orders (the ownless mid of every pair with a book).
 */
import type { Histogram } from 'prom-client';

import type { Dec } from '../../core/decimal.js';
import type { MarketSnapshot, OwnOrderView } from '../../market/market-snapshot.js';
import { bookWithoutOwn } from '../../market/ownless-book.js';
import type { MetricLabels } from './labels.js';
import { sideLabel } from './labels.js';
import type { MetricFactory } from './metric-factory.js';
import { LIVE_MARKOUT_HORIZONS_S, MarkoutTracker, type MarkoutSample } from '../markout-tracker.js';

/** Bucket bounds, bps: symmetric, finer near zero. */
export const MARKOUT_BUCKETS_BPS = [-100, -50, -25, -10, -5, -2, -1, 0, 1, 2, 5, 10, 25, 50, 100] as const;

/** The markout histogram and the tracker feeding it. */
export interface MarkoutMetrics {
  readonly markout: Histogram<'pair' | 'side' | 'horizon'>;
  readonly tracker: MarkoutTracker;
}

/** Registers the markout histogram; the tracker measures on `now`. */
export function createMarkoutMetrics(f: MetricFactory, now: () => number): MarkoutMetrics {
  return {
    markout: f.bpsHistogram(
      'ledger_mm_fill_markout_bps',
      'Move of the book mid (without our orders) from each of our fills to `horizon` seconds later, signed from our side (negative: adverse selection), bps.',
      ['pair', 'side', 'horizon'],
      MARKOUT_BUCKETS_BPS,
    ),
    tracker: new MarkoutTracker({ now, horizonsS: LIVE_MARKOUT_HORIZONS_S }),
  };
}

/** What the markouts read of the daemon's events (structurally). */
export type MarkoutEvent =
  | { readonly type: 'fill'; readonly fill: { readonly pair: string; readonly side: 'BUY' | 'SELL' } }
  | {
      readonly type: 'cycle';
      readonly report: { readonly snapshot: MarketSnapshot; readonly own: readonly OwnOrderView[] };
    }
  | { readonly type: string };

/** The pair's book mid without our own orders, or null without a two-sided book. */
export function ownlessMid(snapshot: MarketSnapshot, own: readonly OwnOrderView[], pair: string): Dec | null {
  const book = snapshot.pairs[pair]?.book;
  if (book == null) return null;
  const ownless = bookWithoutOwn(book, own, pair);
  const bid = ownless.bids[0]?.price;
  const ask = ownless.asks[0]?.price;
  return bid === undefined || ask === undefined ? null : bid.plus(ask).div(2);
}

/** Feeds one event to the tracker and observes the markouts it completes. */
export function observeMarkoutEvent(m: MarkoutMetrics, labels: MetricLabels, e: MarkoutEvent): void {
  if (e.type === 'fill' && 'fill' in e) {
    m.tracker.onFill(e.fill.pair, e.fill.side);
    return;
  }
  if (e.type !== 'cycle' || !('report' in e)) return;
  // A report without its market (a partial event) has no mid to read.
  const { snapshot, own } = e.report as Partial<typeof e.report>;
  if (snapshot?.pairs === undefined || own === undefined) return;
  const samples: MarkoutSample[] = [];
  for (const pair of Object.keys(snapshot.pairs)) {
    const book = snapshot.pairs[pair]?.book;
    const mid = ownlessMid(snapshot, own, pair);
    if (book != null && mid !== null) samples.push(...m.tracker.onMid(pair, mid, book.receivedAt));
  }
  for (const s of samples) {
    m.markout.observe(
      { pair: labels.pair.value(s.pair), side: sideLabel(s.side), horizon: String(s.horizonS) },
      s.bps,
    );
  }
}
