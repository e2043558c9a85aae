/**
 * The one place where the market model's floats become decimals. The model does its maths in
 * `number` (random draws, exponentials); every price and quantity handed to the port goes through
 * here first, so it is a `Dec` on a fixed grid of `10^−decimals`.
 */
import { Dec } from '../../core/decimal.js';

/** How a float is brought onto the grid. */
export type RoundingMode = 'floor' | 'ceil' | 'nearest';

/** Largest scaled magnitude for which the fast integer path is exact enough. */
const FAST_PATH_LIMIT = 2 ** 52;

/**
 * Relative distance within which a value counts as already on the grid. Float products such as
 * `100 · (1 − 0.9) = 9.999999999999998` would otherwise floor a whole tick too far.
 */
const SNAP = 1e-12;

/**
 * `x` rounded to `decimals` places in the given direction, as a `Dec`.
 *
 * `floor` and `ceil` are used for prices that must not cross a bound (a background bid may not be
 * above its intended distance, a taker's buy limit may not exceed its δ); `nearest` for sizes.
 * Values within a relative 1e-12 of a grid point snap to it (float noise, not intent). Throws on
 * a non-finite input, which would be a bug in the model.
 */
export function quantize(x: number, decimals: number, mode: RoundingMode): Dec {
  const units = toUnits(x, decimals, mode);
  if (units !== undefined) return unitsToDec(units, decimals);
  const rounding = mode === 'floor' ? Dec.ROUND_FLOOR : mode === 'ceil' ? Dec.ROUND_CEIL : Dec.ROUND_HALF_UP;
  return new Dec(x).toDecimalPlaces(decimals, rounding);
}

/**
 * `x` in whole grid units (`x · 10^decimals`, rounded as {@link quantize} rounds), or `undefined`
 * when that integer is too large to be exact in a float (then use {@link quantize}). Lets hot
 * paths compare and add grid values as integers before building decimals.
 */
export function toUnits(x: number, decimals: number, mode: RoundingMode): number | undefined {
  if (!Number.isFinite(x)) throw new RangeError(`cannot quantize ${x}`);
  if (!Number.isInteger(decimals) || decimals < 0) throw new RangeError(`bad decimals ${decimals}`);
  const scaled = x * 10 ** decimals;
  if (!(Math.abs(scaled) < FAST_PATH_LIMIT)) return undefined;
  const nearest = Math.round(scaled);
  if (mode === 'nearest' || Math.abs(scaled - nearest) <= SNAP * Math.max(1, Math.abs(scaled)))
    return nearest;
  return mode === 'floor' ? Math.floor(scaled) : Math.ceil(scaled);
}

/** `units · 10^−decimals` for an integer `units`, built from a string so no float rounding creeps in. */
export function unitsToDec(units: number, decimals: number): Dec {
  if (!Number.isSafeInteger(units)) throw new RangeError(`not a safe integer: ${units}`);
  const negative = units < 0;
  let digits = String(Math.abs(units));
  if (decimals > 0) {
    digits = digits.padStart(decimals + 1, '0');
    digits = `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  }
  return new Dec(negative ? `-${digits}` : digits);
}

/** The grid step `10^−decimals` as a float (one tick, one quantity step). */
export function gridStep(decimals: number): number {
  return 10 ** -decimals;
}
