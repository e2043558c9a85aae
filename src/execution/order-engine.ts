/**
 * The execution layer's facade for one party: {@link OrderEngine} opens the journal, recovers the
 * party's orders against the venue, then accepts placements (the one-at-a-time pipeline) and
 * cancels (the concurrent pool), with the confirmation resolver, the orders poller and the
 * eviction of terminal orders behind it. It owns the engine's lifecycle (start, close in reverse,
 * journal last) and its event stream. The daemon hands it the risk gate's verdicts; it is the
 * layer between them and the venue client.
 */
import { openJournal, type FillMarkInput, type FillRecord, type Journal } from '../orders/journal/index.js';
import type { TrackedOrder } from '../orders/fsm/index.js';
import type { CancelOptions } from './cancel/cancel-pool.js';
import { buildParts, cancelEverything, closeEngine, type EngineParts } from './engine-parts.js';
import {
  DEFAULT_TERMINAL_EVICTION,
  type CloseOptions,
  type EngineEvent,
  type EngineControlLog,
  type EngineMeta,
  type EnginePhase,
  type OrderEngineOptions,
  type OrdersView,
  type TerminalEviction,
  type TradingEngine,
} from './engine-types.js';
import type { CancelOutcome, PlacementOutcome } from './execution-events.js';
import type { InventoryView } from './inventory.js';
import type { OrdersPoller } from './resolve/orders-poller.js';
import type { PlaceOptions, PlacementIntent } from './placement/placement-intent.js';
import { recover, type RecoveryReport } from './resolve/recovery.js';

export {
  DEFAULT_TERMINAL_EVICTION,
  type CloseOptions,
  type EngineEvent,
  type EngineMeta,
  type EnginePhase,
  type OrderEngineOptions,
  type OrdersView,
  type TerminalEviction,
  type TradingEngine,
} from './engine-types.js';

/**
 * The execution layer behind one facade. {@link start}: journal → registry and inventory → recovery
 * against the venue → awaiting orders to the resolver → orders poller → placements open
 * ({@link place} waits for all of it). {@link close}: the reverse, journal last.
 */
export class OrderEngine implements TradingEngine {
  private parts: EngineParts | null = null;
  private readonly listeners = new Set<(e: EngineEvent) => void>();
  private phase: EnginePhase = 'created';
  private readyPromise: Promise<RecoveryReport> | null = null;
  private closePromise: Promise<void> | null = null;
  private readonly lifetime = new AbortController(); // aborts a recovery still running at close()
  private readonly eviction: TerminalEviction | null;
  private evictedCount = 0;

  /**
   * Throws TypeError when neither `storePath` nor `journal` is given, RangeError on an eviction
   * period ≤ 0 or a negative retention.
   */
  constructor(private readonly o: OrderEngineOptions) {
    if (!o.journal && o.storePath === undefined) throw new TypeError('storePath or journal required');
    this.eviction = evictionOf(o);
  }

  /** created → recovering → ready → closing → closed (or failed). */
  get state(): EnginePhase {
    return this.phase;
  }

  /** The registry, read-only. Throws before {@link start}. */
  get orders(): OrdersView {
    return this.must().registry;
  }

  /** Inventory derived from fills (seeded from the journal on start). Throws before start. */
  get inventory(): InventoryView {
    return this.must().inventory;
  }

  /**
   * The journal's `meta` values (see {@link EngineMeta}); the journal itself stays the engine's.
   * Usable once {@link start} has opened the journal, until {@link close} closes it. Throws before
   * start; the view's methods throw once the journal is closed.
   */
  get meta(): EngineMeta {
    const { journal } = this.must();
    return {
      get: (key) => journal.getMeta(key),
      set: (key, value) => journal.setMeta(key, value),
    };
  }

  /**
   * The journal's control log (pauses and resumes of quoting; `record` is a durable write, made
   * before the change is acted on). Throws before start; its methods throw once the journal is closed.
   */
  get controlLog(): EngineControlLog {
    const { journal } = this.must();
    return { record: (c) => journal.recordControlChange(c), changes: () => journal.controlChanges() };
  }

  /**
   * Stores what was learnt about fills after they were journaled (reference, fee, markouts; see
   * `Journal.recordFillMarks`). Throws before start and once the journal is closed.
   */
  recordFillMarks(marks: readonly FillMarkInput[]): number {
    return this.must().journal.recordFillMarks(marks);
  }

  /** The journal's fills after sequence number `seq`, oldest first (the cost basis catches up on them). */
  fillsAfter(seq: number): FillRecord[] {
    return this.must().journal.fillsAfter(seq);
  }

  /** Orders left alone under the `ignore` policy: untracked, but they count against caps. */
  get ignoredOrders(): number {
    return this.parts?.ignored.size ?? 0;
  }

  /** The orders poller (its `poller` has lastSuccessAt, failures…), or null before start. */
  get ordersPoller(): OrdersPoller | null {
    return this.parts?.poller ?? null;
  }

  /** Terminal orders forgotten by the registry so far (the journal keeps them). */
  get evicted(): number {
    return this.evictedCount;
  }

  /**
   * Forgets the terminal orders last updated more than the retention ago (what the periodic sweep
   * does); returns how many. Throws before {@link start}.
   */
  evictTerminal(retentionMs = (this.eviction ?? DEFAULT_TERMINAL_EVICTION).retentionMs): number {
    const n = this.must().registry.evictTerminal(this.o.clock.now() - retentionMs);
    this.evictedCount += n;
    return n;
  }

  /** Registers an observer of every {@link EngineEvent}; returns its unsubscribe. Must not throw. */
  subscribe(listener: (e: EngineEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Recovery first, then pollers, then placements. Resolves with the recovery report; rejects
   * when the journal cannot be opened (another process holds the store) or recovery cannot read
   * the venue — then call {@link close} and start a fresh engine later. Idempotent.
   */
  start(): Promise<RecoveryReport> {
    if (this.closePromise !== null && this.readyPromise === null) return Promise.reject(new Error('closed'));
    this.readyPromise ??= this.boot();
    return this.readyPromise;
  }

  /**
   * Places one intent once recovery is over. Never rejects: after close the outcome is `aborted`
   * (`closed`); before start or after a failed start, `aborted` (`invalid`).
   */
  async place(intent: PlacementIntent, options: PlaceOptions = {}): Promise<PlacementOutcome> {
    const ready = await this.readyPromise?.then(
      () => this.closePromise === null,
      () => false,
    );
    if (ready === true && this.parts !== null) return this.parts.pipeline.place(intent, options);
    const reason = this.closePromise === null ? 'invalid' : 'closed';
    const ref = { intentId: 'engine', slot: intent.slot, key: null, clientOrderId: null, orderId: null };
    return { ...ref, kind: 'aborted', reason };
  }

  /** Cancels one tracked order through the cancel pool (a deferred cancel if it does not rest yet). */
  cancel(key: string, options: CancelOptions = {}): Promise<CancelOutcome> {
    return this.must().cancelPool.cancel(key, options);
  }

  /** Cancels every active order held (adopted ones included); resolves with every outcome. */
  cancelAll(reason = 'cancel-all'): Promise<CancelOutcome[]> {
    return cancelEverything(this.must(), reason);
  }

  /**
   * Stops placements (waiting intents dropped; the running one abandoned before signing, or its
   * submission let finish), optionally cancels everything, stops the loops, drains the cancel
   * pool (cancels not yet signed are dropped; submitted ones run to their confirmation), closes
   * the journal; all within `drainMs`.
   */
  close(options: CloseOptions = {}): Promise<void> {
    this.closePromise ??= this.shutdown(options);
    return this.closePromise;
  }

  private async shutdown(options: CloseOptions): Promise<void> {
    this.setPhase('closing');
    this.lifetime.abort(new DOMException('order engine closed', 'AbortError'));
    try {
      if (this.readyPromise !== null) await this.readyPromise.catch(() => undefined);
      if (this.parts !== null) await closeEngine(this.parts, options, this.o.clock);
    } finally {
      this.setPhase('closed');
    }
  }

  private async boot(): Promise<RecoveryReport> {
    const { o } = this;
    this.setPhase('recovering');
    let journal: Journal<TrackedOrder> | undefined = o.journal;
    try {
      journal ??= openJournal<TrackedOrder>({ path: o.storePath!, clock: o.clock });
      const evict =
        this.eviction === null ? null : { every: this.eviction.intervalMs, run: () => this.evictTerminal() };
      const parts = buildParts(o, journal, (e) => this.emit(e), evict);
      this.parts = parts;
      parts.tracker.attach();
      const report = await recover({
        journal,
        registry: parts.registry,
        client: o.venue,
        clock: o.clock,
        unknown: parts.unknown,
        signal: this.lifetime.signal,
        requestCancel: (order) =>
          void parts.cancelPool.cancel(order.key, { reason: order.cancelReason ?? 'recovery' }),
        historyMarginMs: o.recovery?.historyMarginMs,
      });
      this.emit({ type: 'recovered', report });
      void Promise.all(parts.resolver.trackAll()); // SUBMITTED/UNKNOWN: settled by reads
      if (this.closePromise === null) {
        parts.poller.start();
        parts.evictor?.start();
      }
      this.setPhase(this.closePromise === null ? 'ready' : 'closing');
      return report;
    } catch (err) {
      this.setPhase('failed');
      if (this.parts === null) journal?.close();
      throw err;
    }
  }

  private must(): EngineParts {
    if (this.parts === null) throw new Error('order engine: not started');
    return this.parts;
  }

  private setPhase(phase: EnginePhase): void {
    this.phase = phase;
    this.emit({ type: 'phase', phase, at: this.o.clock.now() });
  }

  private emit(event: EngineEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // Observers observe; a broken one never breaks execution.
      }
    }
  }
}

/** The eviction in force, or null when disabled. Throws RangeError on a bad figure. */
function evictionOf(o: OrderEngineOptions): TerminalEviction | null {
  if (o.eviction === false) return null;
  const e = { ...DEFAULT_TERMINAL_EVICTION, ...o.eviction };
  if (!(e.intervalMs > 0) || !(e.retentionMs >= 0)) {
    throw new RangeError('eviction: intervalMs must be > 0 and retentionMs ≥ 0');
  }
  return e;
}
