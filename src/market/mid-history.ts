/**
 * A pair's mid-price history: the book's mid, and the bounded, strictly time-ordered, frozen list
 * of mids that each book poll appends to (by age and by count). Pure functions; `MarketState`
 * keeps the history per pair, the snapshot carries it, and the strategy estimates volatility
 * from it.
 */
import { Dec } from '../core/decimal.js';
import type { BookView, MidSample } from './market-snapshot.js';

/** Bounds of a mid-price history. */
export interface MidHistoryLimits {
  /** Samples older than this, in ms before the newest sample, are dropped. */
  readonly keepMs: number;
  /** At most this many samples are kept (the oldest go first). */
  readonly maxSamples: number;
}

const TWO = new Dec(2);

/** How a history {@link appendMid} returned was made. */
export interface MidLineage {
  /** The history it extended. */
  readonly from: readonly MidSample[];
  /** How many of that history's oldest samples were dropped; one sample was appended. */
  readonly dropped: number;
}

/**
 * How many versions back a history's lineage reaches: the link of the version this far back is
 * cut when a new one is made, so a live history holds at most this many earlier versions.
 */
export const MID_LINEAGE_DEPTH = 8;

const lineages = new WeakMap<readonly MidSample[], MidLineage>();

/**
 * How `history` was made from an earlier one, when {@link appendMid} made it within the last
 * {@link MID_LINEAGE_DEPTH} versions (for statistics that extend what they computed on the
 * earlier history, `mid-floats.ts`); undefined otherwise.
 */
export function midLineage(history: readonly MidSample[]): MidLineage | undefined {
  return lineages.get(history);
}

/** `(best bid + best ask) / 2`, or null when either side is empty. */
export function midPrice(book: Pick<BookView, 'bids' | 'asks'>): Dec | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (bid === undefined || ask === undefined) return null;
  return bid.price.plus(ask.price).div(TWO);
}

/**
 * `history` with `sample` appended (oldest first), trimmed to `limits`; a new frozen array, the
 * input is not touched. A sample not newer than the last one is ignored (the history stays
 * strictly increasing in time).
 */
export function appendMid(
  history: readonly MidSample[],
  sample: MidSample,
  limits: MidHistoryLimits,
): readonly MidSample[] {
  const last = history[history.length - 1];
  if (last !== undefined && sample.at <= last.at) return history;
  const cutoff = sample.at - limits.keepMs;
  let start = 0;
  while (start < history.length && history[start]!.at < cutoff) start += 1;
  // Keep at most maxSamples, the new one included (the oldest go first).
  if (limits.maxSamples <= 0) return Object.freeze([]);
  start = Math.max(start, history.length + 1 - limits.maxSamples);
  // Copied element by element into a preallocated array: a `slice` of a frozen array is several
  // times slower to freeze again, and this runs on every book poll with hundreds of samples.
  const kept: MidSample[] = new Array<MidSample>(Math.max(0, history.length - start) + 1);
  let n = 0;
  for (let i = Math.max(0, start); i < history.length; i++) kept[n++] = history[i]!;
  kept[n++] = Object.freeze({ at: sample.at, price: sample.price });
  kept.length = n;
  const out = Object.freeze(kept);
  lineages.set(out, { from: history, dropped: Math.max(0, start) });
  // Cut the lineage MID_LINEAGE_DEPTH versions back, so the versions do not keep one another alive.
  let version: readonly MidSample[] = out;
  for (let k = 0; k < MID_LINEAGE_DEPTH; k++) {
    const link = lineages.get(version);
    if (link === undefined) break;
    version = link.from;
  }
  lineages.delete(version);
  return out;
}
