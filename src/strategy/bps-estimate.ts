/**
 * Distances in bps between decimals, estimated in floating point with a bound on the error, so
 * that the reconciler decides "is this order within its band, is it toxic" without a 40-digit
 * decimal division when the estimate is clear of the threshold. A close call returns null here,
 * and the caller computes the exact decimal distance as before. The decision is therefore always
 * the one the exact computation makes; only its cost changes (the divisions were 5 % of a
 * simulation's CPU). Prices and sizes stay decimals: the floats are thrown away after comparing.
 *
 * The bound. With `p` and `r` each read as a double within a relative ε = 10⁻¹⁵ (`floatNear`),
 * the estimate `((r − p) / r) · 10⁴` computed in doubles is off from the true value by at most
 * about `10⁴ · 2ε · (1 + |p / r|) + 2ε · |edge|` bps: under 3·10⁻⁸ bps while `|p / r| ≤ 10³`
 * (beyond that the estimate is refused). The exact path's double (a 40-digit quotient, rounded
 * once) is within half an ulp of the true value. A comparison is decided by the estimate only
 * when it is more than {@link DECISIVE_MARGIN_BPS} (10⁻⁶ bps, over 30 times the bound) from its
 * threshold.
 */
import { type Dec, floatNear } from '../core/decimal.js';

/** How far an estimate must be from a threshold for the comparison to be decided by it. */
export const DECISIVE_MARGIN_BPS = 1e-6;

/** Largest `|a / b|` for which an estimate is given. */
const MAX_RATIO = 1_000;

/**
 * An estimate of the reconciler's `edgeBps(side, price, reference)`: the distance from the
 * reference in bps, positive on the order's own side. Null when the reference is not positive
 * (the exact function then answers 0) or the bound does not hold.
 */
export function edgeEstimate(side: 'BUY' | 'SELL', price: Dec, reference: Dec): number | null {
  const r = floatNear(reference);
  const p = floatNear(price);
  if (!(r > 0) || !(Math.abs(p) <= MAX_RATIO * r)) return null;
  return ((side === 'BUY' ? r - p : p - r) / r) * 10_000;
}

/** An estimate of `|a − b| / b` in bps (b > 0), or null when b is not positive or the bound does not hold. */
export function offEstimate(a: Dec, b: Dec): number | null {
  const y = floatNear(b);
  const x = floatNear(a);
  if (!(y > 0) || !(Math.abs(x) <= MAX_RATIO * y)) return null;
  return (Math.abs(x - y) / y) * 10_000;
}

/**
 * True when an estimate `x` is far enough from `threshold` for a comparison of the two to have the
 * exact value's answer. Infinite thresholds are always clear of a finite estimate; NaN never is.
 */
export function decisive(x: number, threshold: number): boolean {
  return Math.abs(x - threshold) > DECISIVE_MARGIN_BPS;
}
