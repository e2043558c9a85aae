/**
 * The own-orders registry: {@link OrderRegistry} holds every tracked order of the party and is
 * the only writer of order state. Each change runs the pure state machine, is written ahead
 * (the journal) before it is stored, and is then told to the observers. It owns the indexes from
 * venue ids to local keys and the one-active-order-per-slot invariant. The quote cycle reads its
 * orders for the strategy, the reconciler and the risk gate; the execution layer applies every
 * venue answer through it.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import type { Order } from '../venue/schemas.js';
import type { Side } from '../core/order-terms.js';
import {
  ORDER_STATES,
  apply as applyEvent,
  countsAsExposure,
  currentContractId,
  isTerminal,
  newForeign,
  newIntent,
  remaining,
} from './fsm/index.js';
import type { IntentInput, OrderEffect, OrderEvent, OrderState, TrackedOrder } from './fsm/index.js';
import {
  OrderConflictError,
  SlotOccupiedError,
  UnknownOrderError,
  type OrderIndexName,
} from './registry-errors.js';
import { foreignFromWire } from './wire-events.js';

/** Why a record was written. */
export type TransitionCause = 'created' | 'adopted' | 'event';

/** One stored change: what the journal persists and what metrics count. */
export interface TransitionRecord {
  readonly cause: TransitionCause;
  readonly key: string;
  /** Null when the order was created or adopted. */
  readonly previous: TrackedOrder | null;
  readonly order: TrackedOrder;
  /** Null when the order was created or adopted. */
  readonly event: OrderEvent | null;
  readonly effects: readonly OrderEffect[];
}

/** A synchronous transition hook. */
export type TransitionListener = (record: TransitionRecord) => void;

/** Options of {@link OrderRegistry}. */
export interface OrderRegistryOptions {
  /**
   * Called with every change BEFORE it is stored (the journal). Throwing vetoes the change:
   * nothing is stored, no observer runs, and the error propagates to the caller, who must then
   * not perform the IO that depended on it.
   */
  readonly writeAhead?: TransitionListener;
}

/** Selects orders; every given field must match. */
export interface OrderFilter {
  readonly pair?: string;
  readonly side?: Side;
  readonly slot?: string;
  readonly foreign?: boolean;
}

/** The remaining size of the orders on one side that may be on the book. */
export interface SideExposure {
  /** Σ remaining, base units. */
  readonly quantity: Dec;
  /** Σ remaining × price over priced orders, quote units. */
  readonly notional: Dec;
  readonly orders: number;
  /** Orders without a price (MARKET): in `quantity`, not in `notional`. */
  readonly unpriced: number;
}

/** Exposure of one pair, by side. */
export interface PairExposure {
  readonly BUY: SideExposure;
  readonly SELL: SideExposure;
}

/** A slot that holds more than one active order (only possible through `restore`). */
export interface SlotViolation {
  readonly slot: string;
  readonly keys: readonly string[];
}

/**
 * Every tracked order, and the only writer of order state: all changes go through
 * {@link OrderRegistry.apply}, which runs the pure state machine, records the change ahead
 * (`writeAhead`), stores it, keeps the indexes, and tells the observers.
 *
 * Orders are stored under a stable local `key` (for our orders the clientOrderId, for foreign
 * ones `foreign:<orderId>`) so nothing is re-keyed when `Prepared` assigns the orderId; the
 * orderId, clientOrderId and contractId indexes resolve venue ids to keys. Every contractId an
 * order ever had stays indexed; {@link OrderRegistry.isCurrentContractId} tells the current one.
 *
 * Invariant: a quote slot holds at most one active (non-terminal) order. `createIntent` refuses a
 * second one; transitions can only free a slot.
 */
export class OrderRegistry {
  private readonly orders = new Map<string, TrackedOrder>();
  /**
   * The non-terminal orders, in the order of {@link orders}: what the quote cycle and the pollers
   * read several times a second, while terminal orders pile up for as long as they are kept.
   */
  private readonly activeOrders = new Map<string, TrackedOrder>();
  private readonly byOrderIdIndex = new Map<string, string>();
  private readonly byClientOrderIdIndex = new Map<string, string>();
  private readonly byContractIdIndex = new Map<string, string>();
  /** slot → keys of its active orders. */
  private readonly slots = new Map<string, Set<string>>();
  private readonly observers = new Set<TransitionListener>();
  private readonly writeAhead: TransitionListener | undefined;

  constructor(options: OrderRegistryOptions = {}) {
    this.writeAhead = options.writeAhead;
  }

  /** Number of tracked orders. */
  get size(): number {
    return this.orders.size;
  }

  /** Registers an observer called after every stored change; returns its unsubscribe. */
  onTransition(listener: TransitionListener): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  /** Creates and stores an order in INTENT. Throws SlotOccupiedError or OrderConflictError. */
  createIntent(input: IntentInput): TrackedOrder {
    const order = newIntent(input);
    const occupant = order.slot === null ? undefined : this.inSlot(order.slot)[0];
    if (occupant !== undefined && order.slot !== null) throw new SlotOccupiedError(order.slot, occupant.key);
    this.commitNew('created', order);
    return order;
  }

  /** Records a resting venue order the journal does not know, flagged foreign, slotless. */
  adoptForeign(wire: Order, at: number): TrackedOrder {
    const order = newForeign(foreignFromWire(wire, at));
    this.commitNew('adopted', order);
    return order;
  }

  /**
   * Loads an order from the journal as it is: no write-ahead, no observers, and no slot check
   * (a conflict is kept and reported by {@link slotViolations}: never drop a tracked order).
   */
  restore(order: TrackedOrder): void {
    this.checkConflicts(order, true);
    this.store(order);
  }

  /**
   * Applies `event` to the order stored under `key`. Throws UnknownOrderError,
   * IllegalTransitionError or OrderConflictError with nothing changed, whatever `writeAhead`
   * throws (nothing changed), or ObserverError (the change IS stored).
   */
  apply(key: string, event: OrderEvent): TransitionRecord {
    const previous = this.orders.get(key);
    if (previous === undefined) throw new UnknownOrderError(key);
    const { order, effects } = applyEvent(previous, event);
    this.checkConflicts(order, false);
    const record: TransitionRecord = { cause: 'event', key, previous, order, event, effects };
    this.writeAhead?.(record);
    this.store(order);
    this.notify(record);
    return record;
  }

  /** The order stored under `key`. */
  get(key: string): TrackedOrder | undefined {
    return this.orders.get(key);
  }

  /** The order with this venue orderId (also an orderId it had before a re-prepare). */
  byOrderId(orderId: string): TrackedOrder | undefined {
    return this.lookup(this.byOrderIdIndex, orderId);
  }

  /** The order with this clientOrderId. */
  byClientOrderId(clientOrderId: string): TrackedOrder | undefined {
    return this.lookup(this.byClientOrderIdIndex, clientOrderId);
  }

  /** The order that has or had this contractId. */
  byContractId(contractId: string): TrackedOrder | undefined {
    return this.lookup(this.byContractIdIndex, contractId);
  }

  /** True when `contractId` is the current contract of a tracked order (cancels use only these). */
  isCurrentContractId(contractId: string): boolean {
    const order = this.byContractId(contractId);
    return order !== undefined && currentContractId(order) === contractId;
  }

  /** The active (non-terminal) orders of a slot: at most one unless {@link slotViolations}. */
  inSlot(slot: string): TrackedOrder[] {
    return [...(this.slots.get(slot) ?? [])].map((k) => this.mustGet(k));
  }

  /** Slots holding more than one active order. Empty while the invariant holds. */
  slotViolations(): SlotViolation[] {
    const out: SlotViolation[] = [];
    for (const [slot, keys] of this.slots) if (keys.size > 1) out.push({ slot, keys: [...keys] });
    return out;
  }

  /** Every tracked order matching `filter`. */
  all(filter: OrderFilter = {}): TrackedOrder[] {
    return [...this.orders.values()].filter((o) => matches(o, filter));
  }

  /** Non-terminal orders matching `filter`. */
  active(filter: OrderFilter = {}): TrackedOrder[] {
    return [...this.activeOrders.values()].filter((o) => matches(o, filter));
  }

  /** Orders that may be on the book (UNKNOWN and STRANDED included) matching `filter`. */
  live(filter: OrderFilter = {}): TrackedOrder[] {
    return this.all(filter).filter((o) => countsAsExposure(o.state));
  }

  /** Remaining size per side of the live orders of `pair`, counting UNKNOWN ones. */
  exposure(pair: string): PairExposure {
    const sides = { BUY: emptyExposure(), SELL: emptyExposure() };
    for (const o of this.live({ pair })) {
      const r = remaining(o);
      const s = sides[o.side];
      sides[o.side] = {
        quantity: s.quantity.plus(r),
        notional: o.price === null ? s.notional : s.notional.plus(r.times(o.price)),
        orders: s.orders + 1,
        unpriced: s.unpriced + (o.price === null ? 1 : 0),
      };
    }
    return sides;
  }

  /** How many orders are in each state (every state present, zero included). */
  countsByState(): Record<OrderState, number> {
    const counts = Object.fromEntries(ORDER_STATES.map((s) => [s, 0])) as Record<OrderState, number>;
    for (const o of this.orders.values()) counts[o.state] += 1;
    return counts;
  }

  /**
   * Forgets terminal orders last updated before `updatedBefore` (the journal keeps them).
   * Returns how many were removed.
   */
  evictTerminal(updatedBefore: number): number {
    let n = 0;
    for (const o of [...this.orders.values()]) {
      if (!isTerminal(o.state) || o.updatedAt >= updatedBefore) continue;
      this.orders.delete(o.key);
      // Sweep every index: it may also hold ids the order no longer carries (a re-prepared orderId).
      for (const map of [this.byOrderIdIndex, this.byClientOrderIdIndex, this.byContractIdIndex]) {
        for (const [id, key] of map) if (key === o.key) map.delete(id);
      }
      n += 1;
    }
    return n;
  }

  private commitNew(cause: TransitionCause, order: TrackedOrder): void {
    this.checkConflicts(order, true);
    const record: TransitionRecord = {
      cause,
      key: order.key,
      previous: null,
      order,
      event: null,
      effects: [],
    };
    this.writeAhead?.(record);
    this.store(order);
    this.notify(record);
  }

  /** Throws OrderConflictError when an id of `order` belongs to another key. */
  private checkConflicts(order: TrackedOrder, isNew: boolean): void {
    if (isNew && this.orders.has(order.key))
      throw new OrderConflictError('key', order.key, order.key, order.key);
    for (const [index, id] of idsOf(order)) {
      const existing = this.indexMap(index).get(id);
      if (existing !== undefined && existing !== order.key) {
        throw new OrderConflictError(index, id, existing, order.key);
      }
    }
  }

  private store(order: TrackedOrder): void {
    const known = this.orders.has(order.key);
    this.orders.set(order.key, order);
    this.storeActive(order, known);
    // Indexes only grow: an old orderId or contractId still resolves to its order.
    for (const [index, id] of idsOf(order)) this.indexMap(index).set(id, order.key);
    if (order.slot === null) return;
    let keys = this.slots.get(order.slot);
    if (isTerminal(order.state)) {
      keys?.delete(order.key);
      if (keys?.size === 0) this.slots.delete(order.slot);
      return;
    }
    if (keys === undefined) this.slots.set(order.slot, (keys = new Set()));
    keys.add(order.key);
  }

  /** Keeps {@link activeOrders} in step with {@link orders} (same order of iteration). */
  private storeActive(order: TrackedOrder, known: boolean): void {
    if (isTerminal(order.state)) {
      this.activeOrders.delete(order.key);
    } else if (this.activeOrders.has(order.key) || !known) {
      this.activeOrders.set(order.key, order); // in place, or appended like a new key of `orders`
    } else {
      // A terminal order made active again (only `restore` can): rebuild to keep the order.
      this.activeOrders.clear();
      for (const o of this.orders.values()) if (!isTerminal(o.state)) this.activeOrders.set(o.key, o);
    }
  }

  private notify(record: TransitionRecord): void {
    const errors: unknown[] = [];
    for (const listener of [...this.observers]) {
      try {
        listener(record);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) throw new ObserverError(record, errors);
  }

  private lookup(index: Map<string, string>, id: string): TrackedOrder | undefined {
    const key = index.get(id);
    return key === undefined ? undefined : this.orders.get(key);
  }

  private mustGet(key: string): TrackedOrder {
    const o = this.orders.get(key);
    if (o === undefined) throw new UnknownOrderError(key);
    return o;
  }

  private indexMap(index: Exclude<OrderIndexName, 'key'>): Map<string, string> {
    if (index === 'orderId') return this.byOrderIdIndex;
    if (index === 'clientOrderId') return this.byClientOrderIdIndex;
    return this.byContractIdIndex;
  }
}

/** The indexed ids of an order. */
function idsOf(o: TrackedOrder): [Exclude<OrderIndexName, 'key'>, string][] {
  const ids: [Exclude<OrderIndexName, 'key'>, string][] = [];
  if (o.orderId !== null) ids.push(['orderId', o.orderId]);
  if (o.clientOrderId !== null) ids.push(['clientOrderId', o.clientOrderId]);
  for (const c of o.contractIds) ids.push(['contractId', c]);
  return ids;
}

function matches(o: TrackedOrder, f: OrderFilter): boolean {
  return (
    (f.pair === undefined || o.pair === f.pair) &&
    (f.side === undefined || o.side === f.side) &&
    (f.slot === undefined || o.slot === f.slot) &&
    (f.foreign === undefined || o.flags.foreign === f.foreign)
  );
}

function emptyExposure(): SideExposure {
  return { quantity: ZERO, notional: ZERO, orders: 0, unpriced: 0 };
}

/**
 * An `onTransition` observer threw. The transition IS committed (`record` is the stored
 * change); the other observers still ran. Observers must not throw: this surfaces the bug.
 */
export class ObserverError extends Error {
  override readonly name = 'ObserverError';
  constructor(
    readonly record: TransitionRecord,
    readonly errors: readonly unknown[],
  ) {
    super(`${errors.length} transition observer(s) threw for order ${record.key}`, { cause: errors[0] });
  }
}
