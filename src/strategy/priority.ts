/**
 * The rank of a placement. Every placement costs about 45 s of the party's only pipeline, so the
 * reconciler orders them by what matters most. Lower runs first:
 *
 *     priority = tier · 10 000 000 + distance · 1 000 + pairFill
 *
 * - `tier` is 0 for the innermost desired level of a side that has no live order at all (the
 *   side is not quoted), else 1. A side with nothing on the book is the worst gap.
 * - `distance` is the quote's distance from its reference in whole bps, capped at 9 999:
 *   closer quotes are the ones that trade, so they go first.
 * - `pairFill` is `round(999 · fulfilled / desired)` for the quote's pair, where `fulfilled`
 *   counts the pair's desired slots that need no placement (an order kept within tolerance, or
 *   one already in flight): among quotes equally far out, the pair furthest from its target
 *   (fewest live quotes) goes first.
 *
 * For a quote that carries its own tolerance (a latency-aware model), `distance` is instead
 * `9 999 − min(9 999, round(10 · staleness))`, where `staleness` is how far the order it replaces
 * has drifted from the desired edge, in units of σ (bps per √s) times its notional share of
 * the pair's desired notional: the most stale quote, weighted by size, is repriced first. A
 * missing quote (nothing to replace) has the largest staleness.
 *
 * The three terms never overlap (distance < 10⁴, pairFill < 10³), so the order is lexicographic:
 * tier, then distance, then pair.
 */
import type { Dec } from '../core/decimal.js';
import type { OwnOrderView } from '../market/market-snapshot.js';
import type { DesiredQuote } from './quote-types.js';

/** Weight of the tier term. */
export const TIER_WEIGHT = 10_000_000;
/** Weight of the distance term. */
export const DISTANCE_WEIGHT = 1_000;
/** Cap of the distance term, bps. */
export const MAX_DISTANCE_BPS = 9_999;

/** True when `o` may be (or may soon be) on the book: resting and not being cancelled, being placed, or unknown. */
export function isLive(o: OwnOrderView): boolean {
  return o.unknown || (!o.cancelling && o.remaining.gt(0));
}

/** The distance of `price` from `reference`, whole bps (floored), capped at {@link MAX_DISTANCE_BPS}. */
export function distanceBps(price: Dec, reference: Dec): number {
  if (!reference.gt(0)) return MAX_DISTANCE_BPS;
  const bps = price.minus(reference).abs().div(reference).times(10_000).floor().toNumber();
  return Math.min(MAX_DISTANCE_BPS, bps);
}

/** What the ranking needs to know about the whole desired set. */
export interface PriorityContext {
  /** Per pair: [slots desired, slots that need no placement]. */
  readonly fill: ReadonlyMap<string, { readonly desired: number; readonly fulfilled: number }>;
  /** `pair:side` keys with at least one live order. */
  readonly liveSides: ReadonlySet<string>;
  /** Per `pair:side`: the innermost desired level. */
  readonly innermost: ReadonlyMap<string, number>;
  /** Mean desired notional of a quote, per pair (for the size weight of staleness). */
  readonly meanNotional: ReadonlyMap<string, number>;
}

/** The quote's notional over its pair's mean desired notional (1 when unknown). */
function sizeWeight(quote: DesiredQuote, ctx: PriorityContext): number {
  const mean = ctx.meanNotional.get(quote.pair);
  if (mean === undefined || !(mean > 0)) return 1;
  return notionalOf(quote) / mean;
}

/** Each quote's notional as a double, while its price and quantity are the same decimals. */
const notionals = new WeakMap<
  DesiredQuote,
  { readonly price: Dec; readonly quantity: Dec; readonly value: number }
>();

/** `price × quantity` of a quote as a double (a statistic): asked for the context, then the rank. */
function notionalOf(q: DesiredQuote): number {
  const known = notionals.get(q);
  if (known !== undefined && known.price === q.price && known.quantity === q.quantity) return known.value;
  const value = q.price.times(q.quantity).toNumber();
  notionals.set(q, { price: q.price, quantity: q.quantity, value });
  return value;
}

/** Builds the {@link PriorityContext} of a reconcile pass. */
export function priorityContext(
  desired: readonly DesiredQuote[],
  own: readonly OwnOrderView[],
  fulfilledSlots: ReadonlySet<string>,
): PriorityContext {
  const fill = new Map<string, { desired: number; fulfilled: number }>();
  const innermost = new Map<string, number>();
  const notional = new Map<string, number>();
  for (const q of desired) {
    notional.set(q.pair, (notional.get(q.pair) ?? 0) + notionalOf(q));
    const f = fill.get(q.pair) ?? { desired: 0, fulfilled: 0 };
    f.desired += 1;
    if (fulfilledSlots.has(q.slot)) f.fulfilled += 1;
    fill.set(q.pair, f);
    const side = `${q.pair}:${q.side}`;
    innermost.set(side, Math.min(innermost.get(side) ?? q.level, q.level));
  }
  const liveSides = new Set(own.filter(isLive).map((o) => `${o.pair}:${o.side}`));
  const meanNotional = new Map<string, number>();
  for (const [pair, total] of notional) meanNotional.set(pair, total / (fill.get(pair)?.desired ?? 1));
  return { fill, liveSides, innermost, meanNotional };
}

/**
 * How stale the order `replaces` is against `quote`, in σ units (see the module doc); null for a
 * quote without its own tolerance.
 */
export function stalenessSigma(quote: DesiredQuote, replaces: OwnOrderView | null): number | null {
  const t = quote.tolerance;
  if (t === undefined) return null;
  if (replaces === null || !(t.sigmaBps > 0)) return MAX_DISTANCE_BPS;
  const edge = (side: 'BUY' | 'SELL', price: Dec): number => {
    const away = side === 'BUY' ? quote.reference.minus(price) : price.minus(quote.reference);
    return away.div(quote.reference).times(10_000).toNumber();
  };
  return Math.abs(edge(replaces.side, replaces.price) - edge(quote.side, quote.price)) / t.sigmaBps;
}

/** The priority of placing `quote` (see the module doc for the formula). */
export function placementPriority(
  quote: DesiredQuote,
  ctx: PriorityContext,
  replaces: OwnOrderView | null = null,
): number {
  const side = `${quote.pair}:${quote.side}`;
  const missingBest = !ctx.liveSides.has(side) && ctx.innermost.get(side) === quote.level;
  const f = ctx.fill.get(quote.pair);
  const pairFill = f === undefined || f.desired === 0 ? 0 : Math.round((999 * f.fulfilled) / f.desired);
  const stale = stalenessSigma(quote, replaces);
  const distance =
    stale === null
      ? distanceBps(quote.price, quote.reference)
      : MAX_DISTANCE_BPS - Math.min(MAX_DISTANCE_BPS, Math.round(10 * stale * sizeWeight(quote, ctx)));
  return (missingBest ? 0 : 1) * TIER_WEIGHT + distance * DISTANCE_WEIGHT + pairFill;
}
