/**
 * Avellaneda & Stoikov, "High-frequency trading in a limit order book" (Quantitative Finance,
 * 2008), in two layers:
 *
 * - a numeric core on plain numbers, in the paper's own units (price s, inventory q in shares,
 *   σ in price per √time, τ = T − t, risk aversion γ, order-arrival decay k), which a research
 *   command can drive to reproduce the paper's simulations with the same code the daemon runs;
 * - a thin wrapper for the daemon that takes the `Dec` reference and returns bps offsets, which
 *   the strategy applies to the `Dec` reference. The model itself is a float model: its output
 *   is an offset, never a price on the wire.
 */
import type { Dec } from '../core/decimal.js';
import type { PairStrategyParams } from './params.js';

/** The inputs of the model, the paper's notation. */
export interface AsInputs {
  /** Mid price s. */
  readonly s: number;
  /** Inventory q (shares, signed). */
  readonly q: number;
  /** Risk aversion γ > 0. */
  readonly gamma: number;
  /** Volatility σ of s, price per √time unit. */
  readonly sigma: number;
  /** Time to the horizon, τ = T − t, in the time unit of σ. */
  readonly tau: number;
  /** Order-arrival decay k > 0 (λ(δ) = A·e^(−kδ)). */
  readonly k: number;
}

/** The model's quotes. */
export interface AsQuotes {
  /** Reservation (indifference) price r. */
  readonly reservation: number;
  /** Total spread δᵃ + δᵇ. */
  readonly spread: number;
  /** r − spread/2. */
  readonly bid: number;
  /** r + spread/2. */
  readonly ask: number;
}

/** The reservation price r = s − q·γ·σ²·τ. */
export function reservationPrice(s: number, q: number, gamma: number, sigma: number, tau: number): number {
  return s - q * gamma * sigma * sigma * tau;
}

/** The optimal total spread δᵃ + δᵇ = γ·σ²·τ + (2/γ)·ln(1 + γ/k). */
export function optimalSpread(gamma: number, sigma: number, tau: number, k: number): number {
  return gamma * sigma * sigma * tau + (2 / gamma) * Math.log1p(gamma / k);
}

/** The model's bid and ask: the optimal spread, half on each side of the reservation price. */
export function asQuotes(x: AsInputs): AsQuotes {
  const reservation = reservationPrice(x.s, x.q, x.gamma, x.sigma, x.tau);
  const spread = optimalSpread(x.gamma, x.sigma, x.tau, x.k);
  return { reservation, spread, bid: reservation - spread / 2, ask: reservation + spread / 2 };
}

/** The model's answer as offsets from the reference, in basis points of the reference. */
export interface AsShape {
  /** (r − s) / s, bps: negative when long (quotes move down). */
  readonly centerShiftBps: number;
  /** (spread / 2) / s, bps: each side's distance from r. */
  readonly halfSpreadBps: number;
  readonly reservation: number;
  readonly spread: number;
}

/**
 * The daemon's wrapper: runs the core at `s = reference`, with `sigmaRel` (σ of log returns per
 * √second, from `volatility.ts`) scaled to price units (σ = sigmaRel·s), τ = `horizonSec`, and
 * `q` the deviation of base holdings from the inventory target, in base units. Null when the
 * model gives no finite answer (e.g. an absurd γ).
 */
export function avellanedaStoikovShape(
  reference: Dec,
  q: Dec,
  sigmaRel: number,
  params: PairStrategyParams['avellanedaStoikov'],
): AsShape | null {
  const s = reference.toNumber();
  const res = asQuotes({
    s,
    q: q.toNumber(),
    gamma: params.gamma,
    sigma: sigmaRel * s,
    tau: params.horizonSec,
    k: params.k,
  });
  const centerShiftBps = ((res.reservation - s) / s) * 10_000;
  const halfSpreadBps = (res.spread / 2 / s) * 10_000;
  if (!Number.isFinite(centerShiftBps) || !Number.isFinite(halfSpreadBps) || !(s > 0)) return null;
  return { centerShiftBps, halfSpreadBps, reservation: res.reservation, spread: res.spread };
}
