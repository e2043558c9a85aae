/**
 * Inventory derived from fills: per pair, how much base the party gained or lost and how much
 * quote it paid or received, realised fill by fill. It is the sum of the registry's `fill`
 * effects (each the delta of a larger cumulative `filled`, de-duplicated by the state machine),
 * and after a restart it is rebuilt from the journal's stored fills, so it never depends on
 * which process saw a fill.
 *
 * A BUY of q at p: base +q, quote −p·q. A SELL: base −q, quote +p·q. Registered market makers
 * are fee-exempt, so no fee leg. A fill without a price (a MARKET order) moves base only and is
 * counted in `unpricedFills`: its quote leg is unknown, never guessed.
 *
 * The price is the order's limit price: a resting maker order executes at it. A placement that
 * crosses the book at commit may execute at a better price; the quote leg is then conservative
 * (the venue's balances, read on the slow timer, are the authority).
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';

/** The minimum a fill must carry to move inventory (the state machine's `FillEffect` fits). */
export interface InventoryFill {
  readonly pair: string;
  readonly side: string;
  /** Execution price, quote per base; null when unknown. */
  readonly price: Dec | null;
  /** This fill's quantity (base units). */
  readonly quantity: Dec;
}

/** One pair's position change. */
export interface PairInventory {
  readonly pair: string;
  /** Net base bought (negative: sold). */
  readonly base: Dec;
  /** Net quote received (negative: paid). */
  readonly quote: Dec;
  /** Base bought and sold, each ≥ 0. */
  readonly bought: Dec;
  readonly sold: Dec;
  /** Quote paid on buys and received on sells (priced fills only), each ≥ 0. */
  readonly buyNotional: Dec;
  readonly sellNotional: Dec;
  readonly fills: number;
  /** Fills without a price: their quote leg is missing from `quote`. */
  readonly unpricedFills: number;
}

/** A pair with no holdings and no fills. */
export function emptyInventory(pair: string): PairInventory {
  return {
    pair,
    base: ZERO,
    quote: ZERO,
    bought: ZERO,
    sold: ZERO,
    buyNotional: ZERO,
    sellNotional: ZERO,
    fills: 0,
    unpricedFills: 0,
  };
}

/** Per-pair inventory, updated fill by fill. Decimal only. */
export class Inventory {
  private readonly pairs = new Map<string, PairInventory>();

  /** An inventory seeded with `fills` (e.g. the journal's stored fills on restart). */
  static fromFills(fills: Iterable<InventoryFill>): Inventory {
    const inv = new Inventory();
    for (const f of fills) inv.apply(f);
    return inv;
  }

  /**
   * Adds one fill; returns the pair's inventory after it. Throws RangeError on a non-positive
   * quantity or an unknown side (nothing changes).
   */
  apply(fill: InventoryFill): PairInventory {
    if (!fill.quantity.gt(ZERO)) throw new RangeError(`fill quantity must be positive (${fill.pair})`);
    if (fill.side !== 'BUY' && fill.side !== 'SELL') throw new RangeError(`unknown fill side ${fill.side}`);
    const cur = this.pairs.get(fill.pair) ?? emptyInventory(fill.pair);
    const q = fill.quantity;
    const notional = fill.price === null ? null : fill.price.times(q);
    const buy = fill.side === 'BUY';
    const next: PairInventory = {
      pair: fill.pair,
      base: buy ? cur.base.plus(q) : cur.base.minus(q),
      quote: notional === null ? cur.quote : buy ? cur.quote.minus(notional) : cur.quote.plus(notional),
      bought: buy ? cur.bought.plus(q) : cur.bought,
      sold: buy ? cur.sold : cur.sold.plus(q),
      buyNotional: buy && notional !== null ? cur.buyNotional.plus(notional) : cur.buyNotional,
      sellNotional: !buy && notional !== null ? cur.sellNotional.plus(notional) : cur.sellNotional,
      fills: cur.fills + 1,
      unpricedFills: cur.unpricedFills + (notional === null ? 1 : 0),
    };
    this.pairs.set(fill.pair, next);
    return next;
  }

  /** The inventory of one pair (zeros when it never filled). */
  get(pair: string): PairInventory {
    return this.pairs.get(pair) ?? emptyInventory(pair);
  }

  /** Every pair that filled, by name. */
  all(): PairInventory[] {
    return [...this.pairs.values()].sort((a, b) => (a.pair < b.pair ? -1 : a.pair > b.pair ? 1 : 0));
  }

  /** Σ fills over all pairs. */
  get fillCount(): number {
    let n = 0;
    for (const p of this.pairs.values()) n += p.fills;
    return n;
  }
}

/** The read-only face of {@link Inventory} handed to consumers. */
export type InventoryView = Pick<Inventory, 'get' | 'all' | 'fillCount'>;
