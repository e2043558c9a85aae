import { dec } from '../core/decimal.js';
import type { RiskConfig } from '../config/sections/risk.js';
import type { PairLimits, RiskParams } from './risk-types.js';

/**
 * The risk gate's parameters from the `risk` config section: decimal strings become `Dec`,
 * the pair overrides a lookup by pair. Throws only on a value the config validation refuses.
 */
export function riskParamsFromConfig(config: RiskConfig): RiskParams {
  const pairLimits: Record<string, PairLimits> = {};
  for (const l of config.pairLimits) {
    pairLimits[l.pair] = {
      ...(l.maxInventory === undefined ? {} : { maxInventory: dec(l.maxInventory) }),
      ...(l.maxOrderNotional === undefined ? {} : { maxOrderNotional: dec(l.maxOrderNotional) }),
    };
  }
  return {
    maxOrderNotional: dec(config.maxOrderNotional),
    maxInventoryNotional: dec(config.maxInventoryNotional),
    pairLimits,
    maxOpenOrders: config.maxOpenOrders,
    ordersPerMinute: config.ordersPerMinute,
    rateBurst: config.rateBurst,
    staleBookMs: config.staleBookMs,
    priceJump: {
      maxMovePct: dec(config.priceJump.maxMovePct),
      windowMs: config.priceJump.windowMs,
      cooldownMs: config.priceJump.cooldownMs,
    },
    dailyLoss: { perPair: dec(config.dailyLoss.perPair), total: dec(config.dailyLoss.total) },
    breaker: {
      failures: config.breaker.failures,
      baseBackoffMs: config.breaker.baseBackoffMs,
      maxBackoffMs: Math.max(config.breaker.baseBackoffMs, config.breaker.maxBackoffMs),
    },
  };
}
