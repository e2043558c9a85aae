/**
 * The one timer loop every poller of the product uses (book, trades, orders, balances, account).
 *
 * Semantics:
 * - One run at a time. Runs are scheduled from the START of the previous run: the next run is
 *   due `intervalMs ± jitter` after it. A run that takes longer than that delays the next one to
 *   its own end (the next run starts right after it), and each tick it overran is counted in
 *   `skipped`; runs never overlap and never queue up.
 * - Every run gets an AbortSignal that aborts after `timeoutMs` (a `TimeoutError`) or when the
 *   poller is closed. A task must honour it: the poller awaits the task, never abandons it, so a
 *   run is really over when the next one starts.
 * - A failing run is counted and reported to `onError`; the loop goes on. A run aborted by
 *   {@link Poller.close} is neither a success nor a failure.
 * - All time comes from the injected {@link Clock}, so tests drive it with fake timers.
 */
import { timeoutSignal } from './clock.js';
import type { Clock, TimerHandle } from './clock.js';

/** Options of {@link Poller}. */
export interface PollerOptions {
  /** Low-cardinality name, for metrics and logs (`orders`, `book:BTC/USDC`). */
  readonly name: string;
  readonly clock: Clock;
  /** Nominal period, ms, from the start of one run to the start of the next. Must be > 0. */
  readonly intervalMs: number;
  /** Absolute jitter: each period is drawn uniformly from `intervalMs ± jitterMs`. Default 0. */
  readonly jitterMs?: number;
  /** Relative jitter, `jitterMs = jitterRatio × intervalMs` (0 ≤ ratio < 1); used when `jitterMs` is absent. */
  readonly jitterRatio?: number;
  /** Source of jitter in [0, 1). Default `Math.random`. */
  readonly random?: () => number;
  /** The work of one run. Must honour `signal`. */
  readonly task: (signal: AbortSignal) => Promise<void>;
  /** Per-run timeout, ms. Default `max(intervalMs, 10 000)`. */
  readonly timeoutMs?: number;
  /** Delay before the first run after {@link Poller.start}, ms. Default 0 (at once). */
  readonly initialDelayMs?: number;
  /** Called with each failure of a run (never for a run aborted by close). Must not throw. */
  readonly onError?: (error: unknown, poller: PollerStats) => void;
  /**
   * Backs off after failures `when` says are lasting (e.g. a refused API key): the next period
   * doubles per consecutive such failure, up to `maxMs`. The first success restores `intervalMs`.
   */
  readonly failureBackoff?: { readonly maxMs: number; readonly when: (error: unknown) => boolean };
}

/** What a poller exposes about itself (for health and metrics; metrics observe, never decide). */
export interface PollerStats {
  readonly name: string;
  /** Clock ms when the last successful run ended, or null. */
  readonly lastSuccessAt: number | null;
  /** Clock ms when the last failed run ended, or null. */
  readonly lastErrorAt: number | null;
  readonly lastError: unknown;
  /** Runs started. */
  readonly runs: number;
  /** Runs that failed (thrown, or timed out). */
  readonly failures: number;
  /** Failures since the last success. */
  readonly consecutiveFailures: number;
  /** Ticks not run because a run was still in flight (including `runNow` calls during a run). */
  readonly skipped: number;
  /** Duration of the last finished run, ms, or null. */
  readonly lastDurationMs: number | null;
  readonly running: boolean;
}

/** A poller's stats as plain data under another name (a firm's party pollers, `orders_<party>`). */
export function statsAs(p: PollerStats, name: string): PollerStats {
  return {
    name,
    lastSuccessAt: p.lastSuccessAt,
    lastErrorAt: p.lastErrorAt,
    lastError: p.lastError,
    runs: p.runs,
    failures: p.failures,
    consecutiveFailures: p.consecutiveFailures,
    skipped: p.skipped,
    lastDurationMs: p.lastDurationMs,
    running: p.running,
  };
}

/**
 * The one backoff after lasting failures (a refused API key): `periodMs` doubled per consecutive
 * such failure, capped at `maxMs`. The pollers' `failureBackoff` and the execution layer's reads
 * (see `execution/credential-backoff.ts`) both wait this long.
 */
export function lastingFailureDelayMs(periodMs: number, consecutiveFailures: number, maxMs: number): number {
  return Math.min(maxMs, periodMs * 2 ** consecutiveFailures);
}

/** A generic, non-overlapping, jittered, timeout-bounded poller. See the module doc. */
export class Poller implements PollerStats {
  readonly name: string;
  lastSuccessAt: number | null = null;
  lastErrorAt: number | null = null;
  private readonly failureBackoff: PollerOptions['failureBackoff'];
  lastError: unknown = undefined;
  runs = 0;
  failures = 0;
  consecutiveFailures = 0;
  skipped = 0;
  lastDurationMs: number | null = null;

  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly jitterMs: number;
  private readonly random: () => number;
  private readonly timeoutMs: number;
  private readonly initialDelayMs: number;
  private readonly task: (signal: AbortSignal) => Promise<void>;
  private readonly onError: ((error: unknown, poller: PollerStats) => void) | undefined;
  private readonly lifetime = new AbortController();
  private timer: TimerHandle | null = null;
  /** Clock ms the timer is due at (null when no timer is set). */
  private dueAt: number | null = null;
  private inFlight: Promise<void> | null = null;
  private started = false;
  private closed = false;

  /** Throws RangeError on a non-positive interval, a negative jitter or a jitter ≥ the interval. */
  constructor(options: PollerOptions) {
    this.failureBackoff = options.failureBackoff;
    this.name = options.name;
    this.clock = options.clock;
    this.intervalMs = options.intervalMs;
    if (!Number.isFinite(this.intervalMs) || this.intervalMs <= 0) {
      throw new RangeError(`poller ${this.name}: intervalMs must be > 0`);
    }
    const ratio = options.jitterRatio ?? 0;
    if (!(ratio >= 0 && ratio < 1))
      throw new RangeError(`poller ${this.name}: jitterRatio must be in [0, 1)`);
    this.jitterMs = options.jitterMs ?? ratio * this.intervalMs;
    if (!(this.jitterMs >= 0 && this.jitterMs < this.intervalMs)) {
      throw new RangeError(`poller ${this.name}: jitterMs must be in [0, intervalMs)`);
    }
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? Math.max(this.intervalMs, 10_000);
    if (!(this.timeoutMs > 0)) throw new RangeError(`poller ${this.name}: timeoutMs must be > 0`);
    this.initialDelayMs = Math.max(0, options.initialDelayMs ?? 0);
    this.task = options.task;
    this.onError = options.onError;
  }

  /** True while a run is in flight. */
  get running(): boolean {
    return this.inFlight !== null;
  }

  /** Clock ms the next run is due at, or null when none is scheduled (running, stopped, closed). */
  get nextRunAt(): number | null {
    return this.dueAt;
  }

  /** True once {@link Poller.close} was called. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Starts the loop: the first run after `initialDelayMs`. Idempotent; throws after close. */
  start(): void {
    if (this.closed) throw new Error(`poller ${this.name} is closed`);
    if (this.started) return;
    this.started = true;
    if (this.inFlight === null) this.schedule(this.initialDelayMs);
  }

  /**
   * Runs the task now (for startup and tests) and resolves when that run is over; never rejects
   * (failures go to the stats and `onError`). While a run is in flight no second one starts: the
   * call is counted in `skipped` and resolves with the run in flight.
   */
  runNow(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.inFlight !== null) {
      this.skipped += 1;
      return this.inFlight;
    }
    this.clearTimer();
    return this.launch();
  }

  /** Stops the loop: clears the timer, aborts the run in flight and waits for it. Idempotent. */
  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.clearTimer();
      this.lifetime.abort(new DOMException(`poller ${this.name} closed`, 'AbortError'));
    }
    await this.inFlight;
  }

  /** The backed-off period after a lasting failure (see `failureBackoff`), or null. */
  private backoffMs(): number | null {
    const b = this.failureBackoff;
    if (b === undefined || this.consecutiveFailures === 0 || !b.when(this.lastError)) return null;
    return lastingFailureDelayMs(this.intervalMs, this.consecutiveFailures, b.maxMs);
  }

  /** The period until the next run: `intervalMs ± jitterMs`, uniformly. */
  nextPeriodMs(): number {
    if (this.jitterMs === 0) return this.intervalMs;
    const u = this.random();
    return Math.round(this.intervalMs + (2 * u - 1) * this.jitterMs);
  }

  private launch(): Promise<void> {
    const startedAt = this.clock.now();
    const period = this.nextPeriodMs();
    const run = this.execute(startedAt).finally(() => {
      this.inFlight = null;
      if (this.closed || !this.started) return;
      const elapsed = this.clock.now() - startedAt;
      const backoffMs = this.backoffMs();
      if (backoffMs !== null) {
        this.schedule(Math.max(0, backoffMs - elapsed));
        return;
      }
      if (elapsed < period) {
        this.schedule(period - elapsed);
        return;
      }
      // Overran: the ticks it covered are skipped, and the next run starts right away.
      this.skipped += Math.floor(elapsed / period);
      void this.launch();
    });
    this.inFlight = run;
    return run;
  }

  private async execute(startedAt: number): Promise<void> {
    this.runs += 1;
    const { signal, dispose } = timeoutSignal(this.clock, this.timeoutMs, this.lifetime.signal);
    try {
      await this.task(signal);
      if (this.lifetime.signal.aborted) return;
      this.lastSuccessAt = this.clock.now();
      this.consecutiveFailures = 0;
    } catch (err) {
      if (this.lifetime.signal.aborted) return;
      this.failures += 1;
      this.consecutiveFailures += 1;
      this.lastErrorAt = this.clock.now();
      this.lastError = err;
      try {
        this.onError?.(err, this);
      } catch {
        // onError must not throw; a broken reporter must not stop the loop.
      }
    } finally {
      dispose();
      this.lastDurationMs = this.clock.now() - startedAt;
    }
  }

  private schedule(delayMs: number): void {
    this.clearTimer();
    this.dueAt = this.clock.now() + delayMs;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.dueAt = null;
      if (this.closed || this.inFlight !== null) return;
      void this.launch();
    }, delayMs);
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
    this.dueAt = null;
  }
}
