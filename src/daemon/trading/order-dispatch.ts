/**
 * Hands the risk gate's verdicts to the execution layer: placements to the pipeline (one at a
 * time, by priority; the engine's policy asks `pendingIn` for each one's freshness check), cancels to the cancel pool (at once), and the
 * make-before-break rule — when a placement that replaces an order comes to rest, the replaced
 * order is cancelled.
 *
 * It remembers what it has asked for and the registry does not show yet: the intents waiting in
 * the pipeline (they keep their quote slot busy and their funds committed) and the cancels
 * waiting for a worker of the pool (their orders count as cancelling). It never blocks: every
 * call returns at once, outcomes come back through the callbacks.
 */
import type { Clock } from '../../core/clock.js';
import { PipelineTimer } from '../../execution/placement/pipeline-timer.js';
import type { PipelineTiming } from '../../core/pipeline-timing.js';
import type { CancelOutcome, PlacementOutcome } from '../../execution/execution-events.js';
import type { TradingEngine } from '../../execution/engine-types.js';
import { isResting, isTerminal, type OrderState } from '../../orders/fsm/index.js';
import type { PlaceAction } from '../../strategy/quote-types.js';
import { isAccountFailure, isCredentialFailure } from '../../venue/errors.js';
import { SUB_SLOTS, registrySlot, type PendingIntent } from '../../orders/own-orders-view.js';

/** An intent the daemon handed to the pipeline. */
export interface PendingEntry extends PendingIntent {
  readonly action: PlaceAction;
  /** The key of the order this placement replaces (make before break), or null. */
  readonly replaces: string | null;
  readonly abort: AbortController;
}

/** Options of {@link OrderDispatch}. */
export interface OrderDispatchOptions {
  readonly engine: TradingEngine;
  readonly clock: Clock;
  readonly onPlacement?: (entry: PendingEntry, outcome: PlacementOutcome) => void;
  readonly onCancel?: (key: string, reason: string, outcome: CancelOutcome) => void;
  /**
   * Most orders a quote slot may hold at once (its registry slots), read at each placement
   * (`strategy.reconcile.ordersPerSlot`, reloadable); default {@link SUB_SLOTS}.
   */
  readonly ordersPerSlot?: () => number;
}

/** True when a placement outcome counts as a pipeline failure for the error breaker. */
export function isPipelineFailure(outcome: PlacementOutcome): boolean {
  switch (outcome.kind) {
    case 'failed':
    case 'ledger-rejected':
    case 'echo-mismatch':
    case 'never-committed':
    case 'unresolved':
      return true;
    case 'refused':
      // The account or its key cannot trade: readiness handles it, not the breaker.
      return !isCredentialFailure(outcome.code) && !isAccountFailure(outcome.code);
    default:
      return false;
  }
}

/** Cancel outcomes after which the order may still rest and a later cycle may cancel again. */
const RETRYABLE_CANCEL: ReadonlySet<CancelOutcome['kind']> = new Set([
  'failed',
  'aborted',
  'echo-mismatch',
  'unknown-order',
]);

/** See the module doc. */
export class OrderDispatch {
  /** Consecutive pipeline failures (reset by a placement that rests or ends). */
  consecutiveFailures = 0;
  private readonly pending = new Map<string, PendingEntry>();
  private readonly replacements = new Map<string, string>();
  private readonly cancelRequested = new Set<string>();
  private readonly outstanding = new Set<Promise<void>>();
  /** Measured placement and cancel times, for the quoting models. */
  private readonly timer = new PipelineTimer();

  constructor(private readonly o: OrderDispatchOptions) {}

  /** The pipeline's measured timing, for the strategy. */
  get timing(): PipelineTiming {
    return this.timer.timing(this.pending.size);
  }

  /** Intents waiting in (or running through) the pipeline, by quote slot. */
  get pendingIntents(): readonly PendingEntry[] {
    return [...this.pending.values()];
  }

  /** The intent waiting in (or running through) the pipeline for registry slot `slot`, if any. */
  pendingIn(slot: string): PendingEntry | undefined {
    for (const e of this.pending.values()) if (e.registrySlot === slot) return e;
    return undefined;
  }

  /** Orders the daemon asked to cancel whose cancel has not ended. */
  get cancelling(): ReadonlySet<string> {
    return this.cancelRequested;
  }

  /** Placement and cancel calls not settled yet. */
  get inFlight(): number {
    return this.outstanding.size;
  }

  /**
   * Queues a placement unless its quote slot already has an intent waiting or every registry
   * slot of it is taken (`ordersPerSlot`). Returns whether it was queued.
   */
  place(action: PlaceAction): boolean {
    const q = action.quote;
    if (this.pending.has(q.slot)) return false;
    let slot: string | null = null;
    const depth = this.o.ordersPerSlot?.() ?? SUB_SLOTS;
    for (let n = 0; n < depth && slot === null; n++) {
      const candidate = registrySlot(q.slot, n);
      if (this.o.engine.orders.inSlot(candidate).length === 0) slot = candidate;
    }
    if (slot === null) return false;
    const entry: PendingEntry = {
      key: `pending:${slot}`,
      quoteSlot: q.slot,
      registrySlot: slot,
      pair: q.pair,
      side: q.side,
      price: q.price,
      quantity: q.quantity,
      enqueuedAt: this.o.clock.now(),
      action,
      replaces: action.replaces,
      abort: new AbortController(),
    };
    this.pending.set(q.slot, entry);
    if (entry.replaces !== null) this.replacements.set(slot, entry.replaces);
    const intent = { slot, pair: q.pair, side: q.side, price: q.price, quantity: q.quantity };
    this.track(
      this.o.engine
        .place(intent, {
          // The reconciler ranks lower-first; the pipeline runs higher-first.
          priority: -action.priority,
          signal: entry.abort.signal,
        })
        .then((outcome) => this.settle(entry, outcome)),
    );
    return true;
  }

  /**
   * Cancels `key`: an intent still pending is aborted (it never reaches the venue, or is
   * abandoned before signing); an order is handed to the cancel pool unless a cancel of it is
   * already under way.
   */
  cancel(key: string, reason: string, priority = 0): void {
    const entry = [...this.pending.values()].find((e) => e.key === key);
    if (entry !== undefined) {
      entry.abort.abort(new DOMException(`cancelled: ${reason}`, 'AbortError'));
      return;
    }
    const order = this.o.engine.orders.get(key);
    if (order === undefined || isTerminal(order.state) || this.cancelRequested.has(key)) return;
    this.cancelRequested.add(key);
    const requestedAt = this.o.clock.now();
    this.track(
      this.o.engine.cancel(key, { reason, priority }).then((outcome) => {
        if (outcome.kind === 'cancelled') this.timer.cancelled(this.o.clock.now() - requestedAt);
        if (RETRYABLE_CANCEL.has(outcome.kind)) this.cancelRequested.delete(key);
        this.o.onCancel?.(key, reason, outcome);
      }),
    );
  }

  /** Follows the registry: make before break, and forgetting cancels of ended orders. */
  onTransition(key: string, to: OrderState): void {
    if (isTerminal(to)) {
      this.cancelRequested.delete(key);
      return;
    }
    if (!isResting(to)) return;
    const slot = this.o.engine.orders.get(key)?.slot;
    const replaced = slot == null ? undefined : this.replacements.get(slot);
    if (slot == null || replaced === undefined) return;
    this.replacements.delete(slot);
    // The replacement rests: now the replaced order goes (make before break).
    this.cancel(replaced, 'replaced', 1);
  }

  /** Aborts every intent still pending (shutdown): none reaches a submission any more. */
  abortPending(): void {
    for (const e of this.pending.values()) e.abort.abort(new DOMException('shutting down', 'AbortError'));
  }

  /** Resolves when every placement and cancel handed out so far has settled. */
  async drain(): Promise<void> {
    while (this.outstanding.size > 0) await Promise.all([...this.outstanding]);
  }

  private settle(entry: PendingEntry, outcome: PlacementOutcome): void {
    if (this.pending.get(entry.quoteSlot) === entry) this.pending.delete(entry.quoteSlot);
    // A replacement that rested has already cancelled its predecessor (onTransition); any other
    // end leaves the predecessor alone, and the mapping must not outlive the intent.
    if (this.replacements.get(entry.registrySlot) === entry.replaces)
      this.replacements.delete(entry.registrySlot);
    if (outcome.kind === 'placed' && !outcome.alreadyLive)
      this.timer.placed(this.o.clock.now() - entry.enqueuedAt);
    if (outcome.kind === 'placed' || outcome.kind === 'ended') this.consecutiveFailures = 0;
    else if (isPipelineFailure(outcome)) this.consecutiveFailures += 1;
    this.o.onPlacement?.(entry, outcome);
  }

  private track(p: Promise<void>): void {
    const tracked = p.catch(() => undefined).finally(() => this.outstanding.delete(tracked));
    this.outstanding.add(tracked);
  }
}
