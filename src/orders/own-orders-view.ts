/**
 * The daemon's own orders as the strategy, the reconciler and the risk gate see them
 * ({@link OwnOrderView}): every active order of the registry, plus the intents the daemon has
 * handed to the placement pipeline that the registry does not hold yet.
 *
 * Quote slots and registry slots. The strategy names a quote slot `<pair>:<side>:<level>`. The
 * registry holds at most one active order per registry slot, and the daemon gives each quote slot
 * two registry slots, `<slot>#0` and `<slot>#1`, so that a replacement can be placed while the
 * order it replaces still rests (make before break): the new order goes to the free registry slot
 * and the old one is cancelled once the new one rests. So a quote slot has at most two live
 * orders, briefly, and only during a replacement; a registry slot never has two.
 */
import { ZERO } from '../core/decimal.js';
import type { Dec } from '../core/decimal.js';
import { isCancelling, isResting, remaining, type TrackedOrder } from './fsm/index.js';
import type { Side } from '../core/order-terms.js';

/**
 * One of the daemon's own orders as the strategy and the reconciler see it: enough to keep,
 * replace or cancel it, nothing of the pipeline's internals.
 */
export interface OwnOrderView {
  /** The registry key of the order. */
  readonly key: string;
  /** The quote slot, `<pair>:<side>:<level>`, or null for adopted/foreign orders. */
  readonly slot: string | null;
  readonly pair: string;
  readonly side: Side;
  readonly price: Dec;
  /** Quantity not yet filled. */
  readonly remaining: Dec;
  /** Resting on the book (OPEN / PARTIALLY_FILLED); false while placing, unknown or cancelling. */
  readonly resting: boolean;
  /** The outcome of its placement is not known; the slot must not be placed again. */
  readonly unknown: boolean;
  /** A cancel has been requested or is running. */
  readonly cancelling: boolean;
  /** When it started resting (or was created), ms; for `maxOrderAge`. */
  readonly since: number;
}

/** An intent queued in the placement pipeline, not yet written to the registry. */
export interface PendingIntent {
  /** A local key, `pending:<registry slot>`; never a venue id. */
  readonly key: string;
  readonly quoteSlot: string;
  readonly registrySlot: string;
  readonly pair: string;
  readonly side: Side;
  readonly price: Dec;
  readonly quantity: Dec;
  readonly enqueuedAt: number;
}

/** The registry slots of a quote slot by default (`strategy.reconcile.ordersPerSlot` may allow more). */
export const SUB_SLOTS = 2;

/** The registry slot `n` of `quoteSlot`. */
export function registrySlot(quoteSlot: string, n: number): string {
  return `${quoteSlot}#${n}`;
}

/** The quote slot a registry slot belongs to (null stays null: foreign orders have no slot). */
export function quoteSlotOf(slot: string | null): string | null {
  if (slot === null) return null;
  const i = slot.lastIndexOf('#');
  return i < 0 ? slot : slot.slice(0, i);
}

/**
 * One active order as an {@link OwnOrderView}. `cancelRequested` marks a cancel the daemon has
 * asked for that the cancel pool may not have recorded yet (it waits for a free worker).
 */
export function viewOfOrder(o: TrackedOrder, cancelRequested: boolean): OwnOrderView {
  const cancelling = isCancelling(o.state) || cancelRequested || o.cancelReason !== null;
  return {
    key: o.key,
    slot: quoteSlotOf(o.slot),
    pair: o.pair,
    side: o.side,
    price: o.price ?? ZERO,
    remaining: remaining(o),
    resting: isResting(o.state) && !cancelling,
    unknown: o.state === 'UNKNOWN',
    cancelling,
    since: o.submittedAt ?? o.createdAt,
  };
}

/** A pending intent as an {@link OwnOrderView}: not resting, not cancellable, it keeps its slot busy. */
export function viewOfPending(p: PendingIntent): OwnOrderView {
  return {
    key: p.key,
    slot: p.quoteSlot,
    pair: p.pair,
    side: p.side,
    price: p.price,
    remaining: p.quantity,
    resting: false,
    unknown: false,
    cancelling: false,
    since: p.enqueuedAt,
  };
}

/**
 * Every own order the cycle must account for: the registry's active orders (foreign ones
 * included: they rest and count against caps) and the pending intents whose registry slot does
 * not hold an order yet. A pending intent's registry slot was free when it was chosen, so an
 * active order found there is that intent, written by the pipeline: the registry's copy stands
 * for it from then on.
 */
export function ownOrdersView(
  active: readonly TrackedOrder[],
  pending: Iterable<PendingIntent>,
  cancelRequested: ReadonlySet<string>,
): OwnOrderView[] {
  const out: OwnOrderView[] = [];
  const taken = new Set<string>();
  for (const o of active) {
    out.push(viewOfOrder(o, cancelRequested.has(o.key)));
    if (o.slot !== null) taken.add(o.slot);
  }
  for (const p of pending) if (!taken.has(p.registrySlot)) out.push(viewOfPending(p));
  return out;
}
