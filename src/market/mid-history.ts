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
  const kept = history.slice(start);
  kept.push(Object.freeze({ at: sample.at, price: sample.price }));
  const excess = kept.length - limits.maxSamples;
  return Object.freeze(excess > 0 ? kept.slice(excess) : kept);
}
