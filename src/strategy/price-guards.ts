/**
 * Price guards: rounding away from the market, the no-cross rule against the book and our own
 * orders, and the price band. Every function is pure and works on `Dec`.
 */
import { Dec, ZERO } from '../core/decimal.js';
import type { OwnOrderView } from '../market/market-snapshot.js';
import type { Side } from '../core/order-terms.js';
import { ceilToStep, floorToStep } from './spread-levels.js';

/** The venue refuses (never rounds) a price with more decimal places than this. */
export const MAX_PRICE_DECIMALS = 10;

/** The smallest price step the venue accepts: 10⁻¹⁰. */
export const MIN_PRICE_STEP: Dec = new Dec(1).div(new Dec(10).pow(MAX_PRICE_DECIMALS));

/** The tick in force: the configured one, else 10⁻¹⁰. */
export function effectiveTick(tick: Dec | null): Dec {
  return tick ?? MIN_PRICE_STEP;
}

/**
 * Rounds away from the market: a BUY down, a SELL up, to a multiple of `tick`, and then (for a
 * tick finer than 10⁻¹⁰) to at most 10 decimal places in the same direction.
 */
export function roundAway(price: Dec, side: Side, tick: Dec): Dec {
  const onTick = side === 'BUY' ? floorToStep(price, tick) : ceilToStep(price, tick);
  if (onTick.decimalPlaces() <= MAX_PRICE_DECIMALS) return onTick;
  return side === 'BUY' ? floorToStep(onTick, MIN_PRICE_STEP) : ceilToStep(onTick, MIN_PRICE_STEP);
}

/** The prices a new quote of one side must stay strictly inside. */
export interface CrossLimits {
  /** A new bid must be below this: min(best ask without own orders, our lowest ask). */
  readonly bidBelow: Dec | null;
  /** A new ask must be above this: max(best bid without own orders, our highest bid). */
  readonly askAbove: Dec | null;
}

function minOf(a: Dec | null, b: Dec | null): Dec | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.lt(b) ? a : b;
}

function maxOf(a: Dec | null, b: Dec | null): Dec | null {
  if (a === null) return b;
  if (b === null) return a;
  return a.gt(b) ? a : b;
}

/**
 * The no-cross limits of `pair` from the own-less book's best prices and our own orders. Every
 * own order counts, whatever its state: an order being placed, unknown or being cancelled may
 * rest on the book, and a new quote must never trade against it.
 */
export function crossLimits(
  best: { readonly bestBid: Dec | null; readonly bestAsk: Dec | null },
  own: readonly OwnOrderView[],
  pair: string,
): CrossLimits {
  let ownLowestAsk: Dec | null = null;
  let ownHighestBid: Dec | null = null;
  for (const o of own) {
    if (o.pair !== pair || !o.remaining.gt(ZERO)) continue;
    if (o.side === 'SELL') ownLowestAsk = minOf(ownLowestAsk, o.price);
    else ownHighestBid = maxOf(ownHighestBid, o.price);
  }
  return { bidBelow: minOf(best.bestAsk, ownLowestAsk), askAbove: maxOf(best.bestBid, ownHighestBid) };
}

/**
 * A price that does not cross: a bid at or above `bidBelow` becomes one tick under it, an ask at
 * or below `askAbove` one tick over it; then rounded away from the market. Null when no positive
 * price is left (a bid limit at or below one tick).
 */
export function noCross(price: Dec, side: Side, limits: CrossLimits, tick: Dec): Dec | null {
  let p = price;
  if (side === 'BUY' && limits.bidBelow !== null && p.gte(limits.bidBelow)) p = limits.bidBelow.minus(tick);
  if (side === 'SELL' && limits.askAbove !== null && p.lte(limits.askAbove)) p = limits.askAbove.plus(tick);
  const rounded = roundAway(p, side, tick);
  return rounded.gt(ZERO) ? rounded : null;
}

/** True when `price` would cross: a bid at or above `bidBelow`, an ask at or below `askAbove`. */
export function crosses(price: Dec, side: Side, limits: CrossLimits): boolean {
  if (side === 'BUY') return limits.bidBelow !== null && price.gte(limits.bidBelow);
  return limits.askAbove !== null && price.lte(limits.askAbove);
}

/** True when `price` is within `[floor, ceiling]` (either may be absent). */
export function inBand(price: Dec, floor: Dec | null, ceiling: Dec | null): boolean {
  return (floor === null || price.gte(floor)) && (ceiling === null || price.lte(ceiling));
}
