/**
 * The boundary between the venue's wire shapes (decimal strings, ISO dates) and the snapshot's
 * views (`Dec`, ms since the epoch). Inputs have already passed the venue client's schemas;
 * `dec` still refuses anything that is not a plain decimal, so a bad value fails the poll that
 * carried it instead of entering the snapshot. Every view returned is frozen.
 */
import { dec } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { Account, Balance, OrderBook, Pair, PublicTrade } from '../venue/schemas.js';
import type { AccountView, BalanceView, BookView, Level, TradeView } from './market-snapshot.js';

/** The static description of a pair, from GET /pairs. */
export interface PairInfo {
  readonly pair: string;
  readonly base: string;
  readonly quote: string;
  readonly minQuoteAmount: Dec | null;
}

/** GET /pairs entry → {@link PairInfo}. */
export function toPairInfo(p: Pair): PairInfo {
  return Object.freeze({
    pair: p.pair,
    base: p.base,
    quote: p.quote,
    minQuoteAmount: p.minQuoteAmount === null ? null : dec(p.minQuoteAmount),
  });
}

function toLevels(levels: readonly (readonly [string, string])[]): readonly Level[] {
  return Object.freeze(
    levels.map(([price, quantity]) => Object.freeze({ price: dec(price), quantity: dec(quantity) })),
  );
}

/** GET /orderbook/{pair} → {@link BookView}, stamped with the time the poll succeeded. */
export function toBookView(book: OrderBook, receivedAt: number): BookView {
  return Object.freeze({
    bids: toLevels(book.bids),
    asks: toLevels(book.asks),
    sequence: book.asOf.sequence,
    receivedAt,
  });
}

/** Whether two wire level lists are the same strings, level by level. */
function sameWireLevels(
  a: readonly (readonly [string, string])[],
  b: readonly (readonly [string, string])[],
): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x[0] !== y[0] || x[1] !== y[1]) return false;
  }
  return true;
}

/**
 * {@link toBookView}, taking the levels of `held` (the view of the book polled before, `wire` its
 * wire levels) when the new wire levels are the same strings: equal strings parse to equal
 * decimals, so the view is the same as a fresh one, without parsing every level again. About two
 * thirds of the book polls of a simulated day find the book unchanged (the background makers
 * requote every few seconds, the poll comes every 1.5 s).
 */
export function toBookViewFrom(
  book: OrderBook,
  receivedAt: number,
  held: { readonly wire: OrderBook; readonly view: BookView } | null,
): BookView {
  if (
    held === null ||
    !sameWireLevels(held.wire.bids, book.bids) ||
    !sameWireLevels(held.wire.asks, book.asks)
  )
    return toBookView(book, receivedAt);
  return Object.freeze({
    bids: held.view.bids,
    asks: held.view.asks,
    sequence: book.asOf.sequence,
    receivedAt,
  });
}

/** A public trade → {@link TradeView}; null when `executedAt` is not a date the runtime can parse. */
export function toTradeView(t: PublicTrade): TradeView | null {
  const at = Date.parse(t.executedAt);
  if (!Number.isFinite(at)) return null;
  return Object.freeze({ tradeId: t.tradeId, price: dec(t.price), quantity: dec(t.quantity), at });
}

/** GET /balances (normalised by the client) → balances by instrument. */
export function toBalancesView(balances: readonly Balance[]): Readonly<Record<string, BalanceView>> {
  const out: Record<string, BalanceView> = {};
  for (const b of balances) {
    out[b.instrument] = Object.freeze({ available: dec(b.available), locked: dec(b.locked) });
  }
  return Object.freeze(out);
}

/** GET /account → {@link AccountView}; a successful read means the key works (`authFailing` false). */
export function toAccountView(a: Account, readAt: number): AccountView {
  return Object.freeze({
    status: a.status,
    maxOpenOrders: a.limits.maxOpenOrders,
    ordersPerMinute: a.limits.ordersPerMinute,
    clientOrderIdPrefix: a.clientOrderIdPrefix,
    readAt,
    authFailing: false,
  });
}
