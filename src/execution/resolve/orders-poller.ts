/**
 * The orders poller: every few seconds it lists the party's resting orders
 * (`GET /orders?status=OPEN&refreshWallet=false`, every page) and reconciles them with the registry.
 * - A listed order we track (committed or terminal) gets a VenueSnapshot when the venue shows
 *   something new (status, contractId, filled): fills and rotations become registry effects.
 * - A committed order no longer listed is read with `GET /orders/{orderId}`: its end is never assumed.
 * - Orders in flight (INTENT … SUBMITTED, UNKNOWN) are never touched: the pipeline and the unknown
 *   resolver own them. An order the registry knows by orderId OR clientOrderId is ours even while
 *   SUBMITTING (the clientOrderId is journalled before the prepare), so a placement confirming
 *   during a poll never looks foreign.
 * - A listed order neither the registry nor the journal knows is foreign (another process or a
 *   person trading this party): the `unknownOrders` policy applies ({@link UnknownOrders}).
 * Only changed orders are written, so an idle book costs no journal writes.
 */
import type { Clock } from '../../core/clock.js';
import { dec } from '../../core/decimal.js';
import { Poller } from '../../core/poller.js';
import type { UnknownOrderPolicy } from '../../config/schema.js';
import { JournalError } from '../../orders/journal/index.js';
import type { OrderRegistry } from '../../orders/order-registry.js';
import {
  currentContractId,
  isTerminal,
  isCommitted,
  type OrderState,
  type TrackedOrder,
} from '../../orders/fsm/index.js';
import { snapshotFromWire } from '../../orders/wire-events.js';
import { VenueError, isCredentialFailure } from '../../venue/errors.js';
import type { VenueClient } from '../../venue/client.js';
import type { Order } from '../../venue/schemas.js';

/** Default period of the orders poller. */
export const DEFAULT_ORDERS_POLL_MS = 5_000;

/** What the poller and recovery report. */
export type OrdersPollerEvent =
  | {
      readonly type: 'foreign-order';
      /** What the policy did: tracked (adopted), tracked and cancel requested, or left alone. */
      readonly action: 'adopted' | 'cancel-requested' | 'ignored';
      readonly source: 'poll' | 'recovery';
      readonly order: Order;
      /** The registry key when tracked. */
      readonly key: string | null;
    }
  /** A committed order left the OPEN list; `resolved` is its state after the read (null: 404). */
  | {
      readonly type: 'vanished';
      readonly key: string;
      readonly orderId: string;
      readonly resolved: OrderState | null;
    }
  | { readonly type: 'restored-from-journal'; readonly key: string; readonly orderId: string }
  | { readonly type: 'order-error'; readonly orderId: string; readonly error: unknown };

/** The venue reads the poller and recovery need. */
export type OrdersReader = Pick<VenueClient, 'iterateOrders' | 'getOrder'>;

/** Resting orders left alone under the `ignore` policy: untracked, but they count against caps. */
export class IgnoredOrders {
  private readonly orders = new Map<string, Order>();

  /** Records (or refreshes) an ignored resting order. */
  set(order: Order): void {
    this.orders.set(order.orderId, order);
  }

  has(orderId: string): boolean {
    return this.orders.has(orderId);
  }

  /** Forgets the ignored orders no longer listed. */
  retain(listed: ReadonlySet<string>): void {
    for (const id of [...this.orders.keys()]) if (!listed.has(id)) this.orders.delete(id);
  }

  /** How many ignored orders rest (they still count against `maxOpenOrders`). */
  get size(): number {
    return this.orders.size;
  }
}

/** Options of {@link UnknownOrders}. */
export interface UnknownOrdersOptions {
  readonly registry: OrderRegistry;
  readonly policy: UnknownOrderPolicy;
  readonly ignored: IgnoredOrders;
  /** Under `cancel`: hands the (adopted, CANCEL_REQUESTED) order to the cancel pool. */
  readonly requestCancel?: (order: TrackedOrder) => void;
  /** The journal's copy of an order the registry does not hold (terminal or evicted), if any. */
  readonly journalLookup?: (orderId: string, clientOrderId: string | null) => TrackedOrder | undefined;
  readonly emit: (event: OrdersPollerEvent) => void;
}

/**
 * Resolves a listed order to our tracked order, restoring it from the journal when the registry
 * no longer holds it, or applies the `unknownOrders` policy to it:
 * - `adopt` (default): tracked as foreign (`flags.foreign`, no slot); the strategy may cancel it;
 * - `cancel`: tracked as foreign, then CancelRequested and handed to the cancel pool;
 * - `ignore`: not tracked; remembered in {@link IgnoredOrders} so it still counts against the
 *   open-order cap, and reported every time it is first seen.
 */
export class UnknownOrders {
  constructor(private readonly o: UnknownOrdersOptions) {}

  /** Our order for `wire`, or null when it is foreign (then the policy has been applied). */
  resolve(wire: Order, at: number, source: 'poll' | 'recovery'): TrackedOrder | null {
    const { registry } = this.o;
    const known = findTracked(registry, wire);
    if (known !== undefined) return known;
    const stored = this.o.journalLookup?.(wire.orderId, wire.clientOrderId ?? null);
    if (stored !== undefined) {
      registry.restore(stored);
      this.o.emit({ type: 'restored-from-journal', key: stored.key, orderId: wire.orderId });
      return registry.get(stored.key) ?? null;
    }
    if (this.o.ignored.has(wire.orderId)) {
      this.o.ignored.set(wire);
      return null;
    }
    if (this.o.policy === 'ignore') {
      this.o.ignored.set(wire);
      this.o.emit({ type: 'foreign-order', action: 'ignored', source, order: wire, key: null });
      return null;
    }
    const adopted = registry.adoptForeign(wire, at);
    const cancel = this.o.policy === 'cancel';
    const action = cancel ? 'cancel-requested' : 'adopted';
    this.o.emit({ type: 'foreign-order', action, source, order: wire, key: adopted.key });
    if (cancel) {
      const { order } = registry.apply(adopted.key, { type: 'CancelRequested', reason: 'unknown-order', at });
      this.o.requestCancel?.(order);
    }
    return null;
  }
}

/** The tracked order a venue order belongs to: by orderId, else by our clientOrderId. */
export function findTracked(registry: OrderRegistry, wire: Order): TrackedOrder | undefined {
  return (
    registry.byOrderId(wire.orderId) ??
    (wire.clientOrderId == null ? undefined : registry.byClientOrderId(wire.clientOrderId))
  );
}

/** True when the read shows something the tracked order does not have yet. */
export function differs(order: TrackedOrder, wire: Order): boolean {
  if (wire.status !== order.venueStatus) return true;
  if (wire.contractId !== null && wire.contractId !== currentContractId(order)) return true;
  return !dec(wire.filled).eq(order.filled);
}

/** Lists every resting order (all pages); fails rather than returns a partial list. */
export async function listOpenOrders(
  client: OrdersReader,
  signal: AbortSignal,
  maxPages?: number,
): Promise<Order[]> {
  const out: Order[] = [];
  for await (const o of client.iterateOrders({ status: 'OPEN' }, { signal, maxPages })) out.push(o);
  return out;
}

/** Reads one order; null on 404 CONTRACT_NOT_FOUND. Other failures propagate. */
export async function readOrder(
  client: OrdersReader,
  orderId: string,
  signal: AbortSignal,
): Promise<Order | null> {
  try {
    return await client.getOrder(orderId, { signal });
  } catch (err) {
    if (err instanceof VenueError && err.code === 'CONTRACT_NOT_FOUND') return null;
    throw err;
  }
}

/** Options of {@link OrdersPoller}. */
export interface OrdersPollerOptions {
  readonly client: OrdersReader;
  readonly registry: OrderRegistry;
  readonly clock: Clock;
  readonly unknown: UnknownOrders;
  readonly ignored: IgnoredOrders;
  /** Period (default 5 s), jitter ratio (0.1), per-run timeout (60 s). */
  readonly intervalMs?: number;
  readonly jitterRatio?: number;
  readonly timeoutMs?: number;
  readonly random?: () => number;
  readonly maxPages?: number;
  readonly emit: (event: OrdersPollerEvent) => void;
  /** A failed run (the loop goes on). */
  readonly onError?: (error: unknown) => void;
}

/** The orders poller; see the module doc. */
export class OrdersPoller {
  /** The loop and its stats (lastSuccessAt, runs, failures, skipped…). */
  readonly poller: Poller;

  constructor(private readonly o: OrdersPollerOptions) {
    this.poller = new Poller({
      name: 'orders',
      clock: o.clock,
      intervalMs: o.intervalMs ?? DEFAULT_ORDERS_POLL_MS,
      jitterRatio: o.jitterRatio ?? 0.1,
      random: o.random,
      timeoutMs: o.timeoutMs ?? 60_000,
      task: (signal) => this.sync(signal),
      onError: (err) => o.onError?.(err),
      // A refused API key lasts until an operator acts: poll it less, not every 5 s.
      failureBackoff: { maxMs: 60_000, when: isCredentialFailure },
    });
  }

  start(): void {
    this.poller.start();
  }

  /** One poll now (startup, tests); resolves when it is over. */
  runNow(): Promise<void> {
    return this.poller.runNow();
  }

  close(): Promise<void> {
    return this.poller.close();
  }

  /**
   * One reconciliation. Per-order failures are reported and skipped; a failed list or a journal
   * failure fails the run (nothing is concluded from a partial picture).
   */
  async sync(signal: AbortSignal): Promise<void> {
    const { registry, clock } = this.o;
    // "Vanished" candidates are fixed before the list: an order committing after it is not missing.
    const candidates = registry
      .active() // every committed state is non-terminal
      .filter((t) => t.orderId !== null && isCommitted(t.state))
      .map((t) => t.key);
    const listed = await listOpenOrders(this.o.client, signal, this.o.maxPages);
    const listedIds = new Set(listed.map((w) => w.orderId));
    this.o.ignored.retain(listedIds);
    for (const wire of listed) {
      signal.throwIfAborted();
      this.guard(wire.orderId, () => {
        const tracked = this.o.unknown.resolve(wire, clock.now(), 'poll');
        if (tracked === null || !differs(tracked, wire)) return;
        if (!isCommitted(tracked.state) && !isTerminal(tracked.state)) return;
        registry.apply(tracked.key, snapshotFromWire(wire, clock.now()));
      });
    }
    for (const key of candidates) {
      signal.throwIfAborted();
      const t = registry.get(key);
      if (t?.orderId == null || listedIds.has(t.orderId) || !isCommitted(t.state)) continue;
      const orderId = t.orderId;
      let wire: Order | null;
      try {
        wire = await readOrder(this.o.client, orderId, signal);
      } catch (err) {
        if (signal.aborted) throw err;
        this.o.emit({ type: 'order-error', orderId, error: err });
        continue;
      }
      this.guard(orderId, () => {
        const now = registry.get(key)!;
        if (wire === null) {
          // Record the 404 once (it raises an alarm); the order keeps counting as exposure.
          if (!now.flags.alarms.includes('not-found-after-commit')) {
            registry.apply(key, { type: 'NotFound', at: clock.now() });
          }
          this.o.emit({ type: 'vanished', key, orderId, resolved: null });
          return;
        }
        const after = differs(now, wire)
          ? registry.apply(key, snapshotFromWire(wire, clock.now())).order
          : now;
        this.o.emit({ type: 'vanished', key, orderId, resolved: after.state });
      });
    }
  }

  /** Runs one order's handling; journal failures fail the run, anything else is reported. */
  private guard(orderId: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      if (err instanceof JournalError) throw err;
      this.o.emit({ type: 'order-error', orderId, error: err });
    }
  }
}
