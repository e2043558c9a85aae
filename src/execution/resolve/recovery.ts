/**
 * Recovery on start: rebuild the registry from the journal and settle every order that was not
 * terminal when the previous process stopped, by reading the venue. Nothing is re-prepared and
 * nothing is resubmitted, so a crash anywhere in a placement never doubles it.
 *
 * Per restored state (the journal records each transition BEFORE the IO that depends on it, so
 * the state says what may have reached the venue):
 * - INTENT, PREPARING: at most a prepare was sent, and a prepare alone commits nothing. The
 *   clientOrderId is looked up in `GET /orders?status=ALL` (from the order's creation, minus a
 *   margin): found → the venue's order is taken over (PreparedLive: resting, terminal or
 *   UNKNOWN); not found → Abandoned.
 * - PREPARED, SIGNED: no submission was sent (SubmitStarted is journalled first). The order is
 *   still read by orderId, never abandoned blindly: no status (or 404) → Abandoned, its
 *   transaction dies within 5 minutes; a committed status (the journal rule was broken) → it is
 *   escalated to UNKNOWN and resolved by the read.
 * - SUBMITTING: the submission may have been sent and its answer is lost: SubmitAmbiguous
 *   (UNKNOWN), then as UNKNOWN.
 * - SUBMITTED, UNKNOWN: `GET /orders/{orderId}`. A status → VenueSnapshot (resting, filled,
 *   rejected…). No status or 404 → NeverCommitted once 5 minutes (+ a margin) have passed since
 *   preparedAt, else left pending for the unknown resolver (it keeps its slot and counts as
 *   exposure, and the pipeline prepares nothing while it may still commit).
 * - OPEN … STRANDED: `GET /orders/{orderId}`; a 404 is resolved through the OPEN list, then the
 *   ALL history; still missing → NotFound (alarm, still counted). A cancel that was requested
 *   or in flight is handed to the cancel pool again (a second cancel of the same contract is
 *   harmless: the first to commit wins).
 * Then the OPEN list is reconciled: unknown resting orders go through the `unknownOrders` policy.
 */
import type { Clock } from '../../core/clock.js';
import type { Journal } from '../../orders/journal/index.js';
import type { OrderRegistry, SlotViolation } from '../../orders/order-registry.js';
import {
  PREPARED_TX_LIFETIME_MS,
  TERMINAL_STATES,
  holdsPreparedTransaction,
  isAwaitingConfirmation,
  isBeforeSubmission,
  isCommitted,
  isSubmitted,
  isTerminal,
  type OrderEvent,
  type OrderState,
  type TrackedOrder,
} from '../../orders/fsm/index.js';
import { preparedLiveFromWire, snapshotFromWire } from '../../orders/wire-events.js';
import type { Order } from '../../venue/schemas.js';
import { DEFAULT_DEADLINE_MARGIN_MS } from '../execution-settings.js';
import { hasCommitEvidence } from '../execution-context.js';
import {
  differs,
  listOpenOrders,
  readOrder,
  type OrdersReader,
  type UnknownOrders,
} from './orders-poller.js';

/** What recovery did with one restored order. */
export type RecoveryAction =
  | 'abandoned'
  | 'found-in-history'
  | 'resolved-by-read'
  | 'never-committed'
  | 'pending'
  | 'not-found'
  | 'unchanged'
  | 'escalated';

/** One restored order's outcome. */
export interface RecoveredOrder {
  readonly key: string;
  readonly from: OrderState;
  readonly to: OrderState;
  readonly action: RecoveryAction;
}

/** The outcome of {@link recover}. */
export interface RecoveryReport {
  /** Non-terminal orders loaded from the journal. */
  readonly restored: number;
  readonly orders: readonly RecoveredOrder[];
  /** Keys still SUBMITTED or UNKNOWN (awaiting the resolver). */
  readonly pending: readonly string[];
  /** Keys handed to the cancel pool (resumed cancels and `cancel`-policy orders). */
  readonly cancels: readonly string[];
  /** Slots with more than one active order after the restore (should be empty). */
  readonly slotViolations: readonly SlotViolation[];
  readonly startedAt: number;
  readonly finishedAt: number;
}

/** Inputs of {@link recover}. */
export interface RecoveryOptions {
  readonly journal: Pick<Journal<TrackedOrder>, 'loadOpenOrders'>;
  readonly registry: OrderRegistry;
  readonly client: OrdersReader;
  readonly clock: Clock;
  /** Applies the `unknownOrders` policy to resting orders nobody knows. */
  readonly unknown: UnknownOrders;
  /** Hands a CANCEL_REQUESTED order to the cancel pool. */
  readonly requestCancel: (order: TrackedOrder) => void;
  /** Added to the 5-minute lifetime before "never committed" is concluded. Default 30 s. */
  readonly deadlineMarginMs?: number;
  /** How far before an order's creation the history lookup starts. Default 10 minutes. */
  readonly historyMarginMs?: number;
  readonly maxPages?: number;
  readonly signal?: AbortSignal;
}

/** States a VenueSnapshot is illegal in (nothing of ours can be on the book) or left to settle(). */
function unreadable(state: OrderState): boolean {
  return isBeforeSubmission(state) || state === 'SUBMITTING';
}

/** Runs recovery; see the module doc. Throws when a venue read fails (start again later). */
export async function recover(options: RecoveryOptions): Promise<RecoveryReport> {
  return new Recovery(options).run();
}

class Recovery {
  private readonly out: RecoveredOrder[] = [];
  private readonly cancels: string[] = [];
  private readonly signal: AbortSignal;
  private history: Order[] | null = null;
  private openList: Order[] | null = null;

  constructor(private readonly o: RecoveryOptions) {
    this.signal = o.signal ?? new AbortController().signal;
  }

  async run(): Promise<RecoveryReport> {
    const { registry, clock } = this.o;
    const startedAt = clock.now();
    const stored = this.o.journal.loadOpenOrders(TERMINAL_STATES);
    for (const s of stored) registry.restore(s.order);
    const slotViolations = registry.slotViolations();
    for (const s of stored) {
      this.signal.throwIfAborted();
      const before = registry.get(s.key)!;
      const action = await this.settle(before);
      const after = registry.get(s.key)!;
      this.out.push({ key: s.key, from: before.state, to: after.state, action });
      if (after.state === 'CANCEL_REQUESTED') this.handToCancelPool(after);
    }
    await this.reconcileOpenList();
    const pending = registry
      .active()
      .filter((t) => isSubmitted(t.state))
      .map((t) => t.key);
    return {
      restored: stored.length,
      orders: this.out,
      pending,
      cancels: this.cancels,
      slotViolations,
      startedAt,
      finishedAt: clock.now(),
    };
  }

  private async settle(order: TrackedOrder): Promise<RecoveryAction> {
    const state = order.state;
    if (holdsPreparedTransaction(state)) return this.settleUnsubmitted(order);
    if (isBeforeSubmission(state)) return this.settlePrePrepare(order);
    if (state === 'SUBMITTING') {
      this.apply(order.key, { type: 'SubmitAmbiguous', code: 'RECOVERY_ANSWER_LOST', at: this.now() });
      return this.settleInFlight(this.o.registry.get(order.key)!);
    }
    if (isAwaitingConfirmation(state)) return this.settleInFlight(order);
    if (isCommitted(state)) return this.settleCommitted(order);
    return 'unchanged';
  }

  private async settlePrePrepare(order: TrackedOrder): Promise<RecoveryAction> {
    const coid = order.clientOrderId;
    const history = coid === null ? [] : await this.loadHistory();
    const found = history.find((w) => w.clientOrderId === coid);
    if (found === undefined || coid === null) {
      this.apply(order.key, { type: 'Abandoned', reason: 'recovery: never submitted', at: this.now() });
      return 'abandoned';
    }
    if (order.state === 'INTENT') this.apply(order.key, { type: 'PrepareStarted', at: this.now() });
    this.apply(order.key, preparedLiveFromWire(found, coid, this.now()));
    return 'found-in-history';
  }

  private async settleUnsubmitted(order: TrackedOrder): Promise<RecoveryAction> {
    const wire = order.orderId === null ? null : await readOrder(this.o.client, order.orderId, this.signal);
    if (wire?.status == null) {
      this.apply(order.key, { type: 'Abandoned', reason: 'recovery: not submitted', at: this.now() });
      return 'abandoned';
    }
    // Committed although no submission was journalled: take the venue's word, through UNKNOWN.
    if (order.state === 'PREPARED') this.apply(order.key, { type: 'Signed', at: this.now() });
    this.apply(order.key, { type: 'SubmitStarted', at: this.now() });
    this.apply(order.key, { type: 'SubmitAmbiguous', code: 'RECOVERY_FOUND_COMMITTED', at: this.now() });
    this.apply(order.key, snapshotFromWire(wire, this.now()));
    return 'escalated';
  }

  private async settleInFlight(order: TrackedOrder): Promise<RecoveryAction> {
    const wire = order.orderId === null ? null : await readOrder(this.o.client, order.orderId, this.signal);
    if (wire !== null && wire.status !== null) {
      this.apply(order.key, snapshotFromWire(wire, this.now()));
      return 'resolved-by-read';
    }
    const at = this.now();
    const lifetime = PREPARED_TX_LIFETIME_MS + (this.o.deadlineMarginMs ?? DEFAULT_DEADLINE_MARGIN_MS);
    if (order.preparedAt !== null && at - order.preparedAt >= lifetime && !hasCommitEvidence(order)) {
      this.apply(order.key, { type: 'NeverCommitted', at });
      return 'never-committed';
    }
    if (wire === null && order.orderId !== null) this.apply(order.key, { type: 'NotFound', at });
    return 'pending';
  }

  private async settleCommitted(order: TrackedOrder): Promise<RecoveryAction> {
    const orderId = order.orderId!;
    let wire = await readOrder(this.o.client, orderId, this.signal);
    wire ??= (await this.loadOpenList()).find((w) => w.orderId === orderId) ?? null;
    wire ??= (await this.loadHistory()).find((w) => w.orderId === orderId) ?? null;
    if (wire === null) {
      this.apply(order.key, { type: 'NotFound', at: this.now() });
      return 'not-found';
    }
    let action: RecoveryAction = 'unchanged';
    if (differs(order, wire)) {
      this.apply(order.key, snapshotFromWire(wire, this.now()));
      action = 'resolved-by-read';
    }
    const now = this.o.registry.get(order.key)!;
    if (now.state === 'CANCELLING') {
      // The cancel may or may not have been sent; the order still rests: cancel it again.
      this.apply(order.key, { type: 'CancelRetry', code: 'RECOVERY', at: this.now() });
    }
    return action;
  }

  /** Every resting order: ours get what changed, unknown ones go through the policy. */
  private async reconcileOpenList(): Promise<void> {
    const { registry } = this.o;
    for (const wire of await this.loadOpenList(true)) {
      this.signal.throwIfAborted();
      const tracked = this.o.unknown.resolve(wire, this.now(), 'recovery');
      if (tracked === null) {
        // Foreign: under the `cancel` policy it was adopted and handed to the cancel pool.
        const adopted = registry.byOrderId(wire.orderId);
        if (adopted !== undefined && adopted.cancelReason !== null) this.cancels.push(adopted.key);
        continue;
      }
      if (unreadable(tracked.state) || !differs(tracked, wire)) continue;
      this.apply(tracked.key, snapshotFromWire(wire, this.now()));
      const after = registry.get(tracked.key)!;
      if (after.state === 'CANCEL_REQUESTED' && !this.cancels.includes(after.key))
        this.handToCancelPool(after);
    }
  }

  private handToCancelPool(order: TrackedOrder): void {
    if (isTerminal(order.state)) return;
    this.cancels.push(order.key);
    this.o.requestCancel(order);
  }

  private async loadOpenList(refresh = false): Promise<Order[]> {
    if (this.openList === null || refresh) {
      this.openList = await listOpenOrders(this.o.client, this.signal, this.o.maxPages);
    }
    return this.openList;
  }

  /** `GET /orders?status=ALL` from the oldest non-terminal order's creation minus the margin. */
  private async loadHistory(): Promise<Order[]> {
    if (this.history !== null) return this.history;
    const oldest = Math.min(...this.o.registry.active().map((t) => t.createdAt), this.now());
    const from = new Date(oldest - (this.o.historyMarginMs ?? 10 * 60_000));
    const out: Order[] = [];
    const walk = this.o.client.iterateOrders(
      { status: 'ALL', from },
      { signal: this.signal, maxPages: this.o.maxPages },
    );
    for await (const w of walk) out.push(w);
    this.history = out;
    return out;
  }

  private apply(key: string, event: OrderEvent): void {
    this.o.registry.apply(key, event);
  }

  private now(): number {
    return this.o.clock.now();
  }
}
