/**
 * The strategy's parameters: the configured `strategy` section (`src/config/sections/`), its rules
 * checked, resolved per pair (defaults merged with the pair's override, decimal strings parsed).
 */
import { ConfigError } from '../config/errors.js';
import { type ParamsOf, resolveParams } from '../config/param-spec.js';
import { pairConfig, strategyConfigIssues } from '../config/sections/strategy-rules.js';
import {
  type PairStrategyConfig,
  type StrategyConfig,
  pairParamSpecs,
  type reconcileParamSpecs,
} from '../config/sections/strategy-params.js';

/**
 * The quoting parameters of one pair, resolved: defaults merged with the pair's override,
 * decimals parsed. Prices and sizes are `Dec`; `null` = none (`tick`: 10 decimal places).
 */
export type PairStrategyParams = ParamsOf<typeof pairParamSpecs>;

/** The reconciler's tolerances (bps, percent, ms). */
export type ReconcileParams = ParamsOf<typeof reconcileParamSpecs>;

/** The strategy's parameters: one entry per pair to quote. */
export interface StrategyParams {
  readonly pairs: Readonly<Record<string, PairStrategyParams>>;
}

/** Parses a merged pair config (already format-checked) into {@link PairStrategyParams}. */
export function toPairParams(c: PairStrategyConfig): PairStrategyParams {
  return resolveParams(pairParamSpecs, c);
}

/**
 * The parameters of every configured pair.
 *
 * @throws ConfigError listing every rule between keys that the configuration breaks.
 */
export function resolveStrategyParams(config: StrategyConfig, pairs: readonly string[]): StrategyParams {
  const issues = strategyConfigIssues(config, pairs);
  if (issues.length > 0) throw new ConfigError(issues);
  const out: Record<string, PairStrategyParams> = {};
  for (const pair of pairs) out[pair] = toPairParams(pairConfig(config, pair));
  return { pairs: out };
}

/** What the external price poller of one pair needs (`src/market/external-feed.ts`). */
export interface ExternalFeedSettings {
  readonly pair: string;
  readonly url: string;
  readonly jsonPath: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly maxAgeMs: number;
}

/** The feeds to run: one per configured pair whose `external.url` is set, whatever its source. */
export function externalFeedSettings(
  config: StrategyConfig,
  pairs: readonly string[],
): ExternalFeedSettings[] {
  return pairs.flatMap((pair) => {
    const { external: e } = pairConfig(config, pair);
    return e.url === '' ? [] : [{ pair, ...e }];
  });
}
