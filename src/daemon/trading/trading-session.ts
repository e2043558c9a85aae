/**
 * The trading half of the daemon around one order engine: {@link TradingSession} builds the
 * order dispatch and the quote cycle (snapshot → strategy → reconciler → risk gate → the
 * engine's placement pipeline and cancel pool) and runs the daemon's loops. It keeps the daily
 * loss state in the engine's journal (and reports its restores and failed saves) and sets the
 * local wallet's baseline at each balances poll; the pure planning stays in the quote cycle's
 * callees.
 */
import type { Clock } from '../../core/clock.js';
import type { PollerStats } from '../../core/poller.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import type { Logger } from '../../logging/logger.js';
import type { MarketPollers } from '../../market/market-pollers.js';
import type { MarketState } from '../../market/market-state.js';
import type { NetPositionSource } from '../../market/net-position.js';
import type { BookWatch } from '../../market/book-watch.js';
import { DaemonLoops } from './daemon-loops.js';
import type { DaemonEvent, DaemonTuning, ReconcileFn } from '../daemon-types.js';
import type { EngineEvents } from '../reporting/engine-events.js';
import type { LiveParams } from './live-params.js';
import { fillFlow, ownLocks, type LocalBalances } from '../../portfolio/local-balances.js';
import { OrderDispatch } from './order-dispatch.js';
import type { Positions } from '../../portfolio/pnl.js';
import { QuoteCycle } from './quote-cycle.js';
import type { PauseSet } from '../../risk/pause-set.js';
import { RISK_MEMORY_KEY, journalRiskMemory, type RiskMemoryEvent } from '../../risk/risk-memory.js';

/** What a session shares with the daemon. */
export interface SessionDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tuning: DaemonTuning;
  readonly state: MarketState;
  readonly pollers: MarketPollers;
  readonly balances: LocalBalances;
  readonly bookWatch: BookWatch;
  readonly positions: Positions;
  readonly events: EngineEvents;
  readonly params: () => LiveParams;
  /** False once the daemon is stopping. */
  readonly canPlace: () => boolean;
  readonly emit: (event: DaemonEvent) => void;
  /** The reconciler variant (the lab's baselines); default `planReconcile`. */
  readonly reconciler?: ReconcileFn;
  /** The paused scopes the quote cycle plans without (`src/daemon/control/`). */
  readonly pauses?: () => PauseSet;
  /** The hedge side of the firm's net position; absent: no hedging. */
  readonly hedge?: NetPositionSource;
}

/**
 * Everything that trades, around one order engine: the dispatch of verdicts to the engine, the
 * quote cycle, and the daemon's loops. Built when the engine is (before its recovery runs, so
 * every event of the recovery is seen), started once the recovery is over. The quote cycle's
 * daily loss state is kept in the engine's journal (`src/risk/risk-memory.ts`): a restored halt is logged,
 * an unreadable one is a warning (the day starts afresh), a failing save an `internal-error` alarm.
 */
export class TradingSession {
  readonly dispatch: OrderDispatch;
  readonly cycle: QuoteCycle;
  private loops: DaemonLoops | null = null;

  constructor(
    readonly engine: TradingEngine,
    private readonly d: SessionDeps,
  ) {
    this.dispatch = new OrderDispatch({
      engine,
      clock: d.clock,
      onPlacement: (entry, outcome) => d.events.onPlacement(entry, outcome),
      ordersPerSlot: () => d.params().reconcile.ordersPerSlot,
    });
    this.cycle = new QuoteCycle({
      clock: d.clock,
      market: d.state,
      engine,
      dispatch: this.dispatch,
      balances: d.balances,
      bookWatch: d.bookWatch,
      positions: d.positions,
      params: d.params,
      canPlace: d.canPlace,
      ...(d.reconciler === undefined ? {} : { reconciler: d.reconciler }),
      ...(d.pauses === undefined ? {} : { pauses: d.pauses }),
      ...(d.hedge === undefined ? {} : { hedge: d.hedge }),
      riskMemory: journalRiskMemory(() => engine.meta),
      onRiskMemory: (e) => this.onRiskMemory(e),
    });
    engine.subscribe((e) => d.events.onEngineEvent(e));
    // The mid history without the daemon's own orders (`market.mids.ownOrders: exclude`): the
    // same own orders as a pass's reference takes out.
    d.state.useOwnOrders(() => this.cycle.ownOrders());
  }

  /** The loops' stats. */
  get loopStats(): readonly PollerStats[] {
    return this.loops?.stats ?? [];
  }

  /** Starts the market pollers and the loops (the first cycle at once). Idempotent. */
  start(): void {
    this.d.pollers.start();
    this.startLoops();
  }

  /** Starts the loops alone (a provisional start runs the market data pollers already). Idempotent. */
  startLoops(): void {
    if (this.loops !== null) return;
    this.loops = new DaemonLoops({
      ...this.d,
      cycle: this.cycle,
      summary: (report) => this.d.events.summaryLines(report),
    });
    this.loops.start();
  }

  /** Stops the loops (no cycle runs after this resolves). */
  async stopLoops(): Promise<void> {
    await this.loops?.close();
  }

  private onRiskMemory(e: RiskMemoryEvent): void {
    const { logger } = this.d;
    switch (e.type) {
      case 'restored': {
        const halted = Object.keys(e.state.halted).sort();
        const pairs = Object.keys(e.state.baseline).length;
        logger.info(
          { day: e.state.day, pairs, halted },
          halted.length === 0
            ? `daily loss baselines of ${pairs} pair(s) restored from the store`
            : `daily loss state restored from the store: ${halted.join(', ')} halted until the UTC day ends`,
        );
        return;
      }
      case 'load-failed':
        logger.warn(
          { err: e.error, key: RISK_MEMORY_KEY },
          "daily loss state not restored; the day's baselines start afresh",
        );
        return;
      case 'save-failed':
        this.d.emit({
          type: 'alarm',
          reason: 'internal-error',
          key: null,
          detail:
            `saving the daily loss state (meta ${RISK_MEMORY_KEY}) failed: ${describe(e.error)}; ` +
            'it holds in memory and each cycle retries, but until a save succeeds a restart would restore ' +
            'an older state (without the halts latched since)',
          at: e.at,
        });
        return;
      case 'saved-again':
        logger.info({ key: RISK_MEMORY_KEY }, 'daily loss state saved again');
        return;
    }
  }

  /** A balances poll was just taken: the local wallet's baseline (see portfolio/local-balances.ts). */
  onBalancesPolled(at: number): void {
    if (this.engine.state !== 'ready') return;
    const pairs = this.d.state.snapshot(at).pairs;
    const locks = ownLocks(this.engine.orders.active(), this.dispatch.pendingIntents, pairs);
    this.d.balances.onPoll(at, locks.resting, fillFlow(this.engine.inventory, pairs));
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}
