/**
 * The daemon's parts, built once from its options and wired to one another: the live config and
 * params, pause and resume, the placement policy and its balances gate, the firm's parties (when
 * several), the venue client, the market feed (state, pollers, the "exchanges" reference), the
 * hedging, positions and PnL, the API key file, and the watches that read the events (the key's,
 * the pipeline's cycle, a side missing, a party's funding). What happens to them over a run is
 * the startup's (`startup/daemon-start.ts`) and the stop's (`daemon.ts`); what is read of them,
 * the views' (`reporting/daemon-views.ts`).
 */
import type { Clock } from '../core/clock.js';
import type { Dec } from '../core/decimal.js';
import { ExecutionEventHub } from '../execution/execution-events.js';
import type { TradingEngine } from '../execution/engine-types.js';
import type { MarketPollers } from '../market/market-pollers.js';
import type { MarketState } from '../market/market-state.js';
import { BookWatch } from '../market/book-watch.js';
import type { ExchangesReference } from '../market/reference/exchanges-reference.js';
import type { NetPositionSource } from '../market/net-position.js';
import { FillMarks } from '../observability/fill-marks.js';
import { LocalBalances } from '../portfolio/local-balances.js';
import { Positions, type PairPosition } from '../portfolio/pnl.js';
import { createHedging } from '../hedge/hedging-setup.js';
import type { Hedging } from '../hedge/hedging.js';
import type { VenueClient } from '../venue/client.js';
import { DaemonControl } from './control/daemon-control.js';
import { resolveTuning, type DaemonEvent, type DaemonOptions, type DaemonTuning } from './daemon-types.js';
import type { DaemonRun } from './daemon-run.js';
import { AuthWatch } from './reporting/auth-watch.js';
import { EngineEvents } from './reporting/engine-events.js';
import { Fanout } from './reporting/fanout.js';
import { FundingWatch } from './reporting/party-views.js';
import { PipelineCycle, SideWatch } from './reporting/side-watch.js';
import { apiKeyFileOf, type ApiKeyFile } from './startup/api-key-file.js';
import { BalancesGate } from './startup/balances-gate.js';
import { FirmParties } from './startup/firm-parties.js';
import { createMarketFeed } from './startup/market-feed.js';
import { createDaemonVenueClient } from './startup/venue-client.js';
import { LiveConfig } from './trading/live-config.js';
import { QuotePolicy } from './trading/quote-policy.js';

/** See the module doc. */
export class DaemonParts {
  /** The execution layer's events (placements, cancels, stages, queues, alarms), forwarded. */
  readonly execution = new ExecutionEventHub();
  readonly bookWatch = new BookWatch();
  readonly balances = new LocalBalances();
  readonly observers = new Fanout<DaemonEvent>();
  /** Aborted when the stop begins: every loop and retry of the run ends with it. */
  readonly lifetime = new AbortController();
  readonly pipelineCycle = new PipelineCycle();
  readonly sideWatch = new SideWatch(this.pipelineCycle);
  readonly fundingWatch = new FundingWatch();
  /** Holds signatures while a provisional start waits for the balances. */
  readonly gate = new BalancesGate();
  readonly live: LiveConfig;
  readonly tuning: DaemonTuning;
  /** Pause and resume, the kill switch (`control/`); the control endpoint's handler. */
  readonly control: DaemonControl;
  /** The engines' placement policy: the session's quote cycle, and the gate when it may hold. */
  readonly policy: QuotePolicy;
  /** The firm's parties when it runs several, else null (one party: `signer` and `config.venue`). */
  readonly firm: FirmParties | null;
  readonly venue: VenueClient;
  readonly state: MarketState;
  readonly pollers: MarketPollers;
  readonly reference: ExchangesReference | null;
  /** Hedging of the pairs the `hedge` section enables; null (the default) when none is. */
  readonly hedging: Hedging | null;
  readonly netPosition: NetPositionSource | undefined;
  readonly positions: Positions;
  readonly keyFile: ApiKeyFile | null;
  readonly authWatch: AuthWatch;
  readonly events: EngineEvents;
  readonly clock: Clock;

  /** Throws ConfigError when the strategy or risk params break a rule between keys. */
  constructor(
    options: DaemonOptions,
    private readonly run: DaemonRun,
    emit: (e: DaemonEvent) => void,
  ) {
    const { config, clock } = options;
    this.clock = clock;
    this.live = new LiveConfig(config, clock, options.reload, emit);
    this.tuning = resolveTuning(config, options.tuning);
    const engine = (): TradingEngine | null => run.session?.engine ?? null;
    this.control = new DaemonControl({
      clock,
      logger: options.logger,
      pairs: () => this.live.config.pairs,
      killSwitch: () => this.live.params.risk.killSwitch,
      log: () => (run.session?.engine.state === 'ready' ? run.session.engine.controlLog : null),
      meta: () => (run.session?.engine.state === 'ready' ? run.session.engine.meta : null),
    });
    this.policy = new QuotePolicy(config.execution.prepareBeforeBalances ? this.gate : null);
    this.firm =
      (options.parties?.length ?? 0) >= 2
        ? new FirmParties(options.parties!, { ...options, policy: config.firm.allocation })
        : null;
    this.venue = this.firm?.primary ?? createDaemonVenueClient(options);
    const feed = createMarketFeed({
      config,
      venue: this.venue,
      clock,
      ...(options.random === undefined ? {} : { random: options.random }),
      onBalances: (at) => run.session?.onBalancesPolled(at),
      onError: (poller, error) => {
        const stats = this.pollers.poller(poller);
        if (stats !== undefined && stats.consecutiveFailures > 1) return; // logged at the first of a streak
        emit({ type: 'market-poll-failed', poller, error, at: clock.now() });
      },
      logger: options.logger,
      ...(this.firm === null ? {} : { reads: this.firm.reads() }),
    });
    this.state = feed.state;
    this.pollers = feed.pollers;
    this.reference = feed.reference;
    const referencePrice = (pair: string): Dec | null =>
      run.session?.cycle.last?.strategy.references[pair]?.price ?? null;
    this.hedging = createHedging({
      config,
      clock,
      logger: options.logger,
      ...(options.hedgeVenue === undefined ? {} : { venueFor: options.hedgeVenue }),
      venueBase: (pair) => venueBase(engine(), pair),
      reference: referencePrice,
    });
    const hedging = this.hedging;
    this.netPosition = hedging === null ? undefined : () => hedging.offsets();
    this.positions = new Positions(
      config.pairs,
      (seq) => run.session?.engine.fillsAfter(seq) ?? [],
      this.netPosition,
    );
    // A firm's parties read their key files once, at start (no rotation without a restart).
    this.keyFile = this.firm === null ? apiKeyFileOf(options, this.venue) : null;
    this.authWatch = new AuthWatch({
      logger: options.logger,
      authFailing: () => this.state.authFailing,
      keyHandle: () => this.venue.keyHandle,
      emit,
    });
    this.events = new EngineEvents({
      clock,
      bookWatch: this.bookWatch,
      market: this.state,
      dispatch: () => run.session?.dispatch ?? null,
      engine,
      emit,
      execution: this.execution,
      position: (pair) => this.markedPositions().find((p) => p.pair === pair),
      sideMissing: (pair, side) => this.sideWatch.episode(pair, side),
    });
    const marks = new FillMarks({
      now: () => clock.now(),
      sink: () => run.session?.engine.recordFillMarks.bind(run.session.engine) ?? null,
      reference: referencePrice,
      feeExempt: () => run.preflightPassed,
      onError: (err) => options.logger.debug({ err }, 'a fill mark could not be journaled'),
    });
    this.observers.subscribe((e) => marks.observe(e));
  }

  /** Positions and PnL per pair, marked to the current mids (empty before the engine's journal). */
  markedPositions(): PairPosition[] {
    const engine = this.run.session?.engine;
    if (engine === undefined || engine.state === 'created') return [];
    const last = this.run.session?.cycle.last;
    const snap = last?.snapshot ?? this.state.snapshot(this.clock.now());
    try {
      return this.positions.compute(engine.inventory, snap, last?.strategy.references);
    } catch {
      return []; // the engine's journal never opened: there is no inventory to mark
    }
  }
}

/** This venue's net base of `pair` from its fills (the hedger's input); null before the engine. */
function venueBase(engine: TradingEngine | null, pair: string): Dec | null {
  if (engine === null || engine.state === 'created') return null;
  try {
    return engine.inventory.get(pair).base;
  } catch {
    return null; // the engine's journal never opened
  }
}
