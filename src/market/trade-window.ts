/**
 * A pair's window of recent public trades: {@link mergeTrades} merges each GET /trades poll
 * (newest first, overlapping the last) into a bounded window, de-duplicated by tradeId and
 * ordered by execution time, idempotently. Pure functions; `MarketState` keeps the window per
 * pair and the snapshot hands it to the strategy.
 */
import type { TradeView } from './market-snapshot.js';

/** The outcome of {@link mergeTrades}. */
export interface TradeMerge {
  /** The new window: newest first, unique by tradeId, at most `keep` trades, frozen. */
  readonly trades: readonly TradeView[];
  /** Trades of `incoming` that were not already known and made it into the window. */
  readonly added: number;
}

/**
 * Merges a poll's trades into the recent window. GET /trades is newest first and every poll
 * overlaps the previous one, so trades are de-duplicated by `tradeId`; the window is ordered by
 * execution time (newest first; among equal times, the newer poll first, each in venue order)
 * and cut to `keep`. A trade that fell out of the window and is polled again lands behind the
 * cut again, so merging is idempotent.
 */
export function mergeTrades(
  window: readonly TradeView[],
  incoming: readonly TradeView[],
  keep: number,
): TradeMerge {
  const known = tradeIds(window);
  const seen = new Set<string>();
  const fresh: TradeView[] = [];
  for (const t of incoming) {
    if (known.has(t.tradeId) || seen.has(t.tradeId)) continue;
    seen.add(t.tradeId);
    fresh.push(t);
  }
  if (fresh.length === 0 && window.length <= keep) return { trades: window, added: 0 };
  // Array.prototype.sort is stable: ties keep the order fresh-then-window.
  const merged = [...fresh, ...window].sort((a, b) => b.at - a.at).slice(0, Math.max(0, keep));
  const freshIds = new Set(fresh.map((t) => t.tradeId));
  const added = merged.reduce((n, t) => (freshIds.has(t.tradeId) ? n + 1 : n), 0);
  return { trades: Object.freeze(merged), added };
}

/** The tradeIds of each window, built once per window (a window is never changed, only replaced). */
const idsByWindow = new WeakMap<readonly TradeView[], ReadonlySet<string>>();

/** The tradeIds in `window`. Every poll checks its trades against them; most are known already. */
export function tradeIds(window: readonly TradeView[]): ReadonlySet<string> {
  let ids = idsByWindow.get(window);
  if (ids === undefined) {
    ids = new Set(window.map((t) => t.tradeId));
    idsByWindow.set(window, ids);
  }
  return ids;
}
