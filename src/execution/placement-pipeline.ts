import { timeoutSignal } from '../core/clock.js';
import { backoff, pause, type Backoff } from './backoff.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import { DEFAULT_CONFIRM_BACKOFF, DEFAULT_DEADLINE_MARGIN_MS } from './confirm-order.js';
import { ExecutionContext, type ExecutionDeps } from './execution-context.js';
import type { AbortCause, PlacementOutcome } from './execution-events.js';
import type { FreshnessCheck, PlaceOptions, PlacementIntent, SignGate } from './placement-intent.js';
import { PlacementQueue, type QueuedIntent } from './placement-queue.js';
import { PlacementRun, type PlacementConfig } from './placement-run.js';
import { UnknownResolver } from './unknown-resolver.js';

/**
 * What the pipeline does after a submission ends UNKNOWN, or after a 200 whose order has not
 * rested within `confirmWindowMs`:
 * - `proceed` (default): after one order read and a short pause (`unknownPauseMs`) the pipeline
 *   moves on to the other slots; the resolver keeps checking in the background, and the unknown
 *   order keeps its slot blocked and counts as exposure until it is resolved. A later prepare
 *   the venue refuses with LEDGER_COMMAND_REJECTED (its previous placement still awaits the
 *   ledger) is retried with exponential backoff for as long as an order of ours awaits it.
 * - `wait` (the old behaviour): the next prepare waits until the unknown order is resolved,
 *   bounded by its commit deadline (prepare + 5 min + margin), and a 200 is confirmed until then.
 */
export type AfterUnknownPolicy = 'wait' | 'proceed';

/** Options of {@link PlacementPipeline}. All times are ms on the injected clock. */
export interface PlacementPipelineOptions extends ExecutionDeps {
  /** Mints `<clientOrderIdPrefix><unique>` ids. */
  readonly clientOrderIds: ClientOrderIdFactory;
  /** Shared with recovery and the engine; the pipeline creates (and closes) its own when absent. */
  readonly resolver?: UnknownResolver;
  /** Freshness check, pure and sync: false drops the intent before prepare or before signing. */
  readonly isWanted?: FreshnessCheck;
  /**
   * Asked after each prepare, before the sign-time freshness check: a placement waits for it (at
   * most until its prepared transaction is `submitAgeLimitMs` old) and is abandoned unsigned when
   * it says no. Default: none, never held.
   */
  readonly signGate?: SignGate;
  /** See {@link AfterUnknownPolicy}. Default `proceed`. */
  readonly afterUnknown?: AfterUnknownPolicy;
  /** With `proceed`: how long a 200 is confirmed in the pipeline before the resolver takes it. Default 60 s. */
  readonly confirmWindowMs?: number;
  /** With `proceed`: the pause of the pipeline after it handed an order to the resolver. Default 2 s. */
  readonly unknownPauseMs?: number;
  /** Confirmation reads after a 200. Default 2 s ×1.5 up to 8 s. */
  readonly confirmBackoff?: Partial<Backoff>;
  /** Added to the 5-minute lifetime before "never committed" is concluded. Default 30 s. */
  readonly deadlineMarginMs?: number;
  /** A prepare older than this (from its send) is not submitted but re-prepared. Default 240 s. */
  readonly submitAgeLimitMs?: number;
  /** Re-prepares of one intent (410 or the local age limit). Default 3. */
  readonly maxReprepares?: number;
  /**
   * Re-tries of a prepare refused with LEDGER_COMMAND_REJECTED while no order of ours awaits the
   * ledger (a missing preapproval, say). While one does, the refusal is the venue's one-at-a-time
   * rule and the prepare is retried until it passes, the intent goes stale or the task times out.
   * Default 5.
   */
  readonly ledgerRejectRetries?: number;
  /** Backoff between those. Default 2 s ×2 up to 16 s. */
  readonly ledgerRejectBackoff?: Partial<Backoff>;
  /** Backoff before re-sending a submission answered 429. Default 2 s ×2 up to 20 s. */
  readonly throttleBackoff?: Partial<Backoff>;
  /** Re-sends of one submission after 429. Default 3. */
  readonly maxResubmits?: number;
  /** Pause of the whole pipeline after RATE_LIMITED. Default 60 s (the venue's window is a minute). */
  readonly rateLimitCooldownMs?: number;
  /** Pause after MAX_OPEN_ORDERS. Default 5 s. */
  readonly maxOpenOrdersCooldownMs?: number;
  /** Longest wait in the queue. Default 120 s. */
  readonly queueTimeoutMs?: number;
  /** Bound on one placement from its start (never cuts an in-flight submission). Default 10 min. */
  readonly taskTimeoutMs?: number;
  /** Default drain deadline of {@link PlacementPipeline.close}. Default 150 s. */
  readonly drainMs?: number;
}

/**
 * The placement pipeline of one party: strictly one placement at a time (p-queue, concurrency
 * 1), highest priority first, at most one waiting intent per slot. Each placement runs to its
 * confirmation (or its typed refusal) before the next starts; see {@link PlacementRun} for the
 * steps and {@link AfterUnknownPolicy} for what happens after an unknown submission.
 *
 * `place` never rejects: every result — including venue refusals, aborts and internal errors —
 * is a {@link PlacementOutcome}.
 */
export class PlacementPipeline {
  /** The resolver UNKNOWN orders are handed to. */
  readonly resolver: UnknownResolver;
  private readonly ctx: ExecutionContext;
  private readonly cfg: PlacementConfig;
  private readonly ids: ClientOrderIdFactory;
  private readonly isWanted: FreshnessCheck;
  private readonly signGate: SignGate | null;
  private readonly ownResolver: boolean;
  private readonly queue: PlacementQueue;
  private readonly taskTimeoutMs: number;
  private readonly drainMs: number;
  /** Aborts waiting intents and every pre-submit step. */
  private readonly closing = new AbortController();
  /** Aborts an in-flight submission: only at the drain deadline. */
  private readonly draining = new AbortController();
  private cooldownUntil = 0;
  private seq = 0;
  private closePromise: Promise<void> | null = null;

  constructor(options: PlacementPipelineOptions) {
    this.ctx = new ExecutionContext(options);
    this.ids = options.clientOrderIds;
    this.isWanted = options.isWanted ?? (() => true);
    this.signGate = options.signGate ?? null;
    this.ownResolver = options.resolver === undefined;
    this.resolver = options.resolver ?? new UnknownResolver(options);
    this.taskTimeoutMs = options.taskTimeoutMs ?? 600_000;
    this.drainMs = options.drainMs ?? 150_000;
    this.cfg = {
      afterUnknown: options.afterUnknown ?? 'proceed',
      confirmWindowMs: options.confirmWindowMs ?? 60_000,
      unknownPauseMs: options.unknownPauseMs ?? 2_000,
      confirmBackoff: backoff(DEFAULT_CONFIRM_BACKOFF, options.confirmBackoff),
      deadlineMarginMs: options.deadlineMarginMs ?? DEFAULT_DEADLINE_MARGIN_MS,
      submitAgeLimitMs: options.submitAgeLimitMs ?? 240_000,
      maxReprepares: options.maxReprepares ?? 3,
      ledgerRejectRetries: options.ledgerRejectRetries ?? 5,
      ledgerRejectBackoff: backoff(
        { initialMs: 2_000, factor: 2, maxMs: 16_000 },
        options.ledgerRejectBackoff,
      ),
      throttleBackoff: backoff({ initialMs: 2_000, factor: 2, maxMs: 20_000 }, options.throttleBackoff),
      maxResubmits: options.maxResubmits ?? 3,
      rateLimitCooldownMs: options.rateLimitCooldownMs ?? 60_000,
      maxOpenOrdersCooldownMs: options.maxOpenOrdersCooldownMs ?? 5_000,
    };
    this.queue = new PlacementQueue({
      clock: this.ctx.clock,
      queueTimeoutMs: options.queueTimeoutMs ?? 120_000,
      run: (entry) => this.runEntry(entry),
      dropped: (entry, kind) => this.droppedOutcome(entry, kind),
      onChange: () => this.emitQueue(),
    });
  }

  /** Intents waiting (not started). */
  get depth(): number {
    return this.queue.depth;
  }

  /** True while a placement runs. */
  get busy(): boolean {
    return this.queue.current !== null;
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.closing.signal.aborted;
  }

  /**
   * Queues a placement and resolves with its outcome. A newer intent for a slot replaces a
   * still-waiting older one (which resolves `superseded`). After {@link close}: `aborted`.
   */
  place(intent: PlacementIntent, options: PlaceOptions = {}): Promise<PlacementOutcome> {
    return new Promise<PlacementOutcome>((resolve) => {
      const entry: QueuedIntent = {
        intentId: `intent-${++this.seq}`,
        intent,
        options,
        enqueuedAt: this.ctx.now(),
        resolve: (outcome) => {
          this.ctx.emit({
            type: 'placement',
            outcome,
            ms: this.ctx.now() - entry.enqueuedAt,
            at: this.ctx.now(),
          });
          resolve(outcome);
        },
      };
      if (this.closed) {
        entry.resolve(this.droppedOutcome(entry, 'closed'));
        return;
      }
      this.queue.enqueue(entry);
    });
  }

  /**
   * Stops taking intents, drops the waiting ones (`aborted`, `closed`), aborts the running
   * placement's pre-submit steps and confirmation (a prepared order is abandoned unsigned; a
   * submitted one is handed to the resolver), and lets an in-flight submission finish — until
   * `drainMs`, after which it is cut and its order becomes UNKNOWN. Idempotent.
   */
  close(options: { drainMs?: number } = {}): Promise<void> {
    this.closePromise ??= this.shutdown(options.drainMs ?? this.drainMs);
    return this.closePromise;
  }

  private async shutdown(drainMs: number): Promise<void> {
    this.closing.abort(new DOMException('pipeline closed', 'AbortError'));
    this.queue.dropAll('closed');
    const timer = this.ctx.clock.setTimeout(() => this.draining.abort(), drainMs);
    try {
      await this.queue.onIdle();
    } finally {
      this.ctx.clock.clearTimeout(timer);
    }
    if (this.ownResolver) await this.resolver.close();
  }

  private async runEntry(entry: QueuedIntent): Promise<PlacementOutcome> {
    const task = timeoutSignal(this.ctx.clock, this.taskTimeoutMs, entry.options.signal, this.closing.signal);
    const abortCause = (): AbortCause =>
      this.closed ? 'closed' : entry.options.signal?.aborted === true ? 'signal' : 'timeout';
    try {
      const wait = this.cooldownUntil - this.ctx.now();
      if (wait > 0 && !(await pause(this.ctx.clock, wait, task.signal))) {
        return this.droppedOutcome(entry, abortCause());
      }
      const run = new PlacementRun(
        {
          ctx: this.ctx,
          cfg: this.cfg,
          ids: this.ids,
          resolver: this.resolver,
          cooldown: (ms, reason) => this.cooldown(ms, reason),
          signGate: this.signGate,
        },
        {
          intentId: entry.intentId,
          intent: entry.intent,
          isWanted: entry.options.isWanted ?? this.isWanted,
          signal: task.signal,
          submitSignal: this.draining.signal,
          abortCause,
        },
      );
      const outcome = await run.run();
      if (outcome.kind === 'unresolved' && this.cfg.afterUnknown === 'proceed') {
        // One order read was made; a short pause before the next slot's prepare.
        this.cooldown(this.cfg.unknownPauseMs, 'unknown-order');
      }
      return outcome;
    } catch (error) {
      // PlacementRun.run does not reject; this only guards the caller against a hung promise.
      const ref = {
        intentId: entry.intentId,
        slot: entry.intent.slot,
        key: null,
        clientOrderId: null,
        orderId: null,
      };
      return { ...ref, kind: 'failed', code: 'INTERNAL_ERROR', error };
    } finally {
      task.dispose();
    }
  }

  private cooldown(ms: number, reason: string): void {
    this.cooldownUntil = Math.max(this.cooldownUntil, this.ctx.now() + ms);
    this.ctx.emit({ type: 'backoff', queue: 'placement', reason, delayMs: ms, at: this.ctx.now() });
  }

  private droppedOutcome(entry: QueuedIntent, kind: 'superseded' | AbortCause): PlacementOutcome {
    const ref = {
      intentId: entry.intentId,
      slot: entry.intent.slot,
      key: null,
      clientOrderId: null,
      orderId: null,
    };
    return kind === 'superseded' ? { ...ref, kind } : { ...ref, kind: 'aborted', reason: kind };
  }

  private emitQueue(): void {
    const now = this.ctx.now();
    this.ctx.emit({
      type: 'queue',
      queue: 'placement',
      depth: this.queue.depth,
      inFlight: this.queue.current === null ? 0 : 1,
      oldestWaitMs: this.queue.oldestWaitMs(now),
      at: now,
    });
  }
}
