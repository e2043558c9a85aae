/**
 * Inventory and PnL per pair, from the fills the execution layer has recorded (the journal's
 * fills, so they survive restarts): the net base bought or sold, the net quote paid or received,
 * and their value marked to the mid, `quote + base × mid`, which is the cumulative PnL of the
 * pair's trading (registered market makers trade fee-free). The mid is the book's; when the pair
 * has no two-sided book, the strategy's reference price, else the last known mid.
 *
 * With a hedge venue, a position is the firm's net one (`market/net-position.ts`): the hedge
 * venue's base and quote flow (its fees deducted) are added, so the inventory guard and the PnL
 * read this venue and the hedge together.
 */
import { ZERO, toWire } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { InventoryView, PairInventory } from '../execution/inventory.js';
import type { MarketSnapshot } from '../market/market-snapshot.js';
import type { HedgeOffset, NetPositionSource } from '../market/net-position.js';
import { midPrice } from '../market/mid-history.js';
import { markToMid } from '../risk/daily-loss-guard.js';
import { unrealisedAt } from './cost-basis.js';
import { CostBook, type CostSource } from './cost-book.js';
import type { PairCost } from '../strategy/cost-floor.js';

/** One pair's position and PnL. */
export interface PairPosition {
  readonly pair: string;
  /** Net base position (negative: sold more than bought). */
  readonly base: Dec;
  /** Net quote flow (negative: paid more than received). */
  readonly quote: Dec;
  /** The price the position is marked at, or null when none is known yet. */
  readonly mark: Dec | null;
  /** `quote + base × mark`, or the quote flow alone while no mark is known. */
  readonly pnl: Dec;
  /** PnL of the volume bought and sold back: `min(bought, sold) × (avg sell − avg buy)`. */
  readonly realised: Dec;
  /** The position's cost basis (average-cost method) and the PnL split it gives. */
  readonly cost: PositionCost;
  readonly fills: number;
}

/** Average entry price, and PnL split into realised and unrealised (average-cost method). */
export interface PositionCost {
  /** Average entry price of the open position, quote per base; null when flat. */
  readonly averagePrice: Dec | null;
  /** Realised on what was closed against the average, fees deducted. */
  readonly realised: Dec;
  /** `base × (mark − average)`; null while no mark is known. */
  readonly unrealised: Dec | null;
}

/** Positions of every configured pair (a pair that never filled is flat). */
export class Positions {
  private readonly lastMark = new Map<string, Dec>();
  private readonly book = new CostBook();

  /**
   * `costSource` reads the journal's fills for the cost basis; without it every position is costed
   * flat. `hedge` reads the hedge side of the net position; without it, this venue's alone.
   */
  constructor(
    private readonly pairs: readonly string[],
    private readonly costSource: CostSource = () => [],
    private readonly hedge: NetPositionSource = () => ({}),
  ) {}

  /**
   * Each costed pair's position from its fills and average entry price, for the strategy's cost
   * floor; `mustShrink` names the pairs the risk gate holds reducing.
   */
  costs(mustShrink: (pair: string) => boolean = () => false): Record<string, PairCost> {
    this.book.catchUp(this.costSource);
    const out: Record<string, PairCost> = {};
    for (const [pair, b] of this.book.entries()) {
      out[pair] = { position: b.position, averagePrice: b.averagePrice, mustShrink: mustShrink(pair) };
    }
    return out;
  }

  /** The positions at `snapshot`, marked to its mids (or `references`, or the last mark). */
  compute(
    inventory: InventoryView,
    snapshot: MarketSnapshot,
    references: Readonly<Record<string, { readonly price: Dec }>> = {},
  ): PairPosition[] {
    const names = new Set([...this.pairs, ...inventory.all().map((p) => p.pair)]);
    this.book.catchUp(this.costSource);
    const hedge = this.hedge();
    const out: PairPosition[] = [];
    for (const pair of [...names].sort()) {
      const inv = withHedge(inventory.get(pair), hedge[pair]);
      const book = snapshot.pairs[pair]?.book ?? null;
      const mark =
        (book === null ? null : midPrice(book)) ?? references[pair]?.price ?? this.lastMark.get(pair) ?? null;
      if (mark !== null) this.lastMark.set(pair, mark);
      const pnl = mark === null ? inv.quote : markToMid({ base: inv.base, quote: inv.quote }, mark);
      out.push({
        pair,
        base: inv.base,
        quote: inv.quote,
        mark,
        pnl,
        realised: realised(inv),
        cost: costOf(this.book, pair, mark),
        fills: inv.fills,
      });
    }
    return out;
  }
}

/** The pair's inventory with the hedge venue's position and quote flow added (fills counted apart). */
function withHedge(inv: PairInventory, hedge: HedgeOffset | undefined): PairInventory {
  return hedge === undefined
    ? inv
    : { ...inv, base: inv.base.plus(hedge.base), quote: inv.quote.plus(hedge.quote) };
}

function costOf(book: CostBook, pair: string, mark: Dec | null): PositionCost {
  const basis = book.get(pair);
  return {
    averagePrice: basis.averagePrice,
    realised: basis.realised,
    unrealised: unrealisedAt(basis, mark),
  };
}

/** `min(bought, sold) × (avg sell − avg buy)`: zero until both sides have filled. */
export function realised(inv: PairInventory): Dec {
  if (!inv.bought.gt(ZERO) || !inv.sold.gt(ZERO)) return ZERO;
  // Asked on every quote pass, and the inventory moves only on fills: the last answer per
  // inventory is kept while its four decimals are the same objects (a Dec never changes).
  const known = realisedMemo.get(inv);
  if (
    known !== undefined &&
    known.bought === inv.bought &&
    known.sold === inv.sold &&
    known.buyNotional === inv.buyNotional &&
    known.sellNotional === inv.sellNotional
  ) {
    return known.value;
  }
  const matched = inv.bought.lt(inv.sold) ? inv.bought : inv.sold;
  const value = matched.times(inv.sellNotional.div(inv.sold).minus(inv.buyNotional.div(inv.bought)));
  realisedMemo.set(inv, {
    bought: inv.bought,
    sold: inv.sold,
    buyNotional: inv.buyNotional,
    sellNotional: inv.sellNotional,
    value,
  });
  return value;
}

const realisedMemo = new WeakMap<
  PairInventory,
  {
    readonly bought: Dec;
    readonly sold: Dec;
    readonly buyNotional: Dec;
    readonly sellNotional: Dec;
    readonly value: Dec;
  }
>();

/**
 * The risk gate's inputs from positions: net base and PnL by pair. The PnL of a position with no
 * mark yet is null (not known): its quote flow alone would read as a loss or a gain of the whole
 * position's value to the daily loss guard.
 */
export function riskInputs(positions: readonly PairPosition[]): {
  inventory: Record<string, Dec>;
  pnl: Record<string, Dec | null>;
} {
  const inventory: Record<string, Dec> = {};
  const pnl: Record<string, Dec | null> = {};
  for (const p of positions) {
    inventory[p.pair] = p.base;
    pnl[p.pair] = p.mark === null && !p.base.isZero() ? null : p.pnl;
  }
  return { inventory, pnl };
}

/** A position with decimals as wire strings, for status and logs. */
export interface PositionSummary {
  readonly base: string;
  readonly quote: string;
  readonly mark: string | null;
  readonly pnl: string;
  readonly fills: number;
}

/** {@link PairPosition} as strings. */
export function summarize(p: PairPosition): PositionSummary {
  return {
    base: toWire(p.base),
    quote: toWire(p.quote.toDecimalPlaces(8)),
    mark: p.mark === null ? null : toWire(p.mark),
    pnl: toWire(p.pnl.toDecimalPlaces(8)),
    fills: p.fills,
  };
}

/** The summed PnL of positions sharing a quote instrument is reported per instrument. */
export function pnlByQuote(
  positions: readonly PairPosition[],
  quoteOf: (pair: string) => string,
): Record<string, string> {
  const sums = new Map<string, Dec>();
  for (const p of positions) sums.set(quoteOf(p.pair), (sums.get(quoteOf(p.pair)) ?? ZERO).plus(p.pnl));
  return Object.fromEntries([...sums].map(([q, v]) => [q, toWire(v.toDecimalPlaces(8))]));
}
