/**
 * The inventory limit. A pair whose net base position is at or beyond its limit is `reducing`:
 * it places only orders on the side that shrinks the position, and its orders on the other side
 * are cancelled. In every state, a placement is checked against the worst case: the position
 * if this order and every same-side order of ours still working on the pair all filled. It is
 * refused when that worst case is beyond the limit, unless it only shrinks the position without
 * crossing zero.
 *
 * Limits: `maxInventoryNotional` (|position| × mid, quote units) always, and the pair's
 * `maxInventory` (base units) when configured.
 */
import type { Dec } from '../core/decimal.js';
import type { Side } from '../core/order-terms.js';
import type { RiskParams } from './risk-types.js';

/** One pair's inventory limits. */
export interface InventoryLimits {
  /** Base units; null when the pair has no base limit. */
  readonly maxBase: Dec | null;
  /** Quote units, valued at the mid. */
  readonly maxNotional: Dec;
}

/** The limits of `pair`. */
export function inventoryLimitsFor(pair: string, params: RiskParams): InventoryLimits {
  return { maxBase: params.pairLimits[pair]?.maxInventory ?? null, maxNotional: params.maxInventoryNotional };
}

/** How far `position` is from the limits: 'within', 'at' (on a limit) or 'beyond'. */
export function inventoryStanding(
  position: Dec,
  mid: Dec | null,
  limits: InventoryLimits,
): 'within' | 'at' | 'beyond' {
  const size = position.abs();
  const cmps: number[] = [];
  if (limits.maxBase !== null) cmps.push(size.cmp(limits.maxBase));
  if (mid !== null) cmps.push(size.times(mid).cmp(limits.maxNotional));
  const worst = Math.max(-1, ...cmps);
  return worst > 0 ? 'beyond' : worst === 0 ? 'at' : 'within';
}

/** The side that shrinks `position`: SELL when long, BUY when short, null when flat. */
export function reducingSide(position: Dec): Side | null {
  if (position.gt(0)) return 'SELL';
  if (position.lt(0)) return 'BUY';
  return null;
}

/** The position after a fill of `quantity` on `side`. */
export function afterFill(position: Dec, side: Side, quantity: Dec): Dec {
  return side === 'BUY' ? position.plus(quantity) : position.minus(quantity);
}

/**
 * Checks one placement: `working` is the remaining quantity of our other orders on the same
 * pair and side that may still fill. Returns null when allowed, else why not.
 */
export function checkInventoryPlacement(
  position: Dec,
  working: Dec,
  side: Side,
  quantity: Dec,
  mid: Dec | null,
  limits: InventoryLimits,
): string | null {
  const worst = afterFill(position, side, working.plus(quantity));
  if (inventoryStanding(worst, mid, limits) !== 'beyond') return null;
  const shrinksWithoutCrossing = worst.abs().lte(position.abs()) && worst.times(position).gte(0);
  if (shrinksWithoutCrossing) return null;
  return `position ${position.toFixed()} would reach ${worst.toFixed()} if this and the working ${side} orders filled, beyond the inventory limit`;
}
