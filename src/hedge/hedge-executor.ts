/**
 * Sends hedge orders with the discipline of the main venue: journal first, never resend before
 * reading. A hedge order is written to the {@link HedgeJournal} before it is sent; its outcome
 * is settled from the venue's answer or, when the answer is lost (timeout, crash, 5xx), from
 * the venue's record of the order, read by its client order id. While any order of the pair is
 * pending, nothing else is sent: {@link HedgeExecutor.resolvePending} reads the venue first.
 *
 * After a crash, the same call is the recovery: an order written but never received is marked
 * `never-sent` (the position read next shows it did nothing), an order the venue has is settled
 * with its fills (the position read next includes them). Either way the next decision starts
 * from the venue's truth, so a hedge is never doubled.
 *
 * "Never received" needs time: a request the dead process left on the wire can still reach the
 * venue. So an order the venue does not have stays pending until its receive window (past which
 * the venue refuses it; ccxt's `recvWindow` is set to the timeout) and one more call's timeout
 * have passed since it was sent.
 */
import { raceAbort } from '../core/abort-race.js';
import { type Clock, abortReason, timeoutSignal } from '../core/clock.js';
import { CLASSIFICATION, type HedgeCode } from '../venue/errors.js';
import type { HedgeOrder } from './hedge-decision.js';
import type { HedgeJournal, HedgeRow } from './hedge-journal.js';
import { type HedgeOrderState, type HedgeVenue, hedgeCodeOf, hedgeError } from './hedge-venue.js';

/** Options of {@link HedgeExecutor}. */
export interface HedgeExecutorOptions {
  readonly pair: string;
  readonly symbol: string;
  readonly venue: HedgeVenue;
  readonly journal: HedgeJournal;
  readonly clock: Clock;
  readonly timeoutMs: number;
  /** A fresh client order id (unique across restarts). */
  readonly newId: () => string;
  /** Journal and report, never send. */
  readonly dryRun: boolean;
  /** The venue refuses an order older than this, ms (its `recvWindow`); default `timeoutMs`. */
  readonly receiveWindowMs?: number;
}

/** The outcome of one {@link HedgeExecutor.send}. */
export type SendOutcome =
  | { readonly outcome: 'settled'; readonly state: HedgeOrderState }
  | { readonly outcome: 'pending'; readonly clientOrderId: string }
  | { readonly outcome: 'refused'; readonly code: HedgeCode; readonly message: string }
  | { readonly outcome: 'dry-run'; readonly clientOrderId: string };

/** The orders of one pair on its hedge venue. */
export class HedgeExecutor {
  constructor(private readonly o: HedgeExecutorOptions) {}

  /** Orders of this pair written and not settled. */
  pendingRows(): HedgeRow[] {
    return this.o.journal.pending().filter((r) => r.pair === this.o.pair);
  }

  /** True while an order of the pair is pending: no new order may be sent. */
  get pending(): boolean {
    return this.pendingRows().length > 0;
  }

  /**
   * Reads the venue for every pending order and settles what it can; returns the rows settled
   * now (with their fills). A failing read leaves the order pending. Recovery at startup and
   * after an unknown outcome.
   */
  async resolvePending(signal: AbortSignal): Promise<HedgeOrderState[]> {
    const settled: HedgeOrderState[] = [];
    for (const row of this.pendingRows()) {
      const state = await this.bounded(
        (s) => this.o.venue.readOrder(row.clientOrderId, row.symbol, s),
        signal,
      );
      const now = this.o.clock.now();
      if (state === null) {
        // Not received yet: it may still be on the wire until the venue can no longer take it.
        if (now < row.createdAt + (this.o.receiveWindowMs ?? this.o.timeoutMs) + this.o.timeoutMs) continue;
        // Not received. Make sure nothing of ours is working on the book before calling it so.
        const open = await this.bounded((s) => this.o.venue.openOrders(row.symbol, s), signal);
        if (open.some((o) => o.clientOrderId === row.clientOrderId)) continue;
        this.o.journal.markNeverSent(row.clientOrderId, now);
        continue;
      }
      if (state.status === 'open') continue; // an IOC closes by itself; read again later
      this.o.journal.settle(state, now);
      settled.push(state);
    }
    return settled;
  }

  /**
   * Journals `order`, then sends it as an IOC limit order.
   *
   * @throws Error when an order of the pair is still pending (the caller must resolve it first).
   */
  async send(order: HedgeOrder, signal: AbortSignal): Promise<SendOutcome> {
    if (this.pending) throw new Error(`${this.o.pair}: a hedge order is pending; read the venue first`);
    const sentAt = this.o.clock.now();
    const req = { clientOrderId: this.o.newId(), symbol: this.o.symbol, ...order, sentAt };
    this.o.journal.intend(this.o.pair, req, sentAt);
    if (this.o.dryRun) {
      this.o.journal.markNeverSent(req.clientOrderId, this.o.clock.now());
      return { outcome: 'dry-run', clientOrderId: req.clientOrderId };
    }
    try {
      const state = await this.bounded((s) => this.o.venue.placeIoc(req, s), signal);
      this.o.journal.markSent(req.clientOrderId, this.o.clock.now());
      if (state.status === 'open') return { outcome: 'pending', clientOrderId: req.clientOrderId };
      this.o.journal.settle(state, this.o.clock.now());
      return { outcome: 'settled', state };
    } catch (error) {
      const code = hedgeCodeOf(error);
      // The table's `submit` column: anything but `ambiguous` says the order took no effect (the
      // venue answered no, or the call never reached it).
      if (code !== null && CLASSIFICATION[code].submit !== 'ambiguous') {
        this.o.journal.markNeverSent(req.clientOrderId, this.o.clock.now());
        return { outcome: 'refused', code, message: (error as Error).message };
      }
      // Unknown outcome: it stays pending until the venue is read.
      this.o.journal.markSent(req.clientOrderId, this.o.clock.now());
      return { outcome: 'pending', clientOrderId: req.clientOrderId };
    }
  }

  private bounded<T>(call: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    const t = timeoutSignal(this.o.clock, this.o.timeoutMs, signal);
    return raceAbort(call, t.signal, () =>
      hedgeError('HEDGE_UNKNOWN_OUTCOME', 'hedge venue call timed out', abortReason(t.signal)),
    ).finally(() => t.dispose());
  }
}
