import { z } from 'zod';
import { DECIMAL_STRING } from '../../core/decimal.js';
import {
  DriftRegimesConfigSchema,
  GarchConfigSchema,
  JumpsConfigSchema,
  ReplayConfigSchema,
} from './dynamics-config.js';

/**
 * Configuration of the simulated market: a reference price per pair that follows geometric
 * Brownian motion, a background book kept by other makers, and Poisson takers whose intensity
 * falls off with distance from the reference (Avellaneda–Stoikov).
 *
 * Units, once and for all:
 * - times are milliseconds of the injected clock (`tickMs`, `refreshMs`);
 * - `volatility` and `drift` are annualised (σ and μ of the GBM, year = 365 days);
 * - distances from the reference (`firstLevelBps`, `spacingBps` and the takers' δ) are in
 *   basis points of the reference price: a price `ref·(1 ± δ/10_000)`;
 * - takers' `A` is arrivals per second (both sides together) and `k` is per basis point, so
 *   the rate of takers willing to trade at δ bps or further is `λ(δ) = A·e^(−k·δ)`, and a
 *   taker's maximum distance is δ ~ Exponential(k), mean `1/k` bps;
 * - sizes are decimal strings in base units.
 */

/** A strictly positive decimal string (`"60000"`, `"0.25"`). */
const PositiveDecimalString = z
  .string()
  .regex(DECIMAL_STRING, 'a plain decimal string')
  .refine((s) => !s.startsWith('-') && /[1-9]/.test(s), 'must be > 0');

/** The background makers' book on one pair. */
export const BackgroundConfigSchema = z.strictObject({
  /** Off leaves the daemon alone on the book (no `setBackgroundLiquidity` calls at all). */
  enabled: z.boolean().default(true),
  /** Levels per side. */
  levels: z.number().int().min(1).max(100).default(5),
  /** Distance between consecutive levels, bps of the reference. */
  spacingBps: z.number().positive().default(10),
  /** Distance of the best bid and best ask from the reference, bps. */
  firstLevelBps: z.number().positive().default(30),
  /** Mean quantity per level, base units. */
  sizeBase: PositiveDecimalString,
  /** Relative jitter of each level's size: quantity = sizeBase·(1 + sizeJitter·U(−1, 1)). */
  sizeJitter: z.number().min(0).max(1).default(0.3),
  /** The book is rebuilt around the current reference every `refreshMs`. */
  refreshMs: z.number().int().min(1).default(5000),
  /**
   * The makers centre each book on the reference as it was `lagMs` ago (0: the current one), so
   * they requote late, as real makers do.
   */
  lagMs: z.number().int().min(0).max(3_600_000).default(0),
  /**
   * Each book's centre is off by a normal error of σ `noiseBps` bps (0: none), drawn at each
   * refresh from the pair's own `maker-noise` stream.
   */
  noiseBps: z.number().min(0).max(1000).default(0),
});
/** The background makers' book on one pair. */
export type BackgroundConfig = z.output<typeof BackgroundConfigSchema>;

/** The takers on one pair. */
export const TakersConfigSchema = z.strictObject({
  enabled: z.boolean().default(true),
  /** Arrivals per second (both sides together): the intensity at δ = 0. */
  A: z.number().positive().default(0.008),
  /** Decay of the intensity per basis point of distance: λ(δ) = A·e^(−k·δ), δ in bps. */
  k: z.number().positive().default(0.05),
  /** Mean taker size, base units. */
  meanSizeBase: PositiveDecimalString,
  sizeDistribution: z.enum(['exponential', 'lognormal']).default('exponential'),
  /** Shape σ of the log of the size when `sizeDistribution` is lognormal (mean stays meanSizeBase). */
  sizeLogSigma: z.number().positive().max(5).default(1),
  /** Sizes are capped at `maxSizeMultiple × meanSizeBase` so one draw cannot sweep the whole book. */
  maxSizeMultiple: z.number().min(1).default(10),
  /** Probability that a taker buys. */
  buyShare: z.number().min(0).max(1).default(0.5),
  /**
   * Share of takers who are informed: they trade in the direction of the reference's move over the
   * next `informedHorizonMs` (the model looks ahead on the path it will publish). Their distance
   * and size are drawn as any taker's; only the side is theirs. 0: every taker is noise.
   */
  informedShare: z.number().min(0).max(1).default(0),
  /** How far ahead the informed takers see, ms. */
  informedHorizonMs: z.number().int().min(1).max(3_600_000).default(30_000),
});
/** The takers on one pair. */
export type TakersConfig = z.output<typeof TakersConfigSchema>;

/** The simulated market of one pair. */
export const PairMarketConfigSchema = z.strictObject({
  /** Starting reference price, quote per base. */
  initialPrice: PositiveDecimalString,
  /** Annualised σ of the GBM. */
  volatility: z.number().min(0).max(10).default(0.6),
  /** Annualised μ of the GBM. */
  drift: z.number().min(-10).max(10).default(0),
  /** Decimal places of prices handed to the venue (the tick is 10^−priceDecimals). */
  priceDecimals: z.number().int().min(0).max(10).default(2),
  /** Decimal places of quantities handed to the venue (the step is 10^−quantityDecimals). */
  quantityDecimals: z.number().int().min(0).max(18).default(6),
  background: BackgroundConfigSchema,
  takers: TakersConfigSchema,
  /** Compound Poisson jumps (off by default). */
  jumps: JumpsConfigSchema.prefault({}),
  /** GARCH(1,1) volatility around `volatility` (off by default). */
  garch: GarchConfigSchema.prefault({}),
  /** Drift regimes replacing `drift` (off by default). */
  driftRegimes: DriftRegimesConfigSchema.prefault({}),
  /** A recorded series driving the reference instead of the model (absent by default). */
  replay: ReplayConfigSchema.optional(),
});
/** The simulated market of one pair. */
export type PairMarketConfig = z.output<typeof PairMarketConfigSchema>;

/** Input shape of the defaults below (before zod fills in per-field defaults). */
function defaultPairs(): Record<string, z.input<typeof PairMarketConfigSchema>> {
  return {
    'BTC/USDC': {
      initialPrice: '60000',
      volatility: 0.6,
      drift: 0,
      priceDecimals: 2,
      quantityDecimals: 5,
      background: { sizeBase: '0.25' },
      takers: { meanSizeBase: '0.05' },
    },
    'ETH/USDC': {
      initialPrice: '3000',
      volatility: 0.75,
      drift: 0,
      priceDecimals: 2,
      quantityDecimals: 4,
      background: { sizeBase: '5' },
      takers: { meanSizeBase: '1' },
    },
  };
}

const PairsSchema = z.record(z.string().min(3), PairMarketConfigSchema);

/** The whole simulated market. `MarketConfigSchema.parse({})` equals {@link defaultMarketConfig}. */
export const MarketConfigSchema = z.strictObject({
  /** Off: `MarketModel.start()` schedules nothing. */
  enabled: z.boolean().default(true),
  /** The reference-price step, ms of the injected clock. */
  tickMs: z.number().int().min(1).default(1000),
  /** Per pair, keyed by the venue's pair name (`BASE/QUOTE`). */
  pairs: PairsSchema.default(() => PairsSchema.parse(defaultPairs())),
});
/** The whole simulated market, after defaults. */
export type MarketConfig = z.output<typeof MarketConfigSchema>;
/** What a config file may contain (defaults not yet applied). */
export type MarketConfigInput = z.input<typeof MarketConfigSchema>;

/** The default market: BTC/USDC around 60000 and ETH/USDC around 3000. A fresh object each call. */
export function defaultMarketConfig(): MarketConfig {
  return MarketConfigSchema.parse({});
}
