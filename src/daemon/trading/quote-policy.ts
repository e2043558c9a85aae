/**
 * The daemon's placement policy, given to each order engine it builds: a placement is wanted
 * while the quote cycle still wants its quote slot at that price and size and the risk gate
 * still allows it (`QuoteCycle.isWanted`, asked with the intent the dispatch queued for that
 * slot), and it may be signed once the balances gate lets it (with
 * `execution.prepareBeforeBalances`; without it nothing is ever held before signing).
 *
 * The engine is built before the trading session around it, so the policy reads the session
 * attached last: before one is attached, nothing is wanted.
 */
import type {
  FreshnessStage,
  NotWantedCause,
  PlacementPolicy,
} from '../../execution/placement/placement-policy.js';
import type { PlacementIntent } from '../../execution/placement/placement-intent.js';
import type { BalancesGate } from '../startup/balances-gate.js';
import type { TradingSession } from './trading-session.js';

/** See the module doc. */
export class QuotePolicy implements PlacementPolicy {
  private session: TradingSession | null = null;
  /** Present only when a gate holds the signatures (see the module doc). */
  readonly maySign?: (signal: AbortSignal) => Promise<boolean>;

  constructor(gate: BalancesGate | null) {
    if (gate !== null) this.maySign = (signal) => gate.wait(signal);
  }

  /** The session whose quote cycle answers from now on (null: none, nothing is wanted). */
  attach(session: TradingSession | null): void {
    this.session = session;
  }

  isWanted(intent: PlacementIntent, stage: FreshnessStage): true | NotWantedCause {
    const session = this.session;
    if (session === null) return 'cannot-place';
    const entry = session.dispatch.pendingIn(intent.slot);
    if (entry === undefined) return 'no-quote';
    return session.cycle.isWanted(entry, stage);
  }
}
