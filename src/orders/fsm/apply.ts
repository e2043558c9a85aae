/**
 * {@link apply}: one event in, the next immutable order and its effects out. Pure: no IO, no
 * clock reads (times come in on events), no logging.
 */
import { toWire } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import { isRestingStatus, isTerminalStatus } from '../../core/order-status.js';
import { echoDiffs } from './echo-check.js';
import { IllegalTransitionError, type OrderEffect, type Transition } from './effects.js';
import type { OrderEvent, VenueView } from './events.js';
import { currentContractId, freezeOrder, type AlarmReason, type TrackedOrder } from './order.js';
import { isTerminal, type OrderState } from './states.js';
import { ECHO_MISMATCH, TRANSITIONS, type Facts, type Verdict } from './table.js';

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
  return { order: freezeOrder(d), effects: step.effects };
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
      if (!isRestingStatus(event.status)) {
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
  if (isRestingStatus(status)) return { kind: 'resting' };
  if (isTerminalStatus(status)) return { kind: 'done', state: status };
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
