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
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** Number of decimal places written in `value`'s shortest plain form. */
export function decimalPlaces(value: Dec): number {
  return value.decimalPlaces();
}

/** The decimal zero. */
export const ZERO: Dec = new Dec(0);
