/**
 * The types of the risk gate: its parameters, the state it carries from one evaluation to the
 * next, its input and its verdict. The gate is a pure function of (state, input, params).
 */
import type { ParamsOf } from '../config/param-spec.js';
import type { riskParamSpecs } from '../config/sections/risk.js';
import type { Dec } from '../core/decimal.js';
import type { MarketSnapshot, OwnOrderView } from '../market/market-snapshot.js';
import type { Action, CancelAction, PlaceAction } from '../strategy/quote-types.js';
import type { BreakerState } from './error-breaker.js';
import type { DailyLossState } from './daily-loss-guard.js';
import type { PriceJumpState } from './price-jump-guard.js';
import type { TokenBucketState } from './token-bucket.js';

/** A pair's standing: quoting normally, only reducing its position, or placing nothing. */
export type PairRiskState = 'active' | 'reducing' | 'halted';

/** The rule behind a denial, a forced cancel or a reported condition. */
export type RiskRule =
  /** No account read yet, account not ACTIVE, or the API key failing (401): place nothing. */
  | 'not-ready'
  /** The pair is not in the snapshot (not configured, or GET /pairs has not listed it). */
  | 'unknown-pair'
  /** Quantity or price not positive. */
  | 'invalid-order'
  /** The pair's last good book poll is too old (or there has never been one). */
  | 'stale-book'
  /** The reference moved too far too fast; the pair is paused for a cooldown. */
  | 'price-jump'
  /** The day's marked-to-mid loss is beyond its limit; halted until the next UTC day. */
  | 'daily-loss'
  /** Too many consecutive pipeline failures; placements paused with exponential backoff. */
  | 'error-breaker'
  /** The position is, or would be, beyond the inventory limit. */
  | 'max-inventory'
  | 'max-order-notional'
  | 'max-open-orders'
  /**
   * The placement would cross an order of ours on the other side (a bid at or above our ask, of
   * any of the firm's parties, resting, in flight or being cancelled): it would trade with us.
   */
  | 'self-cross'
  /** The client-side ordersPerMinute budget (token bucket) is spent. */
  | 'rate-limit'
  /** The gate itself failed; it denies everything it cannot vouch for. */
  | 'internal-error';

/**
 * The risk gate's parameters: the `risk` config table's values in the gate's form (decimal
 * strings as `Dec`, the pair overrides a lookup by pair), made by `riskParamsFromConfig`.
 */
export type RiskParams = ParamsOf<typeof riskParamSpecs>;

/** What the gate carries from one evaluation to the next. Create with `initialRiskState`. */
export interface RiskState {
  /** When the gate first ran (ms): the grace for a pair whose book has never been polled. */
  readonly startedAt: number;
  readonly bucket: TokenBucketState;
  readonly priceJump: Readonly<Record<string, PriceJumpState>>;
  readonly dailyLoss: DailyLossState | null;
  readonly breaker: BreakerState;
}

/** One evaluation's input. */
export interface RiskInput {
  readonly snapshot: MarketSnapshot;
  /** The reconciler's actions, ranked (placements by ascending `priority`). */
  readonly actions: readonly Action[];
  /** Every order of ours not yet terminal (resting, in flight, unknown or cancelling). */
  readonly ownOrders: readonly OwnOrderView[];
  /** Net base position per pair since inception (base units; a missing pair is flat). */
  readonly inventory: Readonly<Record<string, Dec>>;
  /**
   * Cumulative marked-to-mid PnL per pair, in its quote instrument (a missing pair is 0; null: not
   * known yet, a position with no price to mark it at — the daily loss guard then skips the pair).
   */
  readonly pnl: Readonly<Record<string, Dec | null>>;
  /** Consecutive failures of the placement pipeline; 0 after a success. */
  readonly pipelineFailures: number;
  /** Evaluation time, ms (normally `snapshot.now`). */
  readonly now: number;
  /** The strategy's reference price per pair; the book mid is used where absent. */
  readonly references?: Readonly<Record<string, { readonly price: Dec; readonly at: number }>>;
  /** Resting orders of the party that are not in `ownOrders` (ignored foreign orders): they count against caps. */
  readonly otherOpenOrders?: number;
}

/** A placement the gate refused. */
export interface Denial {
  readonly action: PlaceAction;
  readonly reason: RiskRule;
  /** For humans and logs; never parsed. */
  readonly detail: string;
}

/** A condition in force, reported whether or not it denied anything this time. */
export interface RiskReason {
  /** The pair, or null for a condition of the whole account. */
  readonly pair: string | null;
  readonly rule: RiskRule;
  readonly detail: string;
  /** When a timed condition (pause, breaker, daily halt) ends, ms. */
  readonly until?: number;
}

/** The gate's answer. */
export interface RiskVerdict {
  /** The state to pass to the next evaluation. */
  readonly state: RiskState;
  /** Every cancel of the input (never denied), then the allowed placements by priority. */
  readonly allowed: readonly Action[];
  readonly denied: readonly Denial[];
  /** Cancels the gate requires on its own (stale data, halts, reducing), one per order. */
  readonly cancels: readonly CancelAction[];
  readonly pairStates: Readonly<Record<string, PairRiskState>>;
  readonly reasons: readonly RiskReason[];
  /** False while the account cannot trade (not read, not ACTIVE, key failing). */
  readonly ready: boolean;
}

export type { PairLimits } from '../config/sections/risk.js';
