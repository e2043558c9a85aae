/**
 * One BTC/USDC market, its snapshot and a tracked order, for unit tests of the modules that read
 * a market snapshot and our own orders (the own-orders view, local balances, the book watch).
 */
import { dec } from '../../src/core/decimal.js';
import type { MarketSnapshot, PairMarket } from '../../src/market/market-snapshot.js';
import { newIntent, type OrderState, type TrackedOrder } from '../../src/orders/fsm/index.js';

/** BTC/USDC with an empty book at sequence 1. */
export const PAIR: PairMarket = {
  pair: 'BTC/USDC',
  base: 'BTC',
  quote: 'USDC',
  minQuoteAmount: dec('10'),
  book: { bids: [], asks: [], sequence: 1, receivedAt: 0 },
  trades: [],
  external: null,
};

/** A snapshot of {@link PAIR} at `now`, changed by `over`, with `balances`. */
export function snapshot(
  now: number,
  over: Partial<PairMarket> = {},
  balances: MarketSnapshot['balances'] = null,
): MarketSnapshot {
  return { now, pairs: { 'BTC/USDC': { ...PAIR, ...over } }, balances, balancesAt: null, account: null };
}

/** Our order `key` in `state` (registry slot `BTC/USDC:<side>:0#0` unless given). */
export function order(
  key: string,
  side: 'BUY' | 'SELL',
  price: string,
  qty: string,
  state: OrderState,
  slot: string | null = null,
): TrackedOrder {
  const o = newIntent({
    key,
    slot: slot ?? `BTC/USDC:${side}:0#0`,
    pair: 'BTC/USDC',
    side,
    price: dec(price),
    quantity: dec(qty),
    clientOrderId: key,
    at: 0,
  });
  return { ...o, state, slot: slot === null ? o.slot : slot };
}
