/**
 * THE `(state, event) → state` table ({@link TRANSITIONS}) and its guards. A cell is a fixed next
 * state or a {@link Guard} that picks one of its declared targets from what absorbing the event
 * established ({@link Facts}); a missing cell is an illegal transition.
 */
import { ZERO } from '../../core/decimal.js';
import type { OrderEvent, OrderEventType } from './events.js';
import type { TrackedOrder } from './order.js';
import {
  PREPARED_TX_LIFETIME_MS,
  VENUE_DONE_STATES,
  type OrderState,
  type VenueDoneState,
} from './states.js';

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
