/**
 * What quoting does while the hedge venue fails: the side whose fills would add to the unhedged
 * position stops being quoted (`stop`) or is quoted `widenBps` further out (`widen`); the side
 * that reduces it is quoted as usual. Flat, both sides add. Pure: the caller passes whether the
 * venue fails; the gate lifts as soon as it works again. Every stopped or widened side carries a
 * named reason (`hedge-venue-failing`), so the stop is never silent.
 */
import { type Dec, ZERO } from '../core/decimal.js';

export const HEDGE_FAILURE_POLICIES = ['stop', 'widen'] as const;
export type HedgeFailurePolicy = (typeof HEDGE_FAILURE_POLICIES)[number];

/** One side under the gate. */
export interface SideGate {
  readonly quote: boolean;
  readonly widenBps: number;
  readonly reason: 'hedge-venue-failing' | null;
}

const OPEN: SideGate = { quote: true, widenBps: 0, reason: null };

/** The gate of both sides. */
export function hedgeQuoteGate(
  unhedgedBase: Dec,
  venueFailing: boolean,
  policy: HedgeFailurePolicy,
  widenBps: number,
): { readonly BUY: SideGate; readonly SELL: SideGate } {
  if (!venueFailing) return { BUY: OPEN, SELL: OPEN };
  const gated: SideGate =
    policy === 'stop'
      ? { quote: false, widenBps: 0, reason: 'hedge-venue-failing' }
      : { quote: true, widenBps, reason: 'hedge-venue-failing' };
  // A BUY fill adds to a long (or flat) position, a SELL fill to a short (or flat) one.
  return {
    BUY: unhedgedBase.gte(ZERO) ? gated : OPEN,
    SELL: unhedgedBase.lte(ZERO) ? gated : OPEN,
  };
}
