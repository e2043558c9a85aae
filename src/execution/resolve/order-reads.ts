/**
 * One read of our own order, GET /orders/{orderId}, as the execution layer uses it: fetched and
 * classified ({@link OrderRead}: the order, a 404 that proves nothing about ownership, or a failed
 * read), reported to the party's credential state, and applied to the tracked order through the
 * state machine (a resting read confirms a submitted order). Shared by the confirmation reads,
 * the unknown-order resolver and the cancel path; the reads that settle "did it commit?".
 */
import { dec } from '../../core/decimal.js';
import { isRestingStatus } from '../../core/order-status.js';
import { VenueError } from '../../venue/errors.js';
import type { Order } from '../../venue/schemas.js';
import {
  isAwaitingConfirmation,
  isBeforeSubmission,
  isSubmitted,
  type OrderEvent,
  type TrackedOrder,
} from '../../orders/fsm/index.js';
import { snapshotFromWire, viewFromWire } from '../../orders/wire-events.js';
import { hasCommitEvidence, type ExecutionContext } from '../execution-context.js';

/** One GET /orders/{orderId}, classified. */
export type OrderRead =
  | { readonly kind: 'order'; readonly order: Order; readonly at: number }
  /** 404 CONTRACT_NOT_FOUND: unknown id (or not ours); deliberately indistinguishable. */
  | { readonly kind: 'not-found'; readonly at: number }
  /** The read itself failed (after the client's own retries); it proves nothing. */
  | { readonly kind: 'failed'; readonly code: string; readonly at: number };

/** A successful read showing nothing of the order committed: 404, or status null with no contract or fill. */
export function showsNothing(read: OrderRead | null): boolean {
  if (read === null || read.kind === 'failed') return false;
  if (read.kind === 'not-found') return true;
  const o = read.order;
  return o.status === null && o.contractId === null && dec(o.filled).isZero();
}

/**
 * Reads GET /orders/{orderId} and reports the answer to the party's credential state. Never
 * rejects on venue errors; rethrows programming errors.
 */
export async function fetchOrder(
  ctx: ExecutionContext,
  orderId: string,
  signal?: AbortSignal,
): Promise<OrderRead> {
  try {
    const order = await ctx.venue.getOrder(orderId, signal === undefined ? {} : { signal });
    ctx.credentials.accepted();
    return { kind: 'order', order, at: ctx.now() };
  } catch (err) {
    if (!(err instanceof VenueError)) throw err;
    if (err.code === 'CONTRACT_NOT_FOUND') {
      ctx.credentials.accepted();
      return { kind: 'not-found', at: ctx.now() };
    }
    ctx.credentials.failed(err);
    return { kind: 'failed', code: err.code, at: ctx.now() };
  }
}

/**
 * Applies a read to the tracked order and returns the order as it stands afterwards: a resting
 * read of a SUBMITTED/UNKNOWN order is its confirmation, any other read a VenueSnapshot, a 404 a
 * NotFound. Reads that are illegal in the current state, or that name another clientOrderId, are
 * not applied. Journal failures propagate.
 */
export function applyRead(ctx: ExecutionContext, key: string, read: OrderRead): TrackedOrder {
  const before = ctx.order(key);
  if (read.kind === 'failed' || isBeforeSubmission(before.state)) return before;
  // A read that says "nothing yet" about an order still awaiting the ledger changes nothing:
  // not journaled, so confirmation polling does not write a row per read.
  if (isAwaitingConfirmation(before.state) && !hasCommitEvidence(before) && showsNothing(read)) return before;
  let event: OrderEvent;
  if (read.kind === 'not-found') {
    event = { type: 'NotFound', at: read.at };
  } else {
    const cid = read.order.clientOrderId ?? null;
    if (cid !== null && before.clientOrderId !== null && cid !== before.clientOrderId) {
      ctx.alarm('internal-error', key, `GET /orders/${read.order.orderId} returned clientOrderId ${cid}`);
      return before;
    }
    const resting = isRestingStatus(read.order.status);
    event =
      resting && isSubmitted(before.state)
        ? { type: 'ConfirmedResting', ...viewFromWire(read.order), at: read.at }
        : snapshotFromWire(read.order, read.at);
  }
  ctx.apply(key, event);
  return ctx.order(key);
}

/** Reads the order by its current orderId and applies the read. `null` order id: nothing to read. */
export async function refreshOrder(
  ctx: ExecutionContext,
  key: string,
  signal?: AbortSignal,
): Promise<{ read: OrderRead | null; order: TrackedOrder }> {
  const orderId = ctx.order(key).orderId;
  if (orderId === null) return { read: null, order: ctx.order(key) };
  const read = await fetchOrder(ctx, orderId, signal);
  return { read, order: applyRead(ctx, key, read) };
}
