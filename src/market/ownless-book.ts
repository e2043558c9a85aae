/**
 * The polled book with the daemon's own orders taken out: what the rest of the market quotes.
 * The strategy's reference (mid or microprice) and its no-cross limits read it, and so does the
 * mid history (`market-state.ts`, `market.mids.ownOrders`), so that σ and the jump test measure
 * the market and not the daemon's own quotes: while they are the best bid and ask, the raw mid is
 * their centre, which moves only when they are repriced or taken. Pure (the answer for a book
 * and an own-orders array is memoised).
 */
import type { Dec } from '../core/decimal.js';
import { ZERO, floatNear } from '../core/decimal.js';
import type { BookView, Level, OwnOrderView } from './market-snapshot.js';

/** A book with the daemon's own orders taken out. Bids descending, asks ascending. */
export interface OwnlessBook {
  readonly bids: readonly Level[];
  readonly asks: readonly Level[];
}

/**
 * Own quantities by price level, keyed by the price's {@link floatNear}: equal decimals have the
 * same base-10⁷ limbs, hence the same key; a key shared by different prices (a double's rounding)
 * holds each of them, told apart by the exact comparison.
 */
type OwnLevels = Map<number, { readonly price: Dec; quantity: Dec }[]>;

function ownAt(own: OwnLevels, price: Dec): { readonly price: Dec; quantity: Dec } | undefined {
  const here = own.get(floatNear(price));
  if (here === undefined) return undefined;
  for (const e of here) if (e.price.eq(price)) return e;
  return undefined;
}

function subtract(levels: readonly Level[], own: OwnLevels): Level[] {
  const out: Level[] = [];
  for (const l of levels) {
    const mine = own.size === 0 ? undefined : ownAt(own, l.price)?.quantity;
    const rest = mine === undefined ? l.quantity : l.quantity.minus(mine);
    if (rest.gt(ZERO)) out.push(mine === undefined ? l : { price: l.price, quantity: rest });
  }
  return out;
}

/**
 * The polled book minus the remaining quantity of every own order of `pair` at its price level;
 * a level that was all ours disappears.
 *
 * Every own order is subtracted, whatever its state: a placing or unknown order may already rest
 * (the book poll can see a commit before the orders poll does), and a cancelling one rests until
 * its cancel commits. Over-subtracting only hides liquidity at our own price levels; not
 * subtracting would let the strategy quote off its own orders.
 */
export function bookWithoutOwn(book: BookView, own: readonly OwnOrderView[], pair: string): OwnlessBook {
  // A pass asks twice per pair with the same inputs (reference, then no-cross limits), and the
  // markouts ask again with the pass's snapshot and own orders: reuse the book's last answer.
  // Pure inputs (readonly by contract), so the same objects give the same book.
  const last = lastOwnless.get(book);
  if (last !== undefined && last.own === own && last.pair === pair) return last.result;
  const result = computeOwnless(book, own, pair);
  lastOwnless.set(book, { own, pair, result });
  return result;
}

/** Each book's last answer (a book object belongs to one poll of one pair). */
const lastOwnless = new WeakMap<
  BookView,
  { readonly own: readonly OwnOrderView[]; readonly pair: string; readonly result: OwnlessBook }
>();

function computeOwnless(book: BookView, own: readonly OwnOrderView[], pair: string): OwnlessBook {
  const bids: OwnLevels = new Map();
  const asks: OwnLevels = new Map();
  for (const o of own) {
    if (o.pair !== pair || !o.remaining.gt(ZERO)) continue;
    const m = o.side === 'BUY' ? bids : asks;
    const known = ownAt(m, o.price);
    if (known !== undefined) {
      known.quantity = known.quantity.plus(o.remaining);
      continue;
    }
    const key = floatNear(o.price);
    const entry = { price: o.price, quantity: ZERO.plus(o.remaining) };
    const here = m.get(key);
    if (here === undefined) m.set(key, [entry]);
    else here.push(entry);
  }
  return { bids: subtract(book.bids, bids), asks: subtract(book.asks, asks) };
}
