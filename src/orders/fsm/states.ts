/**
 * The vocabulary of local order states: the states, their named groups, and the predicates every
 * caller asks instead of listing states (house rule 2). No file outside `src/orders/fsm/` lists
 * states; a new question about states becomes a predicate here.
 *
 * The groups follow an order's life (after nautilus_trader's `is_inflight` / `is_open` /
 * `is_closed`):
 *
 * ```
 * before submission   INTENT PREPARING PREPARED SIGNED        nothing of ours can be on the book
 * awaiting confirm.   SUBMITTING SUBMITTED UNKNOWN            may have committed; not yet read
 *   (in flight = before submission + awaiting confirmation)
 * resting             OPEN PARTIALLY_FILLED                   on the book, no cancel under way
 * cancelling          CANCEL_REQUESTED CANCELLING STRANDED    on the book, a cancel wanted
 *   (committed = resting + cancelling)
 * terminal            FILLED CANCELLED EXPIRED REJECTED ABANDONED
 * ```
 *
 * Exposure is awaiting confirmation + committed: SUBMITTING counts (the transaction may commit
 * before the call returns); PREPARED and SIGNED do not.
 */

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

/** Before submission: nothing of ours can be on the book, so a venue read is never applied. */
export const BEFORE_SUBMISSION_STATES = ['INTENT', 'PREPARING', 'PREPARED', 'SIGNED'] as const;

/** Submitted (or being submitted) and not yet seen resting: the placement awaits the ledger. */
export const AWAITING_CONFIRMATION_STATES = ['SUBMITTING', 'SUBMITTED', 'UNKNOWN'] as const;

/** On the book with no cancel under way. */
export const RESTING_STATES = ['OPEN', 'PARTIALLY_FILLED'] as const;

/** On the book with a cancel wanted or under way (STRANDED: the cancel cannot complete). */
export const CANCELLING_STATES = ['CANCEL_REQUESTED', 'CANCELLING', 'STRANDED'] as const;

/**
 * States in which the order may be on the book, so its remaining quantity counts as exposure.
 * SUBMITTING counts (the transaction may commit before the call returns); PREPARED and SIGNED do
 * not (nothing can be on the book before submission). UNKNOWN and STRANDED count.
 */
export const EXPOSURE_STATES = [
  ...AWAITING_CONFIRMATION_STATES,
  ...RESTING_STATES,
  ...CANCELLING_STATES,
] as const;

/** States an operator should look at: an outcome in doubt, or a cancel that cannot complete. */
export const ATTENTION_STATES = ['UNKNOWN', 'STRANDED'] as const;

/** The terminal states the venue can put an order in (ABANDONED is local only). */
export const VENUE_DONE_STATES = ['FILLED', 'CANCELLED', 'EXPIRED', 'REJECTED'] as const;
/** A terminal state the venue can report. */
export type VenueDoneState = (typeof VENUE_DONE_STATES)[number];

/** Where an order of ours in placement is, for `/status`: the step it waits on. */
const PLACEMENT_STEP: Partial<Record<OrderState, PlacementStep>> = {
  INTENT: 'waiting',
  PREPARING: 'prepare',
  PREPARED: 'sign',
  SIGNED: 'submit',
  SUBMITTING: 'submit',
  SUBMITTED: 'confirm',
};
/** A step of the placement pipeline, as `/status` names it. */
export type PlacementStep = 'waiting' | 'prepare' | 'sign' | 'submit' | 'confirm';

function among(list: readonly OrderState[], state: OrderState): boolean {
  return list.includes(state);
}

/** True for FILLED, CANCELLED, EXPIRED, REJECTED and ABANDONED. */
export function isTerminal(state: OrderState): state is TerminalState {
  return among(TERMINAL_STATES, state);
}

/** True when the order is not terminal: it occupies its quote slot. */
export function isActive(state: OrderState): boolean {
  return !isTerminal(state);
}

/** True before submission (INTENT … SIGNED): nothing of ours can be on the book. */
export function isBeforeSubmission(state: OrderState): boolean {
  return among(BEFORE_SUBMISSION_STATES, state);
}

/** True for PREPARED and SIGNED: a prepared transaction is held, not yet submitted. */
export function holdsPreparedTransaction(state: OrderState): boolean {
  return isBeforeSubmission(state) && state !== 'INTENT' && state !== 'PREPARING';
}

/** True while the placement may still be awaiting the ledger (SUBMITTING, SUBMITTED, UNKNOWN). */
export function isAwaitingConfirmation(state: OrderState): boolean {
  return among(AWAITING_CONFIRMATION_STATES, state);
}

/** True for SUBMITTED and UNKNOWN: the submission call has returned (or was lost); only a read settles it. */
export function isSubmitted(state: OrderState): boolean {
  return isAwaitingConfirmation(state) && state !== 'SUBMITTING';
}

/** True while a placement is under way and the order is not known to rest (INTENT … UNKNOWN). */
export function isInFlight(state: OrderState): boolean {
  return isBeforeSubmission(state) || isAwaitingConfirmation(state);
}

/** True while the order rests on the book and no cancel of it is wanted (OPEN, PARTIALLY_FILLED). */
export function isResting(state: OrderState): boolean {
  return among(RESTING_STATES, state);
}

/** True while a cancel of a committed order is wanted or under way (CANCEL_REQUESTED, CANCELLING, STRANDED). */
export function isCancelling(state: OrderState): boolean {
  return among(CANCELLING_STATES, state);
}

/** True when the order is committed on the book: resting or cancelling. */
export function isCommitted(state: OrderState): boolean {
  return isResting(state) || isCancelling(state);
}

/** True when the order is on the book and can still trade with its funds: committed, not STRANDED. */
export function isLiveOnBook(state: OrderState): boolean {
  return isCommitted(state) && state !== 'STRANDED';
}

/** True when the order may be on the book (see {@link EXPOSURE_STATES}). */
export function countsAsExposure(state: OrderState): boolean {
  return among(EXPOSURE_STATES, state);
}

/** True for UNKNOWN and STRANDED: states an operator should look at. */
export function needsAttention(state: OrderState): boolean {
  return among(ATTENTION_STATES, state);
}

/** The placement step an order of ours waits on (INTENT … SUBMITTED), or null once past it. */
export function placementStep(state: OrderState): PlacementStep | null {
  return PLACEMENT_STEP[state] ?? null;
}

/** A prepared transaction older than this can no longer commit (venue: 410 CACHE_EXPIRED). */
export const PREPARED_TX_LIFETIME_MS = 5 * 60_000;
