/**
 * The quoting daemon: preflight → recovery → market pollers → the quote cycle, until `close()`.
 * `start()` resolves true once quoting (a failing preflight or recovery is retried meanwhile, never
 * trading); `readiness()` and `stateView()` expose its state read-only (metrics, `/status`);
 * `subscribe()` delivers every engine and daemon event (`execution` carries the execution events
 * alone); `reload()` is SIGHUP; `close()` is the bounded graceful stop (`lifecycle.ts`).
 */
import type { ReloadOutcome } from '../config/reload.js';
import type { Dec } from '../core/decimal.js';
import type { MmConfig } from '../config/schema.js';
import { statsAs, type PollerStats } from '../core/poller.js';
import { ExecutionEventHub } from '../execution/execution-events.js';
import type { TradingEngine } from '../execution/engine-types.js';
import type { MarketPollers } from '../market/market-pollers.js';
import type { MarketState } from '../market/market-state.js';
import type { DaemonStateView } from '../observability/http/state-view.js';
import type { VenueClient } from '../venue/client.js';
import { apiKeyFileOf, type ApiKeyFile } from './startup/api-key-file.js';
import { AuthWatch } from './reporting/auth-watch.js';
import type { ExchangesReference, PairReferenceReport } from '../market/reference/exchanges-reference.js';
import { BookWatch } from '../market/book-watch.js';
import { logDaemonEvent } from './reporting/daemon-log.js';
import { FillMarks } from '../observability/fill-marks.js';
import {
  resolveTuning,
  type DaemonCloseOptions,
  type DaemonEvent,
  type DaemonOptions,
  type DaemonPhase,
  type DaemonTuning,
  type ShutdownReport,
} from './daemon-types.js';
import { EngineEvents } from './reporting/engine-events.js';
import { Fanout } from './reporting/fanout.js';
import { shutdown } from './lifecycle.js';
import { LiveConfig } from './trading/live-config.js';
import type { LiveParams } from './trading/live-params.js';
import { LocalBalances } from '../portfolio/local-balances.js';
import { createMarketFeed } from './startup/market-feed.js';
import type { PreflightReport } from './startup/preflight.js';
import { Positions, type PairPosition } from '../portfolio/pnl.js';
import type { CycleReport } from './trading/quote-cycle.js';
import { assessDaemonReadiness, type DaemonReadiness } from './reporting/daemon-readiness.js';
import { passPreflight, startEngine } from './startup/startup.js';
import { BalancesGate } from './startup/balances-gate.js';
import { ProvisionalStart } from './startup/provisional-start.js';
import { buildStateView } from './reporting/daemon-state.js';
import { awaitingOrders } from './reporting/side-missing-cause.js';
import { PipelineCycle, SideWatch } from './reporting/side-watch.js';
import { TradingSession } from './trading/trading-session.js';
import { QuotePolicy } from './trading/quote-policy.js';
import { createDaemonVenueClient } from './startup/venue-client.js';
import { DaemonControl } from './control/daemon-control.js';
import { FirmParties } from './startup/firm-parties.js';
import { FirmEngine } from '../execution/firm/firm-engine.js';
import type { PartyView } from '../observability/party-metrics.js';
import { FundingWatch, firmPartyViews } from './reporting/party-views.js';
import { createHedging } from '../hedge/hedging-setup.js';
import type { Hedging, PairHedgeReport } from '../hedge/hedging.js';
import type { NetPositionSource } from '../market/net-position.js';

/** See the module doc. */
export class Daemon {
  /** The execution layer's events (placements, cancels, stages, queues, alarms), forwarded. */
  readonly execution = new ExecutionEventHub();
  /** Pause and resume, the kill switch (`src/daemon/control/`); the control endpoint's handler. */
  readonly control: DaemonControl;
  private readonly o: DaemonOptions;
  private readonly tuning: DaemonTuning;
  private readonly venue: VenueClient;
  /** The firm's parties when it runs several, else null (one party: `signer` and `config.venue`). */
  private readonly firm: FirmParties | null;
  private readonly state: MarketState;
  private readonly pollers: MarketPollers;
  private readonly reference: ExchangesReference | null;
  private readonly bookWatch = new BookWatch();
  private readonly balances = new LocalBalances();
  private readonly positionsCalc: Positions;
  /** Hedging of the pairs the `hedge` section enables; null (the default) when none is. */
  private readonly hedging: Hedging | null;
  private readonly netPosition: NetPositionSource | undefined;
  private readonly events: EngineEvents;
  private readonly observers = new Fanout<DaemonEvent>();
  private readonly lifetime = new AbortController();
  private readonly pipelineCycle = new PipelineCycle();
  private readonly sideWatch = new SideWatch(this.pipelineCycle);
  private readonly fundingWatch = new FundingWatch();
  private readonly authWatch: AuthWatch;
  private readonly keyFile: ApiKeyFile | null;
  private readonly live: LiveConfig;
  private phaseValue: DaemonPhase = 'created';
  private preflightReport: PreflightReport | null = null;
  private fatal: string | null = null;
  private session: TradingSession | null = null;
  /** Holds signatures while a provisional start waits for the balances. */
  private readonly gate = new BalancesGate();
  /** The engines' placement policy: the session's quote cycle, and the gate when it may hold. */
  private readonly policy: QuotePolicy;
  private provisional: ProvisionalStart | null = null;
  private startPromise: Promise<boolean> | null = null;
  private closePromise: Promise<ShutdownReport> | null = null;

  /** Throws ConfigError when the strategy or risk params break a rule between keys. */
  constructor(options: DaemonOptions) {
    this.o = options;
    const { config, clock } = options;
    this.live = new LiveConfig(config, clock, options.reload, (e) => this.emit(e));
    this.tuning = resolveTuning(config, options.tuning);
    this.control = new DaemonControl({
      clock,
      logger: options.logger,
      pairs: () => this.live.config.pairs,
      killSwitch: () => this.live.params.risk.killSwitch,
      log: () => (this.session?.engine.state === 'ready' ? this.session.engine.controlLog : null),
      meta: () => (this.session?.engine.state === 'ready' ? this.session.engine.meta : null),
    });
    this.policy = new QuotePolicy(config.execution.prepareBeforeBalances ? this.gate : null);
    this.firm =
      (options.parties?.length ?? 0) >= 2
        ? new FirmParties(options.parties!, { ...options, policy: config.firm.allocation })
        : null;
    this.venue = this.firm?.primary ?? createDaemonVenueClient(options);
    const random = options.random === undefined ? {} : { random: options.random };
    const feed = createMarketFeed({
      config,
      venue: this.venue,
      clock,
      ...random,
      onBalances: (at) => this.session?.onBalancesPolled(at),
      onError: (poller, error) => this.onPollError(poller, error),
      logger: options.logger,
      ...(this.firm === null ? {} : { reads: this.firm.reads() }),
    });
    this.state = feed.state;
    this.pollers = feed.pollers;
    this.reference = feed.reference;
    this.hedging = createHedging({
      config,
      clock,
      logger: options.logger,
      ...(options.hedgeVenue === undefined ? {} : { venueFor: options.hedgeVenue }),
      venueBase: (pair) => this.venueBase(pair),
      reference: (pair) => this.session?.cycle.last?.strategy.references[pair]?.price ?? null,
    });
    const hedging = this.hedging;
    this.netPosition = hedging === null ? undefined : () => hedging.offsets();
    this.positionsCalc = new Positions(
      config.pairs,
      (seq) => this.session?.engine.fillsAfter(seq) ?? [],
      this.netPosition,
    );
    // A firm's parties read their key files once, at start (no rotation without a restart).
    this.keyFile = this.firm === null ? apiKeyFileOf(options, this.venue) : null;
    this.authWatch = new AuthWatch({
      logger: options.logger,
      authFailing: () => this.state.authFailing,
      keyHandle: () => this.venue.keyHandle,
      emit: (e) => this.emit(e),
    });
    this.events = new EngineEvents({
      clock,
      bookWatch: this.bookWatch,
      market: this.state,
      dispatch: () => this.session?.dispatch ?? null,
      engine: () => this.session?.engine ?? null,
      emit: (e) => this.emit(e),
      execution: this.execution,
      position: (pair) => this.positions().find((p) => p.pair === pair),
      sideMissing: (pair, side) => this.sideWatch.episode(pair, side),
    });
    const marks = new FillMarks({
      now: () => clock.now(),
      sink: () => this.session?.engine.recordFillMarks.bind(this.session.engine) ?? null,
      reference: (pair) => this.session?.cycle.last?.strategy.references[pair]?.price ?? null,
      feeExempt: () => this.preflightReport?.ok === true,
      onError: (err) => options.logger.debug({ err }, 'a fill mark could not be journaled'),
    });
    this.observers.subscribe((e) => marks.observe(e));
  }

  /** created → preflight → recovering → running → closing → closed (or failed). */
  get phase(): DaemonPhase {
    return this.phaseValue;
  }

  /** The config in force (strategy and risk as last reloaded). */
  get config(): MmConfig {
    return this.live.config;
  }

  /** The strategy, reconciler and risk params in force. */
  get params(): LiveParams {
    return this.live.params;
  }

  /** The order engine once built (its `orders` view, `inventory`, `ordersPoller`), else null. */
  get engine(): TradingEngine | null {
    return this.session?.engine ?? null;
  }

  /** The last quote cycle, or null. */
  get lastCycle(): CycleReport | null {
    return this.session?.cycle.last ?? null;
  }

  /** Quote cycles run so far. */
  get cycles(): number {
    return this.session?.cycle.count ?? 0;
  }

  /** Consecutive placement-pipeline failures (the error breaker's input). */
  get pipelineFailures(): number {
    return this.session?.dispatch.consecutiveFailures ?? 0;
  }

  /** Every poller: the market's, the orders poller, and the daemon's loops. */
  pollerStats(): PollerStats[] {
    const engine = this.session?.engine;
    const orders = engine?.ordersPoller?.poller;
    // A firm's other parties' orders pollers, named `orders_<party>` (the primary's is `orders`).
    const others =
      engine instanceof FirmEngine
        ? engine
            .ordersPollers()
            .slice(1)
            .map(({ party, poller }) => statsAs(poller.poller, `orders_${party}`))
        : [];
    return [
      ...this.pollers.stats(),
      ...(orders === undefined ? [] : [orders]),
      ...others,
      ...(this.session?.loopStats ?? []),
    ];
  }

  /** Registers an observer of every event; returns its unsubscribe. Must not throw. */
  subscribe(listener: (e: DaemonEvent) => void): () => void {
    return this.observers.subscribe(listener);
  }

  /**
   * Brings the daemon up. Resolves true once it quotes, false when closed before; a failed
   * preflight or recovery is retried on a slow timer meanwhile (never trading). Rejects only when
   * another process holds the store. Idempotent.
   */
  start(): Promise<boolean> {
    this.startPromise ??= this.closePromise === null ? this.bringUp() : Promise.resolve(false);
    return this.startPromise;
  }

  /** Reloads the strategy and risk sections now (what SIGHUP does); null without reload options. */
  reload(): ReloadOutcome | null {
    this.keyFile?.reload('SIGHUP');
    return this.live.reload();
  }

  /** The graceful stop (see `lifecycle.ts`), bounded by `shutdown.graceMs`. Idempotent. */
  close(options: DaemonCloseOptions = {}): Promise<ShutdownReport> {
    this.closePromise ??= this.stop(options);
    return this.closePromise;
  }

  /** Positions and PnL per pair, marked to the current mids. */
  positions(): PairPosition[] {
    const engine = this.session?.engine;
    if (engine === undefined || engine.state === 'created') return [];
    const last = this.session?.cycle.last;
    const snap = last?.snapshot ?? this.state.snapshot(this.o.clock.now());
    try {
      return this.positionsCalc.compute(engine.inventory, snap, last?.strategy.references);
    } catch {
      return []; // the engine's journal never opened: there is no inventory to mark
    }
  }

  /** Every hedged pair's state (metrics, `/status`); empty without hedging. */
  hedgeReport(): PairHedgeReport[] {
    return this.hedging?.report() ?? [];
  }

  /** This venue's net base of `pair` from its fills (the hedger's input); null before the engine. */
  private venueBase(pair: string): Dec | null {
    const engine = this.session?.engine;
    if (engine === undefined || engine.state === 'created') return null;
    try {
      return engine.inventory.get(pair).base;
    } catch {
      return null; // the engine's journal never opened
    }
  }

  /** Ready to quote, or every reason not (the observability module's `/readyz` shape). */
  readiness(): DaemonReadiness {
    const last = this.session?.cycle.last ?? null;
    const readiness = assessDaemonReadiness({
      phase: this.phaseValue,
      preflight: this.preflightReport,
      recoveryError: this.fatal,
      account: this.state.snapshot(this.o.clock.now()).account,
      authFailing: this.state.authFailing,
      verdict: last?.verdict ?? null,
      stale: last?.stale ?? [],
      pairs: this.live.config.pairs,
      provisional: this.provisional?.begun === true,
    });
    const paused = this.control.readinessLines();
    return paused.length === 0 ? readiness : { ...readiness, paused };
  }

  /** The "exchanges" reference of every pair that has one, for metrics (empty without one). */
  referenceReport(): readonly PairReferenceReport[] {
    return this.reference?.report() ?? [];
  }

  /** The firm's parties for metrics and `/status` (empty with one party). */
  partyReport(): PartyView[] {
    const engine = this.session?.engine;
    if (this.firm === null || !(engine instanceof FirmEngine)) return [];
    return firmPartyViews(
      engine,
      this.firm.wallets,
      this.session?.cycle.last?.strategy.quotes ?? [],
      (pair) => this.state.snapshot(this.o.clock.now()).pairs[pair],
    );
  }

  /** The state for metrics and `/status`, fresh per call. */
  stateView(): DaemonStateView {
    return buildStateView({
      now: this.o.clock.now(),
      pairs: this.live.config.pairs,
      market: this.state,
      pollers: this.pollerStats(),
      engine: this.session?.engine ?? null,
      cycle: this.session?.cycle.last ?? null,
      risk: { state: this.session?.cycle.risk ?? null, params: this.live.params.risk },
      positions: this.positions(),
      referenceAt: (key) => this.events.referenceAt(key),
      lastFills: this.events.lastFills,
      preflightPassed: this.preflightReport?.ok === true,
      queued: this.session?.dispatch.pendingIntents.length ?? 0,
      sideMissing: this.sideWatch.all(),
      controls: this.control.view(),
    });
  }

  private async bringUp(): Promise<boolean> {
    const { config, clock, logger } = this.o;
    const deps = { ...this.o, venue: this.venue, signal: this.lifetime.signal, retryMs: this.tuning.retryMs };
    const engineStart = {
      tuning: this.tuning.engine,
      policy: this.policy,
      ordersPollMs: this.tuning.ordersPollMs,
      ...(this.o.random === undefined ? {} : { random: this.o.random }),
      onEngine: (engine: TradingEngine) => this.attachEngine(engine),
    };
    // A firm of several parties waits for every party's balances (no provisional start).
    let early = config.execution.prepareBeforeBalances && this.firm === null;
    this.setPhase('preflight');
    const onReport = (r: PreflightReport): void => {
      this.preflightReport = r;
      this.emit({ type: 'preflight', report: r, at: clock.now() });
    };
    const report = await (this.firm?.preflight(deps, onReport) ??
      passPreflight(deps, onReport, {
        onBalancesPending: (r) => {
          if (!early || this.lifetime.signal.aborted) return;
          this.provisional = new ProvisionalStart({
            startup: deps,
            state: this.state,
            pollers: this.pollers,
            gate: this.gate,
            engineStart,
            session: () => this.session,
            dropSession: () => (this.session = null),
          });
          this.provisional.begin(r);
        },
        onFailed: async () => {
          if (this.provisional === null) return;
          // The balances could not be read: from now on the start waits for them, as without it.
          early = false;
          await this.provisional.abandon();
          this.provisional = null;
        },
      }));
    if (report === null) return false;
    // Pairs, account and balances are known now. The preflight's balances count as the first
    // poll (a cold GET /balances takes over 10 s); with a provisional start the engine may be up
    // already, and the local wallet takes its baseline from them with the orders it holds.
    this.state.applyPairs(report.pairs ?? [], clock.now());
    this.state.applyAccount(report.account, clock.now());
    if (report.balances !== undefined) this.state.applyBalances(report.balances, clock.now());
    this.gate.open();
    this.setPhase('recovering');
    const started = await (
      this.provisional?.started() ??
      startEngine(deps, {
        ...engineStart,
        partyId: report.account.partyId,
        clientOrderIdPrefix: report.account.clientOrderIdPrefix,
        ...(this.firm === null
          ? {}
          : {
              build: this.firm.builder(
                deps,
                engineStart,
                (pair) => this.state.snapshot(clock.now()).pairs[pair],
              ),
            }),
      })
    ).catch((err: unknown) => {
      this.fatal = err instanceof Error ? err.message : String(err);
      this.setPhase('failed');
      throw err;
    });
    if (started === null || this.lifetime.signal.aborted || this.session === null) return false;
    this.session.start();
    this.hedging?.start(this.lifetime.signal);
    if (this.o.reload?.watch !== false) {
      this.live.watch();
      this.keyFile?.watch();
    }
    this.setPhase('running');
    logger.info({ pairs: config.pairs, store: config.store.path }, `quoting ${config.pairs.join(', ')}`);
    return true;
  }

  private attachEngine(engine: TradingEngine): void {
    this.session = new TradingSession(engine, {
      ...this.o,
      tuning: this.tuning,
      state: this.state,
      pollers: this.pollers,
      balances: this.balances,
      bookWatch: this.bookWatch,
      positions: this.positionsCalc,
      events: this.events,
      params: () => this.live.params,
      pauses: () => this.control.pauses(),
      ...(this.netPosition === undefined ? {} : { hedge: this.netPosition }),
      // A provisional start queues placements before the preflight has passed; none is signed.
      canPlace: () =>
        !this.lifetime.signal.aborted &&
        (this.phaseValue === 'running' || this.provisional?.quoting === true),
      emit: (e) => this.emit(e),
    });
    this.policy.attach(this.session);
  }

  private onPollError(poller: string, error: unknown): void {
    const stats = this.pollers.poller(poller);
    if (stats !== undefined && stats.consecutiveFailures > 1) return; // logged at the first of a streak
    this.emit({ type: 'market-poll-failed', poller, error, at: this.o.clock.now() });
  }

  private async stop(options: DaemonCloseOptions): Promise<ShutdownReport> {
    const { config, clock, logger } = this.o;
    this.setPhase('closing');
    this.lifetime.abort(new DOMException('daemon closed', 'AbortError'));
    const report = await shutdown(
      {
        clock,
        logger,
        engine: this.session?.engine ?? null,
        dispatch: this.session?.dispatch ?? null,
        stopLoops: async () => {
          this.live.close();
          this.keyFile?.close();
          await this.session?.stopLoops();
        },
        closeRest: async () => {
          await this.pollers.close();
          await this.firm?.closeOthers();
          await this.venue.close();
          await this.hedging?.close();
        },
      },
      {
        cancelOrders: options.cancelOrders ?? config.shutdown.cancelOrders,
        graceMs: options.graceMs ?? config.shutdown.graceMs,
        unknownWaitMs: options.unknownWaitMs ?? config.shutdown.unknownWaitMs,
      },
    );
    this.setPhase('closed');
    this.emit({ type: 'shutdown', report, at: clock.now() });
    return report;
  }

  /**
   * Poll failures are logged once per streak of a poller (market pollers are filtered at the
   * source), and a refused key not at all: the key's alarm tells it once.
   */
  private quietPollFailure(event: DaemonEvent): boolean {
    if (event.type !== 'poll-failed' && event.type !== 'market-poll-failed') return false;
    if (AuthWatch.isKeyRefusal(event.error)) return true;
    return (
      event.type === 'poll-failed' && (this.session?.engine.ordersPoller?.poller.consecutiveFailures ?? 0) > 1
    );
  }

  private setPhase(phase: DaemonPhase): void {
    if (this.phaseValue === phase) return;
    this.phaseValue = phase;
    this.emit({ type: 'daemon-phase', phase, at: this.o.clock.now() });
  }

  private emit(event: DaemonEvent): void {
    if (!this.quietPollFailure(event)) logDaemonEvent(this.o.logger, this.events.logContext, event);
    this.observers.emit(event);
    this.authWatch.observe(event, this.o.clock.now());
    if (event.type === 'stage') this.pipelineCycle.observe(event.stage, event.ms, event.ok);
    if (event.type === 'placement') this.provisional?.onPlacement(event.outcome);
    if (event.type === 'cycle') this.control.observeCycle(event.report);
    if (event.type === 'cycle' && this.firm !== null) {
      for (const e of this.fundingWatch.observe(this.partyReport(), event.report.at)) this.emit(e);
    }
    if (event.type === 'fill') this.hedging?.onFill(event.inventory.pair);
    if (event.type === 'cycle' && this.session !== null) {
      const awaiting = awaitingOrders(this.session.engine, event.report.at - this.pipelineCycle.estimateMs);
      for (const e of this.sideWatch.observe(event.report, awaiting)) this.emit(e);
    }
  }
}
