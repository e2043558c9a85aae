/**
 * One cancel, run to its end: prepare-cancel with the CURRENT contractId, exact echo check, the
 * prepared transaction's check (clear signing: it exercises on that contract only), sign, submit,
 * then read the order until it is gone. Venue quirks handled here:
 * - 404 CONTRACT_NOT_FOUND: the contractId rotated on a partial fill (retry with the new one at
 *   once), or the order ended (EXPIRED residual, filled, cancelled: record what the read says);
 * - 409 ORDER_ALREADY_FILLED / ORDER_ALREADY_CANCELLED: recorded with the cumulative filled of a
 *   fresh read (the registry requires it);
 * - a cancel the host accepted (200) whose order still rests after the confirmation window, again
 *   and again: the backing funds were withdrawn, the order is STRANDED (alarm), no more retries.
 */
import { dec } from '../../core/decimal.js';
import type { Dec } from '../../core/decimal.js';
import { currentContractId, isInFlight, isResting } from '../../orders/fsm/index.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import { VenueError, classify, isClientAbort, orderFactOf } from '../../venue/errors.js';
import { isRestingStatus, isTerminalStatus } from '../../core/order-status.js';
import { delayAt, pause } from '../backoff.js';
import { settledBody, type CancelJob, type OutcomeBody, type Step } from './cancel-scope.js';
import { checkCancelEcho } from '../prepared-echo.js';
import type { ExecutionContext } from '../execution-context.js';
import type { CancelOutcome } from '../execution-events.js';
import type { CancelSettings } from '../execution-settings.js';
import { alarmOnTamper } from '../tamper-alarm.js';
import { applyRead, fetchOrder } from '../resolve/order-reads.js';

export type { CancelJob } from './cancel-scope.js';

/** See the module doc. */
export class CancelRun {
  private attempts = 0;
  private unconfirmed = 0;
  private rotations = 0;

  constructor(
    private readonly ctx: ExecutionContext,
    private readonly cfg: CancelSettings,
    private readonly job: CancelJob,
  ) {}

  /** Runs the cancel to its outcome. Never rejects. */
  async run(): Promise<CancelOutcome> {
    try {
      return this.out(await this.loop());
    } catch (error) {
      this.ctx.alarm(
        'internal-error',
        this.job.key,
        `cancel: ${error instanceof Error ? error.message : String(error)}`,
      );
      return this.out({ kind: 'failed', code: 'INTERNAL_ERROR', attempts: this.attempts });
    }
  }

  private out(body: OutcomeBody): CancelOutcome {
    const o = this.ctx.registry.get(this.job.key);
    return { key: this.job.key, orderId: o?.orderId ?? null, filled: o?.filled ?? null, ...body };
  }

  private async loop(): Promise<OutcomeBody> {
    const { ctx, job } = this;
    for (;;) {
      const order = ctx.order(job.key);
      const settled = settledBody(order, this.attempts);
      if (settled !== null) return settled;
      if (isInFlight(order.state)) {
        // Not on the book yet: a deferred cancel (the pipeline abandons or cancels on rest).
        ctx.apply(job.key, { type: 'CancelRequested', reason: job.reason, at: ctx.now() });
        return { kind: 'deferred', state: ctx.order(job.key).state };
      }
      if (order.state === 'CANCELLING')
        ctx.apply(job.key, { type: 'CancelRetry', code: 'RESUMED', at: ctx.now() });
      if (isResting(order.state)) {
        ctx.apply(job.key, { type: 'CancelRequested', reason: job.reason, at: ctx.now() });
      }
      if (job.signal.aborted) return { kind: 'aborted', reason: job.abortCause() };
      if (this.attempts >= this.cfg.maxAttempts)
        return { kind: 'failed', code: 'MAX_ATTEMPTS', attempts: this.attempts };

      const contractId = currentContractId(ctx.order(job.key));
      if (contractId === null) {
        const read = await fetchOrder(ctx, order.orderId ?? '', job.signal);
        applyRead(ctx, job.key, read);
        if (currentContractId(ctx.order(job.key)) === null && !(await this.failedAttempt('NO_CONTRACT_ID'))) {
          return { kind: 'aborted', reason: job.abortCause() };
        }
        continue;
      }
      if (ctx.apply(job.key, { type: 'CancelPrepareStarted', at: ctx.now() }) === null) {
        // Someone else moved the order meanwhile (the poller): look again, bounded by attempts.
        this.attempts += 1;
        continue;
      }
      const step = await this.attempt(ctx.order(job.key), contractId);
      if ('kind' in step) return step;
      if (step.again === 'backoff' && !(await this.backoff()))
        return { kind: 'aborted', reason: job.abortCause() };
    }
  }

  private async attempt(order: TrackedOrder, contractId: string): Promise<Step> {
    const { ctx, job } = this;
    let prep;
    try {
      prep = await ctx.timed('cancel-prepare', job.key, () =>
        ctx.venue.prepareCancel(contractId, { reason: job.reason }, { signal: job.signal }),
      );
    } catch (err) {
      if (!(err instanceof VenueError)) throw err;
      return this.onPrepareError(order, contractId, err);
    }
    const echo = checkCancelEcho({ orderId: order.orderId, contractId }, prep);
    const refusal = !echo.ok
      ? echo.diffs.join('; ')
      : prep.signing === null
        ? null
        : await ctx.verifyPrepared('cancel', job.key, prep.signing, { kind: 'cancel', contractId });
    if (refusal !== null) {
      const detail = refusal;
      this.retryState('ECHO_MISMATCH', detail);
      ctx.emit({ type: 'echo-refused', operation: 'cancel', key: job.key, detail, at: ctx.now() });
      ctx.alarm('echo-mismatch', job.key, detail);
      return { kind: 'echo-mismatch', detail };
    }
    let accepted = false;
    if (prep.signing !== null) {
      // Stopped before signing (close, caller, timeout): dropped; the prepared cancel expires unused.
      if (job.signal.aborted) {
        this.retryState('ABORTED');
        return { kind: 'aborted', reason: job.abortCause() };
      }
      const signature = ctx.sign('cancel-sign', job.key, prep.signing);
      const signing = prep.signing;
      const res = await ctx.timed(
        'cancel-submit',
        job.key,
        () =>
          ctx.venue.submit(signing.submitUrl, ctx.submitBody(signing, signature), {
            signal: job.submitSignal,
          }),
        (o) => (o.kind === 'accepted' ? true : o.error.code),
      );
      if (res.kind === 'rejected') {
        alarmOnTamper(ctx, 'cancel', job.key, res.error);
        this.retryState(res.error.code);
        if (isClientAbort(res.error)) return { kind: 'aborted', reason: job.abortCause() };
        this.attempts += 1;
        // 410: the prepared cancel is dead; prepare a fresh one right away.
        return { again: orderFactOf(res.error.code) === 'prepared-expired' ? 'now' : 'backoff' };
      }
      accepted = res.kind === 'accepted';
      // Ambiguous or accepted, the cancel may land: record it, then read.
      ctx.apply(job.key, { type: 'CancelSubmitted', at: ctx.now() });
    }
    return this.confirm(order, contractId, accepted);
  }

  private async onPrepareError(order: TrackedOrder, contractId: string, err: VenueError): Promise<Step> {
    const { ctx, job } = this;
    if (isClientAbort(err)) {
      this.retryState(err.code);
      return { kind: 'aborted', reason: job.abortCause() };
    }
    switch (orderFactOf(err.code)) {
      case 'contract-gone':
        return this.afterNotFound(order, contractId);
      case 'filled': {
        // Nothing of a filled order remains: the read's filled, or the whole quantity.
        const filled = await this.finalFilled(order, order.quantity);
        ctx.apply(job.key, { type: 'CancelFailedFilled', filled, at: ctx.now() });
        return settledBody(ctx.order(job.key), this.attempts) ?? { again: 'now' };
      }
      case 'cancelled': {
        const filled = await this.finalFilled(order, order.filled);
        ctx.apply(job.key, { type: 'CancelFailedCancelled', filled, at: ctx.now() });
        return settledBody(ctx.order(job.key), this.attempts) ?? { again: 'now' };
      }
      default:
        // The table decides: RATE_LIMITED and the transient codes retry, a refusal fails.
        this.retryState(err.code);
        this.attempts += 1;
        if (classify(err, 'prepare') === 'fatal') {
          return { kind: 'failed', code: err.code, attempts: this.attempts };
        }
        return { again: 'backoff' };
    }
  }

  /** 404 on the cancel prepare: a rotated contract, or an order that is no longer active. */
  private async afterNotFound(order: TrackedOrder, contractId: string): Promise<Step> {
    const { ctx, job } = this;
    const read = await fetchOrder(ctx, order.orderId ?? '', job.signal);
    const after = applyRead(ctx, job.key, read);
    const settled = settledBody(after, this.attempts);
    if (settled !== null) return settled;
    const fresh = read.kind === 'order' ? read.order.contractId : null;
    if (
      read.kind === 'order' &&
      isRestingStatus(read.order.status) &&
      fresh !== null &&
      fresh !== contractId
    ) {
      return this.rotated(fresh);
    }
    this.retryState('CONTRACT_NOT_FOUND');
    this.attempts += 1;
    return { again: 'backoff' };
  }

  /** The cancel targeted an archived contract: go again at once with the current one. */
  private rotated(contractId: string): Step {
    const { ctx, job } = this;
    if (ctx.order(job.key).state === 'CANCELLING') {
      ctx.apply(job.key, { type: 'ContractRotated', contractId, at: ctx.now() });
    }
    ctx.emit({
      type: 'retry',
      operation: 'cancel',
      key: job.key,
      code: 'CONTRACT_ROTATED',
      attempt: ++this.rotations,
      at: ctx.now(),
    });
    if (this.rotations > this.cfg.maxRotations) {
      this.retryState('MAX_ROTATIONS');
      return { kind: 'failed', code: 'MAX_ROTATIONS', attempts: this.attempts };
    }
    return { again: 'now' };
  }

  /** Reads the order until it is gone, its contract rotates, or the window passes. */
  private async confirm(order: TrackedOrder, contractId: string, accepted: boolean): Promise<Step> {
    const { ctx, job, cfg } = this;
    const start = ctx.now();
    const until = start + cfg.confirmWindowMs;
    const report = (ok: boolean, code?: string): void =>
      ctx.emit({
        type: 'stage',
        stage: 'cancel-confirm',
        key: job.key,
        ms: ctx.now() - start,
        ok,
        ...(code ? { code } : {}),
        at: ctx.now(),
      });
    for (let step = 0; ; step++) {
      // While the key is refused, the reads wait the pollers' backoff (see CredentialBackoff).
      const period = ctx.credentials.delayMs(delayAt(cfg.confirmBackoff, step));
      const wait = Math.min(period, Math.max(0, until - ctx.now()));
      if (!(await pause(ctx.clock, wait, job.confirmSignal))) {
        report(false, 'ABORTED');
        return this.stopUnconfirmed();
      }
      const read = await fetchOrder(ctx, order.orderId ?? '', job.confirmSignal);
      if (
        read.kind === 'order' &&
        read.order.status === 'CANCELLED' &&
        ctx.order(job.key).state === 'CANCELLING'
      ) {
        ctx.apply(job.key, { type: 'CancelConfirmed', filled: dec(read.order.filled), at: read.at });
      } else {
        applyRead(ctx, job.key, read);
      }
      const settled = settledBody(ctx.order(job.key), this.attempts);
      if (settled !== null) {
        report(settled.kind === 'cancelled');
        return settled;
      }
      const fresh = read.kind === 'order' ? read.order.contractId : null;
      if (
        read.kind === 'order' &&
        isRestingStatus(read.order.status) &&
        fresh !== null &&
        fresh !== contractId
      ) {
        report(false, 'CONTRACT_ROTATED');
        return this.rotated(fresh);
      }
      if (ctx.now() < until) continue;
      report(false, 'STILL_RESTING');
      this.attempts += 1;
      if (accepted) this.unconfirmed += 1;
      if (this.unconfirmed >= cfg.strandAfter && ctx.order(job.key).state === 'CANCELLING') {
        const detail = `${this.unconfirmed} accepted cancels never took effect; the order's funds are gone`;
        ctx.apply(job.key, { type: 'CancelStranded', detail, at: ctx.now() });
        ctx.alarm('stranded', job.key, detail);
        return (
          settledBody(ctx.order(job.key), this.attempts) ?? { kind: 'stranded', attempts: this.attempts }
        );
      }
      // Stopped meanwhile (the pool closed): no further attempt; the journal keeps the submitted cancel.
      if (job.signal.aborted) return this.stopUnconfirmed();
      this.retryState(accepted ? 'CANCEL_NOT_CONFIRMED' : 'CANCEL_AMBIGUOUS');
      return { again: 'backoff' };
    }
  }

  /**
   * A cancel stopped after its submission, before its confirmation. When the pool closed (it runs
   * no further attempt), the order stays CANCELLING: the journal holds a submitted cancel of
   * unknown effect, which the next start's recovery reads before sending anything. Otherwise
   * (caller signal, task timeout) it goes back to CANCEL_REQUESTED for a later request.
   */
  private stopUnconfirmed(): OutcomeBody {
    const reason = this.job.abortCause();
    if (reason !== 'closed') this.retryState('ABORTED');
    return { kind: 'aborted', reason };
  }

  /** The cumulative filled from a fresh read (not applied: the 409 event carries it), else `fallback`. */
  private async finalFilled(order: TrackedOrder, fallback: Dec): Promise<Dec> {
    const read = await fetchOrder(this.ctx, order.orderId ?? '', this.job.signal);
    if (
      read.kind === 'order' &&
      (isTerminalStatus(read.order.status) || isRestingStatus(read.order.status))
    ) {
      return dec(read.order.filled);
    }
    return fallback;
  }

  /** CANCELLING → CANCEL_REQUESTED: the attempt failed, the cancel intent stays (`detail` journaled). */
  private retryState(code: string, detail?: string): void {
    if (this.ctx.order(this.job.key).state === 'CANCELLING') {
      const at = this.ctx.now();
      this.ctx.apply(this.job.key, {
        type: 'CancelRetry',
        code,
        ...(detail === undefined ? {} : { detail }),
        at,
      });
    }
  }

  private async failedAttempt(code: string): Promise<boolean> {
    this.attempts += 1;
    this.ctx.emit({
      type: 'retry',
      operation: 'cancel',
      key: this.job.key,
      code,
      attempt: this.attempts,
      at: this.ctx.now(),
    });
    return this.backoff();
  }

  private async backoff(): Promise<boolean> {
    const delayMs = delayAt(this.cfg.retryBackoff, Math.max(0, this.attempts - 1));
    this.ctx.emit({ type: 'backoff', queue: 'cancel', reason: 'cancel-retry', delayMs, at: this.ctx.now() });
    return pause(this.ctx.clock, delayMs, this.job.signal);
  }
}
