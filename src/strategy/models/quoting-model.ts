/**
 * The contract every quoting model implements: {@link QuotingModel} takes one pair's
 * {@link ModelInput} (reference, market, holdings, params, the pipeline's measured timing) and
 * answers where the best quotes sit and, optionally, each side's tolerance, or why the pair is
 * not quoted. Pure, inside the strategy; levels, rounding, sizes and funding stay in the
 * strategy, the same for every model (`registry.ts` lists them).
 */
import type { Dec } from '../../core/decimal.js';
import type { PairMarket } from '../../market/market-snapshot.js';
import type { PairHoldings } from '../inventory-skew.js';
import type { PairStrategyParams } from '../params.js';
import type { QuoteTolerance } from '../quote-types.js';
import type { QuoteShape } from '../spread-levels.js';
import type { PipelineTiming } from '../../core/pipeline-timing.js';

/** Everything a model may look at for one pair. Plain data; the model must not keep it. */
export interface ModelInput {
  readonly pair: string;
  readonly reference: Dec;
  readonly now: number;
  readonly market: PairMarket;
  /**
   * The pair's holdings; null while the balances are pending (a provisional plan at startup):
   * the model then plans as if they sat at the target, with no inventory term.
   */
  readonly holdings: PairHoldings | null;
  /** Base share of the pair's value held, at the reference; null with `holdings`. */
  readonly share: number | null;
  readonly params: PairStrategyParams;
  readonly timing: PipelineTiming;
}

/**
 * A model's answer: where the best quotes sit (bps from the reference), and optionally how far a
 * resting order may drift before it is replaced, per side. Without a tolerance the reconciler's
 * configured `priceToleranceBps` applies.
 */
export interface ModelShape extends QuoteShape {
  readonly tolerance?: { readonly BUY: QuoteTolerance; readonly SELL: QuoteTolerance };
  /**
   * Every level's size is multiplied by this (absent: 1). The latency-aware model's jump response
   * (`latency.jumpSizeShare`, `jump-memory.ts`); the strategy applies it with the size skew.
   */
  readonly sizeShare?: number;
}

/** A model's verdict: a shape, or the reason the pair is not quoted. */
export type ModelResult =
  { readonly ok: true; readonly shape: ModelShape } | { readonly ok: false; readonly reason: string };

/**
 * A quoting model: pure, one pair at a time. It decides distances only; levels, rounding, the
 * no-cross guard, sizes and funding stay in the strategy, the same for every model.
 */
export interface QuotingModel {
  /** Its name in the registry (`registry.ts`). */
  readonly name: string;
  shape(input: ModelInput): ModelResult;
}
