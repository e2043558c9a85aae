/**
 * Configuration of the richer market: the parts of a pair's reference price beyond a constant-σ
 * geometric Brownian motion (jumps, GARCH volatility, drift regimes), and the replayed series
 * that can stand in for the model. Every part is off by default, so a market config that does not
 * name them runs exactly as before (the same draws, the same port calls).
 *
 * Units follow `market-config.ts`: annualised drifts and volatilities, bps of the reference for
 * sizes and distances, milliseconds of the injected clock for times. One GARCH step is one
 * `tickMs` of the market (1 s by default).
 */
import { z } from 'zod';

/** Compound Poisson jumps in the log of the reference. */
export const JumpsConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /** Jumps per hour (Poisson arrivals). */
  ratePerHour: z.number().positive().max(3600).default(2),
  /**
   * Mean absolute size of a jump, bps of the reference. A jump's log-size is
   * ±Exponential(mean `meanSizeBps`/10⁴): a double exponential (Laplace) size, as in Kou's model.
   */
  meanSizeBps: z.number().positive().max(5000).default(50),
  /** Probability that a jump is upward. */
  upShare: z.number().min(0).max(1).default(0.5),
});
/** Compound Poisson jumps. */
export type JumpsConfig = z.output<typeof JumpsConfigSchema>;

/**
 * GARCH(1,1) volatility per model step: `h(t+1) = ω + α·r(t)² + β·h(t)`, with `h` the variance of
 * a step's diffusive log-return and `ω` chosen so the long-run volatility equals the pair's
 * `volatility`. `α + β` (the persistence) must be < 1.
 */
export const GarchConfigSchema = z
  .strictObject({
    enabled: z.boolean().default(false),
    /** Reaction to the last squared return. */
    alpha: z.number().min(0).max(1).default(0.05),
    /** Persistence of the variance itself. */
    beta: z.number().min(0).max(1).default(0.94),
  })
  .refine((g) => g.alpha + g.beta < 1, 'alpha + beta must be < 1 (a stationary GARCH)');
/** GARCH(1,1) volatility. */
export type GarchConfig = z.output<typeof GarchConfigSchema>;

/**
 * A Markov switch between drift regimes: the pair's drift is one of `drifts` (annualised μ) at a
 * time; each regime lasts an exponential time of mean `meanDurationMinutes`, then the next is drawn
 * uniformly among the others. The first regime is drawn uniformly. Replaces the pair's `drift`.
 */
export const DriftRegimesConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  drifts: z.array(z.number().min(-1000).max(1000)).min(2).max(10).default([-20, 0, 20]),
  meanDurationMinutes: z.number().positive().max(100_000).default(60),
});
/** Drift regimes. */
export type DriftRegimesConfig = z.output<typeof DriftRegimesConfigSchema>;

/**
 * A recorded series that drives the reference instead of the model (replay): times in ms from the
 * series' first row (which the simulation's start is mapped onto), prices in quote per base. The
 * lab fills it from a file (`simulate --prices`); `source` names it in errors.
 */
export const ReplayConfigSchema = z.strictObject({
  source: z.string().min(1),
  times: z.array(z.number().min(0)).min(1),
  prices: z.array(z.number().positive()).min(1),
});
/** A recorded series. */
export type ReplayConfig = z.output<typeof ReplayConfigSchema>;
