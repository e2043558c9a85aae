/**
 * The daemon's start, once: the preflight (retried on a slow timer until it passes; with
 * `execution.prepareBeforeBalances` a provisional start meanwhile), the preflight's account,
 * pairs and balances applied, the sign gate opened, the order engine's recovery, then the trading
 * session (quote cycle and loops), the hedging and the config and key file watches. Resolves true
 * once quoting, false when the daemon is closed first; rejects only when the engine cannot start
 * for good (another process holds the store).
 */
import type { TradingEngine } from '../../execution/engine-types.js';
import type { DaemonParts } from '../daemon-parts.js';
import type { DaemonRun } from '../daemon-run.js';
import type { DaemonEvent, DaemonOptions } from '../daemon-types.js';
import { TradingSession } from '../trading/trading-session.js';
import type { BalancesPendingReport, PreflightReport } from './preflight.js';
import { ProvisionalStart } from './provisional-start.js';
import { passPreflight, startEngine } from './startup.js';

/** See the module doc. */
export class DaemonStart {
  constructor(
    private readonly o: DaemonOptions,
    private readonly parts: DaemonParts,
    private readonly run: DaemonRun,
    private readonly emit: (e: DaemonEvent) => void,
  ) {}

  /** Brings the daemon up; see the module doc. */
  async bringUp(): Promise<boolean> {
    const { config, clock, logger } = this.o;
    const { state, pollers, gate, firm, lifetime, tuning } = this.parts;
    const run = this.run;
    const deps = { ...this.o, venue: this.parts.venue, signal: lifetime.signal, retryMs: tuning.retryMs };
    const engineStart = {
      tuning: tuning.engine,
      policy: this.parts.policy,
      ordersPollMs: tuning.ordersPollMs,
      ...(this.o.random === undefined ? {} : { random: this.o.random }),
      onEngine: (engine: TradingEngine) => this.attachEngine(engine),
    };
    // A firm's provisional start begins once every party has passed all but its balances.
    let early = config.execution.prepareBeforeBalances;
    run.setPhase('preflight');
    const onReport = (r: PreflightReport): void => {
      run.preflight = r;
      this.emit({ type: 'preflight', report: r, at: clock.now() });
    };
    const firmBuild =
      firm === null
        ? {}
        : { build: firm.builder(deps, engineStart, (pair) => state.snapshot(clock.now()).pairs[pair]) };
    const hooks = {
      onBalancesPending: (r: BalancesPendingReport): void => {
        if (!early || lifetime.signal.aborted) return;
        run.provisional = new ProvisionalStart({
          startup: deps,
          state,
          pollers,
          gate,
          engineStart: { ...engineStart, ...firmBuild },
          session: () => run.session,
          dropSession: () => (run.session = null),
        });
        run.provisional.begin(r);
      },
      onFailed: async (): Promise<void> => {
        if (run.provisional === null) return;
        // The balances could not be read: from now on the start waits for them, as without it.
        early = false;
        await run.provisional.abandon();
        run.provisional = null;
      },
    };
    const report = await (firm?.preflight(deps, onReport, hooks) ?? passPreflight(deps, onReport, hooks));
    if (report === null) return false;
    // Pairs, account and balances are known now. The preflight's balances count as the first
    // poll (a cold GET /balances takes over 10 s); with a provisional start the engine may be up
    // already, and the local wallet takes its baseline from them with the orders it holds.
    state.applyPairs(report.pairs ?? [], clock.now());
    state.applyAccount(report.account, clock.now());
    if (report.balances !== undefined) state.applyBalances(report.balances, clock.now());
    gate.open();
    run.setPhase('recovering');
    const started = await (
      run.provisional?.started() ??
      startEngine(deps, {
        ...engineStart,
        partyId: report.account.partyId,
        clientOrderIdPrefix: report.account.clientOrderIdPrefix,
        ...firmBuild,
      })
    ).catch((err: unknown) => {
      run.fatal = err instanceof Error ? err.message : String(err);
      run.setPhase('failed');
      throw err;
    });
    if (started === null || lifetime.signal.aborted || run.session === null) return false;
    run.session.start();
    this.parts.hedging?.start(lifetime.signal);
    if (this.o.reload?.watch !== false) {
      this.parts.live.watch();
      this.parts.keyFile?.watch();
    }
    run.setPhase('running');
    logger.info({ pairs: config.pairs, store: config.store.path }, `quoting ${config.pairs.join(', ')}`);
    return true;
  }

  /** The engine is built: its trading session, the one the placement policy asks. */
  private attachEngine(engine: TradingEngine): void {
    const p = this.parts;
    const run = this.run;
    run.session = new TradingSession(engine, {
      ...this.o,
      tuning: p.tuning,
      state: p.state,
      pollers: p.pollers,
      balances: p.balances,
      bookWatch: p.bookWatch,
      positions: p.positions,
      events: p.events,
      params: () => p.live.params,
      pauses: () => p.control.pauses(),
      ...(p.netPosition === undefined ? {} : { hedge: p.netPosition }),
      // A provisional start queues placements before the preflight has passed; none is signed.
      canPlace: () =>
        !p.lifetime.signal.aborted && (run.phase === 'running' || run.provisional?.quoting === true),
      emit: this.emit,
    });
    p.policy.attach(run.session);
  }
}
