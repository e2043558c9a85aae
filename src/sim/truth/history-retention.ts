/**
 * Bounded history for a venue that runs for days (paper trading). The simulated venue keeps
 * every order, prepared command and public trade by default, as tests and simulations read whole
 * runs; a paper session would grow by them for as long as it runs. With retention on, a sweep on
 * the engine's clock forgets:
 * - orders that ended (FILLED, CANCELLED, EXPIRED, REJECTED) more than `endedOrdersMs` ago: a
 *   read by id then answers 404 CONTRACT_NOT_FOUND and the history lists skip them;
 * - prepared commands whose submitToken died more than `endedOrdersMs` ago and that no commit is
 *   pending for: a late submission then gets the host's generic 502, as it would anyway after
 *   the token's 20 minutes;
 * - all but the `publicTrades` most recent public trades (GET /trades pages from the newest).
 *
 * The retention must outlast everything a client still reads: the 5-minute prepare deadline, the
 * 20-minute token, and the daemon's own history lookups (recovery looks 10 minutes back).
 */
import type { EngineCore } from '../engine/engine-core.js';

/** How often the sweep runs unless {@link RetentionOptions.sweepMs} says otherwise. */
export const DEFAULT_SWEEP_MS = 60_000;

/** Options of {@link HistoryRetention}. */
export interface RetentionOptions {
  /** How long an ended order (and a dead command) is kept after it ended. */
  readonly endedOrdersMs: number;
  /** Public trades kept. */
  readonly publicTrades: number;
  /** How often the sweep runs. Default {@link DEFAULT_SWEEP_MS}. */
  readonly sweepMs?: number;
}

/** What one sweep forgot. */
export interface SweepResult {
  readonly orders: number;
  readonly commands: number;
  readonly trades: number;
}

/** The periodic sweep; see the module doc. */
export class HistoryRetention {
  private readonly sweepMs: number;

  constructor(
    private readonly core: EngineCore,
    private readonly options: RetentionOptions,
  ) {
    if (!(options.endedOrdersMs >= 20 * 60_000)) {
      throw new RangeError('endedOrdersMs must be at least the 20-minute submitToken lifetime');
    }
    if (!Number.isInteger(options.publicTrades) || options.publicTrades < 1) {
      throw new RangeError('publicTrades must be a positive integer');
    }
    this.sweepMs = options.sweepMs ?? DEFAULT_SWEEP_MS;
  }

  /** Schedules the sweep on the engine's timers (cancelled with the engine's other timers). */
  start(): void {
    this.core.timers.after(this.sweepMs, () => {
      this.sweep();
      this.start();
    });
  }

  /** Forgets what is past retention now. */
  sweep(): SweepResult {
    const cutoff = this.core.now() - this.options.endedOrdersMs;
    const orders = this.core.orders.forgetEnded(cutoff);
    const commands = this.core.commands.forgetSettled(cutoff);
    const trades = this.core.publicTrades.length - this.options.publicTrades;
    if (trades > 0) this.core.publicTrades.splice(0, trades);
    return { orders, commands, trades: Math.max(0, trades) };
  }
}
