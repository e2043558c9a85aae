/**
 * Whether to hedge now, and how much: a pure function of the firm's net position and the
 * pair's `hedge` settings. No IO, no clock, no logs (`docs/hedging.md`).
 *
 * The unhedged position is this venue's base holdings minus their target, plus the hedge venue's
 * position. A hedge order sells what is long and buys what is short:
 * - mode `every-fill`: hedge the whole unhedged position whenever it is at least `minOrderBase`;
 * - mode `threshold`: hedge only once it reaches `thresholdBase`, and then back down to `keepBase`
 *   on the side it was on (0: back to zero). With `keepBase` = `thresholdBase`, only the part
 *   beyond a band is hedged, and the fills inside the band are left to net out on this venue.
 *
 * The order is an IOC limit at the hedge venue's touch moved by `maxSlippageBps` (a buy at
 * `ask × (1 + bps)`, a sell at `bid × (1 − bps)`), at most `maxOrderBase`, rounded down to
 * `stepBase`, and never one that takes the hedge position past `maxPositionBase`. A hedge order
 * still in flight, or an unknown one, means no new order: an order is never doubled.
 */
import { Dec, ZERO } from '../core/decimal.js';

/** The hedge modes. */
export const HEDGE_MODES = ['every-fill', 'threshold'] as const;
export type HedgeMode = (typeof HEDGE_MODES)[number];

/** The settings the decision reads (the pair's resolved `hedge` section). */
export interface HedgeRules {
  readonly mode: HedgeMode;
  /** `threshold` mode: the unhedged base at or beyond which a hedge is sent. */
  readonly thresholdBase: Dec;
  /** `threshold` mode: the unhedged base a hedge leaves, on its side (≤ thresholdBase); absent: 0. */
  readonly keepBase?: Dec;
  readonly minOrderBase: Dec;
  readonly maxOrderBase: Dec;
  /** The largest absolute position the hedge venue may hold. */
  readonly maxPositionBase: Dec;
  readonly maxSlippageBps: number;
  /** The hedge venue's quantity step. */
  readonly stepBase: Dec;
}

/** What the decision sees. */
export interface HedgeInputs {
  /** This venue's base holdings minus their target (positive: long). */
  readonly venueExcessBase: Dec;
  /** The hedge venue's position (positive: long). */
  readonly hedgePositionBase: Dec;
  /** The hedge venue's best bid and ask; null when unknown. */
  readonly bid: Dec | null;
  readonly ask: Dec | null;
  /** A hedge order is in flight or its outcome is unknown. */
  readonly inFlight: boolean;
  /** The hedge venue is failing (unreachable, refusing, out of funds). */
  readonly venueFailing: boolean;
}

/** An order to send. */
export interface HedgeOrder {
  readonly side: 'BUY' | 'SELL';
  readonly quantity: Dec;
  readonly limitPrice: Dec;
}

/** Why no order is sent (`none` for a position that needs none). */
export type HedgeHold =
  'none' | 'below-threshold' | 'below-min-size' | 'in-flight' | 'venue-failing' | 'no-price' | 'at-cap';

export type HedgeDecision =
  | { readonly send: true; readonly order: HedgeOrder; readonly unhedgedBase: Dec }
  | { readonly send: false; readonly hold: HedgeHold; readonly unhedgedBase: Dec };

function floorTo(q: Dec, step: Dec): Dec {
  return step.gt(ZERO) ? q.div(step).floor().times(step) : q;
}

/** The decision for one pair now. */
export function decideHedge(rules: HedgeRules, x: HedgeInputs): HedgeDecision {
  const unhedgedBase = x.venueExcessBase.plus(x.hedgePositionBase);
  const hold = (h: HedgeHold): HedgeDecision => ({ send: false, hold: h, unhedgedBase });
  if (unhedgedBase.isZero()) return hold('none');
  if (x.inFlight) return hold('in-flight');
  const size = unhedgedBase.abs();
  const keep = rules.mode === 'threshold' ? (rules.keepBase ?? ZERO) : ZERO;
  if (rules.mode === 'threshold' && (size.lt(rules.thresholdBase) || !size.gt(keep)))
    return hold('below-threshold');
  const wanted = size.minus(keep);
  if (wanted.lt(rules.minOrderBase)) return hold('below-min-size');
  if (x.venueFailing) return hold('venue-failing');
  const side = unhedgedBase.gt(ZERO) ? 'SELL' : 'BUY';
  const touch = side === 'BUY' ? x.ask : x.bid;
  if (touch === null || !touch.gt(ZERO)) return hold('no-price');
  // Room under the cap on the hedge venue's position, in the direction of the order.
  const room =
    side === 'SELL'
      ? rules.maxPositionBase.plus(x.hedgePositionBase)
      : rules.maxPositionBase.minus(x.hedgePositionBase);
  let quantity = minOf(wanted, rules.maxOrderBase, room.gt(ZERO) ? room : ZERO);
  quantity = floorTo(quantity, rules.stepBase);
  if (!quantity.gt(ZERO)) return hold(room.gt(ZERO) ? 'below-min-size' : 'at-cap');
  if (quantity.lt(rules.minOrderBase)) return hold(room.lt(rules.minOrderBase) ? 'at-cap' : 'below-min-size');
  const slip = new Dec(rules.maxSlippageBps).div(10_000);
  const limitPrice = side === 'BUY' ? touch.times(slip.plus(1)) : touch.times(new Dec(1).minus(slip));
  return { send: true, order: { side, quantity, limitPrice }, unhedgedBase };
}

function minOf(a: Dec, ...rest: Dec[]): Dec {
  return rest.reduce((m, x) => (x.lt(m) ? x : m), a);
}
