import { Dec } from '../../../src/core/decimal.js';
import type { OrderTruth, TradeTruth } from '../../../src/sim/truth/ground-truth.js';
import {
  intersect,
  measure as clip,
  union,
  type Interval,
} from '../../../src/lab/simulate/figures/intervals.js';
import { liveInterval } from '../../execution/support/ground-truth.js';

/**
 * Figures computed from the simulated venue's ground truth only (never from what the daemon
 * believes): how long each pair was quoted on both sides, how many orders of a quote slot were on
 * the book at once, and the party's position over time.
 */

/** Both sides of `pair` on the book, from the first moment both were until `to`. */
export interface TwoSided {
  readonly pair: string;
  /** When both sides first rested (null: never). */
  readonly from: number | null;
  /** Share of [from, to] with at least one resting order on each side, 0–1. */
  readonly share: number;
  /** The longest stretch with a side missing, ms. */
  readonly longestGapMs: number;
}

/** Two-sided time of `pair` by integrating the orders' live intervals (from their histories). */
export function twoSidedShare(orders: readonly OrderTruth[], pair: string, to: number): TwoSided {
  const side = (s: 'BUY' | 'SELL'): Interval[] =>
    union(
      orders
        .filter((o) => o.pair === pair && o.side === s)
        .flatMap((o) => liveInterval(o) ?? [])
        .map((i) => ({ start: i.start, end: Math.min(i.end, to) })),
    );
  const both = intersect(side('BUY'), side('SELL'));
  const from = both[0]?.start ?? null;
  if (from === null || to <= from) return { pair, from, share: 0, longestGapMs: 0 };
  let longest = 0;
  let prev = from;
  for (const i of both) {
    longest = Math.max(longest, i.start - prev);
    prev = Math.max(prev, i.end);
  }
  longest = Math.max(longest, to - prev);
  return { pair, from, share: clip(both, from, to) / (to - from), longestGapMs: longest };
}

/** The most orders of one quote slot (`pair:side:level`) live on the book at the same instant. */
export function maxLivePerQuoteSlot(
  orders: readonly OrderTruth[],
  slotOf: (o: OrderTruth) => string | null,
): number {
  const bySlot = new Map<string, { at: number; d: number }[]>();
  for (const o of orders) {
    const slot = slotOf(o);
    const live = liveInterval(o);
    if (slot === null || live === null) continue;
    const edges = bySlot.get(slot) ?? [];
    edges.push({ at: live.start, d: 1 }, { at: live.end, d: -1 });
    bySlot.set(slot, edges);
  }
  let max = 0;
  for (const edges of bySlot.values()) {
    edges.sort((a, b) => a.at - b.at || a.d - b.d);
    let open = 0;
    for (const e of edges) max = Math.max(max, (open += e.d));
  }
  return max;
}

/** The party's net base position of `pair` after every trade: its range and its last value. */
export function positionRange(
  trades: readonly TradeTruth[],
  partyId: string,
  pair: string,
): { min: Dec; max: Dec; last: Dec; fills: number } {
  let pos = new Dec(0);
  let min = pos;
  let max = pos;
  let fills = 0;
  for (const t of [...trades].filter((x) => x.pair === pair).sort((a, b) => a.at - b.at)) {
    const q = new Dec(t.quantity);
    // The maker's side is the opposite of the taker's.
    if (t.maker.partyId === partyId) pos = t.takerSide === 'BUY' ? pos.minus(q) : pos.plus(q);
    else if (t.taker.partyId === partyId) pos = t.takerSide === 'BUY' ? pos.plus(q) : pos.minus(q);
    else continue;
    fills += 1;
    if (pos.lt(min)) min = pos;
    if (pos.gt(max)) max = pos;
  }
  return { min, max, last: pos, fills };
}

/**
 * Placements that overlapped: a prepare that arrived while an earlier placement of the party was
 * between its prepare and its commit (or failure). A prepare that was never submitted (abandoned
 * before signing: the venue keeps it "pending" until it expires) awaits nothing on the ledger, so
 * it only counts as the later one of a pair. `submitted` holds the orderIds that were submitted.
 */
export { overlappingPlacements } from '../../../src/lab/simulate/figures/invariants.js';
