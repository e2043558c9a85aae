/**
 * The end of a placement: the confirmation after a 200, the read-first resolution of an
 * ambiguous submission, and an order the prepare found already live (201). Whatever stays
 * unsettled goes to the resolver, which owns it from then on.
 */
import { timeoutSignal } from '../../core/clock.js';
import { isAwaitingConfirmation, type TerminalState } from '../../orders/fsm/index.js';
import { preparedLiveFromWire } from '../../orders/wire-events.js';
import type { Order } from '../../venue/schemas.js';
import { raceSignal } from '../backoff.js';
import { commitDeadline, confirmOrder } from '../resolve/confirm-order.js';
import type { PlacementOutcome } from '../execution-events.js';
import { refreshOrder } from '../resolve/order-reads.js';
import { READ_SLACK_MS, outcomeOfOrder, type Placement } from './placement-state.js';
import type { Resolution } from '../resolve/unknown-resolver.js';

/** The confirm and resolve phase of one placement. */
export class ConfirmPhase {
  constructor(private readonly p: Placement) {}

  /**
   * After a 200: poll the order until it rests, ends, or the 5-minute rule settles it — with
   * policy `proceed`, at most `confirmWindowMs`, after which the resolver owns it (outcome
   * `unresolved`).
   */
  async confirm(key: string): Promise<PlacementOutcome> {
    const { p } = this;
    const { ctx, cfg } = p;
    // With `proceed` a 200 that does not rest within the window goes to the resolver: it blocks
    // its own slot, not the pipeline.
    const windowMs = cfg.afterUnknown === 'proceed' ? cfg.confirmWindowMs : null;
    const bound = windowMs === null ? null : timeoutSignal(ctx.clock, windowMs, p.job.signal);
    let r;
    try {
      r = await ctx.timed(
        'confirm',
        key,
        () =>
          confirmOrder(ctx, key, {
            backoff: cfg.confirmBackoff,
            marginMs: cfg.deadlineMarginMs,
            signal: bound?.signal ?? p.job.signal,
          }),
        (x) => (x.kind === 'resting' || x.kind === 'terminal' ? true : x.kind),
      );
    } finally {
      bound?.dispose();
    }
    if (r.kind === 'never-committed') return p.out({ kind: 'never-committed', state: 'REJECTED' });
    if (r.kind === 'aborted' || r.kind === 'unresolved') {
      // Cut short (close, task timeout) or unreadable past the deadline: the resolver owns it now.
      void p.env.resolver.track(key);
      return p.out({ kind: 'unresolved', state: r.order.state });
    }
    return p.out(outcomeOfOrder(r.order, false));
  }

  /**
   * An ambiguous submission (timeout, 5xx): read the order first. If it is still open, the
   * resolver owns it; with policy `wait` the pipeline waits for it, bounded by its commit deadline.
   */
  async resolveUnknown(key: string): Promise<PlacementOutcome> {
    const { p } = this;
    const { ctx, cfg } = p;
    const { order } = await refreshOrder(ctx, key, p.job.signal);
    if (!isAwaitingConfirmation(order.state)) return p.out(outcomeOfOrder(order, false));
    const resolving = p.env.resolver.track(key);
    if (cfg.afterUnknown === 'proceed') return p.out({ kind: 'unresolved', state: order.state });
    const left = commitDeadline(order, cfg.deadlineMarginMs) + READ_SLACK_MS - ctx.now();
    const bound = timeoutSignal(ctx.clock, Math.max(0, left), p.job.signal);
    let resolution: Resolution | null;
    try {
      resolution = await raceSignal(resolving, bound.signal);
    } finally {
      bound.dispose();
    }
    if (resolution === null || resolution.kind === 'closed' || resolution.kind === 'error') {
      return p.out({ kind: 'unresolved', state: ctx.order(key).state });
    }
    if (resolution.kind === 'never-committed') {
      return p.out({ kind: 'never-committed', state: ctx.order(key).state as TerminalState });
    }
    return p.out(outcomeOfOrder(ctx.order(key), false));
  }

  /** 201: the clientOrderId's order is already live; nothing to sign. */
  async alreadyLive(key: string, order: Order): Promise<PlacementOutcome> {
    const { p } = this;
    const { ctx } = p;
    const rec = ctx.mustApply(key, preparedLiveFromWire(order, key, ctx.now()));
    const mismatch = rec.effects.find((e) => e.type === 'alarm' && e.reason === 'echo-mismatch');
    if (mismatch !== undefined && mismatch.type === 'alarm') {
      // What rests counts: the registry tracks the venue's order with a deferred cancel.
      ctx.emit({ type: 'echo-refused', operation: 'place', key, detail: mismatch.detail, at: ctx.now() });
      ctx.alarm('echo-mismatch', key, mismatch.detail);
      return p.out({ kind: 'echo-mismatch', detail: mismatch.detail });
    }
    if (rec.order.state === 'UNKNOWN') return this.resolveUnknown(key);
    return p.out(outcomeOfOrder(rec.order, true));
  }
}
