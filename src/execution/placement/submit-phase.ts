/**
 * The submission of a placement's signed transaction. A submission is never retried blindly:
 * only a 429 (nothing dispatched) resends the same signed transaction, while it is young; a 410
 * goes back to prepare with the same clientOrderId; an ambiguous answer goes to UNKNOWN and is
 * read ({@link ConfirmPhase.resolveUnknown}); a 200 is confirmed ({@link ConfirmPhase.confirm}).
 */
import { cooldownOf, isClientAbort, orderFactOf } from '../../venue/errors.js';
import type { SigningEnvelope } from '../../venue/schemas.js';
import { delayAt, pause } from '../backoff.js';
import { ConfirmPhase } from './confirm-phase.js';
import type { PlacementOutcome } from '../execution-events.js';
import type { Placement } from './placement-state.js';
import { alarmOnTamper } from '../tamper-alarm.js';

/** The submit phase of one placement: the resends after 429 are its state. */
export class SubmitPhase {
  private throttled = 0;

  constructor(private readonly p: Placement) {}

  /** Sends the signed transaction. `reprepare` after a 410: the caller prepares again, same id. */
  async submit(
    key: string,
    signing: SigningEnvelope,
    signature: string,
    sentAt: number,
  ): Promise<PlacementOutcome | 'reprepare'> {
    const { p } = this;
    const { ctx, cfg, job } = p;
    const body = ctx.submitBody(signing, signature);
    this.throttled = 0;
    for (;;) {
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
        return new ConfirmPhase(p).confirm(key);
      }
      const code = res.error.code;
      if (res.kind === 'ambiguous') {
        ctx.mustApply(key, { type: 'SubmitAmbiguous', code, at: ctx.now() });
        ctx.emit({ type: 'unknown', key, code, at: ctx.now() });
        return new ConfirmPhase(p).resolveUnknown(key);
      }
      if (orderFactOf(code) === 'prepared-expired') {
        ctx.mustApply(key, { type: 'CacheExpired', at: ctx.now() });
        return 'reprepare';
      }
      if (cooldownOf(code) !== null) {
        // 429 (RATE_LIMITED, MAX_OPEN_ORDERS): nothing was dispatched; the same signed transaction may go again while it is young.
        ctx.mustApply(key, { type: 'SubmitThrottled', at: ctx.now() });
        const delayMs = delayAt(cfg.throttleBackoff, this.throttled++);
        if (this.throttled > cfg.maxResubmits || ctx.now() + delayMs - sentAt > cfg.submitAgeLimitMs) {
          ctx.mustApply(key, { type: 'Abandoned', reason: code, at: ctx.now() });
          p.env.cooldown(cfg.rateLimitCooldownMs, code);
          return p.out({ kind: 'rate-limited', retryAfterMs: cfg.rateLimitCooldownMs });
        }
        ctx.emit({ type: 'backoff', queue: 'placement', reason: code, delayMs, at: ctx.now() });
        if (!(await pause(ctx.clock, delayMs, job.signal))) return p.abandon(key, 'aborted');
        ctx.emit({ type: 'retry', operation: 'resubmit', key, code, attempt: this.throttled, at: ctx.now() });
        continue;
      }
      // Refused before dispatch (nothing sent, or the host said no): it cannot commit.
      ctx.mustApply(key, { type: 'SubmitRejected', code, at: ctx.now() });
      alarmOnTamper(ctx, 'place', key, res.error);
      if (isClientAbort(code)) return p.out({ kind: 'aborted', reason: job.abortCause() });
      return p.out({ kind: 'refused', code });
    }
  }
}
