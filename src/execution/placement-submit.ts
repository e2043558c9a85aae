import { timeoutSignal } from '../core/clock.js';
import type { TerminalState } from '../orders/fsm/index.js';
import { preparedLiveFromWire } from '../orders/wire-events.js';
import { cooldownOf, isClientAbort, orderFactOf } from '../venue/errors.js';
import type { Order, SigningEnvelope } from '../venue/schemas.js';
import { delayAt, pause, raceSignal } from './backoff.js';
import { commitDeadline, confirmOrder } from './confirm-order.js';
import type { PlacementOutcome } from './execution-events.js';
import { refreshOrder } from './order-reads.js';
import { isAwaitingConfirmation } from '../orders/fsm/index.js';
import { READ_SLACK_MS, outcomeOfOrder, type PlacementScope } from './placement-scope.js';
import { alarmOnTamper } from './tamper-alarm.js';
import type { Resolution } from './unknown-resolver.js';

/**
 * The end of a placement: the submission of a signed transaction, and what follows it —
 * confirmation after a 200, the read-first resolution of an ambiguous answer, the resend of a
 * throttled one. A submission is never retried blindly: only a 429 (nothing dispatched) resends
 * the same signed transaction; a 410 goes back to prepare with the same clientOrderId.
 */

/** Sends the signed transaction. `reprepare` after a 410: the caller prepares again, same id. */
export async function submitSigned(
  scope: PlacementScope,
  key: string,
  signing: SigningEnvelope,
  signature: string,
  sentAt: number,
): Promise<PlacementOutcome | 'reprepare'> {
  const { ctx, cfg } = scope.env;
  const { job } = scope;
  const body = ctx.submitBody(signing, signature);
  for (let throttled = 0; ;) {
    // Journaled before the IO: a crash from here on leaves SUBMITTING, which recovery reads.
    ctx.mustApply(key, { type: 'SubmitStarted', at: ctx.now() });
    const res = await ctx.timed(
      'submit',
      key,
      // The client enforces the ≥ 120 s timeout; only the drain deadline may cut it shorter.
      () => ctx.venue.submit(signing.submitUrl, body, { signal: job.submitSignal }),
      (o) => (o.kind === 'accepted' ? true : o.error.code),
    );
    if (res.kind === 'accepted') {
      ctx.mustApply(key, { type: 'SubmitAccepted', at: ctx.now() });
      return confirmPlaced(scope, key);
    }
    const code = res.error.code;
    if (res.kind === 'ambiguous') {
      ctx.mustApply(key, { type: 'SubmitAmbiguous', code, at: ctx.now() });
      ctx.emit({ type: 'unknown', key, code, at: ctx.now() });
      return resolveUnknown(scope, key);
    }
    if (orderFactOf(code) === 'prepared-expired') {
      ctx.mustApply(key, { type: 'CacheExpired', at: ctx.now() });
      return 'reprepare';
    }
    if (cooldownOf(code) !== null) {
      // 429 (RATE_LIMITED, MAX_OPEN_ORDERS): nothing was dispatched; the same signed transaction may go again while it is young.
      ctx.mustApply(key, { type: 'SubmitThrottled', at: ctx.now() });
      const delayMs = delayAt(cfg.throttleBackoff, throttled++);
      if (throttled > cfg.maxResubmits || ctx.now() + delayMs - sentAt > cfg.submitAgeLimitMs) {
        ctx.mustApply(key, { type: 'Abandoned', reason: code, at: ctx.now() });
        scope.env.cooldown(cfg.rateLimitCooldownMs, code);
        return scope.out({ kind: 'rate-limited', retryAfterMs: cfg.rateLimitCooldownMs });
      }
      ctx.emit({ type: 'backoff', queue: 'placement', reason: code, delayMs, at: ctx.now() });
      if (!(await pause(ctx.clock, delayMs, job.signal))) return scope.abandon(key, 'aborted');
      ctx.emit({ type: 'retry', operation: 'resubmit', key, code, attempt: throttled, at: ctx.now() });
      continue;
    }
    // Refused before dispatch (nothing sent, or the host said no): it cannot commit.
    ctx.mustApply(key, { type: 'SubmitRejected', code, at: ctx.now() });
    alarmOnTamper(ctx, 'place', key, res.error);
    if (isClientAbort(code)) return scope.out({ kind: 'aborted', reason: job.abortCause() });
    return scope.out({ kind: 'refused', code });
  }
}

/**
 * After a 200: poll the order until it rests, ends, or the 5-minute rule settles it — with policy
 * `proceed`, at most `confirmWindowMs`, after which the resolver owns it (outcome `unresolved`).
 */
export async function confirmPlaced(scope: PlacementScope, key: string): Promise<PlacementOutcome> {
  const { ctx, cfg, resolver } = scope.env;
  // With `proceed` a 200 that does not rest within the window goes to the resolver: it blocks
  // its own slot, not the pipeline.
  const windowMs = cfg.afterUnknown === 'proceed' ? cfg.confirmWindowMs : null;
  const bound = windowMs === null ? null : timeoutSignal(ctx.clock, windowMs, scope.job.signal);
  let r;
  try {
    r = await ctx.timed(
      'confirm',
      key,
      () =>
        confirmOrder(ctx, key, {
          backoff: cfg.confirmBackoff,
          marginMs: cfg.deadlineMarginMs,
          signal: bound?.signal ?? scope.job.signal,
        }),
      (x) => (x.kind === 'resting' || x.kind === 'terminal' ? true : x.kind),
    );
  } finally {
    bound?.dispose();
  }
  if (r.kind === 'never-committed') return scope.out({ kind: 'never-committed', state: 'REJECTED' });
  if (r.kind === 'aborted' || r.kind === 'unresolved') {
    // Cut short (close, task timeout) or unreadable past the deadline: the resolver owns it now.
    void resolver.track(key);
    return scope.out({ kind: 'unresolved', state: r.order.state });
  }
  return scope.out(outcomeOfOrder(r.order, false));
}

/**
 * An ambiguous submission (timeout, 5xx): read the order first. If it is still open, the
 * resolver owns it; with policy `wait` the pipeline waits for it, bounded by its commit deadline.
 */
export async function resolveUnknown(scope: PlacementScope, key: string): Promise<PlacementOutcome> {
  const { ctx, cfg, resolver } = scope.env;
  const { order } = await refreshOrder(ctx, key, scope.job.signal);
  if (!isAwaitingConfirmation(order.state)) return scope.out(outcomeOfOrder(order, false));
  const resolving = resolver.track(key);
  if (cfg.afterUnknown === 'proceed') return scope.out({ kind: 'unresolved', state: order.state });
  const left = commitDeadline(order, cfg.deadlineMarginMs) + READ_SLACK_MS - ctx.now();
  const bound = timeoutSignal(ctx.clock, Math.max(0, left), scope.job.signal);
  let resolution: Resolution | null;
  try {
    resolution = await raceSignal(resolving, bound.signal);
  } finally {
    bound.dispose();
  }
  if (resolution === null || resolution.kind === 'closed' || resolution.kind === 'error') {
    return scope.out({ kind: 'unresolved', state: ctx.order(key).state });
  }
  if (resolution.kind === 'never-committed') {
    return scope.out({ kind: 'never-committed', state: ctx.order(key).state as TerminalState });
  }
  return scope.out(outcomeOfOrder(ctx.order(key), false));
}

/** 201: the clientOrderId's order is already live; nothing to sign. */
export async function preparedLive(
  scope: PlacementScope,
  key: string,
  order: Order,
): Promise<PlacementOutcome> {
  const { ctx } = scope.env;
  const rec = ctx.mustApply(key, preparedLiveFromWire(order, key, ctx.now()));
  const mismatch = rec.effects.find((e) => e.type === 'alarm' && e.reason === 'echo-mismatch');
  if (mismatch !== undefined && mismatch.type === 'alarm') {
    // What rests counts: the registry tracks the venue's order with a deferred cancel.
    ctx.emit({ type: 'echo-refused', operation: 'place', key, detail: mismatch.detail, at: ctx.now() });
    ctx.alarm('echo-mismatch', key, mismatch.detail);
    return scope.out({ kind: 'echo-mismatch', detail: mismatch.detail });
  }
  if (rec.order.state === 'UNKNOWN') return resolveUnknown(scope, key);
  return scope.out(outcomeOfOrder(rec.order, true));
}
