/**
 * What the book showed of the daemon's quotes, from the venue's ground truth: the best own bid
 * and ask of a pair over time, the share of time both sides were quoted, the quoted spread, and
 * how long a quote stayed on the book after the reference price had moved beyond tolerance.
 */
import { type Dec, dec } from '../../../core/decimal.js';
import { quoteSlotOf } from '../../../orders/own-orders-view.js';
import type { OrderTruth } from '../../../sim/truth/ground-truth.js';
import { type Interval, liveInterval, measure, union } from './intervals.js';
import type { ReferenceSeries } from './reference-series.js';

/** The best own bid and ask of a pair from `at` until the next step. */
export interface QuoteStep {
  readonly at: number;
  readonly bid: Dec | null;
  readonly ask: Dec | null;
}

/** The best own bid and ask of `pair` over `[from, to]`, one step per change (first step at `from`). */
export function quoteSteps(
  orders: readonly OrderTruth[],
  pair: string,
  from: number,
  to: number,
): QuoteStep[] {
  const edges: { at: number; order: OrderTruth; on: boolean }[] = [];
  for (const o of orders) {
    if (o.pair !== pair || o.price === null) continue;
    const live = liveInterval(o);
    if (live === null || live.end <= from || live.start >= to) continue;
    edges.push({ at: Math.max(from, live.start), order: o, on: true });
    if (live.end < to) edges.push({ at: live.end, order: o, on: false });
  }
  edges.sort((a, b) => a.at - b.at);
  const live = new Set<OrderTruth>();
  const prices = new Map<OrderTruth, Dec>();
  const steps: QuoteStep[] = [{ at: from, bid: null, ask: null }];
  let i = 0;
  while (i < edges.length) {
    const at = edges[i]!.at;
    for (; i < edges.length && edges[i]!.at === at; i++) {
      const e = edges[i]!;
      if (e.on) live.add(e.order);
      else live.delete(e.order);
    }
    let bid: Dec | null = null;
    let ask: Dec | null = null;
    for (const o of live) {
      let p = prices.get(o);
      if (p === undefined) prices.set(o, (p = dec(o.price!)));
      if (o.side === 'BUY' && (bid === null || p.gt(bid))) bid = p;
      if (o.side === 'SELL' && (ask === null || p.lt(ask))) ask = p;
    }
    const last = steps[steps.length - 1]!;
    if (last.at === at) steps[steps.length - 1] = { at, bid, ask };
    else if (!same(last.bid, bid) || !same(last.ask, ask)) steps.push({ at, bid, ask });
  }
  return steps;
}

function same(a: Dec | null, b: Dec | null): boolean {
  return a === null || b === null ? a === b : a.eq(b);
}

/** Two-sided figures of one pair. */
export interface TwoSided {
  /** Ms from the run's start until both sides first rested (null: never). */
  readonly timeToTwoSidedMs: number | null;
  /** Share of the time from that moment to the end with both sides on the book, 0–1. */
  readonly shareAfterFirst: number;
  /** Share of the whole run with both sides on the book, 0–1. */
  readonly shareOverall: number;
  /** The longest stretch with a side missing after both first rested, ms. */
  readonly longestGapMs: number;
  /** Time-weighted mean of (ask − bid) / mid over the two-sided time, bps; null when never. */
  readonly avgQuotedSpreadBps: number | null;
}

/** {@link TwoSided} from the steps of one pair over `[from, to]`. */
export function twoSided(steps: readonly QuoteStep[], from: number, to: number): TwoSided {
  let first: number | null = null;
  let both = 0;
  let gapStart: number | null = null;
  let longest = 0;
  let spreadSum = 0;
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const end = Math.min(to, steps[i + 1]?.at ?? to);
    const dt = Math.max(0, end - s.at);
    if (s.bid !== null && s.ask !== null) {
      first ??= s.at;
      both += dt;
      const mid = s.bid.plus(s.ask).div(2);
      if (mid.gt(0)) spreadSum += s.ask.minus(s.bid).div(mid).times(10_000).toNumber() * dt;
      if (gapStart !== null) longest = Math.max(longest, s.at - gapStart);
      gapStart = null;
    } else if (first !== null) {
      gapStart ??= s.at;
    }
  }
  if (gapStart !== null) longest = Math.max(longest, to - gapStart);
  const span = to - from;
  return {
    timeToTwoSidedMs: first === null ? null : first - from,
    shareAfterFirst: first === null || to <= first ? 0 : both / (to - first),
    shareOverall: span > 0 ? both / span : 0,
    longestGapMs: longest,
    avgQuotedSpreadBps: both > 0 ? spreadSum / both : null,
  };
}

/**
 * The most two-sided time the venue allowed after the run's full fills: an order filled in full
 * leaves its side empty (unless another order of that side rests) until a new one is placed, and
 * no placement takes less than `placementMs`. Returns the share of `[firstAt, to)` outside those
 * windows, 0–1 (1 when `firstAt` is null or there is no time).
 */
export function fullFillBound(
  orders: readonly OrderTruth[],
  pair: string,
  placementMs: number,
  firstAt: number | null,
  to: number,
): { readonly fullFills: number; readonly bound: number } {
  const mine = orders.filter((o) => o.pair === pair);
  const lives = mine.map((o) => ({ o, live: liveInterval(o) }));
  const windows: Interval[] = [];
  let fullFills = 0;
  for (const { o, live } of lives) {
    const filled = o.history.find((h) => h.status === 'FILLED')?.at;
    if (filled === undefined || live === null) continue;
    fullFills += 1;
    const covered = lives.some(
      (x) =>
        x.o !== o && x.o.side === o.side && x.live !== null && x.live.start <= filled && x.live.end > filled,
    );
    if (!covered) windows.push({ start: filled, end: Math.min(to, filled + placementMs) });
  }
  if (firstAt === null || to <= firstAt) return { fullFills, bound: 1 };
  return { fullFills, bound: 1 - measure(union(windows), firstAt, to) / (to - firstAt) };
}

/** Requote latencies of a run. */
export interface Requotes {
  /** Ms from the reference leaving the tolerance band to the next order of the slot resting. */
  readonly latenciesMs: readonly number[];
  /**
   * The same latencies split by the move's direction: `toward` the order (the reference fell
   * under a bid's base or rose over an ask's, so the order was left too aggressive: the move that
   * gets a quote picked off) and `away` from it (the order was left too passive: it trades less).
   */
  readonly towardMs: readonly number[];
  readonly awayMs: readonly number[];
  /** Moves after which no new order of the slot rested before the end of the run. */
  readonly censored: number;
}

/**
 * For every order that rested: the reference when it was prepared (when the daemon last judged
 * its price right) is its base; the first moment while it rested that the reference stood more
 * than `toleranceBps` from that base is a move, and the requote is the next order of the same
 * quote slot coming to rest. Slots come from `slots` (clientOrderId → registry slot), else pair
 * and side.
 */
export function requoteLatencies(
  orders: readonly OrderTruth[],
  slots: ReadonlyMap<string, string>,
  references: ReadonlyMap<string, ReferenceSeries>,
  toleranceBps: number,
  end: number,
): Requotes {
  const bySlot = new Map<string, { order: OrderTruth; start: number; end: number }[]>();
  for (const o of orders) {
    const live = liveInterval(o);
    if (live === null) continue;
    const registry = o.clientOrderId === null ? null : (slots.get(o.clientOrderId) ?? null);
    const slot = quoteSlotOf(registry) ?? `${o.pair}:${o.side}`;
    const list = bySlot.get(slot) ?? [];
    list.push({ order: o, start: live.start, end: Math.min(live.end, end) });
    bySlot.set(slot, list);
  }
  const latencies: number[] = [];
  const toward: number[] = [];
  const away: number[] = [];
  let censored = 0;
  for (const list of bySlot.values()) {
    list.sort((a, b) => a.start - b.start);
    list.forEach((x, i) => {
      const series = references.get(x.order.pair);
      const base = series?.at(x.order.createdAt) ?? null;
      if (series === undefined || base === null) return;
      const moved = series.firstMoveBeyond(base, toleranceBps, x.start, x.end);
      if (moved === null) return;
      let next: number | null = null;
      for (let j = i + 1; j < list.length && next === null; j++) {
        if (list[j]!.start >= moved) next = list[j]!.start;
      }
      if (next === null) {
        censored += 1;
        return;
      }
      latencies.push(next - moved);
      const ref = series.at(moved);
      const fell = ref !== null && ref.lt(base);
      // A bid is left too aggressive when the reference falls, an ask when it rises.
      (fell === (x.order.side === 'BUY') ? toward : away).push(next - moved);
    });
  }
  return { latenciesMs: latencies, towardMs: toward, awayMs: away, censored };
}

/** The `q`-quantile (0–1) of `values` by nearest rank; null when empty. */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}
