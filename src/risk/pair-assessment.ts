/**
 * The first half of an evaluation: every rule that decides a pair's standing (account
 * readiness, error breaker, stale book, price jump, daily loss, inventory), advanced to `now`.
 * The second half, in `risk-gate.ts`, applies the standings to the actions.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import { midPrice } from '../market/mid-history.js';
import { stepDailyLoss } from './daily-loss-guard.js';
import { stepBreaker } from './error-breaker.js';
import {
  inventoryLimitsFor,
  inventoryStanding,
  reducingSide,
  type InventoryLimits,
} from './inventory-guard.js';
import { EMPTY_PRICE_JUMP, stepPriceJump, type PriceJumpState } from './price-jump-guard.js';
import { accountNotReady, bookFreshness } from './trading-readiness.js';
import type { PairRiskState, RiskInput, RiskParams, RiskReason, RiskRule, RiskState } from './risk-types.js';

/** A rule that halts a pair. */
export interface PairHalt {
  readonly rule: RiskRule;
  readonly detail: string;
  /** Whether the pair's orders must be cancelled. */
  readonly cancel: boolean;
  readonly until?: number;
}

/** One pair's standing at `now`. */
export interface PairAssessment {
  readonly pair: string;
  readonly state: PairRiskState;
  /** Every halting rule in force, account-wide ones first. */
  readonly halts: readonly PairHalt[];
  /** Net base position. */
  readonly position: Dec;
  readonly mid: Dec | null;
  readonly limits: InventoryLimits;
  /** The side reducing orders must be on, when `state` is `reducing`. */
  readonly reducing: 'BUY' | 'SELL' | null;
}

/** Everything decided about the pairs, and the guards' next state (the bucket excluded). */
export interface Assessment {
  readonly pairs: ReadonlyMap<string, PairAssessment>;
  /** Why the account cannot trade, or null. */
  readonly notReady: string | null;
  readonly reasons: readonly RiskReason[];
  readonly state: Omit<RiskState, 'bucket'>;
}

/** The pairs an evaluation covers: the snapshot's, plus any an order or a placement names. */
export function pairsOf(input: RiskInput): string[] {
  const pairs = new Set(Object.keys(input.snapshot.pairs));
  for (const o of input.ownOrders) pairs.add(o.pair);
  for (const a of input.actions) if (a.type === 'place') pairs.add(a.quote.pair);
  return [...pairs].sort();
}

/** Assesses every pair of `input` at `input.now`. */
export function assessPairs(state: RiskState, input: RiskInput, params: RiskParams): Assessment {
  const { now, snapshot } = input;
  const pairs = pairsOf(input);
  const reasons: RiskReason[] = [];
  const accountWide: PairHalt[] = [];

  const notReady = accountNotReady(snapshot.account);
  if (notReady !== null) {
    accountWide.push({ rule: 'not-ready', detail: notReady, cancel: false });
    reasons.push({ pair: null, rule: 'not-ready', detail: notReady });
  }
  const breaker = stepBreaker(state.breaker, input.pipelineFailures, now, params.breaker);
  if (breaker.open && breaker.state.openUntil !== null) {
    const detail = `${input.pipelineFailures} consecutive pipeline failures (trip ${breaker.state.trips})`;
    const until = breaker.state.openUntil;
    accountWide.push({ rule: 'error-breaker', detail, cancel: true, until });
    reasons.push({ pair: null, rule: 'error-breaker', detail, until });
  }

  const quoteOf = (pair: string): string => snapshot.pairs[pair]?.quote ?? pair.split('/')[1] ?? pair;
  const loss = stepDailyLoss(state.dailyLoss, input.pnl, pairs, quoteOf, now, params.dailyLoss);

  const jumps: Record<string, PriceJumpState> = {};
  const out = new Map<string, PairAssessment>();
  for (const pair of pairs) {
    const market = snapshot.pairs[pair];
    const book = market?.book ?? null;
    const halts: PairHalt[] = [...accountWide];
    const add = (halt: PairHalt): void => {
      halts.push(halt);
      reasons.push({
        pair,
        rule: halt.rule,
        detail: halt.detail,
        ...(halt.until === undefined ? {} : { until: halt.until }),
      });
    };
    if (market === undefined) {
      add({ rule: 'unknown-pair', detail: 'not in the market snapshot', cancel: false });
    }
    const fresh = bookFreshness(book, now, params.staleBookMs, state.startedAt);
    if (fresh.stale) add({ rule: 'stale-book', detail: fresh.detail, cancel: fresh.cancel });

    const mid = book === null ? null : midPrice(book);
    const ref =
      input.references?.[pair] ??
      (mid !== null && book !== null ? { price: mid, at: book.receivedAt } : null);
    const jump = stepPriceJump(state.priceJump[pair] ?? EMPTY_PRICE_JUMP, ref, now, params.priceJump);
    jumps[pair] = jump.state;
    if (jump.paused && jump.state.pausedUntil !== null) {
      const detail =
        jump.trippedMovePct === null
          ? 'paused after a price jump'
          : `reference moved ${jump.trippedMovePct.toFixed(4)} % within ${params.priceJump.windowMs} ms`;
      add({ rule: 'price-jump', detail, cancel: true, until: jump.state.pausedUntil });
    }
    const lossHalt = loss.state.halted[pair];
    if (lossHalt !== undefined)
      add({ rule: 'daily-loss', detail: lossHalt, cancel: true, until: loss.dayEndsAt });

    const position = input.inventory[pair] ?? ZERO;
    const limits = inventoryLimitsFor(pair, params);
    const standing = inventoryStanding(position, mid, limits);
    let pairState: PairRiskState = 'active';
    let reducing: 'BUY' | 'SELL' | null = null;
    if (halts.length > 0) {
      pairState = 'halted';
    } else if (standing !== 'within') {
      pairState = 'reducing';
      reducing = reducingSide(position);
      reasons.push({
        pair,
        rule: 'max-inventory',
        detail: `position ${position.toFixed()} is ${standing} the inventory limit; only ${reducing ?? 'no'} orders`,
      });
    }
    out.set(pair, { pair, state: pairState, halts, position, mid, limits, reducing });
  }

  // Keep the jump state of pairs not covered this time (a pair may reappear).
  const priceJump = { ...state.priceJump, ...jumps };
  return {
    pairs: out,
    notReady,
    reasons,
    state: { startedAt: state.startedAt, priceJump, dailyLoss: loss.state, breaker: breaker.state },
  };
}
