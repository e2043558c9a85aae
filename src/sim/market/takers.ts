import { Dec, ZERO, toWire } from '../../core/decimal.js';
import type { Side } from '../../venue/schemas.js';
import type { Rng } from '../rng.js';
import type { TakersConfig } from './market-config.js';
import type { MarketPort } from './market-port.js';
import { gridStep, quantize } from './quantize.js';

/**
 * Takers as in Avellaneda–Stoikov: the rate of market orders that reach a resting order at
 * distance δ from the reference is `λ(δ) = A·e^(−k·δ)`.
 *
 * Units: δ in basis points of the reference, `k` per basis point, `A` per second (both sides).
 *
 * Construction that gives exactly that intensity: takers arrive as a Poisson process of rate `A`
 * (exponential inter-arrival times, mean `1/A` s). Each one draws its maximum acceptable distance
 * δ ~ Exponential(k), so P(δ ≥ d) = e^(−k·d) and, by Poisson thinning, the takers willing to go
 * to distance d or further arrive at rate `A·e^(−k·d)`. It draws a side (BUY with probability
 * `buyShare`) and a size, then sweeps the book best-first via `port.takeLiquidity` with limit
 * `ref·(1 + δ/10⁴)` for a buy and `ref·(1 − δ/10⁴)` for a sell. Whatever rests within that limit,
 * the daemon's orders included, trades; the rest of the taker's size is dropped.
 */

/** The rate (per second) of takers on one side that reach `deltaBps` from the reference. */
export function takerRateAtDistance(config: TakersConfig, side: Side, deltaBps: number): number {
  const share = side === 'BUY' ? config.buyShare : 1 - config.buyShare;
  return config.A * share * Math.exp(-config.k * deltaBps);
}

/** One taker's draws, before they are turned into decimals. */
export interface TakerDraw {
  side: Side;
  /** Maximum distance from the reference, bps. */
  deltaBps: number;
  /** Size, base units (float). */
  size: number;
}

/**
 * Draws one taker from `rng` in a fixed order (δ, side, size). Sizes follow `sizeDistribution`
 * with mean `meanSizeBase`, capped at `maxSizeMultiple × meanSizeBase`.
 */
export function drawTaker(config: TakersConfig, rng: Rng): TakerDraw {
  const deltaBps = rng.exponential(config.k);
  const side: Side = rng.chance(config.buyShare) ? 'BUY' : 'SELL';
  const mean = Number(config.meanSizeBase);
  let size: number;
  if (config.sizeDistribution === 'lognormal') {
    const s = config.sizeLogSigma;
    size = Math.exp(Math.log(mean) - (s * s) / 2 + s * rng.normal());
  } else {
    size = rng.exponential(1 / mean);
  }
  return { side, deltaBps, size: Math.min(size, mean * config.maxSizeMultiple) };
}

/**
 * The taker's limit price: a buy's is rounded down to the tick and a sell's up, so a taker never
 * trades beyond its δ. A sell limit never goes below one tick.
 */
export function takerLimitPrice(reference: number, side: Side, deltaBps: number, priceDecimals: number): Dec {
  if (side === 'BUY') return quantize(reference * (1 + deltaBps / 10_000), priceDecimals, 'floor');
  const raw = Math.max(reference * (1 - deltaBps / 10_000), gridStep(priceDecimals));
  return quantize(raw, priceDecimals, 'ceil');
}

/** Running totals of one pair's takers. Quantities are decimal strings in base units. */
export interface TakerCounters {
  arrived: number;
  buys: number;
  sells: number;
  /** Takers that executed a non-zero quantity. */
  executed: number;
  quantityRequested: string;
  quantityExecuted: string;
  buyQuantityExecuted: string;
  sellQuantityExecuted: string;
}

/** What {@link Takers} needs. */
export interface TakersOptions {
  pair: string;
  port: MarketPort;
  config: TakersConfig;
  priceDecimals: number;
  quantityDecimals: number;
  /** This pair's takers stream: inter-arrival times and the takers' draws. */
  rng: Rng;
  /** This pair's `informed` stream: which takers are informed (drawn only when the share > 0). */
  informedRng?: Rng;
}

/**
 * The takers of one pair. The market model owns the timer: it asks
 * {@link Takers.nextInterArrivalMs} for the gap to the next arrival and calls
 * {@link Takers.arrive} with the current reference when it comes.
 */
export class Takers {
  private arrivedCount = 0;
  private buyCount = 0;
  private sellCount = 0;
  private executedCount = 0;
  private requested: Dec = ZERO;
  private executedBuy: Dec = ZERO;
  private executedSell: Dec = ZERO;
  private informedCount = 0;

  constructor(private readonly options: TakersOptions) {}

  /** True when this pair has takers. */
  get enabled(): boolean {
    return this.options.config.enabled;
  }

  /** The gap to the next arrival, ms (float): Exponential with rate `A` per second. */
  nextInterArrivalMs(): number {
    return this.options.rng.exponential(this.options.config.A) * 1000;
  }

  /** Informed takers so far (those who traded on the move ahead). */
  get informed(): number {
    return this.informedCount;
  }

  /**
   * One taker arrives: draws it, sends it to the port against `reference`, and counts what
   * executed. Returns the quantity executed. Throws whatever the port throws (after counting the
   * arrival), so the model can report it.
   *
   * `ahead` is the reference `informedHorizonMs` from now (null when unknown): an informed taker
   * (a share `informedShare` of arrivals) buys when it is above `reference` and sells when below;
   * every other draw (distance, size) is the noise taker's, from the same stream, so the share
   * changes sides only.
   */
  arrive(reference: number, ahead: number | null = null): Dec {
    const { pair, port, config, priceDecimals, quantityDecimals, rng } = this.options;
    const draw = drawTaker(config, rng);
    if (config.informedShare > 0 && this.options.informedRng?.chance(config.informedShare) === true) {
      if (ahead !== null && ahead !== reference) {
        draw.side = ahead > reference ? 'BUY' : 'SELL';
        this.informedCount++;
      }
    }
    const quantity = quantize(Math.max(draw.size, gridStep(quantityDecimals)), quantityDecimals, 'nearest');
    const limit = takerLimitPrice(reference, draw.side, draw.deltaBps, priceDecimals);
    this.arrivedCount++;
    if (draw.side === 'BUY') this.buyCount++;
    else this.sellCount++;
    this.requested = this.requested.plus(quantity);
    const executed = new Dec(port.takeLiquidity(pair, draw.side, quantity, limit));
    if (executed.gt(0)) {
      this.executedCount++;
      if (draw.side === 'BUY') this.executedBuy = this.executedBuy.plus(executed);
      else this.executedSell = this.executedSell.plus(executed);
    }
    return executed;
  }

  /** The running totals. */
  counters(): TakerCounters {
    return {
      arrived: this.arrivedCount,
      buys: this.buyCount,
      sells: this.sellCount,
      executed: this.executedCount,
      quantityRequested: toWire(this.requested),
      quantityExecuted: toWire(this.executedBuy.plus(this.executedSell)),
      buyQuantityExecuted: toWire(this.executedBuy),
      sellQuantityExecuted: toWire(this.executedSell),
    };
  }
}
