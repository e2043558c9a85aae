/**
 * The hedger of one pair: each tick it settles any pending hedge order by reading the venue,
 * reads the hedge venue's position and touch, takes the pure decision (`hedge-decision.ts`) and
 * sends through the journaling executor (`hedge-executor.ts`). It keeps what the PnL split, the
 * metrics and the quoting gate need: the hedge position, whether the venue is failing (and
 * since when), and the hedge cost (taker fees, and slippage against the firm's reference).
 *
 * A phase that owns state, so a class; it never retries blindly: a failing read is reported and
 * the next tick starts again from reading.
 */
import type { Clock } from '../core/clock.js';
import { type Dec, ZERO } from '../core/decimal.js';
import { type HedgeDecision, type HedgeHold, type HedgeRules, decideHedge } from './hedge-decision.js';
import type { HedgeExecutor } from './hedge-executor.js';
import type { HedgeOrderState, HedgeVenue } from './hedge-venue.js';

/** Options of {@link Hedger}. */
export interface HedgerOptions {
  readonly pair: string;
  readonly symbol: string;
  readonly rules: HedgeRules;
  readonly venue: HedgeVenue;
  readonly executor: HedgeExecutor;
  readonly clock: Clock;
}

/** What one tick saw and did. */
export interface HedgerTickReport {
  readonly decision: HedgeDecision | null;
  readonly hold: HedgeHold | null;
  readonly sent: boolean;
  readonly settled: readonly HedgeOrderState[];
  readonly error: unknown;
}

/** The hedger's state, for the PnL split, metrics and the quoting gate. */
export interface HedgerState {
  /** The hedge venue's position as last read (positive: long). */
  readonly positionBase: Dec;
  readonly failing: boolean;
  /** Clock ms since which it fails; null while it works. */
  readonly failingSince: number | null;
  readonly lastError: unknown;
  readonly ordersSent: number;
  readonly filledBase: Dec;
  readonly feesQuote: Dec;
  /** Fill prices against the firm's reference: positive is a cost. */
  readonly slippageQuote: Dec;
  /** Quote spent buying minus quote received selling (fees excluded). */
  readonly cashQuote: Dec;
}

/** The hedger of one pair. */
export class Hedger {
  private positionBase: Dec = ZERO;
  private failingSince: number | null = null;
  private lastError: unknown = null;
  private ordersSent = 0;
  private filledBase: Dec = ZERO;
  private feesQuote: Dec = ZERO;
  private slippageQuote: Dec = ZERO;
  private cashQuote: Dec = ZERO;
  /** The last order was refused: the venue fails until an order goes through or none is needed. */
  private refused = false;

  constructor(private readonly o: HedgerOptions) {}

  get state(): HedgerState {
    return {
      positionBase: this.positionBase,
      failing: this.failingSince !== null,
      failingSince: this.failingSince,
      lastError: this.lastError,
      ordersSent: this.ordersSent,
      filledBase: this.filledBase,
      feesQuote: this.feesQuote,
      slippageQuote: this.slippageQuote,
      cashQuote: this.cashQuote,
    };
  }

  /** The hedge cost so far: fees plus slippage, in quote. */
  get hedgeCostQuote(): Dec {
    return this.feesQuote.plus(this.slippageQuote);
  }

  /**
   * One round: settle, read, decide, send. `venueExcessBase` is this venue's base holdings minus
   * their target; `reference` the firm's reference price (for the slippage), null if none.
   */
  async tick(venueExcessBase: Dec, reference: Dec | null, signal: AbortSignal): Promise<HedgerTickReport> {
    let settled: HedgeOrderState[] = [];
    try {
      if (this.o.executor.pending) {
        settled = await this.o.executor.resolvePending(signal);
        for (const s of settled) this.account(s, reference);
      }
      const inFlight = this.o.executor.pending;
      this.positionBase = await this.o.venue.position(this.o.symbol, signal);
      const touch = await this.o.venue.touch(this.o.symbol, signal);
      // Reads that answer clear a read failure, not a refusal: that needs an order to go through.
      if (!this.refused) this.ok();
      const decision = decideHedge(this.o.rules, {
        venueExcessBase,
        hedgePositionBase: this.positionBase,
        bid: touch.bid,
        ask: touch.ask,
        inFlight,
        venueFailing: false,
      });
      if (!decision.send) {
        this.ok(); // nothing to send: nothing refused either
        return { decision, hold: decision.hold, sent: false, settled, error: null };
      }
      const out = await this.o.executor.send(decision.order, signal);
      if (out.outcome !== 'dry-run') this.ordersSent++;
      if (out.outcome === 'settled') {
        this.account(out.state, reference);
        settled = [...settled, out.state];
        const f = out.state.filled;
        this.positionBase = out.state.side === 'BUY' ? this.positionBase.plus(f) : this.positionBase.minus(f);
      }
      if (out.outcome === 'refused') this.fail(new Error(`${out.code}: ${out.message}`), true);
      else this.ok();
      return { decision, hold: null, sent: out.outcome !== 'dry-run', settled, error: null };
    } catch (error) {
      if (signal.aborted) throw error;
      this.fail(error);
      return { decision: null, hold: 'venue-failing', sent: false, settled, error };
    }
  }

  private ok(): void {
    this.failingSince = null;
    this.lastError = null;
    this.refused = false;
  }

  private fail(error: unknown, refused = false): void {
    this.failingSince ??= this.o.clock.now();
    this.lastError = error;
    this.refused ||= refused;
  }

  private account(s: HedgeOrderState, reference: Dec | null): void {
    if (!s.filled.gt(ZERO) || s.averagePrice === null) return;
    this.filledBase = this.filledBase.plus(s.filled);
    this.feesQuote = this.feesQuote.plus(s.feeQuote);
    const notional = s.filled.times(s.averagePrice);
    this.cashQuote = s.side === 'BUY' ? this.cashQuote.plus(notional) : this.cashQuote.minus(notional);
    if (reference !== null) {
      const diff = s.averagePrice.minus(reference).times(s.filled);
      this.slippageQuote = this.slippageQuote.plus(s.side === 'BUY' ? diff : diff.neg());
    }
  }
}
