/**
 * The placement pipeline's queue: {@link PlacementQueue} runs one placement at a time (p-queue at
 * concurrency 1), highest priority first, with at most one waiting intent per quote slot (a newer
 * one supersedes it). It owns the waiting intents, their queue timeout and caller signals, and
 * the running one; the pipeline supplies how a placement runs and how a dropped one ends.
 */
import PQueue from 'p-queue';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { AbortCause, PlacementOutcome } from '../execution-events.js';
import type { PlaceOptions, PlacementIntent } from './placement-intent.js';

/** One intent waiting for (or holding) the pipeline. */
export interface QueuedIntent {
  readonly intentId: string;
  readonly intent: PlacementIntent;
  readonly options: PlaceOptions;
  readonly enqueuedAt: number;
  /** Delivers the outcome to the caller of `place`. Called exactly once. */
  readonly resolve: (outcome: PlacementOutcome) => void;
}

interface Waiting {
  entry: QueuedIntent;
  readonly taskId: string;
  /** Aborted only while the task is still queued: removes it from p-queue. */
  readonly queueAbort: AbortController;
  /** Detaches the entry's caller-signal listener and queue timer. */
  detach: () => void;
}

/** Options of {@link PlacementQueue}. */
export interface PlacementQueueOptions {
  readonly clock: Clock;
  /** How long an intent may wait before it is dropped (`aborted`, `queue-timeout`). */
  readonly queueTimeoutMs: number;
  /** Runs one placement; must not reject. */
  readonly run: (entry: QueuedIntent) => Promise<PlacementOutcome>;
  /** Builds the outcome of an intent dropped while waiting. */
  readonly dropped: (entry: QueuedIntent, kind: 'superseded' | AbortCause) => PlacementOutcome;
  /** Called whenever depth or the running task changes. */
  readonly onChange: () => void;
}

/**
 * The placement queue: p-queue at concurrency 1 (strictly one placement at a time), priority
 * first, and at most ONE waiting intent per quote slot. A newer intent for a slot whose older
 * intent is still waiting replaces it in place (the older one resolves `superseded`, the task
 * takes the newer priority); an intent for a slot whose placement is already running queues
 * behind it and finds the slot occupied when its turn comes.
 *
 * p-queue's `clear()` would leave `add()` promises pending forever, so waiting tasks are removed
 * one by one through their own AbortSignal, and only while they have not started: p-queue would
 * otherwise release the next task while the aborted one is still running.
 */
export class PlacementQueue {
  private readonly queue = new PQueue({ concurrency: 1 });
  private readonly waiting = new Map<string, Waiting>();
  private running: QueuedIntent | null = null;
  private seq = 0;

  constructor(private readonly opts: PlacementQueueOptions) {}

  /** Intents waiting (not started). */
  get depth(): number {
    return this.waiting.size;
  }

  /** The intent being placed, if any. */
  get current(): QueuedIntent | null {
    return this.running;
  }

  /** Age of the oldest waiting intent at `now`, 0 when none wait. */
  oldestWaitMs(now: number): number {
    let oldest = now;
    for (const w of this.waiting.values()) oldest = Math.min(oldest, w.entry.enqueuedAt);
    return now - oldest;
  }

  /** Queues `entry`, replacing a still-waiting intent of the same slot. */
  enqueue(entry: QueuedIntent): void {
    const slot = entry.intent.slot;
    const priority = entry.options.priority ?? 0;
    const existing = this.waiting.get(slot);
    if (existing !== undefined) {
      existing.detach();
      const older = existing.entry;
      existing.entry = entry;
      existing.detach = this.attach(slot, existing.taskId, entry);
      try {
        this.queue.setPriority(existing.taskId, priority);
      } catch {
        // The task was dequeued in this very tick; it will pick the newer entry up anyway.
      }
      older.resolve(this.opts.dropped(older, 'superseded'));
      this.opts.onChange();
      return;
    }
    const taskId = `placement-${++this.seq}`;
    const queueAbort = new AbortController();
    const waiting: Waiting = { entry, taskId, queueAbort, detach: () => undefined };
    this.waiting.set(slot, waiting);
    waiting.detach = this.attach(slot, taskId, entry);
    this.queue
      .add(() => this.start(slot, taskId), { id: taskId, priority, signal: queueAbort.signal })
      .catch(() => undefined);
    this.opts.onChange();
  }

  /** Drops every waiting intent with `cause`; the running one is not touched. */
  dropAll(cause: AbortCause): void {
    for (const [slot, w] of [...this.waiting]) this.drop(slot, w.taskId, cause);
  }

  /** Resolves when nothing waits and nothing runs. */
  async onIdle(): Promise<void> {
    await this.queue.onIdle();
  }

  private attach(slot: string, taskId: string, entry: QueuedIntent): () => void {
    const { clock } = this.opts;
    const signal = entry.options.signal;
    const onAbort = (): void => this.drop(slot, taskId, 'signal', entry);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer: TimerHandle = clock.setTimeout(
      () => this.drop(slot, taskId, 'queue-timeout', entry),
      this.opts.queueTimeoutMs,
    );
    if (signal?.aborted) queueMicrotask(onAbort);
    return () => {
      signal?.removeEventListener('abort', onAbort);
      clock.clearTimeout(timer);
    };
  }

  private drop(slot: string, taskId: string, cause: AbortCause, only?: QueuedIntent): void {
    const w = this.waiting.get(slot);
    if (w === undefined || w.taskId !== taskId || (only !== undefined && w.entry !== only)) return;
    this.waiting.delete(slot);
    w.detach();
    w.queueAbort.abort();
    w.entry.resolve(this.opts.dropped(w.entry, cause));
    this.opts.onChange();
  }

  private async start(slot: string, taskId: string): Promise<void> {
    const w = this.waiting.get(slot);
    if (w === undefined || w.taskId !== taskId) return;
    this.waiting.delete(slot);
    w.detach();
    this.running = w.entry;
    this.opts.onChange();
    try {
      w.entry.resolve(await this.opts.run(w.entry));
    } finally {
      this.running = null;
      this.opts.onChange();
    }
  }
}
