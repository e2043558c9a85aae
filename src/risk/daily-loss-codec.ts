/**
 * The daily loss guard's state as text, for storing it across restarts (the daemon keeps it in
 * the order journal's `meta`). Pure: no IO, no clock.
 *
 * The text is JSON, `{"v":1,"day":…,"baseline":{pair:"decimal"},"halted":{pair:"reason"}}`, the
 * baselines as decimal strings (never JSON numbers: money never passes through a float). Keys are
 * sorted, so one state always encodes to the same text.
 *
 * {@link decodeDailyLoss} trusts nothing: anything that is not exactly that shape (bad JSON, a
 * missing or extra field, a number where a decimal string belongs, another version) decodes to
 * null, and so does a state of another day than the one asked for. Null means "start the day
 * afresh", which is what the guard did before it was stored at all.
 */
import { DECIMAL_STRING, dec, toWire } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { DailyLossState } from './daily-loss-guard.js';

/** The version of the encoding; a text of another version is not decoded. */
export const DAILY_LOSS_CODEC_VERSION = 1;

const FIELDS = ['baseline', 'day', 'halted', 'v'];

/** `state` as text (see the module doc). */
export function encodeDailyLoss(state: DailyLossState): string {
  const baseline = Object.fromEntries(
    Object.keys(state.baseline)
      .sort()
      .map((pair) => [pair, toWire(state.baseline[pair]!)]),
  );
  const halted = Object.fromEntries(
    Object.keys(state.halted)
      .sort()
      .map((pair) => [pair, state.halted[pair]!]),
  );
  return JSON.stringify({ v: DAILY_LOSS_CODEC_VERSION, day: state.day, baseline, halted });
}

/**
 * The state `text` encodes, or null when it is malformed, or when `day` is given and the state is
 * of another UTC day. Never throws.
 */
export function decodeDailyLoss(text: string, day?: number): DailyLossState | null {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isPlainObject(raw)) return null;
  const keys = Object.keys(raw).sort();
  if (keys.length !== FIELDS.length || keys.some((k, i) => k !== FIELDS[i])) return null;
  if (raw['v'] !== DAILY_LOSS_CODEC_VERSION) return null;
  const stateDay = raw['day'];
  if (typeof stateDay !== 'number' || !Number.isSafeInteger(stateDay) || stateDay < 0) return null;
  if (day !== undefined && stateDay !== day) return null;
  const baseline = decimalRecord(raw['baseline']);
  const halted = stringRecord(raw['halted']);
  if (baseline === null || halted === null) return null;
  return { day: stateDay, baseline, halted };
}

/**
 * True when `a` and `b` hold the same day, the same baselines (pairs and values) and the same
 * halted pairs: what changes the stored state. A halt's reason is not compared (a halt latches
 * with the reason it was first given).
 */
export function sameDailyLoss(a: DailyLossState | null, b: DailyLossState | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  if (a.day !== b.day) return false;
  const pairs = Object.keys(a.baseline);
  if (pairs.length !== Object.keys(b.baseline).length) return false;
  for (const pair of pairs) {
    if (!Object.hasOwn(b.baseline, pair) || !b.baseline[pair]!.eq(a.baseline[pair]!)) return false;
  }
  const halted = Object.keys(a.halted);
  if (halted.length !== Object.keys(b.halted).length) return false;
  return halted.every((pair) => Object.hasOwn(b.halted, pair));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

function decimalRecord(value: unknown): Record<string, Dec> | null {
  if (!isPlainObject(value)) return null;
  const out: [string, Dec][] = [];
  for (const [pair, v] of Object.entries(value)) {
    if (pair === '' || typeof v !== 'string' || !DECIMAL_STRING.test(v)) return null;
    out.push([pair, dec(v)]);
  }
  return Object.fromEntries(out);
}

function stringRecord(value: unknown): Record<string, string> | null {
  if (!isPlainObject(value)) return null;
  const out: [string, string][] = [];
  for (const [pair, v] of Object.entries(value)) {
    if (pair === '' || typeof v !== 'string' || v === '') return null;
    out.push([pair, v]);
  }
  return Object.fromEntries(out);
}
