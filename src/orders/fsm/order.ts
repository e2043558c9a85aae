/**
 * The order record the state machine keeps, and its two constructors: an intent of ours
 * ({@link newIntent}) and a foreign order adopted from the venue ({@link newForeign}).
 */
import { ZERO } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import { isRestingStatus } from '../../core/order-status.js';
import type { OrderType, Side } from '../../core/order-terms.js';
import { isTerminal, type OrderState } from './states.js';

/** Why an alarm was raised. Alarms are recorded on the order and emitted as effects. */
export type AlarmReason =
  /** The prepared order differs from the intent (invariant 2: it is never signed). */
  | 'echo-mismatch'
  /** The venue reported a smaller cumulative `filled` than already recorded; not applied. */
  | 'filled-decreased'
  /** The venue reported `filled` above the quantity, or a negative one; not applied. */
  | 'overfill'
  /** The venue's quantity differs from ours; the read is not applied. */
  | 'quantity-mismatch'
  /** A read carried an older contractId of ours (a stale read); not applied. */
  | 'stale-contract-id'
  /** A resting status without a contractId. */
  | 'missing-contract-id'
  /** A venue status we do not know (or null on a committed order); the state is kept. */
  | 'unknown-status'
  /** GET /orders/{orderId} answered 404 for an order we saw committed. */
  | 'not-found-after-commit'
  /** The venue cancelled an order we never asked to cancel (operator or service-side). */
  | 'cancelled-by-venue'
  /** A fill discovered after the order reached a terminal state. It is still recorded. */
  | 'fill-after-terminal'
  /** The venue shows a terminal order resting, or in another terminal status. */
  | 'venue-contradicts-terminal'
  /** The order's backing funds are gone; it cannot be cancelled. */
  | 'stranded';

/**
 * One order as we track it. Immutable: {@link apply} returns a new record. Money and quantities
 * are `Dec`; times are epoch ms taken from events.
 */
export interface TrackedOrder {
  /** Stable local key, assigned at creation; never changes (orderId may, on a re-prepare). */
  readonly key: string;
  /** Quote slot, e.g. `BTC/USDC:BUY:0`. Null for foreign orders. */
  readonly slot: string | null;
  readonly pair: string;
  readonly side: Side;
  readonly type: OrderType;
  /** Limit price; null only for a MARKET order. */
  readonly price: Dec | null;
  readonly quantity: Dec;
  /** Our idempotency key. Null only for a foreign order placed without one. */
  readonly clientOrderId: string | null;
  /** The venue's stable id; null until Prepared. */
  readonly orderId: string | null;
  /** Every contractId the order has had, oldest first; the current one is last. */
  readonly contractIds: readonly string[];
  readonly state: OrderState;
  /** Cumulative filled quantity. Never decreases; never exceeds `quantity`. */
  readonly filled: Dec;
  /** Number of fill effects emitted so far (the last fill's sequence number). */
  readonly fills: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** When the current prepare returned (for the 5-minute rule). */
  readonly preparedAt: number | null;
  /** When the current submission started. */
  readonly submittedAt: number | null;
  /** The last venue status seen (null: none yet, or the venue said null). */
  readonly venueStatus: string | null;
  readonly flags: {
    /** Adopted from the venue, not placed by this journal. */
    readonly foreign: boolean;
    /** Every alarm reason ever raised on this order, first occurrence order. */
    readonly alarms: readonly AlarmReason[];
  };
  /** Set by the first CancelRequested; the cancel intent survives fills and retries. */
  readonly cancelReason: string | null;
  /** Why the order was rejected: a venue code, `NEVER_COMMITTED`, or `VENUE_REJECTED`. */
  readonly rejectCode: string | null;
  /** Number of events applied; the journal's per-order sequence. */
  readonly version: number;
}

/** The current contractId (the last of the history), or null before the order commits. */
export function currentContractId(order: TrackedOrder): string | null {
  return order.contractIds.at(-1) ?? null;
}

/** Quantity that can still execute: `quantity − filled`, and zero once the order is terminal. */
export function remaining(order: TrackedOrder): Dec {
  if (isTerminal(order.state)) return ZERO;
  // Asked of every active order on every quote pass: the last answer per order is kept while its
  // quantity and filled are the same decimals (a Dec never changes).
  const known = remainders.get(order);
  if (known !== undefined && known.quantity === order.quantity && known.filled === order.filled) {
    return known.remaining;
  }
  const r = order.quantity.minus(order.filled);
  const out = r.isNeg() ? ZERO : r;
  remainders.set(order, { quantity: order.quantity, filled: order.filled, remaining: out });
  return out;
}

const remainders = new WeakMap<
  TrackedOrder,
  { readonly quantity: Dec; readonly filled: Dec; readonly remaining: Dec }
>();

/** The fields of a new order intent. */
export interface IntentInput {
  /** Defaults to `clientOrderId`. */
  readonly key?: string;
  readonly slot: string;
  readonly pair: string;
  readonly side: Side;
  /** Defaults to LIMIT. */
  readonly type?: OrderType;
  readonly price: Dec | null;
  readonly quantity: Dec;
  readonly clientOrderId: string;
  readonly at: number;
}

/** Creates an order in INTENT. Throws RangeError on a non-positive quantity or price. */
export function newIntent(input: IntentInput): TrackedOrder {
  const type = input.type ?? 'LIMIT';
  if (!input.quantity.gt(ZERO)) throw new RangeError('intent quantity must be positive');
  if (input.price !== null && !input.price.gt(ZERO)) throw new RangeError('intent price must be positive');
  if (input.price === null && type === 'LIMIT') throw new RangeError('a LIMIT intent needs a price');
  return freezeOrder({
    key: input.key ?? input.clientOrderId,
    slot: input.slot,
    pair: input.pair,
    side: input.side,
    type,
    price: input.price,
    quantity: input.quantity,
    clientOrderId: input.clientOrderId,
    orderId: null,
    contractIds: [],
    state: 'INTENT',
    filled: ZERO,
    fills: 0,
    createdAt: input.at,
    updatedAt: input.at,
    preparedAt: null,
    submittedAt: null,
    venueStatus: null,
    flags: { foreign: false, alarms: [] },
    cancelReason: null,
    rejectCode: null,
    version: 0,
  });
}

/** The fields of a resting venue order the journal does not know. */
export interface ForeignInput {
  readonly orderId: string;
  readonly clientOrderId: string | null;
  readonly contractId: string | null;
  readonly pair: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly price: Dec | null;
  readonly quantity: Dec;
  readonly filled: Dec;
  /** Must be a resting status. */
  readonly status: string | null;
  readonly at: number;
}

/**
 * Creates a foreign order (flagged `foreign`, no slot) in OPEN or PARTIALLY_FILLED. Throws
 * RangeError unless the status is resting and `0 ≤ filled < quantity`.
 */
export function newForeign(input: ForeignInput): TrackedOrder {
  if (!isRestingStatus(input.status)) {
    throw new RangeError(`foreign order ${input.orderId} is not resting (status ${String(input.status)})`);
  }
  if (input.filled.isNeg() || !input.filled.lt(input.quantity)) {
    throw new RangeError(`foreign order ${input.orderId} has filled outside [0, quantity)`);
  }
  return freezeOrder({
    key: `foreign:${input.orderId}`,
    slot: null,
    pair: input.pair,
    side: input.side,
    type: input.type,
    price: input.price,
    quantity: input.quantity,
    clientOrderId: input.clientOrderId,
    orderId: input.orderId,
    contractIds: input.contractId === null ? [] : [input.contractId],
    state: input.filled.gt(ZERO) ? 'PARTIALLY_FILLED' : 'OPEN',
    filled: input.filled,
    fills: 0,
    createdAt: input.at,
    updatedAt: input.at,
    preparedAt: null,
    submittedAt: null,
    venueStatus: input.status,
    flags: { foreign: true, alarms: [] },
    cancelReason: null,
    rejectCode: null,
    version: 0,
  });
}

/** Freezes an order record (and its arrays) in place; every record the machine hands out is frozen. */
export function freezeOrder(o: TrackedOrder): TrackedOrder {
  Object.freeze(o.contractIds);
  Object.freeze(o.flags.alarms);
  Object.freeze(o.flags);
  return Object.freeze(o);
}
