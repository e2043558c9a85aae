/**
 * Volatility for Avellaneda–Stoikov: σ of log returns per √second, from the price history a
 * snapshot carries.
 *
 * History: `PairMarket.mids` (one own-less-or-raw book mid per successful book poll, oldest
 * first) is the preferred series; when it holds too few returns, the public trades (newest
 * first in the snapshot) are used instead. Trades bounce between bid and ask, so they overstate
 * σ; mids are the better series. Samples older than `windowMs` are ignored.
 *
 * The estimator is an EWMA of realised variance over irregularly spaced samples:
 *
 *     σ² = Σ wᵢ·rᵢ² / Σ wᵢ·Δtᵢ,   rᵢ = ln(pᵢ / pᵢ₋₁),  Δtᵢ in seconds,  wᵢ = 2^(−ageᵢ / halfLife)
 *
 * where ageᵢ is the age of the later sample of the return. With equal spacing and equal weights
 * it is the plain realised variance per second. Returns are numbers (dimensionless statistics);
 * prices stay `Dec` until the ratio is taken.
 *
 * Two options, both off by default: `volatility.sampleMs` takes the mids' returns over a longer
 * interval (`sampled-volatility.ts`), so noise on the book mid does not inflate σ; with
 * `volatility.fastHalfLifeMs` σ is the larger of the EWMA at `halfLifeMs` and at this shorter
 * half-life, so a burst widens the quotes within seconds instead of minutes.
 */
import { floatOf, type Dec } from '../core/decimal.js';
import type { PairMarket } from '../market/market-snapshot.js';
import type { PairStrategyParams } from './params.js';
import { sampledSigma } from './sampled-volatility.js';

/** One price observation. */
export interface PricePoint {
  readonly at: number;
  readonly price: Dec;
}

/** One log return between two samples. */
export interface LogReturn {
  /** `ln(p₁/p₀)`. */
  readonly r: number;
  /** Seconds between the samples (> 0). */
  readonly dtSec: number;
  /** Seconds from the later sample to now (≥ 0). */
  readonly ageSec: number;
}

/**
 * The numeric core: σ per √second of `returns` with EWMA half-life `halfLifeSec`, or null when
 * there are none or the weighted time is zero.
 */
export function ewmaSigma(returns: readonly LogReturn[], halfLifeSec: number): number | null {
  let num = 0;
  let den = 0;
  for (const { r, dtSec, ageSec } of returns) {
    const w = Math.pow(2, -Math.max(0, ageSec) / halfLifeSec);
    num += w * r * r;
    den += w * dtSec;
  }
  if (returns.length === 0 || !(den > 0)) return null;
  return Math.sqrt(num / den);
}

/** A return between two consecutive usable samples of a series, before the window is applied. */
interface RawReturn {
  readonly r: number;
  readonly fromAt: number;
  readonly at: number;
}

/**
 * The raw returns of one history: `buf[start]` to `buf[end - 1]`, oldest first. Histories that
 * extend one another share one buffer: a poll's new history appends its return to the buffer of
 * the last one (when nothing was appended after it) and moves `start` past the returns that left
 * the window, instead of copying the window of returns on every poll. Entries below `end` are
 * never changed, so every view keeps reading what it was built on.
 */
interface ReturnsView {
  readonly buf: RawReturn[];
  readonly start: number;
  readonly end: number;
}

/**
 * The returns of each series seen, by the (immutable) array: a σ estimate walks the whole window of
 * mids on every cycle of every pair, and a mid history is replaced, not changed, when a poll adds
 * to it. A memo of a pure function, so the estimator stays pure.
 */
const memo = new WeakMap<readonly PricePoint[], ReturnsView>();

/**
 * Raw returns ending at the last sample of the newest history seen: a poll's new mid history is
 * the last one with a sample appended (and the oldest dropped), so its returns are the last one's
 * plus one. Only the newest history's entry is kept (see {@link rawReturns}).
 */
const byLast = new WeakMap<PricePoint, ReturnsView>();

/** Consecutive returns of `series` (oldest first); a sample not later than the last, or not positive, is dropped. */
function rawReturns(series: readonly PricePoint[]): ReturnsView {
  const cached = memo.get(series);
  if (cached !== undefined) return cached;
  const out = extended(series) ?? computed(series);
  memo.set(series, out);
  const last = series.at(-1);
  if (last !== undefined) byLast.set(last, out);
  // Only the newest history can be extended cheaply; an older history asked for again is
  // recomputed.
  const prev = series.at(-2);
  if (prev !== undefined) byLast.delete(prev);
  return out;
}

/** How many samples back {@link extended} looks for a history it knows (polls between two cycles). */
const EXTEND_BACK = 8;

/**
 * The returns of `series` from those of the same history a few samples shorter, when known: the
 * newest history seen, one sample shorter when the quote cycle reads σ after every book poll,
 * more when several polls came between two reads.
 */
function extended(series: readonly PricePoint[]): ReturnsView | null {
  const n = series.length;
  if (n < 3) return null;
  // The newest sample j with a known history ending at it; the samples after it are appended.
  let j = n - 2;
  let before = byLast.get(series[j]!);
  while (before === undefined && j > 1 && j > n - 1 - EXTEND_BACK) before = byLast.get(series[--j]!);
  if (before === undefined) return null;
  // What computed() would take: positive samples, each later than the one before.
  for (let i = j; i < n; i++) {
    const p = series[i]!;
    if (!(floatOf(p.price) > 0) || (i > j && p.at <= series[i - 1]!.at)) return null;
  }
  const first = series[0]!.at;
  // The returns run oldest first and their `fromAt` increase, so those still in the series are a
  // suffix of the previous ones.
  const { end } = before;
  let { buf, start } = before;
  while (start < end && buf[start]!.fromAt < first) start += 1;
  const kept = end - start;
  // A buffer another history was extended on already is copied; so is one whose dropped head
  // outgrows what is kept (the buffer stays within about twice the window).
  if (end !== buf.length || start > Math.max(64, kept)) {
    buf = buf.slice(start, end);
    start = 0;
  }
  for (let i = j + 1; i < n; i++) {
    const prev = series[i - 1]!;
    const last = series[i]!;
    buf.push({ r: Math.log(floatOf(last.price) / floatOf(prev.price)), fromAt: prev.at, at: last.at });
  }
  if (j !== n - 2) byLast.delete(series[j]!);
  return { buf, start, end: buf.length };
}

function computed(series: readonly PricePoint[]): ReturnsView {
  const out: RawReturn[] = [];
  let prev: { at: number; x: number } | null = null;
  for (const p of series) {
    const x = floatOf(p.price);
    if (!(x > 0)) continue;
    if (prev !== null && p.at <= prev.at) continue;
    // A statistic: the ratio of two prices as floats is exact enough for σ.
    if (prev !== null) out.push({ r: Math.log(x / prev.x), fromAt: prev.at, at: p.at });
    prev = { at: p.at, x };
  }
  return { buf: out, start: 0, end: out.length };
}

/**
 * The log returns of `series` (oldest first) within `windowMs` of `now`: between two samples
 * both in `[now − windowMs, now]`. A sample that is not later than the previous one, or not
 * positive, is dropped.
 */
export function logReturns(series: readonly PricePoint[], now: number, windowMs: number): LogReturn[] {
  const out: LogReturn[] = [];
  const { buf, start, end } = rawReturns(series);
  for (let i = start; i < end; i++) {
    const x = buf[i]!;
    if (x.fromAt < now - windowMs || x.at > now) continue;
    out.push({ r: x.r, dtSec: (x.at - x.fromAt) / 1000, ageSec: (now - x.at) / 1000 });
  }
  return out;
}

/**
 * {@link ewmaSigma} of {@link logReturns} in one pass, without building the returns: the same
 * sums in the same order. Null when no return is in the window or the weighted time is zero.
 */
function windowedSigma(
  { buf: raw, start, end }: ReturnsView,
  now: number,
  windowMs: number,
  halfLifeSec: number,
): { sigma: number; returns: number } | null {
  let num = 0;
  let den = 0;
  let n = 0;
  // The returns run oldest first, `fromAt` and `at` increasing: those in the window are one run,
  // from the first with `fromAt` in the window (found by bisection) to the last with `at` ≤ now.
  // The same terms, summed in the same order.
  const from = now - windowMs;
  let lo = start;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (raw[mid]!.fromAt < from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < end; i++) {
    const x = raw[i]!;
    if (x.at > now) break;
    const w = Math.pow(2, -Math.max(0, (now - x.at) / 1000) / halfLifeSec);
    num += w * x.r * x.r;
    den += w * ((x.at - x.fromAt) / 1000);
    n += 1;
  }
  if (n === 0 || !(den > 0)) return null;
  return { sigma: Math.sqrt(num / den), returns: n };
}

/** A σ estimate and where it came from. */
export interface SigmaEstimate {
  /** σ of log returns per √second. */
  readonly sigma: number;
  readonly source: 'fixed' | 'mids' | 'trades';
  readonly returns: number;
}

/**
 * σ for one pair: `fixedSigma` when configured (> 0), else the EWMA over the mids, else over the
 * trades; null when neither has `minSamples` returns in the window (the pair is then not quoted
 * by A–S: σ is never guessed).
 */
export function estimateSigma(
  market: PairMarket,
  now: number,
  params: PairStrategyParams['volatility'],
): SigmaEstimate | null {
  if (params.fixedSigma > 0) return { sigma: params.fixedSigma, source: 'fixed', returns: 0 };
  const halfLifeSec = params.halfLifeMs / 1000;
  const fastSec = params.fastHalfLifeMs / 1000;
  const mids = market.mids ?? [];
  if (params.sampleMs > 0) {
    const halfLives = fastSec > 0 ? [halfLifeSec, fastSec] : [halfLifeSec];
    const sampled = sampledSigma(mids, now, params.windowMs, params.sampleMs, halfLives);
    if (sampled !== null && sampled.returns >= params.minSamples) {
      return { sigma: Math.max(...sampled.sigmas), source: 'mids', returns: sampled.returns };
    }
  } else {
    const view = rawReturns(mids);
    const fromMids = windowedSigma(view, now, params.windowMs, halfLifeSec);
    if (fromMids !== null && fromMids.returns >= params.minSamples) {
      const fast = fastSec > 0 ? windowedSigma(view, now, params.windowMs, fastSec) : null;
      return { sigma: Math.max(fromMids.sigma, fast?.sigma ?? 0), source: 'mids', returns: fromMids.returns };
    }
  }
  const trades = [...market.trades].reverse().map((t): PricePoint => ({ at: t.at, price: t.price }));
  const fromTrades = logReturns(trades, now, params.windowMs);
  if (fromTrades.length >= params.minSamples) {
    const sigma = ewmaSigma(fromTrades, halfLifeSec);
    const fast = fastSec > 0 ? ewmaSigma(fromTrades, fastSec) : null;
    if (sigma !== null)
      return { sigma: Math.max(sigma, fast ?? 0), source: 'trades', returns: fromTrades.length };
  }
  return null;
}
