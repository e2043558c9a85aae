/**
 * The project's decimal type. Money and quantities are always `Dec` values in memory and
 * decimal strings on the wire; a JS `number` never holds either.
 *
 * A dedicated constructor keeps our precision and rounding settings independent of anything
 * else in the process that configures the global `Decimal`.
 */
import { Decimal } from 'decimal.js';

/** See the module doc. */
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
  // Only trailing '0's and '.' after a '.' are trimmed; decimal.js writes neither, so the
  // regexes rarely run (this renders every decimal of every simulated venue answer).
  const last = s.charCodeAt(s.length - 1);
  return (last === 48 || last === 46) && s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Number of decimal places written in `value`'s shortest plain form. */
export function decimalPlaces(value: Dec): number {
  return value.decimalPlaces();
}

/** The decimal zero. */
export const ZERO: Dec = new Dec(0);

/** `POW10[k - POW10_MIN]` is the double nearest 10^k. */
const POW10_MIN = -300;
const POW10_MAX = 300;
const POW10 = Float64Array.from({ length: POW10_MAX - POW10_MIN + 1 }, (_, i) =>
  Number(`1e${i + POW10_MIN}`),
);

/** Base-10⁷ limbs read by {@link floatNear}: at least 22 significant digits. */
const LIMBS = 4;

/**
 * A double within a relative 10⁻¹⁵ of `x` (about 7 roundings of 2⁻⁵³ each), read from the
 * decimal's base-10⁷ digits (`d`, `e`, `s` of decimal.js) without the string `toNumber` goes
 * through. NaN for NaN, infinities and magnitudes beyond 10^±290, where that bound would not
 * hold; 0 for zero. For estimates and orderings only, whose callers fall back to the decimals
 * when the estimate is too close to call: a double never stands for money.
 */
export function floatNear(x: Dec): number {
  const d = x.d;
  if (d === null || d === undefined) return Number.NaN;
  const d0 = d[0]!;
  if (d0 === 0) return 0;
  const k = d0 >= 1e6 ? 7 : d0 >= 1e5 ? 6 : d0 >= 1e4 ? 5 : d0 >= 1e3 ? 4 : d0 >= 100 ? 3 : d0 >= 10 ? 2 : 1;
  const n = Math.min(LIMBS, d.length);
  let m = d0;
  for (let i = 1; i < n; i++) m = m * 1e7 + d[i]!;
  const scale = x.e - k + 1 - 7 * (n - 1);
  if (scale < POW10_MIN || scale > POW10_MAX) return Number.NaN;
  const v = m * POW10[scale - POW10_MIN]!;
  if (!(Math.abs(v) > 1e-290 && Math.abs(v) < 1e290)) return Number.NaN;
  return x.s < 0 ? -v : v;
}

/** `toNumber()` of each decimal seen, remembered by the (immutable) value. */
const floats = new WeakMap<Dec, number>();

/**
 * `x.toNumber()`, remembered for as long as `x` lives: a statistic over a price history reads
 * the same samples on every pass (a poll's new history shares every older sample). Floats for
 * statistics only; a double never stands for money.
 */
export function floatOf(x: Dec): number {
  let v = floats.get(x);
  if (v === undefined) {
    v = x.toNumber();
    floats.set(x, v);
  }
  return v;
}

/**
 * `a.cmp(b)` (−1, 0, 1), decided by {@link floatNear} when the doubles are further apart than
 * both their errors (2·10⁻¹⁵ of the larger), which fixes the order of the decimals too; closer,
 * NaN or out of range, the decimal comparison decides (it also copies its argument, which most
 * comparisons now skip).
 */
export function compareDec(a: Dec, b: Dec): number {
  const x = floatNear(a);
  const y = floatNear(b);
  const gap = 2e-15 * Math.max(Math.abs(x), Math.abs(y));
  if (y - x > gap) return -1;
  if (x - y > gap) return 1;
  return a.cmp(b);
}
