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
