/**
 * The quoting daemon: preflight → recovery → market pollers → the quote cycle, until `close()`.
 * `start()` resolves true once quoting (a failing preflight or recovery is retried meanwhile, never
 * trading); `readiness()` and `stateView()` expose its state read-only (metrics, `/status`);
 * `subscribe()` delivers every engine and daemon event (`execution` carries the execution events
 * alone); `reload()` is SIGHUP; `close()` is the bounded graceful stop (`lifecycle.ts`).
 *
 * The facade over its concepts: the parts built from the options (`daemon-parts.ts`), the run's
 * state (`daemon-run.ts`), the start (`startup/daemon-start.ts`), the views
 * (`reporting/daemon-views.ts`) and the routing of events (`reporting/event-router.ts`).
 */
import type { ReloadOutcome } from '../config/reload.js';
import type { MmConfig } from '../config/schema.js';
import type { PollerStats } from '../core/poller.js';
import type { ExecutionEventHub } from '../execution/execution-events.js';
import type { TradingEngine } from '../execution/engine-types.js';
import type { PairHedgeReport } from '../hedge/hedging.js';
import type { PairReferenceReport } from '../market/reference/exchanges-reference.js';
import type { DaemonStateView } from '../observability/http/state-view.js';
import type { PartyView } from '../observability/party-metrics.js';
import type { PairPosition } from '../portfolio/pnl.js';
import type { DaemonControl } from './control/daemon-control.js';
import { DaemonParts } from './daemon-parts.js';
import { DaemonRun } from './daemon-run.js';
import type {
  DaemonCloseOptions,
  DaemonEvent,
  DaemonOptions,
  DaemonPhase,
  ShutdownReport,
} from './daemon-types.js';
import { shutdown } from './lifecycle.js';
import type { DaemonReadiness } from './reporting/daemon-readiness.js';
import { DaemonViews } from './reporting/daemon-views.js';
import { DaemonEventRouter } from './reporting/event-router.js';
import { DaemonStart } from './startup/daemon-start.js';
import type { LiveParams } from './trading/live-params.js';
import type { CycleReport } from './trading/quote-cycle.js';

/** See the module doc. */
export class Daemon {
  /** The execution layer's events (placements, cancels, stages, queues, alarms), forwarded. */
  readonly execution: ExecutionEventHub;
  /** Pause and resume, the kill switch (`src/daemon/control/`); the control endpoint's handler. */
  readonly control: DaemonControl;
  private readonly o: DaemonOptions;
  private readonly run: DaemonRun;
  private readonly parts: DaemonParts;
  private readonly views: DaemonViews;
  private readonly router: DaemonEventRouter;
  private startPromise: Promise<boolean> | null = null;
  private closePromise: Promise<ShutdownReport> | null = null;

  /** Throws ConfigError when the strategy or risk params break a rule between keys. */
  constructor(options: DaemonOptions) {
    this.o = options;
    const emit = (e: DaemonEvent): void => this.router.emit(e);
    this.run = new DaemonRun(options.clock, emit);
    this.parts = new DaemonParts(options, this.run, emit);
    this.views = new DaemonViews(this.parts, this.run);
    this.router = new DaemonEventRouter(options.logger, this.parts, this.run, this.views);
    this.execution = this.parts.execution;
    this.control = this.parts.control;
  }

  /** created → preflight → recovering → running → closing → closed (or failed). */
  get phase(): DaemonPhase {
    return this.run.phase;
  }

  /** The config in force (strategy and risk as last reloaded). */
  get config(): MmConfig {
    return this.parts.live.config;
  }

  /** The strategy, reconciler and risk params in force. */
  get params(): LiveParams {
    return this.parts.live.params;
  }

  /** The order engine once built (its `orders` view, `inventory`, `ordersPoller`), else null. */
  get engine(): TradingEngine | null {
    return this.run.session?.engine ?? null;
  }

  /** The last quote cycle, or null. */
  get lastCycle(): CycleReport | null {
    return this.run.session?.cycle.last ?? null;
  }

  /** Quote cycles run so far. */
  get cycles(): number {
    return this.run.session?.cycle.count ?? 0;
  }

  /** Consecutive placement-pipeline failures (the error breaker's input). */
  get pipelineFailures(): number {
    return this.run.session?.dispatch.consecutiveFailures ?? 0;
  }

  /** Every poller: the market's, the orders poller, and the daemon's loops. */
  pollerStats(): PollerStats[] {
    return this.views.pollerStats();
  }

  /** Registers an observer of every event; returns its unsubscribe. Must not throw. */
  subscribe(listener: (e: DaemonEvent) => void): () => void {
    return this.parts.observers.subscribe(listener);
  }

  /**
   * Brings the daemon up. Resolves true once it quotes, false when closed before; a failed
   * preflight or recovery is retried on a slow timer meanwhile (never trading). Rejects only when
   * another process holds the store. Idempotent.
   */
  start(): Promise<boolean> {
    this.startPromise ??=
      this.closePromise === null
        ? new DaemonStart(this.o, this.parts, this.run, (e) => this.router.emit(e)).bringUp()
        : Promise.resolve(false);
    return this.startPromise;
  }

  /** Reloads the strategy and risk sections now (what SIGHUP does); null without reload options. */
  reload(): ReloadOutcome | null {
    this.parts.keyFile?.reload('SIGHUP');
    return this.parts.live.reload();
  }

  /** The graceful stop (see `lifecycle.ts`), bounded by `shutdown.graceMs`. Idempotent. */
  close(options: DaemonCloseOptions = {}): Promise<ShutdownReport> {
    this.closePromise ??= this.stop(options);
    return this.closePromise;
  }

  /** Positions and PnL per pair, marked to the current mids. */
  positions(): PairPosition[] {
    return this.views.positions();
  }

  /** Every hedged pair's state (metrics, `/status`); empty without hedging. */
  hedgeReport(): PairHedgeReport[] {
    return this.views.hedgeReport();
  }

  /** Ready to quote, or every reason not (the observability module's `/readyz` shape). */
  readiness(): DaemonReadiness {
    return this.views.readiness();
  }

  /** The "exchanges" reference of every pair that has one, for metrics (empty without one). */
  referenceReport(): readonly PairReferenceReport[] {
    return this.views.referenceReport();
  }

  /** The firm's parties for metrics and `/status` (empty with one party). */
  partyReport(): PartyView[] {
    return this.views.partyReport();
  }

  /** The state for metrics and `/status`, fresh per call. */
  stateView(): DaemonStateView {
    return this.views.stateView();
  }

  private async stop(options: DaemonCloseOptions): Promise<ShutdownReport> {
    const { config, clock, logger } = this.o;
    const p = this.parts;
    const session = (): DaemonRun['session'] => this.run.session;
    this.run.setPhase('closing');
    p.lifetime.abort(new DOMException('daemon closed', 'AbortError'));
    const report = await shutdown(
      {
        clock,
        logger,
        engine: session()?.engine ?? null,
        dispatch: session()?.dispatch ?? null,
        stopLoops: async () => {
          p.live.close();
          p.keyFile?.close();
          await session()?.stopLoops();
        },
        closeRest: async () => {
          await p.pollers.close();
          await p.firm?.closeOthers();
          await p.venue.close();
          await p.hedging?.close();
        },
      },
      {
        cancelOrders: options.cancelOrders ?? config.shutdown.cancelOrders,
        graceMs: options.graceMs ?? config.shutdown.graceMs,
        unknownWaitMs: options.unknownWaitMs ?? config.shutdown.unknownWaitMs,
      },
    );
    this.run.setPhase('closed');
    this.router.emit({ type: 'shutdown', report, at: clock.now() });
    return report;
  }
}
