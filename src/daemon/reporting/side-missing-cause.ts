/**
 * Why a side of a pair has no resting quote, told from one quote cycle: pure, the first cause
 * in the order of `SIDE_MISSING_REASONS` that holds. See `side-missing-reasons.ts` for the words.
 */
import type { OwnOrderView } from '../../market/market-snapshot.js';
import type { RiskRule } from '../../risk/risk-types.js';
import type { Side } from '../../core/order-terms.js';
import type { CycleReport } from '../trading/quote-cycle.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import { isAwaitingConfirmation } from '../../orders/fsm/index.js';
import type { SideMissingCause } from './side-missing-reasons.js';
import { PAUSED_SKIP } from '../../risk/pause-set.js';

/** An order of ours whose placement may still await the ledger (SUBMITTING, SUBMITTED, UNKNOWN). */
export interface AwaitingOrder {
  readonly key: string;
  readonly pair: string;
  readonly side: Side;
  readonly state: string;
}

/**
 * Our orders whose placement outcome is unknown, oldest first: UNKNOWN, or submitted before
 * `submittedBefore` (a pipeline cycle ago) and still not confirmed.
 */
export function awaitingOrders(engine: TradingEngine, submittedBefore: number): AwaitingOrder[] {
  return engine.orders
    .active({ foreign: false })
    .filter(
      (o) =>
        o.state === 'UNKNOWN' ||
        (isAwaitingConfirmation(o.state) && o.submittedAt !== null && o.submittedAt < submittedBefore),
    )
    .sort((a, b) => a.createdAt - b.createdAt)
    .map((o) => ({ key: o.key, pair: o.pair, side: o.side, state: o.state }));
}

/** Rules of the risk gate that halt a whole pair. */
const HALTS: ReadonlySet<RiskRule> = new Set([
  'stale-book',
  'price-jump',
  'daily-loss',
  'error-breaker',
  'unknown-pair',
]);

const onSide =
  (pair: string, side: Side) =>
  (o: { readonly pair: string; readonly side: Side }): boolean =>
    o.pair === pair && o.side === side;

function describeOrder(o: AwaitingOrder): string {
  return `order ${o.key} (${o.side} ${o.pair}) is ${o.state}`;
}

/** The cause of (pair, side) having no resting quote in `report`. */
export function sideMissingCause(
  report: CycleReport,
  pair: string,
  side: Side,
  awaiting: readonly AwaitingOrder[],
): SideMissingCause {
  const here = onSide(pair, side);
  const account = report.snapshot.account;
  if (account?.authFailing === true)
    return { reason: 'api-key', detail: 'the API key is refused (401 on the last authenticated read)' };
  if (account !== null && account.status !== 'ACTIVE')
    return { reason: 'account-not-active', detail: `the account is ${account.status}` };

  const paused = report.strategy.skipped.find(
    (k) => k.pair === pair && k.side === side && k.reason.startsWith(PAUSED_SKIP),
  );
  if (paused !== undefined) return { reason: 'paused', detail: paused.reason };

  const mine = awaiting.find(here);
  if (mine !== undefined) return { reason: 'unknown-order', detail: describeOrder(mine) };

  const halt = report.verdict.reasons.find((r) => (r.pair === pair || r.pair === null) && HALTS.has(r.rule));
  if (halt !== undefined) return { reason: 'risk-halt', detail: `${halt.rule}: ${halt.detail}` };
  const denial = report.verdict.denied.find((d) => here(d.action.quote));
  if (denial !== undefined) return { reason: 'risk-guard', detail: `${denial.reason}: ${denial.detail}` };

  const wanted = report.strategy.quotes.filter(here);
  if (wanted.length === 0) {
    const skip = report.strategy.skipped.find((s) => s.pair === pair && (s.side === null || s.side === side));
    return { reason: 'strategy', detail: skip?.reason ?? 'the strategy quotes no order on this side' };
  }

  const own = report.own.filter((o: OwnOrderView) => here(o));
  const cancelling = own.find((o) => o.cancelling);
  if (cancelling !== undefined)
    return { reason: 'cancelling', detail: `order ${cancelling.key} is being cancelled` };
  const blocker = awaiting[0];
  if (blocker !== undefined && own.some((o) => !o.resting)) {
    return {
      reason: 'unknown-order',
      detail: `waiting behind ${describeOrder(blocker)}: the venue takes one placement at a time`,
    };
  }
  if (own.some((o) => !o.resting && !o.unknown))
    return { reason: 'queued', detail: 'its placement waits its turn in the pipeline or is under way' };
  const slots = new Set(wanted.map((q) => q.slot));
  const deferred = report.plan.deferred.find((d) => slots.has(d.slot));
  if (deferred !== undefined) return { reason: 'funds', detail: deferred.reason };
  if (report.verdict.allowed.some((a) => a.type === 'place' && here(a.quote)))
    return { reason: 'queued', detail: 'its placement was queued this cycle' };
  return { reason: 'other', detail: 'no placement was queued for it this cycle' };
}
