/**
 * The doubles of a mid history, computed once per sample instead of once per quote pass: each
 * sample's time and price as a double, the log return from the sample before it and, for one
 * `volatility.sampleMs`, the log return from the latest sample at least that long before it.
 *
 * The σ and jump statistics of the latency-aware model (`sampled-volatility.ts`,
 * `jump-memory.ts`) read an hour of mids on every pass of every pair, while a book poll adds one
 * sample: the same doubles, logarithms and pairings were recomputed about 2 400 times an hour per
 * sample. A mid history is replaced, not changed, when a poll appends to it, and `appendMid`
 * says which history each one extends (`midLineage`), so the histories of one pair share one
 * append-only buffer here, as the raw returns of `volatility.ts` do. Every value is computed by the same expression as the scans
 * that read it compute it, so the statistics stay bit for bit the same.
 *
 * Only a clean history has a view: every price positive as a double, every time later than the
 * one before (what `appendMid` builds). Any other series gets null and its reader scans it as
 * before. A memo of pure functions, keyed by the immutable arrays and samples.
 */
import { floatOf } from '../core/decimal.js';
import type { MidSample } from './market-snapshot.js';
import { midLineage } from './mid-history.js';

/**
 * The append-only buffer of one lineage of histories. Index `i` holds one sample; entries are
 * never changed once written, except the lazily filled sampled returns, which depend only on the
 * samples before them.
 */
export class MidFloatsBuffer {
  readonly samples: MidSample[] = [];
  /** The sample's time, ms. */
  readonly at: number[] = [];
  /** `floatOf(price)`. */
  readonly x: number[] = [];
  /** `Math.log(x[i] / x[i - 1])`; NaN at the buffer's first index. */
  readonly lr: number[] = [];
  /** The `sampleMs` {@link sampledFrom} answers for (its cache is for one value at a time). */
  private sampleMs = Number.NaN;
  /** Per index: the latest earlier index at least `sampleMs` before it, or -1 (-2: not computed). */
  private sj: number[] = [];
  /** Per index: `Math.log(x[i] / x[sj[i]])` when `sj[i] ≥ 0`. */
  private sr: number[] = [];

  /** The floor {@link returnsAbove} answers for (one value at a time). */
  private floor = Number.NaN;
  /** Indices, ascending, whose `|lr|` is above `floor`; found up to index `scanned`. */
  private above: number[] = [];
  private scanned = 0;

  /** Appends one sample; false (nothing appended) when it would make the history unclean. */
  push(s: MidSample): boolean {
    const x = floatOf(s.price);
    const n = this.at.length;
    if (!(x > 0) || (n > 0 && !(s.at > this.at[n - 1]!))) return false;
    this.samples.push(s);
    this.at.push(s.at);
    this.x.push(x);
    this.lr.push(n > 0 ? Math.log(x / this.x[n - 1]!) : Number.NaN);
    return true;
  }

  /** The first index in `[lo, hi)` whose time is at least `t` (`hi` when none). */
  lowerBound(t: number, lo: number, hi: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * The latest index `j < i` with `at[j] ≤ at[i] − sampleMs`, or -1; its log return from `j` to
   * `i` is then {@link sampledReturn}. Remembered per index for the last `sampleMs` asked.
   */
  sampledFrom(i: number, sampleMs: number): number {
    if (sampleMs !== this.sampleMs) {
      this.sampleMs = sampleMs;
      this.sj = [];
      this.sr = [];
    }
    const known = this.sj[i];
    if (known !== undefined && known !== -2) return known;
    while (this.sj.length <= i) {
      this.sj.push(-2);
      this.sr.push(Number.NaN);
    }
    // The first index before i later than the bound; the one before it is the latest at or before it.
    const bound = this.at[i]! - sampleMs;
    let lo = 0;
    let hi = i;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.at[mid]! <= bound) lo = mid + 1;
      else hi = mid;
    }
    const latest = lo - 1;
    this.sj[i] = latest;
    if (latest >= 0) this.sr[i] = Math.log(this.x[i]! / this.x[latest]!);
    return latest;
  }

  /**
   * The indices, ascending, whose consecutive return is larger than `floor` in absolute value
   * (`Math.abs(lr[i]) > floor`): the only returns a jump test with that floor can find. Kept for
   * the last `floor` asked, extended as samples are appended.
   */
  returnsAbove(floor: number): readonly number[] {
    if (floor !== this.floor) {
      this.floor = floor;
      this.above = [];
      this.scanned = 0;
    }
    const { lr, above } = this;
    for (let i = this.scanned; i < lr.length; i++) if (Math.abs(lr[i]!) > floor) above.push(i);
    this.scanned = lr.length;
    return above;
  }

  /** `Math.log(x[i] / x[j])` for the `j` {@link sampledFrom} gave (call it first). */
  sampledReturn(i: number): number {
    return this.sr[i]!;
  }
}

/** One history's place in its buffer: its samples are `buf` indices `[start, end)`, in order. */
export interface MidFloatsView {
  readonly buf: MidFloatsBuffer;
  readonly start: number;
  readonly end: number;
}

const memo = new WeakMap<readonly MidSample[], MidFloatsView | null>();

/** The doubles of `series` (oldest first), or null when it is not clean; see the module doc. */
export function midFloats(series: readonly MidSample[]): MidFloatsView | null {
  const cached = memo.get(series);
  if (cached !== undefined) return cached;
  const view = extended(series) ?? built(series);
  memo.set(series, view);
  return view;
}

function built(series: readonly MidSample[]): MidFloatsView | null {
  const buf = new MidFloatsBuffer();
  for (const s of series) if (!buf.push(s)) return null;
  return { buf, start: 0, end: buf.at.length };
}

/**
 * The view of a history `appendMid` made, from the view of a version it extended (up to
 * `MID_LINEAGE_DEPTH` versions back): that view's samples from the ones dropped since, and the
 * samples appended since. Null when there is no such view.
 */
function extended(series: readonly MidSample[]): MidFloatsView | null {
  let dropped = 0;
  let appended = 0;
  let before: MidFloatsView | null | undefined;
  for (let at = series; before === undefined;) {
    const link = midLineage(at);
    if (link === undefined) return null;
    dropped += link.dropped;
    appended += 1;
    before = memo.get(link.from);
    at = link.from;
  }
  // Not found, or an unclean one (a dropped head may have taken its flaw: built afresh).
  if (before === undefined || before === null) return null;
  let { buf } = before;
  let start = before.start + dropped;
  const { end } = before;
  if (start > end || series.length !== end - start + appended) return null;
  // A buffer another history was extended on already is copied; so is one whose dropped head
  // outgrows what is kept (the buffer stays within about twice the history).
  if (end !== buf.at.length || start > Math.max(64, end - start)) {
    const copy = new MidFloatsBuffer();
    for (let i = start; i < end; i++) copy.push(buf.samples[i]!);
    buf = copy;
    start = 0;
  }
  for (let t = series.length - appended; t < series.length; t++) if (!buf.push(series[t]!)) return null;
  return { buf, start, end: buf.at.length };
}
