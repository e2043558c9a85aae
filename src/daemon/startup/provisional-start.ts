/**
 * The provisional start (`execution.prepareBeforeBalances`): while the preflight's cold
 * GET /balances is still being read, {@link ProvisionalStart} brings up the market pollers, the
 * order engine's recovery and the quote loop with a plan that knows no balances, so the first
 * placement is prepared and waits at the sign gate. It owns that start and its undoing: the
 * preflight's verdict opens the gate, or {@link ProvisionalStart.abandon} refuses it and closes
 * the engine, unsigned. Part of the daemon's startup, before the steady quote loop.
 */
import type { PlacementOutcome } from '../../execution/execution-events.js';
import type { MarketPollers } from '../../market/market-pollers.js';
import type { MarketState } from '../../market/market-state.js';
import type { BalancesGate } from './balances-gate.js';
import type { BalancesPendingReport } from './preflight.js';
import { startEngine, type EngineStart, type StartedEngine, type StartupDeps } from './startup.js';
import type { TradingSession } from '../trading/trading-session.js';

/** Placement outcomes that say nothing about the account or its funds. */
const QUIET_OUTCOMES: ReadonlySet<PlacementOutcome['kind']> = new Set([
  'placed',
  'not-wanted',
  'superseded',
  'aborted',
  'slot-busy',
]);

/**
 * The startup's provisional start (`execution.prepareBeforeBalances`): a cold GET /balances takes
 * over 10 s, and a prepare commits nothing, so once the preflight has passed everything but the
 * balances the daemon does not wait for them to
 *
 * 1. take the account and pairs, mark the balances pending, and hold the sign gate;
 * 2. start the book and trade pollers (public reads) and the order engine's recovery — our own
 *    open orders must be known before anything is placed (never double exposure);
 * 3. once recovered, start the quote loop: its plan is provisional (`BALANCES_PENDING`: no
 *    inventory skew, no funds allocated), and the first placement prepares and waits at the gate.
 *
 * The preflight's verdict decides the rest. Passed: the daemon applies the balances and opens the
 * gate, and the waiting placement's sign-time check runs with them (funds, inventory, risk) before
 * anything is signed. Failed: {@link ProvisionalStart.abandon} refuses the gate (the prepared
 * order is abandoned unsigned, journaled), stops the loops and closes the engine, so the start
 * goes on as it does without a provisional start: the preflight retried on its slow timer. (The
 * book and trade pollers, public reads, keep running meanwhile.)
 */
export class ProvisionalStart {
  private readonly abort = new AbortController();
  private engine: Promise<StartedEngine | null> | null = null;
  private ended = false;
  private refused: PlacementOutcome['kind'] | null = null;

  constructor(
    private readonly d: {
      readonly startup: StartupDeps;
      readonly state: MarketState;
      readonly pollers: MarketPollers;
      readonly gate: BalancesGate;
      /** How to build the engine, but for the account's ids (from the preflight). */
      readonly engineStart: Omit<EngineStart, 'partyId' | 'clientOrderIdPrefix'>;
      /** The session of the engine being started, once attached. */
      readonly session: () => TradingSession | null;
      /** Forgets the session of a closed engine. */
      readonly dropSession: () => void;
    },
  ) {}

  /** True once {@link begin} ran. */
  get begun(): boolean {
    return this.engine !== null;
  }

  /**
   * True while the provisional plan may queue placements: begun, not abandoned, not closing, and
   * no provisional placement failed (a venue refusal, INSUFFICIENT_BALANCE say, is not retried on
   * a guess: the next placement waits for the balances).
   */
  get quoting(): boolean {
    return this.engine !== null && !this.ended && this.refused === null && !this.d.startup.signal.aborted;
  }

  /** Told each placement's outcome while the balances are pending. */
  onPlacement(outcome: PlacementOutcome): void {
    if (!this.quoting || this.d.gate.state !== 'held' || QUIET_OUTCOMES.has(outcome.kind)) return;
    this.refused = outcome.kind;
    this.d.startup.logger.warn(
      { outcome: outcome.kind, key: outcome.key },
      'a provisional placement failed: nothing more is prepared before the balances are known',
    );
  }

  /** Step 1–3 of the module doc; the preflight calls it while GET /balances is still being read. */
  begin(early: BalancesPendingReport): void {
    if (this.engine !== null) return;
    const { startup, state, gate } = this.d;
    const now = startup.clock.now();
    state.applyPairs(early.pairs, now);
    state.applyAccount(early.account, now);
    state.setBalancesPending(true);
    gate.hold();
    this.d.pollers.startMarketData();
    startup.logger.info(
      { party: early.account.partyId },
      'preflight: all but the balances passed; recovering and preparing beside GET /balances (nothing is signed before it passes)',
    );
    const signal = AbortSignal.any([startup.signal, this.abort.signal]);
    this.engine = startEngine(
      { ...startup, signal },
      {
        ...this.d.engineStart,
        partyId: early.account.partyId,
        clientOrderIdPrefix: early.account.clientOrderIdPrefix,
      },
    ).then((started) => {
      if (started !== null && this.quoting) this.d.session()?.startLoops();
      return started;
    });
    // Handled here too: a store held by another process must not be an unhandled rejection
    // while the balances are still being read (started() hands it to the start, fatal).
    this.engine.catch(() => undefined);
  }

  /**
   * The engine the provisional start brought up, once its recovery is over (the preflight passed
   * meanwhile); null when it was abandoned or the daemon closed first. Rejects as `startEngine`
   * does when another process holds the store.
   */
  started(): Promise<StartedEngine | null> {
    return this.engine ?? Promise.resolve(null);
  }

  /**
   * The preflight failed (the balances could not be read): refuse the gate, plan nothing more,
   * stop the loops and close the engine. Resolves when all of it is done.
   */
  async abandon(): Promise<void> {
    if (this.engine === null || this.ended) return;
    this.ended = true;
    const { gate, state, startup } = this.d;
    gate.refuse();
    state.setBalancesPending(false);
    this.abort.abort(new DOMException('provisional start abandoned', 'AbortError'));
    const started = await this.engine.catch(() => null);
    const session = this.d.session();
    if (session !== null) {
      await session.stopLoops();
      session.dispatch.abortPending();
      await session.engine.close();
      await session.dispatch.drain();
      this.d.dropSession();
    }
    startup.logger.warn(
      { recovered: started !== null },
      'the preflight failed after a provisional start: nothing was signed; the engine is closed until the preflight passes',
    );
  }
}
