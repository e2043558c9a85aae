/**
 * The strategy's first step for a pair: its reference price from the configured source (mid or
 * microprice of the book without our own orders, last trade, static, the external feed, or the
 * median of the "exchanges"), each with its freshness bound, or the reason there is none, in
 * which case the pair is not quoted: no reference is ever guessed. Also the own-less book's best
 * prices for the no-cross guard. Functions of the snapshot, no IO (the own-less book memoises
 * its last answer).
 */
import type { Dec } from '../core/decimal.js';
import { ZERO } from '../core/decimal.js';
import { combineSources } from '../market/reference/combine-sources.js';
import type { OwnOrderView, PairMarket } from '../market/market-snapshot.js';
import { bookWithoutOwn, type OwnlessBook } from '../market/ownless-book.js';
import type { ReferenceSourceName } from '../config/sections/strategy-params.js';
import type { PairStrategyParams } from './params.js';

/** A usable reference price. */
export interface ReferencePrice {
  readonly price: Dec;
  /** When the price was observed (book poll, trade, feed fetch; `now` for a static price). */
  readonly at: number;
  readonly source: ReferenceSourceName;
}

/** The reference price, or why there is none. Never a guess. */
export type ReferenceResult =
  { readonly ok: true; readonly ref: ReferencePrice } | { readonly ok: false; readonly reason: string };

/** `(best bid + best ask) / 2`, or null when a side is empty. */
export function midPrice(book: OwnlessBook): Dec | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (bid === undefined || ask === undefined) return null;
  return bid.price.plus(ask.price).div(2);
}

/**
 * The size-weighted microprice `(bidPx·askQty + askPx·bidQty) / (bidQty + askQty)` of the top
 * of the book: it leans toward the side with less quantity. Null when a side is empty.
 */
export function microprice(book: OwnlessBook): Dec | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (bid === undefined || ask === undefined) return null;
  const total = bid.quantity.plus(ask.quantity);
  return bid.price.times(ask.quantity).plus(ask.price.times(bid.quantity)).div(total);
}

function fresh(at: number, now: number, maxAgeMs: number): boolean {
  return now - at <= maxAgeMs;
}

/**
 * The reference price of one pair from its configured source, or the reason there is none: no
 * data, data older than the source's max age, an empty side of the own-less book. The caller
 * does not quote the pair without one. `p` is the pair's `reference` section and, for the
 * "external" source, its `external` section (`external.maxAgeMs`); for the "exchanges" source,
 * its `exchanges` section: the weighted median of the fresh, non-outlier sources, or none with
 * fewer than `exchanges.minSources` of them (`src/market/reference/combine-sources.ts`).
 */
export function referencePrice(
  market: PairMarket,
  own: readonly OwnOrderView[],
  p: Pick<PairStrategyParams, 'reference' | 'external' | 'exchanges'>,
  now: number,
): ReferenceResult {
  const params = p.reference;
  const fail = (reason: string): ReferenceResult => ({ ok: false, reason });
  const ok = (price: Dec, at: number): ReferenceResult =>
    price.gt(ZERO)
      ? { ok: true, ref: { price, at, source: params.source } }
      : fail('reference price is not positive');
  switch (params.source) {
    case 'mid':
    case 'microprice': {
      const book = market.book;
      if (book === null) return fail('no book yet');
      if (!fresh(book.receivedAt, now, params.bookMaxAgeMs)) {
        return fail(`book is stale (${now - book.receivedAt} ms old, max ${params.bookMaxAgeMs})`);
      }
      const ownless = bookWithoutOwn(book, own, market.pair);
      const price = params.source === 'mid' ? midPrice(ownless) : microprice(ownless);
      if (price === null) return fail('book has an empty side once our own orders are removed');
      return ok(price, book.receivedAt);
    }
    case 'last': {
      const last = market.trades[0];
      if (last === undefined) return fail('no trade yet');
      if (!fresh(last.at, now, params.lastMaxAgeMs)) {
        return fail(`last trade is stale (${now - last.at} ms old, max ${params.lastMaxAgeMs})`);
      }
      return ok(last.price, last.at);
    }
    case 'static':
      return params.staticPrice === null ? fail('no static price configured') : ok(params.staticPrice, now);
    case 'external': {
      const ext = market.external;
      if (ext === null) return fail('no external price');
      const maxAgeMs = p.external.maxAgeMs;
      if (!fresh(ext.at, now, maxAgeMs)) {
        return fail(`external price is stale (${now - ext.at} ms old, max ${maxAgeMs})`);
      }
      return ok(ext.price, ext.at);
    }
    case 'exchanges': {
      const sources = market.sources ?? [];
      if (sources.length === 0) return fail('no reference sources');
      const combined = combineSources(sources, p.exchanges, now);
      return combined.ok ? ok(combined.price, combined.at) : fail(combined.reason);
    }
  }
}

/** Best bid and best ask of the own-less book, for the no-cross guard. */
export function bestPrices(book: OwnlessBook): {
  readonly bestBid: Dec | null;
  readonly bestAsk: Dec | null;
} {
  return { bestBid: book.bids[0]?.price ?? null, bestAsk: book.asks[0]?.price ?? null };
}
