/**
 * The cancel pool, the concurrent path to the venue beside the one-at-a-time placement pipeline:
 * {@link CancelPool} runs a bounded number of cancels at once (p-queue, by priority), one per
 * order, in a queue of its own so a cancel never waits behind a placement. It owns that queue,
 * the joining of repeated requests, the deferred cancel of an order that comes to rest, its
 * queue events and its close/drain; each cancel's steps are a `CancelRun`. Fed by the quote
 * cycle (the reconciler's cancels and the risk gate's own, after the gate), recovery and shutdown.
 */
import PQueue from 'p-queue';
import { timeoutSignal } from '../../core/clock.js';
import { isInFlight, isTerminal } from '../../orders/fsm/index.js';
import type { TransitionRecord } from '../../orders/order-registry.js';
import { CancelRun } from './cancel-run.js';
import { ExecutionContext, type ExecutionDeps } from '../execution-context.js';
import type { AbortCause, CancelOutcome } from '../execution-events.js';
import { DEFAULT_EXECUTION_SETTINGS, type CancelSettings } from '../execution-settings.js';

/** Options of {@link CancelPool}. */
export interface CancelPoolOptions extends ExecutionDeps {
  /** Default: the engine's defaults (`DEFAULT_EXECUTION_SETTINGS.cancel`). */
  readonly settings?: CancelSettings;
}

/** Per-call options of {@link CancelPool.cancel}. */
export interface CancelOptions {
  /** Free text recorded by the venue for audit, and as the order's cancelReason. */
  readonly reason?: string;
  readonly signal?: AbortSignal;
  /** Higher runs first (shutdown cancels, risk cancels…). Default 0. */
  readonly priority?: number;
}

interface Waiting {
  readonly enqueuedAt: number;
  started: boolean;
}

/**
 * The cancel pool: a bounded number of cancels at once (p-queue), in a queue of its own so a
 * cancel never waits behind a placement, and ONE cancel per order (a second request for the same
 * order joins the first). See {@link CancelRun} for the steps and the venue's quirks.
 *
 * `cancel` never rejects; every result is a {@link CancelOutcome}.
 */
export class CancelPool {
  private readonly ctx: ExecutionContext;
  private readonly cfg: CancelSettings;
  private readonly queue: PQueue;
  private readonly inflight = new Map<string, Promise<CancelOutcome>>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly queueAborts = new Map<string, AbortController>();
  private readonly closing = new AbortController();
  private readonly draining = new AbortController();
  private readonly unsubscribe: () => void;
  private closePromise: Promise<void> | null = null;

  constructor(options: CancelPoolOptions) {
    this.ctx = new ExecutionContext(options);
    this.cfg = options.settings ?? DEFAULT_EXECUTION_SETTINGS.cancel;
    const { concurrency } = this.cfg;
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new RangeError('cancel concurrency must be ≥ 1');
    this.queue = new PQueue({ concurrency });
    this.unsubscribe =
      this.cfg.followDeferred === false
        ? () => undefined
        : this.ctx.registry.onTransition((record) => this.followDeferred(record));
  }

  /** Cancels waiting (not started). */
  get depth(): number {
    return [...this.waiting.values()].filter((w) => !w.started).length;
  }

  /** Cancels running. */
  get inFlight(): number {
    return this.queue.pending;
  }

  /** True while a cancel for `key` is queued or running. */
  isCancelling(key: string): boolean {
    return this.inflight.has(key);
  }

  /**
   * Cancels the order under `key`. An order that does not rest yet gets a deferred cancel
   * (`deferred`); a stranded or ended one is reported as such; otherwise the cancel is queued, or
   * joins the one already queued or running for that order.
   */
  cancel(key: string, options: CancelOptions = {}): Promise<CancelOutcome> {
    const running = this.inflight.get(key);
    if (running !== undefined) return running;
    const order = this.ctx.registry.get(key);
    const base = { key, orderId: order?.orderId ?? null, filled: order?.filled ?? null };
    if (order === undefined)
      return Promise.resolve(this.report({ ...base, kind: 'unknown-order' }, this.ctx.now()));
    if (this.closed)
      return Promise.resolve(this.report({ ...base, kind: 'aborted', reason: 'closed' }, this.ctx.now()));
    if (order.state === 'STRANDED')
      return Promise.resolve(this.report({ ...base, kind: 'stranded', attempts: 0 }, this.ctx.now()));
    if (isTerminal(order.state)) {
      const kind = order.state === 'CANCELLED' ? 'cancelled' : order.state === 'FILLED' ? 'filled' : null;
      return Promise.resolve(
        this.report(
          kind === null ? { ...base, kind: 'ended', state: order.state } : { ...base, kind },
          this.ctx.now(),
        ),
      );
    }
    const promise = this.enqueue(key, options);
    this.inflight.set(key, promise);
    return promise;
  }

  /**
   * After the operator restored a stranded order's funds: puts it back in CANCEL_REQUESTED and
   * cancels it again.
   */
  retryStranded(key: string, options: CancelOptions = {}): Promise<CancelOutcome> {
    if (this.ctx.registry.get(key)?.state === 'STRANDED') {
      this.ctx.apply(key, { type: 'CancelRetry', code: 'OPERATOR_RESTORED', at: this.ctx.now() });
    }
    return this.cancel(key, options);
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /**
   * Stops taking cancels and drains the running ones. Waiting cancels are dropped (`aborted`,
   * `closed`); a running cancel not yet signed is stopped where it is (its prepare call cut, or
   * before signing: the prepared cancel expires unused) and goes back to CANCEL_REQUESTED; a
   * cancel already signed runs on: its submission finishes and its order is read until the
   * cancel confirms (its outcome recorded as usual), bounded by its confirmation window (90 s by
   * default), its task timeout and `drainMs` from now, whichever comes first. One cut by those
   * bounds ends `aborted` (`closed`) and stays CANCELLING in the journal: a submitted cancel of
   * unknown effect, which the next start's recovery reads before sending anything. No new attempt
   * starts after close. Resolves when every cancel has ended. Idempotent.
   */
  close(options: { drainMs?: number } = {}): Promise<void> {
    this.closePromise ??= this.shutdown(options.drainMs ?? this.cfg.drainMs);
    return this.closePromise;
  }

  private async shutdown(drainMs: number): Promise<void> {
    this.unsubscribe();
    this.closing.abort(new DOMException('cancel pool closed', 'AbortError'));
    for (const [key, ctl] of this.queueAborts) if (this.waiting.get(key)?.started === false) ctl.abort();
    const timer = this.ctx.clock.setTimeout(() => this.draining.abort(), drainMs);
    try {
      await this.queue.onIdle();
      await Promise.all([...this.inflight.values()]);
    } finally {
      this.ctx.clock.clearTimeout(timer);
    }
  }

  private enqueue(key: string, options: CancelOptions): Promise<CancelOutcome> {
    const enqueuedAt = this.ctx.now();
    const w: Waiting = { enqueuedAt, started: false };
    const queueAbort = new AbortController();
    const onCallerAbort = (): void => {
      if (!w.started) queueAbort.abort();
    };
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    this.waiting.set(key, w);
    this.queueAborts.set(key, queueAbort);
    this.emitQueue();
    const cause = (): AbortCause =>
      this.closed ? 'closed' : options.signal?.aborted === true ? 'signal' : 'timeout';
    return this.queue
      .add(
        async () => {
          w.started = true;
          options.signal?.removeEventListener('abort', onCallerAbort);
          this.emitQueue();
          const { clock } = this.ctx;
          const task = timeoutSignal(clock, this.cfg.taskTimeoutMs, options.signal, this.closing.signal);
          const confirm = timeoutSignal(clock, this.cfg.taskTimeoutMs, options.signal, this.draining.signal);
          try {
            return await new CancelRun(this.ctx, this.cfg, {
              key,
              reason: options.reason ?? 'cancel',
              signal: task.signal,
              submitSignal: this.draining.signal,
              confirmSignal: confirm.signal,
              abortCause: cause,
            }).run();
          } finally {
            task.dispose();
            confirm.dispose();
          }
        },
        { priority: options.priority ?? 0, signal: queueAbort.signal },
      )
      .catch((): CancelOutcome => {
        const o = this.ctx.registry.get(key);
        return {
          key,
          orderId: o?.orderId ?? null,
          filled: o?.filled ?? null,
          kind: 'aborted',
          reason: cause(),
        };
      })
      .then((outcome) => {
        options.signal?.removeEventListener('abort', onCallerAbort);
        this.inflight.delete(key);
        this.waiting.delete(key);
        this.queueAborts.delete(key);
        this.emitQueue();
        return this.report(outcome, enqueuedAt);
      });
  }

  private report(outcome: CancelOutcome, since: number): CancelOutcome {
    this.ctx.emit({ type: 'cancel', outcome, ms: this.ctx.now() - since, at: this.ctx.now() });
    return outcome;
  }

  /** A deferred cancel whose order just came to rest: cancel it now (after the write returns). */
  private followDeferred(record: TransitionRecord): void {
    if (record.order.state !== 'CANCEL_REQUESTED' || record.previous === null) return;
    if (!isInFlight(record.previous.state)) return; // a rest that carried a deferred cancel
    const key = record.key;
    const reason = record.order.cancelReason ?? 'deferred';
    queueMicrotask(() => void this.cancel(key, { reason }));
  }

  private emitQueue(): void {
    const now = this.ctx.now();
    let oldest = now;
    for (const w of this.waiting.values()) if (!w.started) oldest = Math.min(oldest, w.enqueuedAt);
    this.ctx.emit({
      type: 'queue',
      queue: 'cancel',
      depth: this.depth,
      inFlight: this.queue.pending,
      oldestWaitMs: now - oldest,
      at: now,
    });
  }
}
