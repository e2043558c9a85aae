/**
 * One pair's live quotes at a glance, in `Dec`: best bid, best ask, spread in bps and whether
 * both sides are quoted. A pure summary of the daemon's state view, shared by the metrics and
 * `/status` so the two never disagree.
 */
import type { Dec } from '../core/decimal.js';
import type { PairStateView } from './http/state-view.js';

/** One pair's quoting at a glance, computed in `Dec` (shared by the metrics and /status). */
export interface QuoteSummary {
  /** Highest live bid, or null. */
  readonly bestBid: Dec | null;
  /** Lowest live ask, or null. */
  readonly bestAsk: Dec | null;
  /** (ask − bid) / mid × 10 000, or null unless both sides are quoted. */
  readonly spreadBps: Dec | null;
  /** The view's flag, else: at least one live quote on each side. */
  readonly twoSided: boolean;
}

/** Summarises a pair's live quotes. */
export function summarizeQuotes(p: PairStateView): QuoteSummary {
  let bestBid: Dec | null = null;
  let bestAsk: Dec | null = null;
  for (const q of p.quotes) {
    if (q.side === 'BUY' && (bestBid === null || q.price.gt(bestBid))) bestBid = q.price;
    if (q.side === 'SELL' && (bestAsk === null || q.price.lt(bestAsk))) bestAsk = q.price;
  }
  let spreadBps: Dec | null = null;
  if (bestBid !== null && bestAsk !== null) {
    const mid = bestBid.plus(bestAsk).div(2);
    if (mid.gt(0)) spreadBps = bestAsk.minus(bestBid).div(mid).times(10_000);
  }
  return { bestBid, bestAsk, spreadBps, twoSided: p.twoSided ?? (bestBid !== null && bestAsk !== null) };
}
