/**
 * The cost floor (`strategy.*.inventory.costFloorBps`, 0 = off): the side that reduces the
 * position is not quoted through the position's cost basis by more than `costFloorBps`. Long,
 * the asks stay at or above `average × (1 − bps/10 000)`; short, the bids stay at or below
 * `average × (1 + bps/10 000)`. A price already on the right side of the floor is kept; one
 * beyond it is moved to the floor (rounded away from the market, so never through it). The side
 * that adds to the position is never touched, and nothing is floored while the inventory gate
 * says the position must shrink (the adding side is shut by a hard inventory limit): getting out
 * then matters more than the price. Pure.
 */
import type { Dec } from '../core/decimal.js';
import type { Side } from '../core/order-terms.js';
import { roundAway } from './price-guards.js';

/** A pair's position from its fills and its average entry price (null when flat). */
export interface PairCost {
  readonly position: Dec;
  readonly averagePrice: Dec | null;
  /** The risk gate's inventory guard holds the pair reducing (at or beyond its limit). */
  readonly mustShrink?: boolean;
}

/** The floor of one side: quotes of `side` must not go beyond `price`. */
export interface CostFloor {
  readonly side: Side;
  readonly price: Dec;
}

/**
 * The floor for a pair now, or null: when off (`bps` 0), flat, without a cost basis, or when the
 * position must shrink.
 */
export function costFloor(cost: PairCost | undefined, bps: number, mustShrink: boolean): CostFloor | null {
  if (bps <= 0 || mustShrink || cost === undefined || cost.averagePrice === null) return null;
  if (cost.mustShrink === true) return null;
  if (cost.position.isZero()) return null;
  const long = cost.position.gt(0);
  const shift = cost.averagePrice.times(bps).div(10_000);
  return long
    ? { side: 'SELL', price: cost.averagePrice.minus(shift) }
    : { side: 'BUY', price: cost.averagePrice.plus(shift) };
}

/**
 * `price` of `side` held to `floor` (a price of another side, or without a floor, is returned
 * as it is). The floor is rounded away from the market to `tick`: up for an ask, down for a bid.
 */
export function holdToFloor(side: Side, price: Dec, floor: CostFloor | null, tick: Dec): Dec {
  if (floor === null || floor.side !== side) return price;
  const limit = roundAway(floor.price, side, tick);
  if (side === 'SELL') return price.lt(limit) ? limit : price;
  return price.gt(limit) ? limit : price;
}
