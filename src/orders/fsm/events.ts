/** The events that move an order: what the pipeline, the cancel pool and venue reads observed. */
import type { Dec } from '../../core/decimal.js';
import type { OrderType, Side } from '../../core/order-terms.js';

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
