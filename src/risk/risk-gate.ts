/**
 * The risk gate: pure verdicts on the reconciler's actions. Given the state it returned last
 * time, the market snapshot, the actions, our orders, the inventory, the PnL and the pipeline's
 * failure count, it says which placements may go, which may not and why, which orders must be
 * cancelled on its own account, and where each pair stands (active, reducing, halted).
 *
 * It never throws and never denies a cancel: on an internal failure it denies every placement
 * with `internal-error`, lets every cancel through and keeps its previous state.
 *
 * Rules, in the order a placement meets them:
 * 1. the pair is halted: account not ready (no forced cancels), error breaker open, unknown pair,
 *    stale book, price-jump pause, daily loss (these cancel the pair's orders);
 * 2. invalid quantity or price;
 * 3. reducing pair: only the side that shrinks the position (the other side is cancelled);
 * 4. price × quantity above the order notional limit;
 * 5. worst-case position beyond the inventory limit;
 * 6. it would cross an order of ours on the other side — of any of the firm's parties, resting,
 *    in flight or being cancelled (a cancel may lose the race to a fill), or allowed before it
 *    in this evaluation: our quotes never trade with each other;
 * 7. open orders (ours resting, in flight or cancelling, plus `otherOpenOrders`, plus those
 *    allowed before it) at the cap: min(params, account `maxOpenOrders`);
 * 8. no token left in the per-minute bucket: min(params, account `ordersPerMinute`).
 * Placements are taken by ascending priority; a denied one consumes nothing.
 */
import type { CancelAction, PlaceAction } from '../strategy/quote-types.js';
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { OwnOrderView } from '../market/market-snapshot.js';
import type { Action } from '../strategy/quote-types.js';
import { CLOSED_BREAKER } from './error-breaker.js';
import { checkInventoryPlacement } from './inventory-guard.js';
import { assessPairs, pairsOf, type PairAssessment } from './pair-assessment.js';
import type { Denial, PairRiskState, RiskInput, RiskParams, RiskState, RiskVerdict } from './risk-types.js';
import {
  bucketForLimit,
  fullBucket,
  take,
  type TokenBucketConfig,
  type TokenBucketState,
} from './token-bucket.js';

/** The state of a gate that has not run yet. */
export function initialRiskState(now: number, params: RiskParams): RiskState {
  return {
    startedAt: now,
    bucket: fullBucket(bucketForLimit(params.ordersPerMinute, params.rateBurst), now),
    priceJump: {},
    dailyLoss: null,
    breaker: CLOSED_BREAKER,
  };
}

/** Evaluates `input` against `params`, from `state`. Pure; never throws. */
export function evaluate(state: RiskState, input: RiskInput, params: RiskParams): RiskVerdict {
  try {
    return evaluateOrThrow(state, input, params);
  } catch (err) {
    return failClosed(state, input, err);
  }
}

function evaluateOrThrow(state: RiskState, input: RiskInput, params: RiskParams): RiskVerdict {
  const assessment = assessPairs(state, input, params);
  const { pairs } = assessment;
  const inputCancels = input.actions.filter((a): a is CancelAction => a.type === 'cancel');
  const cancelledKeys = new Set(inputCancels.map((a) => a.key));
  const cancels = forcedCancels(input.ownOrders, pairs, cancelledKeys);
  for (const c of cancels) cancelledKeys.add(c.key);

  const account = input.snapshot.account;
  const bucketConfig = bucketForLimit(
    Math.min(params.ordersPerMinute, account?.ordersPerMinute ?? Infinity),
    params.rateBurst,
  );
  const placements = input.actions
    .filter((a): a is PlaceAction => a.type === 'place')
    .map((a, i) => ({ a, i }))
    .sort((x, y) => x.a.priority - y.a.priority || x.i - y.i)
    .map((x) => x.a);
  const budget = new PlacementBudget(
    input,
    cancelledKeys,
    Math.min(params.maxOpenOrders, account?.maxOpenOrders ?? Infinity),
    state.bucket,
    bucketConfig,
  );
  const allowed: Action[] = [...inputCancels];
  const denied: Denial[] = [];
  for (const action of placements) {
    let denial: Denial | null;
    try {
      denial = checkPlacement(action, pairs.get(action.quote.pair), params, budget, input.now);
    } catch (err) {
      denial = { action, reason: 'internal-error', detail: describe(err) };
    }
    if (denial === null) allowed.push(action);
    else denied.push(denial);
  }

  const pairStates: Record<string, PairRiskState> = {};
  for (const [pair, a] of pairs) pairStates[pair] = a.state;
  return {
    state: { ...assessment.state, bucket: budget.bucket },
    allowed,
    denied,
    cancels,
    pairStates,
    reasons: assessment.reasons,
    ready: assessment.notReady === null,
  };
}

/** One forced cancel per order of a pair that must be flattened, skipping orders already cancelling. */
function forcedCancels(
  orders: readonly OwnOrderView[],
  pairs: ReadonlyMap<string, PairAssessment>,
  alreadyCancelled: ReadonlySet<string>,
): CancelAction[] {
  const out: CancelAction[] = [];
  for (const o of orders) {
    if (o.cancelling || alreadyCancelled.has(o.key)) continue;
    const a = pairs.get(o.pair);
    if (a === undefined) continue;
    const halt = a.halts.find((h) => h.cancel);
    if (halt !== undefined) out.push({ type: 'cancel', key: o.key, reason: `risk:${halt.rule}` });
    else if (a.state === 'reducing' && o.side !== a.reducing) {
      out.push({ type: 'cancel', key: o.key, reason: 'risk:max-inventory' });
    }
  }
  return out;
}

/** What the placements of one evaluation use up: open-order slots, tokens, same-side exposure. */
class PlacementBudget {
  bucket: TokenBucketState;
  private open: number;
  private readonly allowedQty = new Map<string, Dec>();
  /** Prices of the placements allowed so far, by `pair:side`: the best bid and the best ask. */
  private readonly allowedBest = new Map<string, Dec>();

  constructor(
    private readonly input: RiskInput,
    private readonly cancelled: ReadonlySet<string>,
    readonly maxOpen: number,
    bucket: TokenBucketState,
    private readonly bucketConfig: TokenBucketConfig,
  ) {
    this.bucket = bucket;
    this.open = input.ownOrders.length + Math.max(0, input.otherOpenOrders ?? 0);
  }

  get openOrders(): number {
    return this.open;
  }

  /** Remaining quantity of our orders on `pair`/`side` that may still fill, plus placements allowed so far. */
  working(action: PlaceAction): Dec {
    const { pair, side } = action.quote;
    let sum = this.allowedQty.get(`${pair}:${side}`) ?? ZERO;
    for (const o of this.input.ownOrders) {
      // The order being replaced and orders on their way out are not counted (make before break).
      if (o.pair !== pair || o.side !== side || o.cancelling || o.key === action.replaces) continue;
      if (this.cancelled.has(o.key)) continue;
      sum = sum.plus(o.remaining);
    }
    return sum;
  }

  /**
   * An order of ours on the other side that `action` would trade with: resting, in flight,
   * unknown or cancelling (every one may still fill), or a placement allowed before it. Null
   * when none crosses.
   */
  crossing(action: PlaceAction): string | null {
    const { pair, side, price } = action.quote;
    const other = side === 'BUY' ? 'SELL' : 'BUY';
    const crosses = (p: Dec): boolean => (side === 'BUY' ? price.gte(p) : price.lte(p));
    for (const o of this.input.ownOrders) {
      if (o.pair !== pair || o.side !== other || !o.price.gt(0)) continue;
      if (crosses(o.price)) return `${o.key} ${other} at ${o.price.toFixed()}`;
    }
    const best = this.allowedBest.get(`${pair}:${other}`);
    if (best !== undefined && crosses(best)) return `a ${other} allowed at ${best.toFixed()}`;
    return null;
  }

  /** Takes a token at `now`; returns the wait in ms when there is none. */
  takeToken(now: number): number {
    const r = take(this.bucket, this.bucketConfig, now);
    this.bucket = r.state;
    return r.taken ? 0 : r.waitMs;
  }

  commit(action: PlaceAction): void {
    this.open += 1;
    const k = `${action.quote.pair}:${action.quote.side}`;
    this.allowedQty.set(k, (this.allowedQty.get(k) ?? ZERO).plus(action.quote.quantity));
    const best = this.allowedBest.get(k);
    const { price, side } = action.quote;
    if (best === undefined || (side === 'BUY' ? price.gt(best) : price.lt(best)))
      this.allowedBest.set(k, price);
  }
}

function checkPlacement(
  action: PlaceAction,
  pair: PairAssessment | undefined,
  params: RiskParams,
  budget: PlacementBudget,
  now: number,
): Denial | null {
  const deny = (reason: Denial['reason'], detail: string): Denial => ({ action, reason, detail });
  const { quote } = action;
  if (pair === undefined) return deny('unknown-pair', `${quote.pair} is not assessed`);
  const halt = pair.halts[0];
  if (pair.state === 'halted' && halt !== undefined) return deny(halt.rule, halt.detail);
  if (!quote.quantity.gt(0) || !quote.price.gt(0)) {
    return deny(
      'invalid-order',
      `price ${quote.price.toFixed()} and quantity ${quote.quantity.toFixed()} must be positive`,
    );
  }
  if (pair.state === 'reducing' && quote.side !== pair.reducing) {
    return deny(
      'max-inventory',
      `${quote.pair} is reducing its position ${pair.position.toFixed()}; only ${pair.reducing ?? 'no'} orders`,
    );
  }
  const maxNotional = params.pairLimits[quote.pair]?.maxOrderNotional ?? params.maxOrderNotional;
  const notional = quote.price.times(quote.quantity);
  if (notional.gt(maxNotional)) {
    return deny('max-order-notional', `notional ${notional.toFixed()} above ${maxNotional.toFixed()}`);
  }
  const inv = checkInventoryPlacement(
    pair.position,
    budget.working(action),
    quote.side,
    quote.quantity,
    pair.mid,
    pair.limits,
  );
  if (inv !== null) return deny('max-inventory', inv);
  const crossed = budget.crossing(action);
  if (crossed !== null) {
    return deny('self-cross', `${quote.side} at ${quote.price.toFixed()} would trade with our ${crossed}`);
  }
  if (budget.openOrders >= budget.maxOpen) {
    return deny('max-open-orders', `${budget.openOrders} orders open or in flight, cap ${budget.maxOpen}`);
  }
  const waitMs = budget.takeToken(now);
  if (waitMs > 0) return deny('rate-limit', `placement budget spent; next token in ${waitMs} ms`);
  budget.commit(action);
  return null;
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The verdict when the gate itself failed: no placement, every cancel, state unchanged. */
function failClosed(state: RiskState, input: RiskInput, err: unknown): RiskVerdict {
  const detail = `risk gate failed: ${describe(err)}`;
  try {
    const actions: readonly Action[] = Array.isArray(input.actions)
      ? (input.actions as readonly Action[])
      : [];
    const pairStates: Record<string, PairRiskState> = {};
    try {
      for (const p of pairsOf(input)) pairStates[p] = 'halted';
    } catch {
      // Reported through `reasons` below; the pair list is best effort here.
    }
    return {
      state,
      allowed: actions.filter((a): a is CancelAction => a.type === 'cancel'),
      denied: actions
        .filter((a): a is PlaceAction => a.type === 'place')
        .map((action) => ({ action, reason: 'internal-error', detail })),
      cancels: [],
      pairStates,
      reasons: [{ pair: null, rule: 'internal-error', detail }],
      ready: false,
    };
  } catch {
    return {
      state,
      allowed: [],
      denied: [],
      cancels: [],
      pairStates: {},
      reasons: [{ pair: null, rule: 'internal-error', detail }],
      ready: false,
    };
  }
}
