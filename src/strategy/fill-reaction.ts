/**
 * The reaction to a fill (Hummingbot's `filled_order_delay`, softened so the side stays quoted):
 * for `fillReaction.forMs` after a side of the pair filled, that side sits `fillReaction.widenBps`
 * further from the reference. The inventory skew needs no help: the wallet the skew reads already
 * carries the fill. A flow that keeps hitting one side then pays more for each further fill.
 */
import type { PairStrategyParams } from './params.js';
import type { QuoteShape } from './spread-levels.js';

/** See the module doc. */
export function afterFills<S extends QuoteShape>(
  shape: S,
  pair: string,
  now: number,
  lastFillAt: Readonly<Record<string, number>> | undefined,
  p: PairStrategyParams['fillReaction'],
): S {
  if (lastFillAt === undefined || p.widenBps === 0 || p.forMs === 0) return shape;
  const recent = (side: 'BUY' | 'SELL'): boolean => {
    const at = lastFillAt[`${pair}:${side}`];
    return at !== undefined && now - at < p.forMs;
  };
  const bid = recent('BUY') ? p.widenBps : 0;
  const ask = recent('SELL') ? p.widenBps : 0;
  if (bid === 0 && ask === 0) return shape;
  return { ...shape, bidBps: shape.bidBps + bid, askBps: shape.askBps + ask };
}
