/**
 * A σ estimate of the book mids that book-mid noise does not inflate: realised variance over
 * returns of a longer interval (`volatility.sampleMs`), overlapping, one ending at every sample.
 *
 * A mid observed with independent noise η (makers that requote with noise, a level eaten and
 * refilled) adds about 2η²/Δt to the variance per second of returns Δt apart: at the book poll's
 * 1.5 s that can outweigh the price's own variance. Returns at least `sampleMs` long dilute it by
 * `sampleMs / Δt`; taking one ending at every sample (against the latest sample at least
 * `sampleMs` earlier) keeps every observation in use, as the first scale of a two-scale estimator
 * does:
 *
 *     σ² = Σ wᵢ·rᵢ² / Σ wᵢ·Δtᵢ,   rᵢ = ln(pᵢ / p_j(i)),  t_j(i) = the latest sample ≤ tᵢ − sampleMs
 *
 * with the EWMA weight `wᵢ = 2^(−ageᵢ / halfLife)` of `volatility.ts` for each half-life asked
 * for. Both samples of a return lie in `[now − windowMs, now]`. Pure; floats only for the
 * statistic.
 *
 * A clean mid history (`market/mid-floats.ts`) is read from its doubles and sampled returns,
 * computed once per sample; any other series is scanned. Both give the same doubles, summed in
 * the same order.
 */
import { floatOf } from '../core/decimal.js';
import type { MidSample } from '../market/market-snapshot.js';
import { midFloats, type MidFloatsView } from '../market/mid-floats.js';

/** σ per √second for each half-life asked for, and how many returns it is made of. */
export interface SampledSigma {
  /** One σ per entry of `halfLivesSec`, in that order. */
  readonly sigmas: readonly number[];
  readonly returns: number;
}

/**
 * The overlapping `sampleMs` returns of `series` (oldest first) within `windowMs` of `now`, and
 * their EWMA σ for each of `halfLivesSec`; null when there is no such return. A sample not later
 * than the one before it, or not positive, is skipped.
 */
export function sampledSigma(
  series: readonly MidSample[],
  now: number,
  windowMs: number,
  sampleMs: number,
  halfLivesSec: readonly number[],
): SampledSigma | null {
  const view = midFloats(series);
  if (view !== null) return fromFloats(view, now, windowMs, sampleMs, halfLivesSec);
  return sampledSigmaScan(series, now, windowMs, sampleMs, halfLivesSec);
}

/** {@link sampledSigma} of a clean history's doubles: the same terms in the same order. */
function fromFloats(
  { buf, start, end }: MidFloatsView,
  now: number,
  windowMs: number,
  sampleMs: number,
  halfLivesSec: readonly number[],
): SampledSigma | null {
  const { at } = buf;
  // The window's samples are one run of indices, [lo, i) with at[i] ≤ now; a return's earlier
  // sample must lie in it too (index ≥ lo).
  const lo = buf.lowerBound(now - windowMs, start, end);
  const num = halfLivesSec.map(() => 0);
  const den = halfLivesSec.map(() => 0);
  let n = 0;
  for (let i = lo; i < end && at[i]! <= now; i++) {
    const j = buf.sampledFrom(i, sampleMs);
    if (j < lo) continue;
    const r = buf.sampledReturn(i);
    const dt = (at[i]! - at[j]!) / 1000;
    const age = (now - at[i]!) / 1000;
    for (let k = 0; k < halfLivesSec.length; k++) {
      const w = Math.pow(2, -age / halfLivesSec[k]!);
      num[k]! += w * r * r;
      den[k]! += w * dt;
    }
    n += 1;
  }
  if (n === 0) return null;
  const sigmas = num.map((s, k) => (den[k]! > 0 ? Math.sqrt(s / den[k]!) : 0));
  return { sigmas, returns: n };
}

/**
 * {@link sampledSigma} by a scan of `series` itself: what a series that is not a clean history
 * takes, and the reference the tests hold the doubles' path to.
 */
export function sampledSigmaScan(
  series: readonly MidSample[],
  now: number,
  windowMs: number,
  sampleMs: number,
  halfLivesSec: readonly number[],
): SampledSigma | null {
  const from = now - windowMs;
  // The usable samples in the window, oldest first.
  const at: number[] = [];
  const x: number[] = [];
  for (const p of series) {
    if (p.at < from || p.at > now) continue;
    const v = floatOf(p.price);
    if (!(v > 0)) continue;
    if (at.length > 0 && p.at <= at[at.length - 1]!) continue;
    at.push(p.at);
    x.push(v);
  }
  const num = halfLivesSec.map(() => 0);
  const den = halfLivesSec.map(() => 0);
  let n = 0;
  let j = -1;
  for (let i = 0; i < at.length; i++) {
    // j: the latest sample at least sampleMs before sample i (moves forward only).
    while (j + 1 < i && at[j + 1]! <= at[i]! - sampleMs) j += 1;
    if (j < 0 || at[j]! > at[i]! - sampleMs) continue;
    const r = Math.log(x[i]! / x[j]!);
    const dt = (at[i]! - at[j]!) / 1000;
    const age = (now - at[i]!) / 1000;
    for (let k = 0; k < halfLivesSec.length; k++) {
      const w = Math.pow(2, -age / halfLivesSec[k]!);
      num[k]! += w * r * r;
      den[k]! += w * dt;
    }
    n += 1;
  }
  if (n === 0) return null;
  const sigmas = num.map((s, k) => (den[k]! > 0 ? Math.sqrt(s / den[k]!) : 0));
  return { sigmas, returns: n };
}
