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
//
// The machine, one concept a file: `states.ts` (the vocabulary and its predicates), `order.ts`
// (the record and its constructors), `events.ts`, `effects.ts` (and the illegal-transition
// error), `table.ts` (THE table and its guards), `echo-check.ts` (the prepared-order check),
// `apply.ts`. Import from this index.

export * from './states.js';
export * from './order.js';
export * from './events.js';
export * from './effects.js';
export * from './table.js';
export { echoDiffs, type EchoExpectation } from './echo-check.js';
export { apply } from './apply.js';
