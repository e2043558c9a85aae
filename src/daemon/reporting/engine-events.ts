/**
 * What the daemon does with the order engine's events, besides passing them on: execution events
 * go to the hub; order transitions drive make-before-break and prove book changes to the book
 * watch; fills are kept for status; refusals that say the account cannot trade are noted in the
 * market state at once (the next cycle then places nothing) rather than after the next account
 * poll.
 */
import type { Clock } from '../../core/clock.js';
import {
  isExecutionEvent,
  type ExecutionEventHub,
  type PlacementOutcome,
} from '../../execution/execution-events.js';
import type { EngineEvent, TradingEngine } from '../../execution/engine-types.js';
import type { MarketState } from '../../market/market-state.js';
import type { FillView } from '../../observability/http/state-view.js';
import { isAwaitingConfirmation, isResting, isTerminal, type OrderState } from '../../orders/fsm/index.js';
import type { BookWatch } from '../../market/book-watch.js';
import type { LogContext, SummaryLine } from './daemon-log.js';
import type { DaemonEvent } from '../daemon-types.js';
import type { OrderDispatch, PendingEntry } from '../trading/order-dispatch.js';
import type { PairPosition } from '../../portfolio/pnl.js';
import type { CycleReport } from '../trading/quote-cycle.js';
import type { Side } from '../../core/order-terms.js';
import type { SideEpisode } from './side-watch.js';
import { isAccountFailure, isCredentialFailure } from '../../venue/errors.js';

const MAX_FILLS = 20;

/** Options of {@link EngineEvents}. */
export interface EngineEventsOptions {
  readonly clock: Clock;
  readonly bookWatch: BookWatch;
  readonly market: MarketState;
  readonly dispatch: () => OrderDispatch | null;
  readonly engine: () => TradingEngine | null;
  readonly emit: (event: DaemonEvent) => void;
  readonly execution: ExecutionEventHub;
  /** A pair's position now (for the fill log line). */
  readonly position: (pair: string) => PairPosition | undefined;
  /** Why a side has no quote, when it has none (for the summary line). */
  readonly sideMissing?: (pair: string, side: Side) => SideEpisode | null;
}

/** See the module doc. */
export class EngineEvents {
  /** What the log needs to describe an event. */
  readonly logContext: LogContext;
  private readonly fills: FillView[] = [];
  private readonly referenceAts = new Map<string, number>();
  private readonly cancellingSince = new Map<string, number>();

  constructor(private readonly o: EngineEventsOptions) {
    this.logContext = {
      order: (key) => o.engine()?.orders.get(key),
      position: (pair) => o.position(pair),
      instruments: (pair) => {
        const m = o.market.snapshot(o.clock.now()).pairs[pair];
        const [base = pair, quote = pair] = pair.split('/');
        return { base: m?.base ?? base, quote: m?.quote ?? quote };
      },
    };
  }

  /** The most recent fills, newest first. */
  get lastFills(): readonly FillView[] {
    return [...this.fills];
  }

  /** When the reference price an order of ours was made from was observed, or null. */
  referenceAt(key: string): number | null {
    return this.referenceAts.get(key) ?? null;
  }

  /** Handles one engine event, then passes it on. */
  onEngineEvent(e: EngineEvent): void {
    if (isExecutionEvent(e)) this.o.execution.emit(e);
    if (e.type === 'order-transition') this.onTransition(e.key, e.from, e.to);
    if (e.type === 'fill') {
      const f = e.fill;
      this.fills.unshift({
        pair: f.pair,
        side: f.side,
        price: f.price,
        quantity: f.quantity,
        at: f.at,
        orderId: f.orderId,
      });
      if (this.fills.length > MAX_FILLS) this.fills.length = MAX_FILLS;
    }
    this.o.emit(e);
  }

  /** A placement the daemon dispatched has an outcome. */
  onPlacement(entry: PendingEntry, outcome: PlacementOutcome): void {
    if (outcome.kind === 'placed' && outcome.key !== null) {
      this.referenceAts.set(outcome.key, entry.action.quote.referenceAt);
    }
    if (outcome.kind !== 'refused') return;
    if (isAccountFailure(outcome.code)) this.o.market.recordSuspended();
    else if (isCredentialFailure(outcome.code)) this.o.market.recordAuthFailure();
  }

  /** The summary lines of the periodic log, from a cycle. */
  summaryLines(report: CycleReport): SummaryLine[] {
    return report.positions.map((position) => {
      const mine = report.own.filter((o) => o.pair === position.pair && o.resting);
      const bid = mine.filter((o) => o.side === 'BUY').sort((a, b) => b.price.cmp(a.price))[0];
      const ask = mine.filter((o) => o.side === 'SELL').sort((a, b) => a.price.cmp(b.price))[0];
      const { base, quote } = this.logContext.instruments(position.pair);
      const missing = (side: Side): string | null => {
        const e = this.o.sideMissing?.(position.pair, side) ?? null;
        return e === null
          ? null
          : `${e.cause.reason}: ${e.cause.detail}, ${((report.at - e.since) / 1000).toFixed(0)} s`;
      };
      return {
        pair: position.pair,
        bid: bid === undefined ? null : bid.price.toFixed(),
        ask: ask === undefined ? null : ask.price.toFixed(),
        bidMissing: bid === undefined ? missing('BUY') : null,
        askMissing: ask === undefined ? missing('SELL') : null,
        position,
        base,
        quote,
      };
    });
  }

  private onTransition(key: string, from: OrderState | null, to: OrderState): void {
    const now = this.o.clock.now();
    const order = this.o.engine()?.orders.get(key);
    if (order !== undefined) {
      if (isResting(to) && from !== null && isAwaitingConfirmation(from) && order.submittedAt !== null) {
        this.o.bookWatch.changedAfter(order.pair, order.submittedAt, now, `order ${key} came to rest`);
      }
      if (to === 'CANCELLING') this.cancellingSince.set(key, now);
      const since = this.cancellingSince.get(key);
      if (to === 'CANCELLED' && since !== undefined) {
        this.o.bookWatch.changedAfter(order.pair, since, now, `the cancel of ${key} committed`);
      }
    }
    if (isTerminal(to)) {
      this.cancellingSince.delete(key);
      this.referenceAts.delete(key);
    }
    // The registry is mid-write while it notifies: act after the write returns.
    queueMicrotask(() => this.o.dispatch()?.onTransition(key, to));
  }
}
