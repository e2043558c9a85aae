/** The risk gate: pure verdicts on the reconciler's actions, its guards and its rate budget. */
export { evaluate, initialRiskState } from './risk-gate.js';
export { riskParamsFromConfig } from './risk-params.js';
export type {
  Denial,
  PairLimits,
  PairRiskState,
  RiskInput,
  RiskParams,
  RiskReason,
  RiskRule,
  RiskState,
  RiskVerdict,
} from './risk-types.js';
export { bucketForLimit, fullBucket, refill, take } from './token-bucket.js';
export type { TakeResult, TokenBucketConfig, TokenBucketState } from './token-bucket.js';
export { DAY_MS, markToMid, stepDailyLoss, utcDay } from './daily-loss-guard.js';
export {
  DAILY_LOSS_CODEC_VERSION,
  decodeDailyLoss,
  encodeDailyLoss,
  sameDailyLoss,
} from './daily-loss-codec.js';
export type { DailyLossParams, DailyLossState, DailyLossStep } from './daily-loss-guard.js';
export { CLOSED_BREAKER, backoffMs, stepBreaker } from './error-breaker.js';
export type { BreakerParams, BreakerState, BreakerStep } from './error-breaker.js';
export { EMPTY_PRICE_JUMP, largestMovePct, stepPriceJump } from './price-jump-guard.js';
export type { PriceJumpParams, PriceJumpState, PriceJumpStep, PriceSample } from './price-jump-guard.js';
export { accountNotReady, bookFreshness } from './trading-readiness.js';
export type { BookFreshness } from './trading-readiness.js';
