/**
 * Hedging for the whole daemon: one {@link Hedger} per hedged pair, each on its own loop (every
 * `intervalMs`, and at once after a fill of the pair on this venue), over one {@link HedgeJournal}.
 * It hands the rest of the daemon the hedge side of the firm's net position
 * ({@link Hedging.offsets}, `market/net-position.ts`): the hedge venue's position, the quote flow
 * of its settled orders (fees deducted, read from the journal so it survives a restart), and the
 * quoting gate while the hedge venue fails or its position is at the cap.
 *
 * The unhedged position of a pair is this venue's net base from its fills (the engine's
 * inventory, kept in the order journal) plus the hedge venue's position, as read. A failure is
 * loud: an ERROR log when it starts, an INFO when it ends, the state for metrics and `/status`.
 */
import { type Clock, timeoutSignal } from '../core/clock.js';
import { type Dec, ZERO } from '../core/decimal.js';
import type { Logger } from '../logging/logger.js';
import type { HedgeOffsets } from '../market/net-position.js';
import type { HedgeHold } from './hedge-decision.js';
import { HedgeExecutor } from './hedge-executor.js';
import type { HedgeJournal } from './hedge-journal.js';
import type { HedgeSettings } from './hedge-settings.js';
import type { HedgeOrderState, HedgeVenue } from './hedge-venue.js';
import { Hedger, type HedgerState, type HedgerTickReport } from './hedger.js';
import { hedgeQuoteGate } from './quote-gate.js';

/** Options of {@link Hedging}. */
export interface HedgingOptions {
  /** The hedged pairs (`hedgeSettings(config)`); none: build no Hedging at all. */
  readonly settings: ReadonlyMap<string, HedgeSettings>;
  /** The hedge venue of a pair (ccxt in production, the simulated one in the lab). */
  readonly venueFor: (s: HedgeSettings) => Promise<HedgeVenue>;
  /** Opens the hedge journal (at {@link Hedging.start}, when the store's directory exists). */
  readonly journal: () => HedgeJournal;
  readonly clock: Clock;
  readonly logger: Logger;
  /** This venue's net base from its fills, by pair; null before the order engine is up. */
  readonly venueBase: (pair: string) => Dec | null;
  /** The firm's reference price of the pair (for the slippage), or null. */
  readonly reference: (pair: string) => Dec | null;
}

/** What the metrics and `/status` read of one pair. */
export interface PairHedgeReport {
  readonly pair: string;
  readonly exchange: string;
  readonly symbol: string;
  readonly dryRun: boolean;
  /** Null until the pair's venue is built. */
  readonly state: HedgerState | null;
  readonly venueBase: Dec | null;
  /** This venue's base plus the hedge position. */
  readonly unhedgedBase: Dec | null;
  readonly lastHold: HedgeHold | null;
  readonly atCap: boolean;
  /** Fees plus slippage against the reference since start, quote units. */
  readonly costQuote: Dec;
  /** Hedge orders that filled something since start. */
  readonly fills: number;
}

interface PairHedge {
  readonly s: HedgeSettings;
  hedger: Hedger | null;
  buildError: unknown;
  lastHold: HedgeHold | null;
  failing: boolean;
  /** Quote flow of every settled order in the journal, fees deducted. */
  quote: Dec;
  fills: number;
  wake: (() => void) | null;
}

/** See the module doc. */
export class Hedging {
  private readonly pairs = new Map<string, PairHedge>();
  private running: Promise<void> | null = null;
  private journal: HedgeJournal | null = null;
  private seq = 0;

  constructor(private readonly o: HedgingOptions) {
    for (const [pair, s] of o.settings) {
      this.pairs.set(pair, {
        s,
        hedger: null,
        buildError: null,
        lastHold: null,
        failing: false,
        quote: ZERO,
        fills: 0,
        wake: null,
      });
    }
  }

  /**
   * Opens the journal, takes each pair's quote flow from its settled orders, and starts every
   * pair's loop (the first tick at once: it settles what a crash left pending before anything is
   * sent). Idempotent.
   */
  start(signal: AbortSignal): void {
    if (this.running !== null) return;
    const journal = this.o.journal();
    this.journal = journal;
    for (const [pair, p] of this.pairs) {
      p.quote = journal
        .all()
        .filter((r) => r.pair === pair && r.state === 'settled' && r.averagePrice !== null)
        .reduce((q, r) => q.plus(quoteFlow(r.side, r.filled, r.averagePrice!, r.feeQuote)), ZERO);
    }
    this.running = Promise.all([...this.pairs.values()].map((p) => this.loop(p, signal, journal))).then(
      () => undefined,
    );
  }

  /** Resolves once every loop has stopped (after the start's signal aborted); closes the journal. */
  async close(): Promise<void> {
    await this.running;
    this.journal?.close();
    this.journal = null;
  }

  /** A fill of `pair` on this venue: its hedger decides now rather than at its next interval. */
  onFill(pair: string): void {
    this.pairs.get(pair)?.wake?.();
  }

  /** The hedge side of the firm's net position, by hedged pair (see the module doc). */
  offsets(): HedgeOffsets {
    const out: Record<string, HedgeOffsets[string]> = {};
    for (const [pair, p] of this.pairs) {
      const position = p.hedger?.state.positionBase ?? ZERO;
      const venueBase = this.o.venueBase(pair);
      const blocked = p.failing || p.hedger === null || p.lastHold === 'at-cap';
      const unhedged = (venueBase ?? ZERO).plus(position);
      out[pair] = {
        base: position,
        quote: p.quote,
        ...(blocked ? { gate: hedgeQuoteGate(unhedged, true, p.s.onFailure, p.s.widenBps) } : {}),
      };
    }
    return out;
  }

  /** Every hedged pair's state, for metrics and `/status`. */
  report(): PairHedgeReport[] {
    return [...this.pairs.values()].map((p) => {
      const state = p.hedger?.state ?? null;
      const venueBase = this.o.venueBase(p.s.pair);
      return {
        pair: p.s.pair,
        exchange: p.s.exchange,
        symbol: p.s.symbol,
        dryRun: p.s.dryRun,
        state: state === null ? null : { ...state, failing: p.failing },
        venueBase,
        unhedgedBase: venueBase === null || state === null ? null : venueBase.plus(state.positionBase),
        lastHold: p.lastHold,
        atCap: p.lastHold === 'at-cap',
        costQuote: p.hedger?.hedgeCostQuote ?? ZERO,
        fills: p.fills,
      };
    });
  }

  private async loop(p: PairHedge, signal: AbortSignal, journal: HedgeJournal): Promise<void> {
    while (!signal.aborted) {
      if (p.hedger === null) await this.build(p, journal);
      const base = this.o.venueBase(p.s.pair);
      if (p.hedger !== null && base !== null) {
        const report = await p.hedger.tick(base, this.o.reference(p.s.pair), signal).catch((e: unknown) => {
          if (signal.aborted) return null;
          throw e;
        });
        if (report !== null) this.observe(p, report);
      }
      await this.nap(p, signal);
    }
  }

  private async build(p: PairHedge, journal: HedgeJournal): Promise<void> {
    const { s } = p;
    try {
      const venue = await this.o.venueFor(s);
      const executor = new HedgeExecutor({
        pair: s.pair,
        symbol: s.symbol,
        venue,
        journal,
        clock: this.o.clock,
        timeoutMs: s.timeoutMs,
        newId: () => `mmh-${this.o.clock.now().toString(36)}-${(this.seq++).toString(36)}`,
        dryRun: s.dryRun,
      });
      p.hedger = new Hedger({
        pair: s.pair,
        symbol: s.symbol,
        rules: s.rules,
        venue,
        executor,
        clock: this.o.clock,
      });
      p.buildError = null;
    } catch (error) {
      if (p.buildError === null)
        this.o.logger.error(
          { err: error, pair: s.pair, exchange: s.exchange },
          `hedge venue ${s.exchange} for ${s.pair} could not be set up; the side that adds to the unhedged position is ${s.onFailure === 'stop' ? 'not quoted' : 'widened'}`,
        );
      p.buildError = error;
    }
  }

  private observe(p: PairHedge, r: HedgerTickReport): void {
    const { s } = p;
    for (const st of r.settled) this.settled(p, st);
    const failing = p.hedger?.state.failing === true;
    if (failing && !p.failing) {
      this.o.logger.error(
        { err: p.hedger?.state.lastError, pair: s.pair, exchange: s.exchange },
        `hedge venue ${s.exchange} failing for ${s.pair}; the side that adds to the unhedged position is ${s.onFailure === 'stop' ? 'not quoted' : `widened by ${s.widenBps} bps`} until it answers`,
      );
    } else if (!failing && p.failing) {
      this.o.logger.info(
        { pair: s.pair, exchange: s.exchange },
        `hedge venue ${s.exchange} answers again for ${s.pair}`,
      );
    }
    p.failing = failing;
    const hold = r.hold;
    if (hold === 'at-cap' && p.lastHold !== 'at-cap') {
      this.o.logger.warn(
        { pair: s.pair, cap: s.rules.maxPositionBase.toFixed() },
        `hedge position of ${s.pair} at its cap (hedge.maxPositionBase); the rest stays unhedged`,
      );
    }
    p.lastHold = hold;
  }

  private settled(p: PairHedge, st: HedgeOrderState): void {
    if (!st.filled.gt(ZERO) || st.averagePrice === null) return;
    p.quote = p.quote.plus(quoteFlow(st.side, st.filled, st.averagePrice, st.feeQuote));
    p.fills += 1;
  }

  /** Waits `intervalMs`, or less when a fill wakes the pair, or until `signal` aborts. */
  private nap(p: PairHedge, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const t = timeoutSignal(this.o.clock, p.s.intervalMs, signal);
      const done = (): void => {
        t.dispose();
        p.wake = null;
        resolve();
      };
      t.signal.addEventListener('abort', done, { once: true });
      p.wake = done;
    });
  }
}

/** Received selling minus paid buying, fees deducted. */
function quoteFlow(side: 'BUY' | 'SELL', filled: Dec, price: Dec, fee: Dec): Dec {
  const notional = filled.times(price);
  return (side === 'BUY' ? notional.neg() : notional).minus(fee);
}
