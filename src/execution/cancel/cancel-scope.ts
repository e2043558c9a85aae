/**
 * The types shared between the cancel pool and one `CancelRun`: the {@link CancelJob} the pool
 * hands over (its three signals: before signing, the submission, the confirmation reads), an
 * attempt's {@link Step}, and {@link settledBody}, the outcome of an order that no longer needs
 * its cancel.
 */
import { isTerminal } from '../../orders/fsm/index.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import type { AbortCause, CancelOutcome } from '../execution-events.js';

/** One cancel as the pool hands it over. */
export interface CancelJob {
  readonly key: string;
  readonly reason: string;
  /** Caller signal + task timeout + close: stops the cancel anywhere before it is signed. */
  readonly signal: AbortSignal;
  /** Only the drain deadline: cuts an in-flight cancel submission. */
  readonly submitSignal: AbortSignal;
  /**
   * Caller signal + task timeout + the drain deadline, NOT close: a cancel already submitted
   * reads its order until it confirms (or its confirmation window passes) even once the pool
   * closes, so a close never leaves a cancel that may have landed without its outcome.
   */
  readonly confirmSignal: AbortSignal;
  readonly abortCause: () => AbortCause;
}

/** A {@link CancelOutcome} without the fields the run fills in. */
type Body<T> = T extends unknown ? Omit<T, 'key' | 'orderId' | 'filled'> : never;
export type OutcomeBody = Body<CancelOutcome>;
/** What one attempt came to: an outcome, or go round again (with or without a backoff). */
export type Step = OutcomeBody | { readonly again: 'now' | 'backoff' };

/** The outcome body when the order no longer needs this cancel, else null. */
export function settledBody(order: TrackedOrder, attempts: number): OutcomeBody | null {
  if (order.state === 'STRANDED') return { kind: 'stranded', attempts };
  if (!isTerminal(order.state)) return null;
  if (order.state === 'CANCELLED') return { kind: 'cancelled' };
  if (order.state === 'FILLED') return { kind: 'filled' };
  return { kind: 'ended', state: order.state };
}
