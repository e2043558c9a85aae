/**
 * Named suites of simulated markets for `simulate --regimes` and `tune --regimes`: each regime is
 * a change applied to every pair of the scenario's market (so it works on any sim config), built
 * from the richer market's parts (`src/sim/market/dynamics-config.ts`). The parameters are round
 * numbers chosen to make each regime's difficulty plain, not fitted to anything; a config should
 * be judged on markets it was not tuned on as well (see docs/lab/market-regimes.md).
 */
import type { MarketConfig, PairMarketConfig } from '../../sim/market/market-config.js';
import { PairMarketConfigSchema } from '../../sim/market/market-config.js';

/** What a regime changes in a pair's market. Sections are merged over the pair's own. */
export interface RegimePatch {
  /** Multiplies the pair's annualised σ (default 1). */
  readonly volatilityScale?: number;
  readonly jumps?: Partial<PairMarketConfig['jumps']>;
  readonly garch?: Partial<PairMarketConfig['garch']>;
  readonly driftRegimes?: Partial<PairMarketConfig['driftRegimes']>;
  readonly takers?: Partial<Pick<PairMarketConfig['takers'], 'informedShare' | 'informedHorizonMs' | 'A'>>;
  readonly background?: Partial<
    Pick<PairMarketConfig['background'], 'firstLevelBps' | 'spacingBps' | 'refreshMs' | 'lagMs' | 'noiseBps'>
  >;
}

/** One named market of a suite. */
export interface Regime {
  readonly name: string;
  readonly description: string;
  readonly patch: RegimePatch;
  /** The targets expect a loss here (informed flow): the daemon must lose at most half the baseline's. */
  readonly lossExpected?: boolean;
}

/** The suites, by name. */
export const SUITES: Readonly<Record<string, readonly Regime[]>> = {
  standard: [
    { name: 'calm', description: 'σ halved', patch: { volatilityScale: 0.5 } },
    {
      name: 'volatile',
      description: 'σ × 1.6 with GARCH(1,1) clustering (α 0.06, β 0.93 per 1 s step)',
      patch: { volatilityScale: 1.6, garch: { enabled: true, alpha: 0.06, beta: 0.93 } },
    },
    {
      name: 'trending',
      description: 'drift regimes of −30, 0 and +30 a year, each lasting 2 h on average',
      patch: { driftRegimes: { enabled: true, drifts: [-30, 0, 30], meanDurationMinutes: 120 } },
    },
    {
      name: 'jumpy',
      description: 'compound Poisson jumps, 4 an hour, mean absolute size 30 bps',
      patch: { jumps: { enabled: true, ratePerHour: 4, meanSizeBps: 30 } },
    },
    {
      name: 'informed',
      description: 'a quarter of the takers trade on the reference’s move over the next 30 s',
      patch: { takers: { informedShare: 0.25, informedHorizonMs: 30_000 } },
      lossExpected: true,
    },
    {
      name: 'competing',
      description:
        'background makers quote inside our spread (best level 6 bps, every 2 s), 2 s late with 2 bps of noise',
      patch: { background: { firstLevelBps: 6, spacingBps: 4, refreshMs: 2000, lagMs: 2000, noiseBps: 2 } },
    },
  ],
};

/** The suite used when `--regimes` names none. */
export const DEFAULT_SUITE = 'standard';

/** The regimes of `suite`; throws a RangeError naming the suites for an unknown one. */
export function suiteRegimes(suite: string): readonly Regime[] {
  const regimes = SUITES[suite];
  if (regimes === undefined)
    throw new RangeError(`unknown regime suite "${suite}" (suites: ${Object.keys(SUITES).join(', ')})`);
  return regimes;
}

/** The regime `name` of any suite; throws a RangeError for an unknown one. */
export function findRegime(name: string): Regime {
  for (const regimes of Object.values(SUITES)) {
    const r = regimes.find((x) => x.name === name);
    if (r !== undefined) return r;
  }
  throw new RangeError(`unknown market regime "${name}"`);
}

/** One pair's market under `patch`, validated again. */
export function patchPair(pair: PairMarketConfig, patch: RegimePatch): PairMarketConfig {
  return PairMarketConfigSchema.parse({
    ...pair,
    volatility: pair.volatility * (patch.volatilityScale ?? 1),
    jumps: { ...pair.jumps, ...patch.jumps },
    garch: { ...pair.garch, ...patch.garch },
    driftRegimes: { ...pair.driftRegimes, ...patch.driftRegimes },
    takers: { ...pair.takers, ...patch.takers },
    background: { ...pair.background, ...patch.background },
  });
}

/** The whole market under regime `name` (every pair patched); a fresh object. */
export function applyRegime(market: MarketConfig, name: string): MarketConfig {
  const { patch } = findRegime(name);
  const pairs: Record<string, PairMarketConfig> = {};
  for (const [pair, config] of Object.entries(market.pairs)) pairs[pair] = patchPair(config, patch);
  return { ...market, pairs };
}
