/**
 * Spreads and levels: where the best quotes sit relative to the reference, and how the deeper
 * levels and their sizes follow. All distances are in basis points of the reference and are
 * applied to the `Dec` reference; bps are model numbers, prices stay decimal.
 */
import { Dec, ZERO, floatNear } from '../core/decimal.js';
import type { Side } from '../core/order-terms.js';
import type { SizeUnit } from '../config/sections/strategy-params.js';
import type { PairStrategyParams } from './params.js';

const BPS = 10_000;

/**
 * A finite model number (bps, ratios) as a decimal, to 12 significant digits. Float noise such as
 * 6.000000000000001 bps would otherwise survive into the price and, rounded away from the market,
 * move a quote by a whole tick; 12 digits of a bps value are far finer than any tick.
 */
export function decOf(x: number): Dec {
  if (!Number.isFinite(x)) throw new RangeError(`not a finite number: ${x}`);
  return new Dec(x.toPrecision(12));
}

/** `1 + bps / 10 000` of the bps values seen lately: a quote cycle shifts by the same few. */
const factors = new Map<number, Dec>();
const FACTORS_MAX = 1024;

/** `x · (1 + bps / 10 000)`. */
export function shiftByBps(x: Dec, bps: number): Dec {
  let factor = factors.get(bps);
  if (factor === undefined) {
    factor = decOf(bps).div(BPS).plus(1);
    if (factors.size >= FACTORS_MAX) factors.clear();
    factors.set(bps, factor);
  }
  return x.times(factor);
}

/**
 * Where the best quotes sit before the spread clamp: the centre's shift from the reference
 * (skew or A–S reservation) and each side's distance from the centre, all in bps.
 */
export interface QuoteShape {
  readonly centerShiftBps: number;
  readonly bidBps: number;
  readonly askBps: number;
}

/** The best-quote distances from the reference after the clamp, bps (positive = away from it). */
export interface QuoteDistances {
  readonly bidBps: number;
  readonly askBps: number;
}

/**
 * Each side's distance from the reference, `bid = spread − shift`, `ask = spread + shift`,
 * clamped to `[minBps, maxBps]`. The clamp keeps both quotes on their own side of the reference
 * however far the skew or the A–S reservation moves the centre.
 */
export function clampDistances(shape: QuoteShape, p: PairStrategyParams['spread']): QuoteDistances {
  const clamp = (d: number): number => Math.min(p.maxBps, Math.max(p.minBps, d));
  return {
    bidBps: clamp(shape.bidBps - shape.centerShiftBps),
    askBps: clamp(shape.askBps + shape.centerShiftBps),
  };
}

/** The unrounded best bid and ask: `ref·(1 − bid/10⁴)` and `ref·(1 + ask/10⁴)`. */
export function bestQuotes(reference: Dec, d: QuoteDistances): { readonly bid: Dec; readonly ask: Dec } {
  return { bid: shiftByBps(reference, -d.bidBps), ask: shiftByBps(reference, d.askBps) };
}

/**
 * The unrounded price of `level` (0 = best) from the best price: `best·(1 ∓ level·spacing/10⁴)`,
 * lower for bids and higher for asks.
 */
export function levelPrice(best: Dec, side: Side, level: number, spacingBps: number): Dec {
  const bps = level * spacingBps;
  return shiftByBps(best, side === 'BUY' ? -bps : bps);
}

/** The size of `level` in the configured unit: `size + level · sizeIncrement`. */
export function levelSize(level: number, p: PairStrategyParams['levels']): { amount: Dec; unit: SizeUnit } {
  return { amount: p.size.plus(p.sizeIncrement.times(level)), unit: p.sizeUnit };
}

/** A size times `factor` (0–1, a model number): the inventory's size skew. */
export function scaledSize(
  size: { amount: Dec; unit: SizeUnit },
  factor: number,
): { amount: Dec; unit: SizeUnit } {
  return factor === 1 ? size : { amount: size.amount.times(decOf(factor)), unit: size.unit };
}

/** Powers of ten a base-10⁷ limb can hold. */
const LIMB_POWERS = new Set([1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]);

/**
 * `k` when `step` is 10⁻ᵏ with k ≥ 0 (ticks and quantity steps usually are), else null. Then
 * rounding to the step is rounding to k decimal places: the same value as dividing by the step,
 * rounding to an integer and multiplying back (a division by a power of ten is exact), without
 * the 40-digit division.
 */
function decimalPlacesOfStep(step: Dec): number | null {
  const d = step.d;
  return step.s === 1 && step.e <= 0 && d.length === 1 && LIMB_POWERS.has(d[0]!) ? -step.e : null;
}

/** `x` rounded down to a multiple of `step`. */
export function floorToStep(x: Dec, step: Dec): Dec {
  const k = decimalPlacesOfStep(step);
  return k === null ? x.div(step).floor().times(step) : x.toDecimalPlaces(k, Dec.ROUND_FLOOR);
}

/** `x` rounded up to a multiple of `step`. */
export function ceilToStep(x: Dec, step: Dec): Dec {
  const k = decimalPlacesOfStep(step);
  return k === null ? x.div(step).ceil().times(step) : x.toDecimalPlaces(k, Dec.ROUND_CEIL);
}

/**
 * The base quantity of a level at `price`: the size itself in base units, or the notional over
 * the price in quote units; rounded down to `step`.
 */
export function levelQuantity(size: { amount: Dec; unit: SizeUnit }, price: Dec, step: Dec): Dec {
  if (size.unit === 'base') return floorToStep(size.amount, step);
  return floorQuotient(size.amount, price, step) ?? floorToStep(size.amount.div(price), step);
}

/**
 * `amount / price` rounded down to `step` (a power of ten) as {@link floorToStep} gives it from the
 * 40-digit quotient, found without the division: the quotient's double gives a candidate `q`, and
 * two exact products prove `q · price ≤ amount < (q + step) · price`, with `(q + step) · price`
 * clear of `amount` by more than a 10⁻³⁰ share, where rounding the quotient to 40 digits could
 * have reached `q + step`. Null when anything is not proven: the caller divides.
 */
function floorQuotient(amount: Dec, price: Dec, step: Dec): Dec | null {
  const k = decimalPlacesOfStep(step);
  const a = floatNear(amount);
  const p = floatNear(price);
  if (k === null || k > 15 || !(a > 0) || !(p > 0)) return null;
  const scaled = Math.floor((a / p) * 10 ** k);
  if (!Number.isSafeInteger(scaled) || scaled < 1) return null;
  const q = new Dec(scaled).times(step);
  if (q.times(price).gt(amount)) return null;
  const gap = q.plus(step).times(price).minus(amount);
  return floatNear(gap) > 1e-30 * a ? q : null;
}

/**
 * The quantity raised, when needed, so that `price · quantity ≥ minNotional` (rounded up to
 * `step`). Unchanged when there is no minimum or it is already met.
 */
export function meetMinNotional(quantity: Dec, price: Dec, minNotional: Dec | null, step: Dec): Dec {
  if (minNotional === null || price.times(quantity).gte(minNotional)) return quantity;
  const q = ceilToStep(minNotional.div(price), step);
  // The quotient is rounded to 40 digits; one more step covers a quotient rounded down onto a step.
  return price.times(q).gte(minNotional) ? q : q.plus(step);
}

/**
 * {@link meetMinNotional} of {@link levelQuantity}: a level's base quantity at `price`, raised to
 * the minimum notional.
 */
export function quoteQuantity(
  size: { amount: Dec; unit: SizeUnit },
  price: Dec,
  step: Dec,
  minNotional: Dec | null,
): Dec {
  return meetMinNotional(levelQuantity(size, price, step), price, minNotional, step);
}

/** True when the quantity is positive and meets the minimum notional at `price`. */
export function meetsMinNotional(quantity: Dec, price: Dec, minNotional: Dec | null): boolean {
  return quantity.gt(ZERO) && (minNotional === null || price.times(quantity).gte(minNotional));
}
