/**
 * Price jumps seen in the book mids, for the latency-aware model's jump response
 * (`latency.jumpZ`, `jumpMemoryMs`, `jumpWidenBps`, `jumpSizeShare`).
 *
 * On this venue a cancel lands about 35 s after it is sent, so a quote that a jump of the price
 * runs through stays on the book, the best price in it, until the cancel lands: the next takers
 * trade it at a price the market has left. No reaction after the jump can save that quote; what
 * can be cut is the exposure to the next one. A market that has just jumped is taken to be one
 * that jumps: while a jump lies within the memory, both half-spreads are widened, so fewer jumps
 * reach a quote and each one that does runs less far through it.
 *
 * A jump is a return between two consecutive mids larger than `z·σ·√Δt`, σ the current estimate
 * (per √s), and larger than `latency.jumpMinBps`. The estimate includes the jump itself, so the
 * test is conservative. The floor is there because the book mid moves in steps: a level taken or
 * requoted moves it by a few bps at once, which in a calm market is many σ·√Δt of a one-poll
 * interval without being a jump of the price.
 *
 * While a jump is remembered, the quotes may also be smaller (`latency.jumpSizeShare`): the takers
 * that arrive after a jump find the stale quote the best price by far and sweep it whole, while
 * between jumps a taker takes about one ordinary taker's size. What a jump costs grows with the
 * resting size; what the quiet flow pays grows with it only up to the takers' own sizes. A memory
 * of an hour or more (`jumpMemoryMs`, with `market.mids.keepMs` as long) keeps a market that jumps
 * a few times an hour quoted for it continuously. Pure.
 */
import { floatOf } from '../core/decimal.js';
import type { MidSample } from '../market/market-snapshot.js';
import { midFloats } from '../market/mid-floats.js';

/**
 * Whether a return between consecutive `mids` (oldest first) ending within `memoryMs` of `now`
 * is larger than `z·sigma·√Δt` and than `minBps` (0: no floor). False when `z` or `sigma` is not
 * positive. A sample not later than the one before it, or not positive, is skipped.
 */
export function jumpSeen(
  mids: readonly MidSample[],
  now: number,
  sigma: number,
  z: number,
  memoryMs: number,
  minBps: number,
): boolean {
  if (!(z > 0) || !(sigma > 0)) return false;
  const view = midFloats(mids);
  if (view === null) return jumpScan(mids, now, sigma, z, memoryMs, minBps);
  // A clean history (`market/mid-floats.ts`): its consecutive returns, computed once per sample,
  // each tested as the scan tests it. The first return ending within the memory starts from the
  // sample before it, which is in the history (index above `start`).
  const { buf, start, end } = view;
  const floor = Math.max(0, minBps) / 10_000;
  // Only a return above the floor can be a jump: those are listed once per sample.
  const above = buf.returnsAbove(floor);
  const lo = buf.lowerBound(now - memoryMs, start + 1, end);
  let k = 0;
  for (let hi = above.length; k < hi;) {
    const mid = (k + hi) >>> 1;
    if (above[mid]! < lo) k = mid + 1;
    else hi = mid;
  }
  for (; k < above.length; k++) {
    const i = above[k]!;
    if (i >= end || buf.at[i]! > now) break;
    const dtSec = (buf.at[i]! - buf.at[i - 1]!) / 1000;
    const r = Math.abs(buf.lr[i]!);
    if (r > z * sigma * Math.sqrt(dtSec) && r > floor) return true;
  }
  return false;
}

/**
 * {@link jumpSeen} by a scan of `mids` itself: what a series that is not a clean history takes,
 * and the reference the tests hold the doubles' path to.
 */
export function jumpScan(
  mids: readonly MidSample[],
  now: number,
  sigma: number,
  z: number,
  memoryMs: number,
  minBps: number,
): boolean {
  if (!(z > 0) || !(sigma > 0)) return false;
  const floor = Math.max(0, minBps) / 10_000;
  // From the newest sample older than the memory (the start of the first return that ends in it).
  let start = mids.length - 1;
  while (start > 0 && mids[start]!.at >= now - memoryMs) start -= 1;
  let prevAt = -Infinity;
  let prevX = 0;
  for (let i = Math.max(0, start); i < mids.length; i++) {
    const m = mids[i]!;
    if (m.at > now) break;
    const x = floatOf(m.price);
    if (!(x > 0) || m.at <= prevAt) continue;
    if (prevX > 0 && m.at >= now - memoryMs) {
      const dtSec = (m.at - prevAt) / 1000;
      const r = Math.abs(Math.log(x / prevX));
      if (r > z * sigma * Math.sqrt(dtSec) && r > floor) return true;
    }
    prevAt = m.at;
    prevX = x;
  }
  return false;
}

/**
 * Whether the pair is still warming up: its first mid of the run (`PairMarket.midsSince`) was
 * recorded less than `warmupMs` before `now`, or none yet (`latency.jumpWarmupMs`; never with 0).
 * The quotes are then those of a remembered jump. It counts from the run's first mid, not the
 * history's oldest: the history is trimmed to `market.mids.keepMs`.
 */
export function warmingUp(midsSince: number | undefined, now: number, warmupMs: number): boolean {
  if (!(warmupMs > 0)) return false;
  return midsSince === undefined || now - midsSince < warmupMs;
}

/** What the quotes do while a jump is remembered: bps added to both half-spreads, and the size share. */
export interface JumpResponse {
  readonly widenBps: number;
  /** Every level's size is multiplied by this (1: unchanged). */
  readonly sizeShare: number;
}

/** No jump remembered, or no response configured. */
export const NO_JUMP_RESPONSE: JumpResponse = { widenBps: 0, sizeShare: 1 };

/**
 * The response to a remembered jump: `widenBps` and `sizeShare` as configured when `jumped`, else
 * none. The share is clamped to [0, 1] (not a number: 1); 0 quotes nothing while the jump is
 * remembered (every level's size rounds to zero).
 */
export function jumpResponse(jumped: boolean, widenBps: number, sizeShare: number): JumpResponse {
  if (!jumped) return NO_JUMP_RESPONSE;
  return { widenBps, sizeShare: Number.isNaN(sizeShare) ? 1 : Math.min(1, Math.max(0, sizeShare)) };
}
