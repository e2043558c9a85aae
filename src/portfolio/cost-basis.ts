/**
 * Cost basis by the average-cost method: a pair's fills, in order, folded into the open
 * position, its average entry price, and the PnL split into realised and unrealised.
 *
 * - A fill that opens or adds to the position moves the average entry price to the
 *   quantity-weighted mean of the old average and the fill's price.
 * - A fill that reduces the position realises `closed × (price − average)` (signed by the
 *   position: a short gains when it buys back below its average); the average is unchanged.
 * - A fill through zero (a flip) closes the whole position at the average and opens the rest on
 *   the other side at the fill's own price. A position closed to exactly zero has no average.
 * - A fee (quote units) is charged to realised PnL when it is paid, on any fill.
 * - A fill without a price (a MARKET order) cannot be costed: it is counted in `unpriced` and
 *   otherwise left out (never guessed), as the inventory leaves its quote leg out.
 *
 * With no fees, `realised + unrealised(mark)` equals the pair's marked PnL
 * (`quote + base × mark`) whatever the fills. Pure: decimals in, decimals out.
 */
import { ZERO, type Dec } from '../core/decimal.js';

/** One fill as the cost basis reads it. */
export interface CostFill {
  readonly side: string;
  /** Quote per base; null when unknown. */
  readonly price: Dec | null;
  /** Base units, positive. */
  readonly quantity: Dec;
  /** Quote units paid (default zero: registered market makers are fee-exempt). */
  readonly fee?: Dec | null;
}

/** The cost basis of one pair's position. */
export interface CostBasis {
  /** Net base position of the costed fills (negative: short). */
  readonly position: Dec;
  /** Average entry price of the open position; null when flat. */
  readonly averagePrice: Dec | null;
  /** Realised PnL, quote units, fees deducted. */
  readonly realised: Dec;
  /** Fees paid, quote units (already in `realised`). */
  readonly fees: Dec;
  /** Fills left out for want of a price. */
  readonly unpriced: number;
}

/** A flat position with nothing realised. */
export const FLAT: CostBasis = {
  position: ZERO,
  averagePrice: null,
  realised: ZERO,
  fees: ZERO,
  unpriced: 0,
};

/** The cost basis after one more fill. Throws RangeError on a non-positive quantity or an unknown side. */
export function foldFill(basis: CostBasis, fill: CostFill): CostBasis {
  if (!fill.quantity.gt(ZERO)) throw new RangeError('a fill quantity must be positive');
  if (fill.side !== 'BUY' && fill.side !== 'SELL') throw new RangeError(`unknown fill side ${fill.side}`);
  if (fill.price === null) return { ...basis, unpriced: basis.unpriced + 1 };
  const fee = fill.fee ?? ZERO;
  const price = fill.price;
  const signed = fill.side === 'BUY' ? fill.quantity : fill.quantity.neg();
  const pos = basis.position;
  const avg = basis.averagePrice ?? price;
  const fees = basis.fees.plus(fee);
  if (pos.isZero() || pos.isNeg() === signed.isNeg()) {
    // Opening or adding: the weighted mean of the old average and this price.
    const size = pos.abs().plus(signed.abs());
    const average = pos.abs().times(avg).plus(signed.abs().times(price)).div(size);
    return {
      ...basis,
      position: pos.plus(signed),
      averagePrice: average,
      realised: basis.realised.minus(fee),
      fees,
    };
  }
  // Reducing: what closes realises against the average; what is left over opens at this price.
  const closed = smaller(pos.abs(), signed.abs());
  const gain = closed.times(price.minus(avg)).times(pos.isNeg() ? -1 : 1);
  const next = pos.plus(signed);
  const averagePrice = next.isZero() ? null : next.isNeg() === pos.isNeg() ? avg : price;
  return { ...basis, position: next, averagePrice, realised: basis.realised.plus(gain).minus(fee), fees };
}

/** The cost basis of `fills`, in order. */
export function costBasisOf(fills: Iterable<CostFill>, start: CostBasis = FLAT): CostBasis {
  let b = start;
  for (const f of fills) b = foldFill(b, f);
  return b;
}

/** Unrealised PnL at `mark`: `position × (mark − average)`; zero when flat, null without a mark. */
export function unrealisedAt(basis: CostBasis, mark: Dec | null): Dec | null {
  if (basis.averagePrice === null) return ZERO;
  if (mark === null) return null;
  return basis.position.times(mark.minus(basis.averagePrice));
}

function smaller(a: Dec, b: Dec): Dec {
  return a.lt(b) ? a : b;
}
