/**
 * The hedge settings of each pair, resolved once from the `hedge` config section
 * (`src/config/sections/hedge.ts`, its param-spec table): the decision's {@link HedgeRules}, the
 * quoting gate's policy, and what the hedger and its venue need. Only the pairs whose `enabled`
 * is true appear; an empty map is a daemon that hedges nothing.
 */
import type { MmConfig } from '../config/schema.js';
import { hedgeParamSpecs, pairHedgeConfig } from '../config/sections/hedge.js';
import { type ParamsOf, resolveParams } from '../config/param-spec.js';
import type { HedgeRules } from './hedge-decision.js';
import type { HedgeFailurePolicy } from './quote-gate.js';

/** One hedged pair's settings. */
export interface HedgeSettings {
  readonly pair: string;
  readonly exchange: string;
  readonly symbol: string;
  readonly market: 'spot' | 'perp';
  readonly rules: HedgeRules;
  readonly spotBaselineBase: ParamsOf<typeof hedgeParamSpecs>['spotBaselineBase'];
  readonly onFailure: HedgeFailurePolicy;
  readonly widenBps: number;
  readonly dryRun: boolean;
  readonly intervalMs: number;
  readonly timeoutMs: number;
}

/** The settings of every hedged pair, by pair. */
export function hedgeSettings(config: Pick<MmConfig, 'hedge' | 'pairs'>): ReadonlyMap<string, HedgeSettings> {
  const out = new Map<string, HedgeSettings>();
  for (const pair of config.pairs) {
    const p = resolveParams(hedgeParamSpecs, pairHedgeConfig(config.hedge, pair));
    if (!p.enabled) continue;
    out.set(pair, {
      pair,
      exchange: p.exchange,
      symbol: p.symbol,
      market: p.market,
      rules: {
        mode: p.mode,
        thresholdBase: p.thresholdBase,
        keepBase: p.keepBase,
        minOrderBase: p.minOrderBase,
        maxOrderBase: p.maxOrderBase,
        maxPositionBase: p.maxPositionBase,
        maxSlippageBps: p.maxSlippageBps,
        stepBase: p.stepBase,
      },
      spotBaselineBase: p.spotBaselineBase,
      onFailure: p.onFailure,
      widenBps: p.widenBps,
      dryRun: p.dryRun,
      intervalMs: p.intervalMs,
      timeoutMs: p.timeoutMs,
    });
  }
  return out;
}
