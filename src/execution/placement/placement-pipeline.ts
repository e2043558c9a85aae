/**
 * The placement pipeline of one party: strictly one placement at a time (p-queue, concurrency
 * 1), highest priority first, at most one waiting intent per slot. Each placement runs to its
 * confirmation (or its typed refusal) before the next starts; see {@link PlacementRun} for the
 * steps and `AfterUnknownPolicy` for what happens after an unknown submission.
 *
 * `place` never rejects: every result — including venue refusals, aborts and internal errors —
 * is a {@link PlacementOutcome}.
 */
import { timeoutSignal } from '../../core/clock.js';
import { pause } from '../backoff.js';
import type { ClientOrderIdFactory } from './client-order-id.js';
import { ExecutionContext, type ExecutionDeps } from '../execution-context.js';
import type { AbortCause, PlacementOutcome } from '../execution-events.js';
import { DEFAULT_EXECUTION_SETTINGS, type PlacementSettings } from '../execution-settings.js';
import type { PlaceOptions, PlacementIntent } from './placement-intent.js';
import { PLACE_EVERYTHING, type PlacementPolicy } from './placement-policy.js';
import { PlacementQueue, type QueuedIntent } from './placement-queue.js';
import { PlacementRun } from './placement-run.js';
import { UnknownResolver } from '../resolve/unknown-resolver.js';

/** Options of {@link PlacementPipeline}. */
export interface PlacementPipelineOptions extends ExecutionDeps {
  /** Mints `<clientOrderIdPrefix><unique>` ids. */
  readonly clientOrderIds: ClientOrderIdFactory;
  /** Shared with recovery and the engine; the pipeline creates (and closes) its own when absent. */
  readonly resolver?: UnknownResolver;
  /** Asked by every placement whether it is still wanted and may be signed. Default: {@link PLACE_EVERYTHING}. */
  readonly policy?: PlacementPolicy;
  /** Default: the engine's defaults (`DEFAULT_EXECUTION_SETTINGS.placement`). */
  readonly settings?: PlacementSettings;
}

/** See the module doc. */
export class PlacementPipeline {
  /** The resolver UNKNOWN orders are handed to. */
  readonly resolver: UnknownResolver;
  private readonly ctx: ExecutionContext;
  private readonly cfg: PlacementSettings;
  private readonly ids: ClientOrderIdFactory;
  private readonly policy: PlacementPolicy;
  private readonly ownResolver: boolean;
  private readonly queue: PlacementQueue;
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
    this.policy = options.policy ?? PLACE_EVERYTHING;
    this.ownResolver = options.resolver === undefined;
    this.resolver =
      options.resolver ?? new UnknownResolver({ ...options, settings: DEFAULT_EXECUTION_SETTINGS.resolver });
    this.cfg = options.settings ?? DEFAULT_EXECUTION_SETTINGS.placement;
    this.queue = new PlacementQueue({
      clock: this.ctx.clock,
      queueTimeoutMs: this.cfg.queueTimeoutMs,
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
    this.closePromise ??= this.shutdown(options.drainMs ?? this.cfg.drainMs);
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
    const task = timeoutSignal(
      this.ctx.clock,
      this.cfg.taskTimeoutMs,
      entry.options.signal,
      this.closing.signal,
    );
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
          policy: this.policy,
          cooldown: (ms, reason) => this.cooldown(ms, reason),
        },
        {
          intentId: entry.intentId,
          intent: entry.intent,
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
