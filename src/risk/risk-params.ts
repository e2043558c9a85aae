/**
 * The risk gate's parameters from the `risk` config section: the table's values resolved
 * (`resolveParams`: decimal strings become `Dec`, the pair overrides a lookup by pair), and the
 * one rule between keys, a breaker cap below its base pause raised to it.
 */
import { resolveParams } from '../config/param-spec.js';
import { riskParamSpecs, type RiskConfig } from '../config/sections/risk.js';
import type { RiskParams } from './risk-types.js';

/** The gate's parameters of a valid `risk` section. Throws only on a value the config refuses. */
export function riskParamsFromConfig(config: RiskConfig): RiskParams {
  const p = resolveParams(riskParamSpecs, config);
  const { breaker } = p;
  return {
    ...p,
    breaker: { ...breaker, maxBackoffMs: Math.max(breaker.baseBackoffMs, breaker.maxBackoffMs) },
  };
}
