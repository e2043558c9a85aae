/**
 * Inventory: where the pair's holdings stand against the target base share, the linear skew
 * that pulls them back, and the hard limits past which only the reducing side is quoted.
 *
 * The share is `base value / (base value + quote holdings)` at the reference price, with both
 * instruments' full holdings (available + locked). When several pairs share an instrument
 * (BTC/USDC and ETH/USDC both hold USDC), each pair sees the whole of it: the share is a
 * per-pair view of a shared wallet.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { BalanceView } from '../market/market-snapshot.js';
import type { PairStrategyParams } from './params.js';

/** The pair's holdings, each instrument's available + locked. */
export interface PairHoldings {
  readonly base: Dec;
  readonly quote: Dec;
}

/** Holdings of `base` and `quote` from balances by instrument; an instrument not listed holds 0. */
export function pairHoldings(
  balances: Readonly<Record<string, BalanceView>>,
  base: string,
  quote: string,
): PairHoldings {
  const total = (i: string): Dec => {
    const b = balances[i];
    return b === undefined ? ZERO : b.available.plus(b.locked);
  };
  return { base: total(base), quote: total(quote) };
}

/** The base share at `reference`, in [0, 1]; null when the pair holds nothing. */
export function baseShare(h: PairHoldings, reference: Dec): number | null {
  const baseValue = h.base.times(reference);
  const total = baseValue.plus(h.quote);
  if (!total.gt(ZERO)) return null;
  return baseValue.div(total).toNumber();
}

/**
 * The shift of both quotes, bps: `clamp((target − share) / range, −1, 1) · maxSkewBps`.
 * Long base (share above target) gives a negative shift (quotes move down: sell more readily,
 * buy less); short gives a positive one. The shift is full at `target ± range` and stays there.
 */
export function inventorySkewBps(share: number, p: PairStrategyParams['inventory']): number {
  if (p.maxSkewBps === 0 || !(p.rangeShare > 0)) return 0;
  const x = (p.targetBaseShare - share) / p.rangeShare;
  return Math.max(-1, Math.min(1, x)) * p.maxSkewBps;
}

/**
 * How far the holdings stand from the target, in [−1, 1] of the range: positive when long base.
 * Against `targetBase` (base units) with `rangeBase` when set, `(base − targetBase) / rangeBase`;
 * else `(share − targetBaseShare) / rangeShare`. 0 when no range is configured.
 */
export function inventoryPressure(
  h: PairHoldings,
  share: number,
  p: PairStrategyParams['inventory'],
): number {
  let x: number;
  if (p.targetBase !== null && p.rangeBase !== null)
    x = h.base.minus(p.targetBase).div(p.rangeBase).toNumber();
  else if (p.rangeShare > 0) x = (share - p.targetBaseShare) / p.rangeShare;
  else return 0;
  return Math.max(-1, Math.min(1, x));
}

/**
 * The skew of the pair's holdings, bps: `−pressure · maxSkewBps` ({@link inventoryPressure}),
 * against `targetBase` when set, else against the target share. A stated target in base units is
 * the better one when pairs share a quote instrument, whose whole balance each pair's share
 * otherwise counts.
 */
export function holdingsSkewBps(
  h: PairHoldings | null,
  share: number | null,
  p: PairStrategyParams['inventory'],
): number {
  // No holdings known (balances pending: a provisional plan): no skew.
  if (h === null || share === null) return 0;
  if (p.targetBase === null || p.rangeBase === null) return inventorySkewBps(share, p);
  if (p.maxSkewBps === 0) return 0;
  return -inventoryPressure(h, share, p) * p.maxSkewBps;
}

/**
 * The size factor of a side, 0–1: `1 − sizeSkew · pressure` on the side that adds to the position
 * (BUY when long base, SELL when short), 1 on the side that reduces it. Rounded to hundredths, so
 * the size moves in steps the reconciler's size tolerance sees, not on every tick of the pressure.
 */
export function sizeSkewFactor(side: 'BUY' | 'SELL', pressure: number, sizeSkew: number): number {
  const adding = side === 'BUY' ? pressure : -pressure;
  if (sizeSkew === 0 || adding <= 0) return 1;
  return Math.round((1 - sizeSkew * adding) * 100) / 100;
}

/**
 * How many levels a side quotes: all `count`, except the side that adds to the position once the
 * pressure reaches `shedAt` (0 = never), which keeps only its first. The pressure moves only on
 * fills when a base target is set, so a shed level does not flicker with the price.
 */
export function sideLevelCount(
  side: 'BUY' | 'SELL',
  pressure: number,
  count: number,
  shedAt: number,
): number {
  const adding = side === 'BUY' ? pressure : -pressure;
  return shedAt > 0 && adding >= shedAt ? Math.min(count, 1) : count;
}

/**
 * The deviation of base holdings from the target, base units (A–S's q): positive when long.
 * `base − target · (base·ref + quote) / ref`.
 */
export function inventoryDeviation(h: PairHoldings, reference: Dec, targetBaseShare: number): Dec {
  const totalInBase = h.base.plus(h.quote.div(reference));
  return h.base.minus(totalInBase.times(targetBaseShare));
}

/** Which sides the hard limits allow, and why a side is not. */
export interface SideGate {
  readonly buy: boolean;
  readonly sell: boolean;
  readonly reason: string | null;
}

/** Both sides open (no holdings known yet: the sign-time check applies the limits). */
export const OPEN_GATE: SideGate = Object.freeze({ buy: true, sell: true, reason: null });

/**
 * The hard limits: at or above `maxBase` (base units) or `maxBaseShare`, only SELL (reducing)
 * is quoted; at or below `minBaseShare`, only BUY. `maxBaseShare` 1 and `minBaseShare` 0 mean
 * no limit.
 */
export function inventoryGate(h: PairHoldings, share: number, p: PairStrategyParams['inventory']): SideGate {
  if (p.maxBase !== null && h.base.gte(p.maxBase)) {
    return { buy: false, sell: true, reason: `base ${h.base.toFixed()} at or above inventory.maxBase` };
  }
  if (p.maxBaseShare < 1 && share >= p.maxBaseShare) {
    return {
      buy: false,
      sell: true,
      reason: `base share ${share.toFixed(4)} at or above inventory.maxBaseShare`,
    };
  }
  if (p.minBaseShare > 0 && share <= p.minBaseShare) {
    return {
      buy: true,
      sell: false,
      reason: `base share ${share.toFixed(4)} at or below inventory.minBaseShare`,
    };
  }
  return { buy: true, sell: true, reason: null };
}
