/**
 * One pair's live book on the simulated venue: {@link PairBook} keeps account orders and
 * background liquidity with price-time priority, aggregates levels for reads, and calls its hook
 * before every change so the lagging book projection can keep the state it replaces. Fills are
 * planned and settled against it by the engine core.
 */
import { type Dec, ZERO, toWire } from '../../core/decimal.js';
import type { OrderRecord } from './orders.js';
import { remaining } from './orders.js';

/** A resting order on the book: an account's order, or a background maker's level. */
export interface BookEntry {
  side: 'BUY' | 'SELL';
  price: Dec;
  /** Time priority: lower rests earlier. */
  seq: number;
  /** The account order, or null for background liquidity. */
  order: OrderRecord | null;
  /** Quantity of a background entry (an account entry's quantity is its order's remainder). */
  qty: Dec;
}

/** Aggregated levels, `[price, quantity]` wire strings, best first. */
export type Levels = [string, string][];

/** The quantity still resting in `e`. */
export function entryQty(e: BookEntry): Dec {
  return e.order ? remaining(e.order) : e.qty;
}

/** True when `a` has priority over `b` on the same side (price, then time). */
function before(a: BookEntry, b: BookEntry): boolean {
  if (!a.price.eq(b.price)) return a.side === 'BUY' ? a.price.gt(b.price) : a.price.lt(b.price);
  return a.seq < b.seq;
}

/**
 * One pair's live book with price-time priority: bids best (highest) first, asks best (lowest)
 * first, earlier entries first within a price. `beforeChange` is called before any mutation
 * so the lagging projection can capture the state it replaces.
 */
export class PairBook {
  readonly bids: BookEntry[] = [];
  readonly asks: BookEntry[] = [];
  /** Mutations so far (the projection's `asOf.sequence`). */
  version = 0;

  constructor(
    readonly pair: string,
    private readonly onBeforeChange: (book: PairBook) => void,
  ) {}

  /** Must be called before changing anything that affects the levels (fills included). */
  beforeChange(): void {
    this.onBeforeChange(this);
    this.version += 1;
  }

  side(side: 'BUY' | 'SELL'): BookEntry[] {
    return side === 'BUY' ? this.bids : this.asks;
  }

  insert(e: BookEntry): void {
    this.beforeChange();
    const list = this.side(e.side);
    let i = list.length;
    while (i > 0 && before(e, list[i - 1]!)) i--;
    list.splice(i, 0, e);
  }

  remove(e: BookEntry): void {
    const list = this.side(e.side);
    const i = list.indexOf(e);
    if (i < 0) return;
    this.beforeChange();
    list.splice(i, 1);
  }

  /** The entry resting for an account order, if any. */
  entryOf(order: OrderRecord): BookEntry | undefined {
    return this.side(order.side).find((e) => e.order === order);
  }

  /** Aggregated levels of one side, best first, at most `depth` (all when undefined). */
  levels(side: 'BUY' | 'SELL', depth?: number): Levels {
    const out: Levels = [];
    let price: Dec | null = null;
    let qty: Dec = ZERO;
    for (const e of this.side(side)) {
      const q = entryQty(e);
      if (q.lte(0)) continue;
      if (price !== null && e.price.eq(price)) {
        qty = qty.plus(q);
        continue;
      }
      if (price !== null) {
        out.push([toWire(price), toWire(qty)]);
        if (depth !== undefined && out.length >= depth) return out;
      }
      price = e.price;
      qty = q;
    }
    if (price !== null && (depth === undefined || out.length < depth)) out.push([toWire(price), toWire(qty)]);
    return out;
  }
}
