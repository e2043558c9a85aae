/**
 * The simulated reference (fair) price of a pair as a walk: the exact geometric Brownian motion
 * step and its log-return moments, and {@link ReferencePriceWalk}, a seeded walk that keeps its
 * float state, optionally steps through the richer price dynamics (jumps, GARCH, regimes), and
 * hands the venue the price rounded to the pair's tick. Floats here are the model's statistics;
 * the venue sees decimals.
 */
import type { Dec } from '../../core/decimal.js';
import type { Rng } from '../rng.js';
import type { PriceDynamics } from './price-dynamics.js';
import { MS_PER_YEAR } from './dynamics-config.js';
import { quantize } from './quantize.js';

/**
 * One exact step of geometric Brownian motion:
 * `S(t+dt) = S(t)·exp((μ − σ²/2)·dt + σ·√dt·z)` with `dt` in years and `z` a standard normal.
 * Exact for any `dt` (no Euler error), so the step size of the model does not bias the walk.
 */
export function gbmStep(
  price: number,
  dtYears: number,
  drift: number,
  volatility: number,
  z: number,
): number {
  return (
    price * Math.exp((drift - (volatility * volatility) / 2) * dtYears + volatility * Math.sqrt(dtYears) * z)
  );
}

/** The moments of one GBM log-return over `dtMs`: what the walk's statistics should converge to. */
export function gbmLogReturnMoments(
  dtMs: number,
  drift: number,
  volatility: number,
): { mean: number; std: number } {
  const dt = dtMs / MS_PER_YEAR;
  return { mean: (drift - (volatility * volatility) / 2) * dt, std: volatility * Math.sqrt(dt) };
}

/** What a {@link ReferencePriceWalk} needs. */
export interface ReferencePriceWalkOptions {
  /** Starting price (quote per base), > 0. */
  initialPrice: number;
  /** Annualised σ. */
  volatility: number;
  /** Annualised μ. */
  drift: number;
  /** Decimal places of the price handed to the port. */
  priceDecimals: number;
  /** This walk's own stream (one per pair), so other consumers of randomness do not shift it. */
  rng: Rng;
  /** Jumps, GARCH volatility, drift regimes (absent: the plain GBM step, unchanged). */
  dynamics?: PriceDynamics;
}

/**
 * The reference (fair) price of one pair: a seeded GBM. It holds the exact float state; the
 * venue sees {@link ReferencePriceWalk.decimal}, rounded to the pair's tick. Keeping the float
 * state (not the rounded one) means the tick size does not bias the walk.
 */
export class ReferencePriceWalk {
  private current: number;
  private stepCount = 0;
  private readonly volatility: number;
  private readonly drift: number;
  private readonly priceDecimals: number;
  private readonly rng: Rng;
  private readonly dynamics: PriceDynamics | undefined;

  constructor(options: ReferencePriceWalkOptions) {
    if (!(options.initialPrice > 0) || !Number.isFinite(options.initialPrice)) {
      throw new RangeError(`initial price must be a positive finite number, got ${options.initialPrice}`);
    }
    this.current = options.initialPrice;
    this.volatility = options.volatility;
    this.drift = options.drift;
    this.priceDecimals = options.priceDecimals;
    this.rng = options.rng;
    this.dynamics = options.dynamics;
  }

  /** The current reference as a float (for the model's maths). */
  get price(): number {
    return this.current;
  }

  /** The current reference rounded to the pair's tick (half up), for the port. */
  get decimal(): Dec {
    return quantize(this.current, this.priceDecimals, 'nearest');
  }

  /** Steps taken so far. */
  get steps(): number {
    return this.stepCount;
  }

  /**
   * Advances the walk by `dtMs` milliseconds (one normal draw, whatever the step) and returns the
   * new price. A non-positive `dtMs` leaves the price unchanged and draws nothing.
   */
  step(dtMs: number): number {
    if (!(dtMs > 0)) return this.current;
    const z = this.rng.normal();
    this.current =
      this.dynamics === undefined
        ? gbmStep(this.current, dtMs / MS_PER_YEAR, this.drift, this.volatility, z)
        : this.current * Math.exp(this.dynamics.logReturn(dtMs, z));
    this.stepCount++;
    return this.current;
  }
}
