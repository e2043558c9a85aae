import { Decimal } from 'decimal.js';

/**
 * The project's decimal type. Money and quantities are always `Dec` values in memory and
 * decimal strings on the wire; a JS `number` never holds either.
 *
 * A dedicated constructor keeps our precision and rounding settings independent of anything
 * else in the process that configures the global `Decimal`.
 */
export const Dec = Decimal.clone({
  precision: 40,
  rounding: Decimal.ROUND_HALF_EVEN,
  toExpNeg: -30,
  toExpPos: 40,
});
/** An instance of {@link Dec}. */
export type Dec = Decimal;

/** The pattern of a plain decimal string as the venue sends it: optional sign, digits, optional fraction. */
export const DECIMAL_STRING = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Strings parsed lately and their values. Polls parse the same prices and quantities over and
 * over (book levels, the trades window); a `Dec` is immutable, so one value serves every caller.
 */
const parsed = new Map<string, Dec>();
const PARSED_MAX = 4096;

/** Parses a wire decimal string. Throws on anything that is not a plain decimal. */
export function dec(value: string | Dec): Dec {
  if (typeof value !== 'string') return value;
  const known = parsed.get(value);
  if (known !== undefined) return known;
  if (!DECIMAL_STRING.test(value)) throw new TypeError(`not a decimal string: ${JSON.stringify(value)}`);
  const d = new Dec(value);
  if (parsed.size >= PARSED_MAX) parsed.clear();
  parsed.set(value, d);
  return d;
}

/** Renders a decimal for the wire: plain notation, no exponent, trailing zeros removed. */
export function toWire(value: Dec): string {
  const s = value.toFixed();
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Number of decimal places written in `value`'s shortest plain form. */
export function decimalPlaces(value: Dec): number {
  return value.decimalPlaces();
}

/** The decimal zero. */
export const ZERO: Dec = new Dec(0);

/**
 * Double values of the decimals seen (`toNumber` goes through a string; a price is compared many
 * times over its life). Keys are held weakly. For estimates, orderings and statistics only: a
 * double never stands for money.
 */
const floats = new WeakMap<Dec, number>();

/** `x.toNumber()`, remembered per value. */
export function floatOf(x: Dec): number {
  let f = floats.get(x);
  if (f === undefined) {
    f = x.toNumber();
    floats.set(x, f);
  }
  return f;
}

/**
 * `a.cmp(b)` (−1, 0, 1), decided by the doubles when they differ: rounding to the nearest double
 * never reverses an order, so `floatOf(a) < floatOf(b)` implies `a < b`. Equal doubles (or NaN)
 * take the decimal comparison, which also copies its argument; most comparisons skip that.
 */
export function compareDec(a: Dec, b: Dec): number {
  const x = floatOf(a);
  const y = floatOf(b);
  if (x < y) return -1;
  if (x > y) return 1;
  return a.cmp(b);
}
