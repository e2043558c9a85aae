/**
 * The daily loss limit on marked-to-mid PnL. The input is each pair's cumulative PnL (quote
 * received minus quote paid, plus the net base position valued at the mid); the guard keeps the
 * value each pair had when the UTC day began (or when the pair was first seen that day) and
 * compares the difference with the limits:
 * - one pair's loss beyond `perPair` halts that pair;
 * - the summed loss of the pairs sharing a quote instrument beyond `total` halts all of them
 *   (amounts in different quote instruments are never added together).
 * A halt latches until the next UTC day boundary, computed from `now`; then the baselines are
 * taken afresh and every pair resumes.
 *
 * A pair whose PnL is not known (null: a position with no price to mark it at yet, as on the
 * first passes after a start) is left alone that step: no baseline is taken from it, it is not
 * checked against `perPair` and adds nothing to its group's loss (it is still halted with its
 * group). Its quote flow alone is no PnL, and a baseline or a latched halt taken from it would be
 * wrong for the rest of the day.
 *
 * The guard itself is pure; its state outlives a restart: the daemon stores it in the order
 * journal after every change (`daily-loss-codec.ts` encodes it) and restores it on start when it
 * is of the current UTC day, so a loss taken before a restart still counts and a halt stays
 * latched until the day ends. A state of an earlier day is dropped (the day starts afresh).
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';

/** The guard's state for one UTC day. */
export interface DailyLossState {
  /** The UTC day, `⌊now / 86 400 000⌋`. */
  readonly day: number;
  /** Cumulative PnL per pair at the start of the day (or at first sight that day). */
  readonly baseline: Readonly<Record<string, Dec>>;
  /** Halted pairs and why; latched until the day ends. */
  readonly halted: Readonly<Record<string, string>>;
}

/** The guard's limits, positive amounts in quote units. */
export interface DailyLossParams {
  readonly perPair: Dec;
  readonly total: Dec;
}

/** The result of one step. */
export interface DailyLossStep {
  readonly state: DailyLossState;
  /** PnL since the day began, per pair (pairs whose PnL is not known are absent). */
  readonly dailyPnl: Readonly<Record<string, Dec>>;
  /** When the current UTC day ends, ms. */
  readonly dayEndsAt: number;
}

/** Milliseconds in a UTC day (the epoch has no leap seconds). */
export const DAY_MS = 86_400_000;

/** The UTC day of `now` (ms since the epoch): `⌊now / 86 400 000⌋`. */
export function utcDay(now: number): number {
  return Math.floor(now / DAY_MS);
}

/** The cumulative PnL of a position marked to `mid`: quote flow plus the base position at mid. */
export function markToMid(position: { readonly base: Dec; readonly quote: Dec }, mid: Dec): Dec {
  return position.quote.plus(position.base.times(mid));
}

/**
 * Advances the guard to `now`. `pairs` are the pairs to watch (with `quoteOf` giving each one's
 * quote instrument); a pair without a PnL entry counts as 0, a null entry is not known (see the
 * module doc).
 */
export function stepDailyLoss(
  state: DailyLossState | null,
  pnl: Readonly<Record<string, Dec | null>>,
  pairs: readonly string[],
  quoteOf: (pair: string) => string,
  now: number,
  params: DailyLossParams,
): DailyLossStep {
  const day = utcDay(now);
  const fresh = state === null || state.day !== day;
  const baseline: Record<string, Dec> = fresh ? {} : { ...state.baseline };
  const halted: Record<string, string> = fresh ? {} : { ...state.halted };
  const dailyPnl: Record<string, Dec> = {};
  const groups = new Map<string, { loss: Dec; pairs: string[] }>();

  for (const pair of pairs) {
    const quote = quoteOf(pair);
    const group = groups.get(quote) ?? { loss: ZERO, pairs: [] };
    group.pairs.push(pair);
    groups.set(quote, group);
    const current = pnl[pair] === undefined ? ZERO : pnl[pair];
    if (current === null) continue;
    baseline[pair] ??= current;
    const daily = current.minus(baseline[pair]);
    dailyPnl[pair] = daily;
    if (daily.lt(params.perPair.neg()) && halted[pair] === undefined) {
      halted[pair] =
        `day loss ${daily.neg().toFixed()} beyond the per-pair limit ${params.perPair.toFixed()}`;
    }
    group.loss = group.loss.plus(daily);
  }
  for (const [quote, group] of groups) {
    if (!group.loss.lt(params.total.neg())) continue;
    for (const pair of group.pairs) {
      halted[pair] ??=
        `day loss ${group.loss.neg().toFixed()} ${quote} across pairs beyond the total limit ${params.total.toFixed()}`;
    }
  }
  return { state: { day, baseline, halted }, dailyPnl, dayEndsAt: (day + 1) * DAY_MS };
}
