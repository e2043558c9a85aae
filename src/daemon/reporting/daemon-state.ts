/**
 * The daemon's state, read-only, in the shape the observability module reads
 * ({@link DaemonStateView}): metrics, `/status` and `/readyz` are built from it on demand. A
 * fresh view per call; nothing in it is shared with the running daemon.
 */
import type { TradingEngine } from '../../execution/engine-types.js';
import type { PollerStats } from '../../core/poller.js';
import type { MarketState } from '../../market/market-state.js';
import { knownBalances } from '../../market/market-snapshot.js';
import type {
  DaemonStateView,
  FillView,
  LiveQuoteView,
  PairStateView,
  PipelineStepView,
  PollerView,
} from '../../observability/http/state-view.js';
import { isLiveOnBook, placementStep, type TrackedOrder } from '../../orders/fsm/index.js';
import { bucketForLimit, refill } from '../../risk/token-bucket.js';
import type { RiskParams, RiskState } from '../../risk/risk-types.js';
import { quoteSlotOf } from '../../orders/own-orders-view.js';
import type { PairPosition } from '../../portfolio/pnl.js';
import type { SideEpisode } from './side-watch.js';
import type { CycleReport } from '../trading/quote-cycle.js';

/** What the view is built from. */
export interface StateSource {
  readonly now: number;
  readonly pairs: readonly string[];
  readonly market: MarketState;
  readonly pollers: readonly PollerStats[];
  readonly engine: TradingEngine | null;
  readonly cycle: CycleReport | null;
  readonly risk: { readonly state: RiskState | null; readonly params: RiskParams };
  readonly positions: readonly PairPosition[];
  /** When the reference price a placed order was made from was observed. */
  readonly referenceAt: (key: string) => number | null;
  readonly lastFills: readonly FillView[];
  readonly preflightPassed: boolean;
  /** Intents handed to the pipeline and not settled. */
  readonly queued: number;
  /** The sides without a resting quote, and why (the side watch's episodes). */
  readonly sideMissing?: readonly SideEpisode[];
  /** Pauses, the kill switch and the daily loss halts. */
  readonly controls?: DaemonStateView['controls'];
}

/** The placement pipeline's step: the newest of our orders still being placed, else idle. */
export function pipelineStep(active: readonly TrackedOrder[], queued: number): PipelineStepView {
  let current: TrackedOrder | null = null;
  for (const o of active) {
    if (o.flags.foreign || placementStep(o.state) === null) continue;
    if (current === null || o.createdAt > current.createdAt) current = o;
  }
  if (current === null) return { step: queued > 0 ? 'queued' : 'idle', key: null, since: null };
  return { step: placementStep(current.state) ?? 'idle', key: current.key, since: current.updatedAt };
}

function liveQuote(o: TrackedOrder, referenceAt: (key: string) => number | null): LiveQuoteView | null {
  const slot = quoteSlotOf(o.slot);
  if (slot === null || o.price === null || !isLiveOnBook(o.state)) return null;
  const level = Number(slot.slice(slot.lastIndexOf(':') + 1));
  return {
    side: o.side,
    level: Number.isInteger(level) ? level : 0,
    price: o.price,
    remaining: o.quantity.minus(o.filled),
    referenceAt: referenceAt(o.key),
    key: o.key,
  };
}

/** Builds the view. */
export function buildStateView(src: StateSource): DaemonStateView {
  const active = safeActive(src.engine);
  const snapshot = src.cycle?.snapshot ?? src.market.snapshot(src.now);
  const pairs: PairStateView[] = src.pairs.map((pair) => {
    const mine = active.filter((o) => o.pair === pair);
    const position = src.positions.find((p) => p.pair === pair) ?? null;
    const quotes = mine.flatMap((o) => liveQuote(o, src.referenceAt) ?? []);
    return {
      pair,
      quotes,
      reference: src.cycle?.strategy.references[pair] ?? null,
      inventory: position === null ? null : { base: position.base, quote: position.quote },
      pnl: position === null ? null : { realised: position.realised, marked: position.pnl },
      cost: position?.cost ?? null,
      riskState: src.cycle?.verdict.pairStates[pair] ?? null,
      twoSided: quotes.some((q) => q.side === 'BUY') && quotes.some((q) => q.side === 'SELL'),
      foreignOrders: mine.filter((o) => o.flags.foreign).length,
      sideMissing: (src.sideMissing ?? [])
        .filter((e) => e.pair === pair)
        .map((e) => ({ side: e.side, since: e.since, reason: e.cause.reason, detail: e.cause.detail })),
    };
  });
  const account = snapshot.account;
  return {
    now: src.now,
    pairs,
    balances: knownBalances(src.cycle?.balances) ?? snapshot.balances,
    pollers: src.pollers.map(pollerView),
    orderCounts: safeCounts(src.engine),
    rateBudget: rateBudget(src, account?.ordersPerMinute ?? null),
    pipeline: pipelineStep(active, src.queued),
    lastFills: src.lastFills,
    preflightPassed: src.preflightPassed,
    account: account === null ? null : { status: account.status, authFailing: src.market.authFailing },
    ...(src.controls === undefined ? {} : { controls: src.controls }),
  };
}

/** The engine's registry, once it exists (not before its start, nor after a journal that would not open). */
function registryOf(engine: TradingEngine | null): TradingEngine['orders'] | null {
  if (engine === null || engine.state === 'created') return null;
  try {
    return engine.orders;
  } catch {
    return null;
  }
}

function safeActive(engine: TradingEngine | null): TrackedOrder[] {
  return registryOf(engine)?.active() ?? [];
}

function safeCounts(engine: TradingEngine | null): DaemonStateView['orderCounts'] {
  return registryOf(engine)?.countsByState() ?? {};
}

function pollerView(p: PollerStats): PollerView {
  const i = p.name.indexOf(':');
  return {
    poller: i < 0 ? p.name : p.name.slice(0, i),
    pair: i < 0 ? null : p.name.slice(i + 1),
    lastSuccessAt: p.lastSuccessAt,
    consecutiveFailures: p.consecutiveFailures,
  };
}

function rateBudget(src: StateSource, accountLimit: number | null): DaemonStateView['rateBudget'] {
  const state = src.risk.state;
  if (state === null) return null;
  const p = src.risk.params;
  const config = bucketForLimit(Math.min(p.ordersPerMinute, accountLimit ?? Infinity), p.rateBurst);
  return { tokens: refill(state.bucket, config, src.now).tokens, capacity: config.capacity };
}
