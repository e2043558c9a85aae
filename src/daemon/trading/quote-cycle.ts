/**
 * One pass of the quoting loop, synchronous: snapshot → own orders → strategy → reconciler →
 * risk gate → dispatch (cancels to the pool at once, placements to the pipeline). The risk gate's
 * state is carried from one pass to the next. The only IO is the injected risk memory's: the
 * daily loss state is loaded once, when the risk state is seeded, and saved after a pass that
 * changed it, so a restart within the day keeps the day's baselines and halts.
 */
import type { PlaceAction } from '../../strategy/quote-types.js';
import type { Clock } from '../../core/clock.js';
import { FillWatch } from '../../execution/fill-watch.js';
import type { FreshnessStage, NotWantedCause } from '../../execution/placement/placement-policy.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import type { MarketSnapshot, OwnOrderView, WalletInput } from '../../market/market-snapshot.js';
import type { MarketState } from '../../market/market-state.js';
import type { NetPositionSource } from '../../market/net-position.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import { evaluate, initialRiskState } from '../../risk/risk-gate.js';
import { sameDailyLoss } from '../../risk/daily-loss-codec.js';
import { utcDay, type DailyLossState } from '../../risk/daily-loss-guard.js';
import type { RiskInput, RiskState, RiskVerdict } from '../../risk/risk-types.js';
import { stillFresh } from '../../strategy/freshness.js';
import type { DesiredQuote, StrategyResult } from '../../strategy/quote-types.js';
import { planReconcile, type ReconcilePlan } from '../../strategy/reconciler.js';
import { computeQuotes } from '../../strategy/strategy.js';
import type { BookWatch, StaleBook } from '../../market/book-watch.js';
import type { LiveParams } from './live-params.js';
import { inactiveBreaks } from './inactive-breaks.js';
import { fillFlow, ownLocks, type LocalBalances } from '../../portfolio/local-balances.js';
import type { OrderDispatch, PendingEntry } from './order-dispatch.js';
import { ownOrdersView } from '../../orders/own-orders-view.js';
import { riskInputs, type PairPosition, type Positions } from '../../portfolio/pnl.js';
import type { RiskMemory, RiskMemoryEvent } from '../../risk/risk-memory.js';
import type { PairCost } from '../../strategy/cost-floor.js';
import { applyPauses, type PauseSet } from '../../risk/pause-set.js';

/** What one pass saw and decided (kept for status, logs and tests). */
export interface CycleReport {
  readonly at: number;
  readonly snapshot: MarketSnapshot;
  readonly own: readonly OwnOrderView[];
  /** The wallet planned with (`BALANCES_PENDING`: a provisional plan at startup). */
  readonly balances: WalletInput;
  readonly strategy: StrategyResult;
  readonly plan: ReconcilePlan;
  readonly verdict: RiskVerdict;
  readonly positions: readonly PairPosition[];
  readonly stale: readonly StaleBook[];
  /** Placements queued and cancels requested by this pass. */
  readonly placed: number;
  readonly cancelled: number;
}

/** What a pass needs. */
export interface QuoteCycleDeps {
  readonly clock: Clock;
  readonly market: MarketState;
  readonly engine: TradingEngine;
  readonly dispatch: OrderDispatch;
  readonly balances: LocalBalances;
  readonly bookWatch: BookWatch;
  readonly positions: Positions;
  /** The params in force (read once per pass). */
  readonly params: () => LiveParams;
  /** False while the daemon is shutting down: nothing new is placed. */
  readonly canPlace: () => boolean;
  /** The reconciler (default `planReconcile`; the lab plugs its baselines here). */
  readonly reconciler?: typeof planReconcile;
  /**
   * Durable daily loss state (the daemon's: the journal's meta). Loaded when the risk state is
   * seeded, and used when it is of the current UTC day; saved after a pass that changed it (a new
   * day, a pair's first baseline of the day, a halt latched), not on every pass. A failing load
   * starts the day afresh; a failing save leaves the state in memory, quoting goes on, and each
   * later pass retries. Absent: the state lives in memory only.
   */
  readonly riskMemory?: RiskMemory;
  /** Told what happened to the risk memory (restored, failures). Must not throw. */
  readonly onRiskMemory?: (event: RiskMemoryEvent) => void;
  /** The paused scopes (an operator's, the kill switch's): planned with no quote. Default none. */
  readonly pauses?: () => PauseSet;
  /** The hedge side of the firm's net position (`market/net-position.ts`); absent: no hedging. */
  readonly hedge?: NetPositionSource;
}

/** Priority of the risk gate's cancels in the cancel pool (others run at 0). */
const RISK_CANCEL_PRIORITY = 5;

interface Inputs {
  readonly snapshot: MarketSnapshot;
  readonly active: readonly TrackedOrder[];
  readonly own: OwnOrderView[];
  readonly balances: WalletInput;
  readonly stale: StaleBook[];
}

/** The quote cycle; see the module doc. */
export class QuoteCycle {
  private riskState: RiskState | null = null;
  private lastReport: CycleReport | null = null;
  private passes = 0;
  /** The daily loss state last saved to (or restored from) the risk memory. */
  private stored: DailyLossState | null = null;
  private saveFailing = false;
  /** When each side last filled, for the strategy's fill reaction. */
  private readonly fills = new FillWatch();

  constructor(private readonly d: QuoteCycleDeps) {}

  /** The last pass, or null before the first. */
  get last(): CycleReport | null {
    return this.lastReport;
  }

  /** The cost basis per pair for the strategy's cost floor, and which pairs the risk gate holds reducing. */
  private costs(): Record<string, PairCost> {
    const states = this.lastReport?.verdict.pairStates ?? {};
    return this.d.positions.costs((pair) => states[pair] === 'reducing');
  }

  /** The risk gate's state carried between passes (null before the first). */
  get risk(): RiskState | null {
    return this.riskState;
  }

  /** Passes run. */
  get count(): number {
    return this.passes;
  }

  /** Runs one pass and dispatches its verdict. */
  run(): CycleReport {
    const { dispatch } = this.d;
    const now = this.d.clock.now();
    const params = this.d.params();
    const raw = this.d.market.snapshot(now);
    this.d.bookWatch.observe(raw);
    const { snapshot, own, balances, stale } = this.inputs(raw, params);
    const timing = { ...dispatch.timing, lastFillAt: this.fills.observe(this.d.engine.inventory, now) };
    const strategy = this.paused(
      computeQuotes(snapshot, own, balances, params.strategy, timing, this.costs()),
    );
    const plan = (this.d.reconciler ?? planReconcile)(strategy, own, balances, params.reconcile);
    const positions = this.d.positions.compute(this.d.engine.inventory, snapshot, strategy.references);
    this.riskState ??= this.seedRisk(now, params);
    const verdict = evaluate(
      this.riskState,
      this.riskInput(snapshot, plan.actions, own, positions, strategy, now),
      params.risk,
    );
    this.riskState = verdict.state;
    let placed = 0;
    let cancelled = 0;
    for (const a of verdict.allowed) {
      if (a.type !== 'cancel') continue;
      dispatch.cancel(a.key, a.reason);
      cancelled += 1;
    }
    // The gate's own cancels (stale data, halts, reducing) jump the cancel queue.
    for (const c of verdict.cancels) {
      dispatch.cancel(c.key, c.reason, RISK_CANCEL_PRIORITY);
      cancelled += 1;
    }
    for (const c of inactiveBreaks(verdict, snapshot.account)) {
      dispatch.cancel(c.key, c.reason);
      cancelled += 1;
    }
    if (this.d.canPlace()) {
      for (const a of verdict.allowed) if (a.type === 'place' && dispatch.place(a)) placed += 1;
    }
    this.remember(verdict.state.dailyLoss, now);
    this.passes += 1;
    const report: CycleReport = {
      at: now,
      snapshot,
      own,
      balances,
      strategy,
      plan,
      verdict,
      positions,
      stale,
      placed,
      cancelled,
    };
    this.lastReport = report;
    return report;
  }

  /**
   * The pipeline's freshness check for a queued intent, run before its prepare and before
   * signing: the pure strategy on a fresh snapshot must still want its quote slot at a price and
   * size within the reconciler's tolerance, and the risk gate must still allow it (its rate token
   * was taken when it was queued). Pure apart from reading the current state. True, or why not.
   */
  isWanted(entry: PendingEntry, stage: FreshnessStage = 'prepared'): true | NotWantedCause {
    if (!this.d.canPlace() || this.riskState === null) return 'cannot-place';
    const now = this.d.clock.now();
    const params = this.d.params();
    const inputs = this.inputs(this.d.market.snapshot(now), params, entry.registrySlot);
    const strategy = this.paused(
      computeQuotes(
        inputs.snapshot,
        inputs.own,
        inputs.balances,
        params.strategy,
        { ...this.d.dispatch.timing, lastFillAt: this.fills.observe(this.d.engine.inventory, now) },
        this.costs(),
      ),
    );
    const quote = strategy.quotes.find((q) => q.slot === entry.quoteSlot);
    if (quote === undefined) return 'no-quote';
    const asOrder = { ...viewOf(entry), since: now };
    const fresh = stillFresh(asOrder, quote, entry.action.reason, stage, params.reconcile, now);
    if (fresh !== true) return fresh;
    return this.riskAllows(entry, quote, inputs, strategy, params) ? true : 'risk';
  }

  /** The strategy's result with the paused scopes taken out (`src/risk/pause-set.ts`). */
  private paused(result: StrategyResult): StrategyResult {
    const set = this.d.pauses?.() ?? [];
    return set.length === 0 ? result : applyPauses(result, set, Object.keys(this.d.params().strategy.pairs));
  }

  /** The gate's first state: fresh, with the day's daily loss state when the memory has it. */
  private seedRisk(now: number, params: LiveParams): RiskState {
    const initial = initialRiskState(now, params.risk);
    const memory = this.d.riskMemory;
    if (memory === undefined) return initial;
    let loaded: DailyLossState | null = null;
    try {
      loaded = memory.load();
    } catch (error) {
      this.report({ type: 'load-failed', error, at: now });
    }
    // A state of an earlier (or a later) day is no use: the guard starts the day afresh.
    if (loaded === null || loaded.day !== utcDay(now)) return initial;
    this.stored = loaded;
    this.report({ type: 'restored', state: loaded, at: now });
    return { ...initial, dailyLoss: loaded };
  }

  /** Saves the daily loss state when it differs from the one stored. Never throws. */
  private remember(state: DailyLossState | null, now: number): void {
    const memory = this.d.riskMemory;
    if (memory === undefined || state === null || sameDailyLoss(this.stored, state)) return;
    try {
      memory.save(state);
    } catch (error) {
      if (!this.saveFailing) this.report({ type: 'save-failed', error, at: now });
      this.saveFailing = true;
      return;
    }
    this.stored = state;
    if (this.saveFailing) {
      this.saveFailing = false;
      this.report({ type: 'saved-again', at: now });
    }
  }

  private report(event: RiskMemoryEvent): void {
    try {
      this.d.onRiskMemory?.(event);
    } catch {
      // A report must never break the pass.
    }
  }

  private riskAllows(
    entry: PendingEntry,
    quote: DesiredQuote,
    { snapshot, active }: Inputs,
    strategy: StrategyResult,
    params: LiveParams,
  ): boolean {
    // The intent itself (pending, or written to its registry slot) is left out of the own
    // orders: the action below stands for it.
    const others = ownOrdersView(
      active.filter((o) => o.slot !== entry.registrySlot),
      this.d.dispatch.pendingIntents.filter((p) => p.key !== entry.key),
      this.d.dispatch.cancelling,
    );
    const action: PlaceAction = {
      ...entry.action,
      quote: { ...quote, price: entry.price, quantity: entry.quantity },
    };
    const positions = this.d.positions.compute(this.d.engine.inventory, snapshot, strategy.references);
    const verdict = evaluate(
      this.riskState!,
      this.riskInput(snapshot, [action], others, positions, strategy, snapshot.now),
      params.risk,
    );
    return verdict.denied.every((d) => d.reason === 'rate-limit');
  }

  /**
   * The risk gate's input, built the same way for a pass and for a freshness check: the actions
   * and own orders to judge, the positions and references of this strategy run, and the
   * pipeline's and the engine's counts read now.
   */
  private riskInput(
    snapshot: MarketSnapshot,
    actions: RiskInput['actions'],
    ownOrders: readonly OwnOrderView[],
    positions: readonly PairPosition[],
    strategy: StrategyResult,
    now: number,
  ): RiskInput {
    return {
      snapshot,
      actions,
      ownOrders,
      ...riskInputs(positions),
      pipelineFailures: this.d.dispatch.consecutiveFailures,
      now,
      references: strategy.references,
      otherOpenOrders: this.d.engine.ignoredOrders,
    };
  }

  /**
   * The daemon's own orders as a pass sees them: the engine's active orders, the intents waiting
   * for the pipeline and the cancels in flight. The reference takes them out of the book, and so
   * does the mid history with `market.mids.ownOrders: exclude`. A pass builds the same view from
   * the reads it also takes the locks from.
   */
  ownOrders(): OwnOrderView[] {
    return ownOrdersView(
      this.d.engine.orders.active(),
      this.d.dispatch.pendingIntents,
      this.d.dispatch.cancelling,
    );
  }

  private inputs(raw: MarketSnapshot, params: LiveParams, excludeSlot?: string): Inputs {
    const { engine, dispatch } = this.d;
    const stale = this.d.bookWatch.stale(raw.now, params.risk.staleBookMs);
    const adjusted = this.d.bookWatch.adjust(raw, stale);
    const snapshot = this.d.hedge === undefined ? adjusted : { ...adjusted, hedge: this.d.hedge() };
    const active = engine.orders.active();
    const pending = dispatch.pendingIntents;
    const own = ownOrdersView(active, pending, dispatch.cancelling);
    const locks = ownLocks(active, pending, snapshot.pairs, excludeSlot);
    const balances = this.d.balances.current(snapshot, locks, fillFlow(engine.inventory, snapshot.pairs));
    return { snapshot, active, own, balances, stale };
  }
}

function viewOf(entry: PendingEntry): OwnOrderView {
  return {
    key: entry.key,
    slot: entry.quoteSlot,
    pair: entry.pair,
    side: entry.side,
    price: entry.price,
    remaining: entry.quantity,
    resting: true,
    unknown: false,
    cancelling: false,
    since: entry.enqueuedAt,
  };
}
