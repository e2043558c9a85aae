/**
 * The other makers of the simulated market: {@link buildBackgroundBook} draws a laddered book
 * around a reference price (levels at fixed bps distances, rounded away from the reference onto
 * the pair's grid, jittered sizes, a fixed draw order so a seed gives the same book), and
 * {@link BackgroundMakers} replaces one pair's background liquidity with it on each refresh
 * through the market port. The daemon's quotes compete with this book.
 */
import type { Dec } from '../../core/decimal.js';
import type { Rng } from '../rng.js';
import type { BackgroundConfig } from './market-config.js';
import type { MarketPort } from './market-port.js';
import { gridStep, quantize, toUnits, unitsToDec, type RoundingMode } from './quantize.js';

/** One side of a background book: `[price, quantity]`, best first. */
export type BookSide = Array<readonly [Dec, Dec]>;

/** A background book around one reference price. */
export interface BackgroundBook {
  /** Descending prices, all strictly below the reference. */
  bids: BookSide;
  /** Ascending prices, all strictly above the reference. */
  asks: BookSide;
}

/** Grid and size settings of the pair a book is built for. */
export interface BookGrid {
  priceDecimals: number;
  quantityDecimals: number;
}

/**
 * Builds the background makers' book around `reference`.
 *
 * Level `i` (0-based) sits `firstLevelBps + i·spacingBps` from the reference on each side. Bid
 * prices are rounded down to the tick and ask prices up, so no level is ever closer to the
 * reference than intended (and the book never crosses the reference). Each level's quantity is
 * `sizeBase·(1 + sizeJitter·u)` with `u ~ U(−1, 1)`, rounded to the quantity step and at least
 * one step. Draw order is fixed (for each level: bid size, then ask size), so the same stream
 * gives the same book. Levels that land on the same tick (spacing finer than the tick) are merged;
 * bids that would be at or below zero are dropped.
 */
export function buildBackgroundBook(
  reference: number,
  config: BackgroundConfig,
  grid: BookGrid,
  rng: Rng,
): BackgroundBook {
  const { priceDecimals: pd, quantityDecimals: qd } = grid;
  const sizeBase = Number(config.sizeBase);
  const minSize = gridStep(qd);
  const drawSize = (): number => {
    const size = sizeBase * (1 + config.sizeJitter * rng.uniform(-1, 1));
    return Math.max(size, minSize);
  };
  const bids: Level[] = [];
  const asks: Level[] = [];
  for (let i = 0; i < config.levels; i++) {
    const distance = (config.firstLevelBps + i * config.spacingBps) / 10_000;
    const bidSize = onGrid(drawSize(), qd, 'nearest');
    const askSize = onGrid(drawSize(), qd, 'nearest');
    const bidPrice = onGrid(reference * (1 - distance), pd, 'floor');
    const askPrice = onGrid(reference * (1 + distance), pd, 'ceil');
    if (typeof bidPrice === 'number' ? bidPrice > 0 : bidPrice.gt(0))
      addLevel(bids, bidPrice, bidSize, pd, qd);
    addLevel(asks, askPrice, askSize, pd, qd);
  }
  const toSide = (levels: Level[]): BookSide => levels.map(([p, q]) => [toDec(p, pd), toDec(q, qd)] as const);
  return { bids: toSide(bids), asks: toSide(asks) };
}

/**
 * A value on a grid: integer units while that is exact in a float (the hot path: comparing and
 * adding numbers is far cheaper than decimals), else a `Dec`.
 */
type GridValue = number | Dec;
type Level = [GridValue, GridValue];

function onGrid(x: number, decimals: number, mode: RoundingMode): GridValue {
  return toUnits(x, decimals, mode) ?? quantize(x, decimals, mode);
}

function toDec(value: GridValue, decimals: number): Dec {
  return typeof value === 'number' ? unitsToDec(value, decimals) : value;
}

/** Appends a level, or adds to the last one when it lands on the same price. */
function addLevel(side: Level[], price: GridValue, quantity: GridValue, pd: number, qd: number): void {
  const last = side[side.length - 1];
  if (last) {
    const [lastPrice, lastQuantity] = last;
    const same =
      typeof lastPrice === 'number' && typeof price === 'number'
        ? lastPrice === price
        : toDec(lastPrice, pd).eq(toDec(price, pd));
    if (same) {
      const sum =
        typeof lastQuantity === 'number' &&
        typeof quantity === 'number' &&
        Number.isSafeInteger(lastQuantity + quantity)
          ? lastQuantity + quantity
          : toDec(lastQuantity, qd).plus(toDec(quantity, qd));
      side[side.length - 1] = [price, sum];
      return;
    }
  }
  side.push([price, quantity]);
}

/** What {@link BackgroundMakers} needs. */
export interface BackgroundMakersOptions {
  pair: string;
  port: MarketPort;
  config: BackgroundConfig;
  grid: BookGrid;
  /** This pair's makers stream. */
  rng: Rng;
}

/**
 * The other makers on one pair: on each {@link BackgroundMakers.refresh} they replace their whole
 * book with a fresh one around the current reference via `port.setBackgroundLiquidity`. The
 * timer that calls `refresh` lives in the market model. When the config is disabled, `refresh`
 * does nothing (no port calls, no draws), leaving the daemon alone on the book.
 */
export class BackgroundMakers {
  private refreshCount = 0;
  private lastBook: BackgroundBook | undefined;

  constructor(private readonly options: BackgroundMakersOptions) {}

  /** True when this pair has background makers. */
  get enabled(): boolean {
    return this.options.config.enabled;
  }

  /** Number of books published so far. */
  get refreshes(): number {
    return this.refreshCount;
  }

  /** The last book published (for reports), if any. */
  get book(): BackgroundBook | undefined {
    return this.lastBook;
  }

  /** Publishes a fresh book around `reference`. Returns it, or `undefined` when disabled. */
  refresh(reference: number): BackgroundBook | undefined {
    if (!this.enabled) return undefined;
    const { pair, port, config, grid, rng } = this.options;
    const book = buildBackgroundBook(reference, config, grid, rng);
    this.lastBook = book;
    this.refreshCount++;
    port.setBackgroundLiquidity(pair, book.bids, book.asks);
    return book;
  }
}
