import { ZERO, toWire } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import { isResting, isTerminal as isVenueTerminal } from '../venue/order-status.js';
import type { OrderType, Side } from '../venue/schemas.js';

/**
 * The order state machine: every local state an order of ours can be in, every event that can
 * move it, and ONE explicit `(state, event) → state` table ({@link TRANSITIONS}).
 *
 * {@link apply} is a pure function — no IO, no clock reads (times come in on events), no
 * logging. It returns the next immutable {@link TrackedOrder} and the effects the outside world
 * must act on (fills for inventory, alarms, contract rotations, terminal notices). A
 * `(state, event)` pair that is not in the table, or that a guard refuses, throws
 * {@link IllegalTransitionError} and changes nothing.
 *
 * Design rules:
 * - Fills are derived from the venue's cumulative `filled` only: a larger value yields exactly one
 *   fill effect for the delta, an equal value yields none, a smaller value is flagged, never applied.
 * - Fills during a cancel are recorded without a state change: CANCEL_REQUESTED and CANCELLING
 *   keep the cancel intent and just carry a larger `filled`.
 * - A cancel requested before the order rests (INTENT … SUBMITTED, UNKNOWN) is a deferred cancel:
 *   `cancelReason` is set, and the order enters CANCEL_REQUESTED instead of OPEN once it rests.
 * - A venue status we do not know is never guessed: fills are applied, the state is kept (so the
 *   order still counts as exposure) and an alarm is raised. Only a fully filled order with an
 *   unknown status is concluded FILLED, since nothing of it can remain on the book.
 * - Residual expiry is the venue status EXPIRED (after a partial fill or not) → EXPIRED, no alarm.
 *   A residual that the venue labels FILLED although `filled < quantity` is kept as FILLED.
 * - Terminal states are final. Events that only observe (VenueSnapshot, NotFound) are still
 *   accepted there, so a late read can record a fill that happened before the end; anything the
 *   venue says that contradicts the terminal state raises an alarm instead.
 * - A read is applied all or nothing: one that lowers `filled`, exceeds or contradicts the
 *   quantity, or carries an older contractId of ours is stale; it is flagged and nothing of it
 *   (status, contractId, fill) is applied.
 * - UNKNOWN (and SUBMITTED) are resolved by a read (→ OPEN / PARTIALLY_FILLED / a terminal
 *   state) or by NeverCommitted → REJECTED with `rejectCode: 'NEVER_COMMITTED'`. The guard
 *   enforces the rule itself: the event's `at` must be ≥ 5 minutes after `preparedAt`, and the
 *   order must never have shown a contractId or a fill.
 * - Cancel outcomes (CancelConfirmed, CancelFailedFilled, CancelFailedCancelled) carry the
 *   cumulative `filled` of a read made after the outcome, so no fill is lost on the way out.
 * - Reads (VenueSnapshot) are illegal before submission (INTENT … SIGNED): nothing of ours can be
 *   on the book then. Recovery ends such orders with Abandoned (or CacheExpired to re-prepare).
 */

// ---------------------------------------------------------------------------------------------
// States
// ---------------------------------------------------------------------------------------------

/** Every local order state, in life order. */
export const ORDER_STATES = [
  'INTENT',
  'PREPARING',
  'PREPARED',
  'SIGNED',
  'SUBMITTING',
  'SUBMITTED',
  'UNKNOWN',
  'OPEN',
  'PARTIALLY_FILLED',
  'CANCEL_REQUESTED',
  'CANCELLING',
  'STRANDED',
  'FILLED',
  'CANCELLED',
  'EXPIRED',
  'REJECTED',
  'ABANDONED',
] as const;
/** A local order state. */
export type OrderState = (typeof ORDER_STATES)[number];

/** States no event leaves. ABANDONED: prepared (or only intended), never submitted. */
export const TERMINAL_STATES = ['FILLED', 'CANCELLED', 'EXPIRED', 'REJECTED', 'ABANDONED'] as const;
/** A terminal local state. */
export type TerminalState = (typeof TERMINAL_STATES)[number];

/**
 * States in which the order may be on the book, so its remaining quantity counts as exposure.
 * SUBMITTING counts (the transaction may commit before the call returns); PREPARED and SIGNED do
 * not (nothing can be on the book before submission). UNKNOWN and STRANDED count.
 */
export const EXPOSURE_STATES = [
  'SUBMITTING',
  'SUBMITTED',
  'UNKNOWN',
  'OPEN',
  'PARTIALLY_FILLED',
  'CANCEL_REQUESTED',
  'CANCELLING',
  'STRANDED',
] as const;

/** The terminal states the venue can put an order in (ABANDONED is local only). */
const VENUE_DONE_STATES = ['FILLED', 'CANCELLED', 'EXPIRED', 'REJECTED'] as const;
type VenueDoneState = (typeof VENUE_DONE_STATES)[number];

/** True for FILLED, CANCELLED, EXPIRED, REJECTED and ABANDONED. */
export function isTerminal(state: OrderState): state is TerminalState {
  return (TERMINAL_STATES as readonly string[]).includes(state);
}

/** True when the order is not terminal: it occupies its quote slot. */
export function isActive(state: OrderState): boolean {
  return !isTerminal(state);
}

/** True when the order may be on the book (see {@link EXPOSURE_STATES}). */
export function countsAsExposure(state: OrderState): boolean {
  return (EXPOSURE_STATES as readonly string[]).includes(state);
}

/** A prepared transaction older than this can no longer commit (venue: 410 CACHE_EXPIRED). */
export const PREPARED_TX_LIFETIME_MS = 5 * 60_000;

// ---------------------------------------------------------------------------------------------
// The tracked order
// ---------------------------------------------------------------------------------------------

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
  const r = order.quantity.minus(order.filled);
  return r.isNeg() ? ZERO : r;
}

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
  return freeze({
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
  if (!isResting(input.status)) {
    throw new RangeError(`foreign order ${input.orderId} is not resting (status ${String(input.status)})`);
  }
  if (input.filled.isNeg() || !input.filled.lt(input.quantity)) {
    throw new RangeError(`foreign order ${input.orderId} has filled outside [0, quantity)`);
  }
  return freeze({
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

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/** Every event type, for tables and tests. */
export const ORDER_EVENT_TYPES = [
  // placement pipeline
  'PrepareStarted',
  'Prepared',
  'PreparedLive',
  'PrepareFailed',
  'EchoMismatch',
  'Abandoned',
  'Signed',
  'SubmitStarted',
  'SubmitAccepted',
  'SubmitAmbiguous',
  'SubmitRejected',
  'SubmitThrottled',
  'CacheExpired',
  'ConfirmedResting',
  // reads of the venue
  'VenueSnapshot',
  'NotFound',
  'NeverCommitted',
  // cancel pool
  'CancelRequested',
  'CancelPrepareStarted',
  'CancelSubmitted',
  'CancelConfirmed',
  'CancelFailedFilled',
  'CancelFailedCancelled',
  'ContractRotated',
  'CancelStranded',
  'CancelRetry',
] as const;
/** The `type` of an {@link OrderEvent}. */
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/** The order as a prepare response echoes it, compared with the intent. */
export interface OrderEcho {
  readonly pair: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly price: Dec | null;
  readonly quantity: Dec;
  /** When present (non-null), must equal ours. */
  readonly clientOrderId?: string | null;
}

/** What a read of the venue says the order looks like. */
export interface VenueView {
  /** The venue status; null until the placement commits; may be a string we do not know. */
  readonly status: string | null;
  readonly contractId: string | null;
  /** Cumulative. */
  readonly filled: Dec;
  /** When present, must equal ours. */
  readonly quantity?: Dec;
}

interface At {
  /** Epoch ms of the observation; becomes `updatedAt`. */
  readonly at: number;
}

/** The pipeline sends the prepare (also a retry of one that timed out, same clientOrderId). */
export interface PrepareStarted extends At {
  readonly type: 'PrepareStarted';
}
/** 202: prepared, awaiting signature. The echo is compared with the intent. */
export interface Prepared extends At {
  readonly type: 'Prepared';
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly echo: OrderEcho;
}
/** 201: the clientOrderId's order is already on the book; nothing to sign. */
export interface PreparedLive extends At, VenueView {
  readonly type: 'PreparedLive';
  readonly orderId: string;
  readonly clientOrderId: string;
  readonly echo: OrderEcho;
}
/** The prepare was refused for good (a 4xx). */
export interface PrepareFailed extends At {
  readonly type: 'PrepareFailed';
  readonly code: string;
}
/** A deeper check of the prepared transaction (by the pipeline or signer) failed. */
export interface EchoMismatch extends At {
  readonly type: 'EchoMismatch';
  readonly detail: string;
}
/** The pipeline drops the order before submitting it. */
export interface Abandoned extends At {
  readonly type: 'Abandoned';
  readonly reason: string;
}
/** The prepared hash was signed. */
export interface Signed extends At {
  readonly type: 'Signed';
}
/** The submission is about to be sent (journalled before the IO). */
export interface SubmitStarted extends At {
  readonly type: 'SubmitStarted';
}
/** Submission 200: accepted and dispatched, not yet resting. */
export interface SubmitAccepted extends At {
  readonly type: 'SubmitAccepted';
}
/** Submission timeout, 5xx, or anything that may have committed. */
export interface SubmitAmbiguous extends At {
  readonly type: 'SubmitAmbiguous';
  readonly code: string;
}
/** Submission refused in a way that proves nothing was dispatched. */
export interface SubmitRejected extends At {
  readonly type: 'SubmitRejected';
  readonly code: string;
}
/** Submission 429: nothing dispatched; the same signed transaction may be sent again in time. */
export interface SubmitThrottled extends At {
  readonly type: 'SubmitThrottled';
}
/** 410, or the pipeline saw the 5 minutes pass: re-prepare with the same clientOrderId. */
export interface CacheExpired extends At {
  readonly type: 'CacheExpired';
}
/** The confirmation read shows the order resting (status must be a resting one). */
export interface ConfirmedResting extends At, VenueView {
  readonly type: 'ConfirmedResting';
}
/** Any read of the order (GET /orders/{orderId} or a GET /orders row). */
export interface VenueSnapshot extends At, VenueView {
  readonly type: 'VenueSnapshot';
}
/** GET /orders/{orderId} answered 404. */
export interface NotFound extends At {
  readonly type: 'NotFound';
}
/** The prepared transaction is past its lifetime and the order never showed committed. */
export interface NeverCommitted extends At {
  readonly type: 'NeverCommitted';
}
/** Cancel wanted (reconciler, shutdown, risk). The first reason is kept. */
export interface CancelRequested extends At {
  readonly type: 'CancelRequested';
  readonly reason: string;
}
/** The cancel pool sends the cancel prepare for the current contractId. */
export interface CancelPrepareStarted extends At {
  readonly type: 'CancelPrepareStarted';
}
/** The cancel transaction was submitted. */
export interface CancelSubmitted extends At {
  readonly type: 'CancelSubmitted';
}
/** A read after the cancel shows it CANCELLED. `filled` is that read's cumulative filled. */
export interface CancelConfirmed extends At {
  readonly type: 'CancelConfirmed';
  readonly filled: Dec;
}
/** 409 ORDER_ALREADY_FILLED. `filled` comes from reading the order after the 409. */
export interface CancelFailedFilled extends At {
  readonly type: 'CancelFailedFilled';
  readonly filled: Dec;
}
/** 409 ORDER_ALREADY_CANCELLED. `filled` comes from reading the order after the 409. */
export interface CancelFailedCancelled extends At {
  readonly type: 'CancelFailedCancelled';
  readonly filled: Dec;
}
/** The cancel hit a stale contractId (404); the order now rests under `contractId`. */
export interface ContractRotated extends At {
  readonly type: 'ContractRotated';
  readonly contractId: string;
}
/** The cancel cannot complete because the order's backing funds are gone. */
export interface CancelStranded extends At {
  readonly type: 'CancelStranded';
  readonly detail: string;
}
/** The cancel failed transiently (or the operator restored funds): try again. */
export interface CancelRetry extends At {
  readonly type: 'CancelRetry';
  readonly code?: string;
  /** Why, when the code alone does not say (a refused prepared cancel: what differed). */
  readonly detail?: string;
}

/** Every event the machine accepts, keyed by `type`. */
export type OrderEvent =
  | PrepareStarted
  | Prepared
  | PreparedLive
  | PrepareFailed
  | EchoMismatch
  | Abandoned
  | Signed
  | SubmitStarted
  | SubmitAccepted
  | SubmitAmbiguous
  | SubmitRejected
  | SubmitThrottled
  | CacheExpired
  | ConfirmedResting
  | VenueSnapshot
  | NotFound
  | NeverCommitted
  | CancelRequested
  | CancelPrepareStarted
  | CancelSubmitted
  | CancelConfirmed
  | CancelFailedFilled
  | CancelFailedCancelled
  | ContractRotated
  | CancelStranded
  | CancelRetry;

// Compile-time check: the list and the union name the same types.
type _AssertTrue<T extends true> = T;
type _EventTypesInSync = _AssertTrue<
  [Exclude<OrderEventType, OrderEvent['type']>, Exclude<OrderEvent['type'], OrderEventType>] extends [
    never,
    never,
  ]
    ? true
    : false
>;

// ---------------------------------------------------------------------------------------------
// Effects
// ---------------------------------------------------------------------------------------------

/** One execution, derived from a larger cumulative `filled`. Inventory is the sum of these. */
export interface FillEffect {
  readonly type: 'fill';
  readonly key: string;
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  readonly pair: string;
  readonly side: Side;
  /** The order's limit price (a resting maker order executes at it); null for MARKET. */
  readonly price: Dec | null;
  /** This fill's quantity: the delta of cumulative filled. */
  readonly quantity: Dec;
  /** Cumulative filled after this fill. */
  readonly filled: Dec;
  /** 1-based per order. */
  readonly seq: number;
  readonly contractId: string | null;
  readonly at: number;
}
/** The order now rests under a new contractId; cancels must use `to`. */
export interface RotatedEffect {
  readonly type: 'rotated';
  readonly key: string;
  readonly from: string | null;
  readonly to: string;
  readonly at: number;
}
/** The order reached a terminal state. */
export interface TerminalEffect {
  readonly type: 'terminal';
  readonly key: string;
  readonly state: TerminalState;
  readonly at: number;
}
/** Something needs a human or the risk gate. */
export interface AlarmEffect {
  readonly type: 'alarm';
  readonly key: string;
  readonly reason: AlarmReason;
  readonly detail: string;
  readonly at: number;
}
/** What the outside world must act on after a transition. */
export type OrderEffect = FillEffect | RotatedEffect | TerminalEffect | AlarmEffect;

/** The result of {@link apply}. */
export interface Transition {
  readonly order: TrackedOrder;
  readonly effects: readonly OrderEffect[];
}

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/** An event that the table (or a guard) does not allow in the order's state. Nothing changed. */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  /** orderId, or clientOrderId before the order has one, or the key as a last resort. */
  readonly orderRef: string;
  readonly key: string;
  readonly orderId: string | null;
  readonly clientOrderId: string | null;
  readonly state: OrderState;
  readonly eventType: OrderEventType;
  /** Set when a guard refused; undefined when the table has no entry. */
  readonly reason: string | undefined;

  constructor(order: TrackedOrder, eventType: OrderEventType, reason?: string) {
    const ref = order.orderId ?? order.clientOrderId ?? order.key;
    super(
      `order ${ref}: ${eventType} is illegal in ${order.state}${reason === undefined ? '' : `: ${reason}`}`,
    );
    this.orderRef = ref;
    this.key = order.key;
    this.orderId = order.orderId;
    this.clientOrderId = order.clientOrderId;
    this.state = order.state;
    this.eventType = eventType;
    this.reason = reason;
  }
}

// ---------------------------------------------------------------------------------------------
// The transition table
// ---------------------------------------------------------------------------------------------

/** How a venue read classifies once validated. */
export type Verdict =
  /** Stale or inconsistent: nothing of it was applied. */
  | { readonly kind: 'ignored' }
  | { readonly kind: 'resting' }
  | { readonly kind: 'done'; readonly state: VenueDoneState }
  /** Status null: prepared or submitted, not committed (yet). */
  | { readonly kind: 'pending' }
  /** A status we do not know: fills applied, state kept. */
  | { readonly kind: 'unrecognised' };

/** What absorbing the event's data established, for guards to read. */
export interface Facts {
  readonly echoMatches: boolean;
  readonly verdict: Verdict | null;
}

/** A guard's refusal; becomes an {@link IllegalTransitionError} with this reason. */
export interface Refusal {
  readonly refused: string;
}

/** A computed edge: the targets it can produce, and the function choosing one. */
export interface Guard {
  readonly targets: readonly OrderState[];
  /** `order` already carries the event's data (fills, ids, cancelReason). */
  readonly decide: (order: TrackedOrder, event: OrderEvent, facts: Facts) => OrderState | Refusal;
}

/** A table cell: a fixed next state, or a guard. */
export type Rule = OrderState | Guard;
/** The shape of {@link TRANSITIONS}. */
export type TransitionTable = { readonly [S in OrderState]: Readonly<Partial<Record<OrderEventType, Rule>>> };

/** Where a resting order enters the book: a deferred cancel wins, then fills decide. */
function restingEntry(order: TrackedOrder): OrderState {
  if (order.cancelReason !== null) return 'CANCEL_REQUESTED';
  return order.filled.gt(ZERO) ? 'PARTIALLY_FILLED' : 'OPEN';
}
const RESTING_ENTRY_TARGETS: readonly OrderState[] = ['OPEN', 'PARTIALLY_FILLED', 'CANCEL_REQUESTED'];

function byFilled(order: TrackedOrder): OrderState {
  return order.filled.gt(ZERO) ? 'PARTIALLY_FILLED' : 'OPEN';
}

/**
 * A guard for a venue read: resting → `resting(order)`; a terminal venue status → that state;
 * pending, unknown or ignored reads → `otherwise`.
 */
function onVenueRead(
  otherwise: OrderState,
  resting: (order: TrackedOrder) => OrderState,
  restingTargets: readonly OrderState[],
): Guard {
  return {
    targets: [...new Set<OrderState>([...restingTargets, ...VENUE_DONE_STATES, otherwise])],
    decide: (order, _event, facts) => {
      const v = facts.verdict;
      if (v?.kind === 'resting') return resting(order);
      if (v?.kind === 'done') return v.state;
      return otherwise;
    },
  };
}
/** The confirmation read (resting by construction): enter the book, or stay if the read was ignored. */
function onConfirmation(self: OrderState): Guard {
  return {
    targets: [...RESTING_ENTRY_TARGETS, self],
    decide: (order, _event, facts) => (facts.verdict?.kind === 'resting' ? restingEntry(order) : self),
  };
}

/** A read that keeps the state unless the venue says the order is done. */
const keepUnlessDone = (self: OrderState): Guard => onVenueRead(self, () => self, [self]);

/** The reject code of an order whose prepared echo differed from the intent. */
export const ECHO_MISMATCH = 'ECHO_MISMATCH';

const PREPARED_OR_REJECTED: Guard = {
  targets: ['PREPARED', 'REJECTED'],
  // Invariant 2: a prepared order that differs from the intent is never signed; it is recorded
  // as rejected (rejectCode ECHO_MISMATCH), and the unsigned prepare commits nothing.
  decide: (_order, _event, facts) => (facts.echoMatches ? 'PREPARED' : 'REJECTED'),
};

const NEVER_COMMITTED: Guard = {
  targets: ['REJECTED'],
  decide: (order, event) => {
    if (order.contractIds.length > 0 || order.filled.gt(ZERO)) {
      return { refused: 'the order was seen committed' };
    }
    if (order.preparedAt === null) return { refused: 'no preparedAt to prove the deadline passed' };
    if (event.at - order.preparedAt < PREPARED_TX_LIFETIME_MS) {
      return { refused: 'the prepared transaction is younger than 5 minutes and may still commit' };
    }
    return 'REJECTED';
  },
};

/**
 * THE transition table. A missing cell is an illegal transition. Self-loops record data (fills,
 * ids, reasons) without moving the state.
 */
export const TRANSITIONS: TransitionTable = {
  INTENT: {
    PrepareStarted: 'PREPARING',
    CancelRequested: 'INTENT', // deferred cancel: nothing to cancel yet; the pipeline should abandon
    Abandoned: 'ABANDONED', // intent dropped before any prepare
  },
  PREPARING: {
    PrepareStarted: 'PREPARING', // retry after a prepare timeout or 5xx, same clientOrderId
    Prepared: PREPARED_OR_REJECTED,
    // 201: a repeated prepare of a live clientOrderId; a read we cannot classify leaves it UNKNOWN
    PreparedLive: onVenueRead('UNKNOWN', restingEntry, RESTING_ENTRY_TARGETS),
    PrepareFailed: 'REJECTED',
    Abandoned: 'ABANDONED', // a prepare alone never puts anything on the book
    CancelRequested: 'PREPARING', // deferred cancel
  },
  PREPARED: {
    Signed: 'SIGNED',
    EchoMismatch: 'REJECTED', // refused to sign what was not asked for; nothing was submitted
    Abandoned: 'ABANDONED',
    CacheExpired: 'PREPARING', // the 5 minutes passed before signing: re-prepare, same clientOrderId
    CancelRequested: 'PREPARED', // deferred cancel
    NotFound: 'PREPARED', // expected: nothing committed
  },
  SIGNED: {
    SubmitStarted: 'SUBMITTING',
    Abandoned: 'ABANDONED', // signed but never sent: the transaction dies with its 5 minutes
    CacheExpired: 'PREPARING',
    CancelRequested: 'SIGNED', // deferred cancel
    NotFound: 'SIGNED',
  },
  SUBMITTING: {
    SubmitAccepted: 'SUBMITTED',
    SubmitAmbiguous: 'UNKNOWN',
    SubmitRejected: 'REJECTED',
    SubmitThrottled: 'SIGNED', // 429: nothing dispatched; the same signature may be sent again
    CacheExpired: 'PREPARING', // 410: this transaction can never commit; re-prepare
    VenueSnapshot: 'SUBMITTING', // a poller saw it before the submit call returned: record, keep state
    NotFound: 'SUBMITTING',
    CancelRequested: 'SUBMITTING', // deferred cancel
  },
  SUBMITTED: {
    ConfirmedResting: onConfirmation('SUBMITTED'),
    // SUBMITTED → FILLED when a taker filled it entirely before our first confirmation read
    VenueSnapshot: onVenueRead('SUBMITTED', restingEntry, RESTING_ENTRY_TARGETS),
    NotFound: 'SUBMITTED', // a 200 is not a commit; it may still show up
    NeverCommitted: NEVER_COMMITTED, // a 200 whose transaction never confirmed (degraded network)
    CancelRequested: 'SUBMITTED', // deferred cancel
  },
  UNKNOWN: {
    ConfirmedResting: onConfirmation('UNKNOWN'), // UNKNOWN → OPEN when the read shows it committed
    VenueSnapshot: onVenueRead('UNKNOWN', restingEntry, RESTING_ENTRY_TARGETS),
    NotFound: 'UNKNOWN', // not proof of anything until the deadline passed
    NeverCommitted: NEVER_COMMITTED, // settles "never committed": a dedicated REJECTED (rejectCode NEVER_COMMITTED)
    CancelRequested: 'UNKNOWN', // deferred cancel
  },
  OPEN: {
    VenueSnapshot: onVenueRead('OPEN', byFilled, ['OPEN', 'PARTIALLY_FILLED']),
    ContractRotated: 'OPEN', // rotation implies a fill; the fill itself arrives with the next read
    CancelRequested: 'CANCEL_REQUESTED',
    NotFound: 'OPEN', // alarm: a committed order vanished; keep counting it
  },
  PARTIALLY_FILLED: {
    // PARTIALLY_FILLED → EXPIRED on residual expiry (residual below minQuoteAmount)
    VenueSnapshot: onVenueRead('PARTIALLY_FILLED', byFilled, ['PARTIALLY_FILLED']),
    ContractRotated: 'PARTIALLY_FILLED',
    CancelRequested: 'CANCEL_REQUESTED',
    NotFound: 'PARTIALLY_FILLED',
  },
  CANCEL_REQUESTED: {
    CancelPrepareStarted: 'CANCELLING',
    CancelRequested: 'CANCEL_REQUESTED', // idempotent; the first reason is kept
    VenueSnapshot: keepUnlessDone('CANCEL_REQUESTED'), // fills recorded, cancel intent kept
    ContractRotated: 'CANCEL_REQUESTED',
    NotFound: 'CANCEL_REQUESTED',
  },
  CANCELLING: {
    CancelSubmitted: 'CANCELLING',
    CancelConfirmed: 'CANCELLED',
    CancelFailedFilled: 'FILLED', // CANCELLING → FILLED on 409 ORDER_ALREADY_FILLED
    CancelFailedCancelled: 'CANCELLED', // 409 ORDER_ALREADY_CANCELLED: cancelled by someone else
    CancelRetry: 'CANCEL_REQUESTED',
    ContractRotated: 'CANCEL_REQUESTED', // the cancel targeted a stale contract: redo with the current one
    CancelStranded: 'STRANDED',
    VenueSnapshot: keepUnlessDone('CANCELLING'), // fills recorded, cancel intent kept
    CancelRequested: 'CANCELLING',
    NotFound: 'CANCELLING',
  },
  STRANDED: {
    // still counts as exposure; only the operator (→ CANCELLED) or a fill can end it
    VenueSnapshot: keepUnlessDone('STRANDED'),
    CancelRetry: 'CANCEL_REQUESTED', // the operator restored the funds
    CancelRequested: 'STRANDED', // the cancel pool must skip stranded orders
    ContractRotated: 'STRANDED',
    NotFound: 'STRANDED',
  },
  // Terminal: reads are accepted to record late fills and flag contradictions; the state never moves.
  FILLED: { VenueSnapshot: 'FILLED', NotFound: 'FILLED' },
  CANCELLED: { VenueSnapshot: 'CANCELLED', NotFound: 'CANCELLED' },
  EXPIRED: { VenueSnapshot: 'EXPIRED', NotFound: 'EXPIRED' },
  REJECTED: { VenueSnapshot: 'REJECTED', NotFound: 'REJECTED' },
  ABANDONED: { VenueSnapshot: 'ABANDONED', NotFound: 'ABANDONED' },
};

/** The states a table cell can lead to (one for a fixed cell), or [] when the pair is illegal. */
export function possibleTargets(state: OrderState, eventType: OrderEventType): readonly OrderState[] {
  const rule = TRANSITIONS[state][eventType];
  if (rule === undefined) return [];
  return typeof rule === 'string' ? [rule] : rule.targets;
}

/** True when the table has a cell for the pair (a guard may still refuse the actual event). */
export function canApply(state: OrderState, eventType: OrderEventType): boolean {
  return TRANSITIONS[state][eventType] !== undefined;
}

// ---------------------------------------------------------------------------------------------
// apply
// ---------------------------------------------------------------------------------------------

type Draft = { -readonly [K in keyof TrackedOrder]: TrackedOrder[K] };

/** Accumulates the new order and the effects while one event is absorbed. */
class Step {
  readonly effects: OrderEffect[] = [];
  readonly draft: Draft;

  constructor(
    readonly before: TrackedOrder,
    readonly event: OrderEvent,
  ) {
    this.draft = { ...before };
  }

  refuse(reason: string): never {
    throw new IllegalTransitionError(this.before, this.event.type, reason);
  }

  alarm(reason: AlarmReason, detail: string): void {
    const d = this.draft;
    if (!d.flags.alarms.includes(reason)) d.flags = { ...d.flags, alarms: [...d.flags.alarms, reason] };
    this.effects.push({ type: 'alarm', key: d.key, reason, detail, at: this.event.at });
  }

  /** Raises cumulative filled to `filled`, emitting exactly one fill for the delta. */
  fillTo(filled: Dec): void {
    const d = this.draft;
    if (!filled.gt(d.filled)) return;
    const seq = d.fills + 1;
    this.effects.push({
      type: 'fill',
      key: d.key,
      orderId: d.orderId,
      clientOrderId: d.clientOrderId,
      pair: d.pair,
      side: d.side,
      price: d.price,
      quantity: filled.minus(d.filled),
      filled,
      seq,
      contractId: currentContractId(d),
      at: this.event.at,
    });
    d.filled = filled;
    d.fills = seq;
  }

  /** Appends a new contractId; a historical one is a stale read and is flagged, not applied. */
  rotateTo(contractId: string): void {
    const d = this.draft;
    const from = currentContractId(d);
    if (contractId === from) return;
    if (d.contractIds.includes(contractId)) {
      this.alarm('stale-contract-id', `contractId ${contractId} is older than the current ${String(from)}`);
      return;
    }
    d.contractIds = [...d.contractIds, contractId];
    this.effects.push({ type: 'rotated', key: d.key, from, to: contractId, at: this.event.at });
  }
}

/**
 * Applies one event: looks the pair up in {@link TRANSITIONS}, absorbs the event's data, lets a
 * guard pick the target, and returns the new order and its effects. Pure. Throws
 * {@link IllegalTransitionError} (and changes nothing) when the pair is not in the table or a
 * guard refuses.
 */
export function apply(order: TrackedOrder, event: OrderEvent): Transition {
  const rule = TRANSITIONS[order.state][event.type];
  if (rule === undefined) throw new IllegalTransitionError(order, event.type);
  const step = new Step(order, event);
  const facts = absorb(step);
  let next: OrderState;
  if (typeof rule === 'string') {
    next = rule;
  } else {
    const decided = rule.decide(step.draft, event, facts);
    if (typeof decided !== 'string') throw new IllegalTransitionError(order, event.type, decided.refused);
    if (!rule.targets.includes(decided)) {
      throw new Error(`guard ${order.state}×${event.type} chose ${decided}, not a declared target`);
    }
    next = decided;
  }
  const d = step.draft;
  d.state = next;
  d.updatedAt = event.at;
  d.version = order.version + 1;
  if (isTerminal(next) && !isTerminal(order.state)) {
    step.effects.push({ type: 'terminal', key: d.key, state: next, at: event.at });
  }
  return { order: freeze(d), effects: step.effects };
}

const NO_FACTS: Facts = { echoMatches: true, verdict: null };

/** Copies the event's data onto the draft. State-independent except for terminal reads. */
function absorb(step: Step): Facts {
  const { event, draft: d } = step;
  switch (event.type) {
    case 'Prepared': {
      if (event.clientOrderId !== d.clientOrderId) {
        step.refuse(`clientOrderId ${event.clientOrderId} is not ours`);
      }
      d.orderId = event.orderId;
      d.preparedAt = event.at;
      const diffs = echoDiffs(d, event.echo);
      if (diffs.length > 0) {
        step.alarm('echo-mismatch', diffs.join('; '));
        d.rejectCode = ECHO_MISMATCH;
      }
      return { echoMatches: diffs.length === 0, verdict: null };
    }
    case 'PreparedLive': {
      if (event.clientOrderId !== d.clientOrderId) {
        step.refuse(`clientOrderId ${event.clientOrderId} is not ours`);
      }
      d.orderId = event.orderId;
      const diffs = echoDiffs(d, event.echo);
      if (diffs.length > 0) {
        // What rests is what counts: track the venue's order and cancel it.
        step.alarm('echo-mismatch', diffs.join('; '));
        d.pair = event.echo.pair;
        d.side = event.echo.side;
        d.type = event.echo.type;
        d.price = event.echo.price;
        d.quantity = event.echo.quantity;
        d.cancelReason ??= 'echo-mismatch';
      }
      return {
        echoMatches: diffs.length === 0,
        verdict: absorbRead(step, { ...event, quantity: event.echo.quantity }),
      };
    }
    case 'PrepareFailed':
    case 'SubmitRejected':
      d.rejectCode = event.code;
      return NO_FACTS;
    case 'EchoMismatch':
      step.alarm('echo-mismatch', event.detail);
      d.rejectCode = ECHO_MISMATCH;
      return NO_FACTS;
    case 'SubmitStarted':
      d.submittedAt = event.at;
      return NO_FACTS;
    case 'SubmitThrottled':
      d.submittedAt = null;
      return NO_FACTS;
    case 'CacheExpired':
      d.preparedAt = null;
      d.submittedAt = null;
      return NO_FACTS;
    case 'ConfirmedResting':
      if (!isResting(event.status)) {
        step.refuse(`status ${String(event.status)} is not resting; send VenueSnapshot`);
      }
      return { echoMatches: true, verdict: absorbRead(step, event) };
    case 'VenueSnapshot':
      return { echoMatches: true, verdict: absorbRead(step, event) };
    case 'NotFound':
      if (d.contractIds.length > 0 && !isTerminal(d.state)) {
        step.alarm('not-found-after-commit', `GET /orders/${String(d.orderId)} answered 404`);
      }
      return NO_FACTS;
    case 'NeverCommitted':
      d.rejectCode = 'NEVER_COMMITTED';
      return NO_FACTS;
    case 'CancelRequested':
      d.cancelReason ??= event.reason;
      return NO_FACTS;
    case 'CancelConfirmed':
    case 'CancelFailedFilled':
    case 'CancelFailedCancelled':
      absorbFinalFilled(step, event.filled);
      return NO_FACTS;
    case 'ContractRotated':
      step.rotateTo(event.contractId);
      return NO_FACTS;
    case 'CancelStranded':
      step.alarm('stranded', event.detail);
      return NO_FACTS;
    case 'PrepareStarted':
    case 'Abandoned':
    case 'Signed':
    case 'SubmitAccepted':
    case 'SubmitAmbiguous':
    case 'CancelPrepareStarted':
    case 'CancelSubmitted':
    case 'CancelRetry':
      return NO_FACTS;
  }
}

/** Validates a venue read, applies its fill and rotation, and classifies it. */
function absorbRead(step: Step, view: VenueView): Verdict {
  const d = step.draft;
  const terminal = isTerminal(d.state);
  const filled = toWire(view.filled);
  // A read that contradicts itself or what we know is flagged and not applied at all: a stale
  // read must neither lower filled nor move the contractId back.
  if (view.filled.isNeg() || view.filled.gt(d.quantity) || (view.quantity && view.filled.gt(view.quantity))) {
    step.alarm('overfill', `venue filled ${filled} exceeds quantity ${toWire(d.quantity)}`);
    return { kind: 'ignored' };
  }
  if (view.quantity && !view.quantity.eq(d.quantity)) {
    step.alarm('quantity-mismatch', `venue quantity ${toWire(view.quantity)} ≠ ours ${toWire(d.quantity)}`);
    return { kind: 'ignored' };
  }
  if (view.filled.lt(d.filled)) {
    step.alarm('filled-decreased', `venue filled ${filled} < recorded ${toWire(d.filled)}`);
    return { kind: 'ignored' };
  }
  if (
    view.contractId !== null &&
    view.contractId !== currentContractId(d) &&
    d.contractIds.includes(view.contractId)
  ) {
    step.alarm('stale-contract-id', `read carries old contractId ${view.contractId}`);
    return { kind: 'ignored' };
  }

  const hadFilled = d.filled;
  step.fillTo(view.filled);
  d.venueStatus = view.status;
  const verdict = classify(view.status, d);

  if (terminal) {
    if (view.filled.gt(hadFilled))
      step.alarm('fill-after-terminal', `filled ${filled} seen after ${d.state}`);
    const venueSays =
      verdict.kind === 'done' ? verdict.state : verdict.kind === 'resting' ? view.status : null;
    if (venueSays !== null && venueSays !== d.state) {
      step.alarm('venue-contradicts-terminal', `venue says ${String(venueSays)}, we say ${d.state}`);
    }
    return verdict;
  }

  if (view.contractId !== null) step.rotateTo(view.contractId);
  if (verdict.kind === 'resting' && view.contractId === null) {
    step.alarm('missing-contract-id', `status ${String(view.status)} without a contractId`);
  }
  if (verdict.kind === 'unrecognised' || (verdict.kind === 'pending' && d.contractIds.length > 0)) {
    step.alarm('unknown-status', `venue status ${String(view.status)}`);
  }
  if (
    verdict.kind === 'done' &&
    verdict.state === 'CANCELLED' &&
    d.cancelReason === null &&
    d.state !== 'STRANDED'
  ) {
    step.alarm('cancelled-by-venue', 'cancelled without a cancel request of ours');
  }
  return verdict;
}

/** Maps a venue status to a verdict. Unknown statuses are not guessed (see the module doc). */
function classify(status: string | null, d: Draft): Verdict {
  if (status === null) return { kind: 'pending' };
  if (isResting(status)) return { kind: 'resting' };
  if (isVenueTerminal(status)) return { kind: 'done', state: status };
  // Nothing of a fully filled order can remain on the book, whatever the status is called.
  if (d.filled.eq(d.quantity)) return { kind: 'done', state: 'FILLED' };
  return { kind: 'unrecognised' };
}

/** The cumulative filled carried by a cancel outcome: applied when sane, flagged otherwise. */
function absorbFinalFilled(step: Step, filled: Dec): void {
  const d = step.draft;
  if (filled.lt(d.filled)) {
    step.alarm('filled-decreased', `cancel outcome filled ${toWire(filled)} < recorded ${toWire(d.filled)}`);
  } else if (filled.gt(d.quantity)) {
    step.alarm('overfill', `cancel outcome filled ${toWire(filled)} exceeds quantity ${toWire(d.quantity)}`);
  } else {
    step.fillTo(filled);
  }
}

/** Human-readable differences between the intent and a prepare echo; empty when they match. */
function echoDiffs(order: TrackedOrder, echo: OrderEcho): string[] {
  const diffs: string[] = [];
  if (echo.pair !== order.pair) diffs.push(`pair ${echo.pair} ≠ ${order.pair}`);
  if (echo.side !== order.side) diffs.push(`side ${echo.side} ≠ ${order.side}`);
  if (echo.type !== order.type) diffs.push(`type ${echo.type} ≠ ${order.type}`);
  const samePrice =
    echo.price === null || order.price === null ? echo.price === order.price : echo.price.eq(order.price);
  if (!samePrice) diffs.push(`price ${wireOrNull(echo.price)} ≠ ${wireOrNull(order.price)}`);
  if (!echo.quantity.eq(order.quantity))
    diffs.push(`quantity ${toWire(echo.quantity)} ≠ ${toWire(order.quantity)}`);
  if (echo.clientOrderId != null && echo.clientOrderId !== order.clientOrderId) {
    diffs.push(`clientOrderId ${echo.clientOrderId} ≠ ${String(order.clientOrderId)}`);
  }
  return diffs;
}

function wireOrNull(v: Dec | null): string {
  return v === null ? 'null' : toWire(v);
}

function freeze(o: TrackedOrder): TrackedOrder {
  Object.freeze(o.contractIds);
  Object.freeze(o.flags.alarms);
  Object.freeze(o.flags);
  return Object.freeze(o);
}
