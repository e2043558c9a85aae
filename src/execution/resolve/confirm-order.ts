/**
 * Confirmation polling: read `GET /orders/{orderId}` (never the list) until the order rests or
 * ends, on the injected clock, with a backoff tuned to the venue (~12 s from a 200 to OPEN in the
 * realistic profile: first read after ~2 s, then ×1.5 up to ~8 s).
 *
 * The 5-minute rule bounds it: a prepared transaction older than 5 minutes can no longer commit,
 * so once `preparedAt + 5 min + margin` has passed, a SUCCESSFUL read that still shows nothing
 * committed (status null with no contract and no fill, or 404) settles the order with
 * NeverCommitted. A failed read proves nothing: the order stays where it is.
 */
import { PREPARED_TX_LIFETIME_MS, isAwaitingConfirmation, isTerminal } from '../../orders/fsm/index.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import { delayAt, pause, type Backoff } from '../backoff.js';
import { hasCommitEvidence, type ExecutionContext } from '../execution-context.js';
import { refreshOrder, showsNothing } from './order-reads.js';

/** How a confirmation ended. */
export type ConfirmResult =
  | { readonly kind: 'resting'; readonly order: TrackedOrder }
  /** Terminal: `committed` says whether it ever reached the book (contract or fill seen). */
  | { readonly kind: 'terminal'; readonly order: TrackedOrder; readonly committed: boolean }
  /** NeverCommitted was applied: REJECTED with rejectCode NEVER_COMMITTED. */
  | { readonly kind: 'never-committed'; readonly order: TrackedOrder }
  | { readonly kind: 'aborted'; readonly order: TrackedOrder }
  /** Past the deadline and the order still cannot be read (only without `persist`). */
  | { readonly kind: 'unresolved'; readonly order: TrackedOrder };

/** Options of {@link confirmOrder}. */
export interface ConfirmOptions {
  readonly backoff: Backoff;
  /** Added to the 5-minute lifetime before "never committed" may be concluded. */
  readonly marginMs: number;
  readonly signal?: AbortSignal;
  /** Read at once (after an ambiguous submit: read the order first). */
  readonly readFirst?: boolean;
  /** Keep polling past the deadline while reads fail (the resolver) instead of returning. */
  readonly persist?: boolean;
  /** Called once when the deadline passed and the order still could not be settled. */
  readonly onOverdue?: () => void;
}

/** When "never committed" may be concluded: the prepare's return + 5 minutes + `marginMs`. */
export function commitDeadline(order: TrackedOrder, marginMs: number): number {
  const base = order.preparedAt ?? order.submittedAt ?? order.updatedAt;
  return base + PREPARED_TX_LIFETIME_MS + marginMs;
}

/** Classifies the order as it stands; null while it still awaits the ledger. */
function settled(order: TrackedOrder): ConfirmResult | null {
  if (isTerminal(order.state)) return { kind: 'terminal', order, committed: hasCommitEvidence(order) };
  if (!isAwaitingConfirmation(order.state)) return { kind: 'resting', order };
  return null;
}

/**
 * Polls the order under `key` until it rests, ends, or the 5-minute rule settles it. Applies
 * every read through the registry. Resolves, never rejects on venue errors.
 */
export async function confirmOrder(
  ctx: ExecutionContext,
  key: string,
  opts: ConfirmOptions,
): Promise<ConfirmResult> {
  let step = 0;
  let overdueReported = false;
  for (;;) {
    const before = ctx.order(key);
    const early = settled(before);
    if (early !== null) return early;
    const deadline = commitDeadline(before, opts.marginMs);
    const now = ctx.now();
    // While the key is refused, the reads wait the pollers' backoff (see CredentialBackoff).
    let wait =
      step === 0 && opts.readFirst === true ? 0 : ctx.credentials.delayMs(delayAt(opts.backoff, step));
    // Never oversleep the deadline: the read that can settle "never committed" happens on time.
    if (now < deadline) wait = Math.min(wait, deadline - now);
    if (!(await pause(ctx.clock, wait, opts.signal))) return { kind: 'aborted', order: ctx.order(key) };

    const { read, order } = await refreshOrder(ctx, key, opts.signal);
    const done = settled(order);
    if (done !== null) return done;
    if (opts.signal?.aborted) return { kind: 'aborted', order };

    if (ctx.now() >= commitDeadline(order, opts.marginMs)) {
      if (!hasCommitEvidence(order) && showsNothing(read) && order.state !== 'SUBMITTING') {
        const record = ctx.apply(key, { type: 'NeverCommitted', at: ctx.now() });
        if (record !== null) return { kind: 'never-committed', order: record.order };
      }
      if (!overdueReported) {
        overdueReported = true;
        opts.onOverdue?.();
      }
      if (opts.persist !== true) return { kind: 'unresolved', order: ctx.order(key) };
    }
    step += 1;
  }
}
