/**
 * The parameters a quote cycle runs with: the strategy's, the reconciler's and the risk gate's,
 * resolved from one config. They are replaced as a whole (one assignment), so a cycle always
 * runs with one consistent set: the old one or the new one, never a mix.
 */
import type { MmConfig } from '../../config/schema.js';
import { riskParamsFromConfig } from '../../risk/risk-params.js';
import type { RiskParams } from '../../risk/risk-types.js';
import { resolveStrategyParams, type ReconcileParams, type StrategyParams } from '../../strategy/params.js';

/** See the module doc. */
export interface LiveParams {
  readonly strategy: StrategyParams;
  readonly reconcile: ReconcileParams;
  readonly risk: RiskParams;
  /** 1 for the params the daemon started with, +1 per applied reload. */
  readonly version: number;
  /** Clock ms when these params took effect. */
  readonly since: number;
}

/**
 * Resolves the params of `config` (the strategy for `config.pairs`). Throws a ConfigError naming
 * every key that breaks a rule between keys (min ≤ max, a static source needs a price…).
 */
export function resolveLiveParams(config: MmConfig, version: number, since: number): LiveParams {
  const strategy = resolveStrategyParams(config.strategy, config.pairs);
  return Object.freeze({
    strategy,
    reconcile: Object.freeze({ ...config.strategy.reconcile }),
    risk: riskParamsFromConfig(config.risk),
    version,
    since,
  });
}

/** A summary of the params for logs and status: per pair the spread, levels and size. */
export function describeParams(params: LiveParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [pair, p] of Object.entries(params.strategy.pairs)) {
    out[pair] = p.enabled
      ? `bid ${p.spread.bidBps} bps, ask ${p.spread.askBps} bps, ${p.levels.count} level(s) of ${p.levels.size.toFixed()} ${p.levels.sizeUnit}`
      : 'disabled';
  }
  return out;
}
