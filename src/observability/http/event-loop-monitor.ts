/**
 * Event-loop lag, from `perf_hooks.monitorEventLoopDelay`. The histogram is read and reset once
 * per window (default 10 s), so the figures describe recent behaviour, not the process's life.
 * Both `/healthz` and `ledger_mm_event_loop_lag_seconds` read {@link EventLoopMonitor.lagSeconds},
 * so the probe and the metric always agree.
 *
 * The lag reported is the 99th percentile of the last complete window, or of the current one
 * when it is worse (or when no window has completed yet): a single long GC pause does not fail
 * the liveness probe, a loop that is behind most of the time does.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** Summary of one window, seconds. */
export interface LagWindow {
  readonly p99: number;
  readonly max: number;
  readonly mean: number;
}

/** Options of {@link EventLoopMonitor}. */
export interface EventLoopMonitorOptions {
  /** Sampling resolution, ms. Default 20. */
  readonly resolutionMs?: number;
  /** Window length, ms. Default 10 000. */
  readonly windowMs?: number;
}

const EMPTY: LagWindow = { p99: 0, max: 0, mean: 0 };
const NS_PER_S = 1e9;

/** Watches the event loop's delay. Call {@link close} when done (it holds a timer, unref'd). */
export class EventLoopMonitor {
  private readonly histogram: IntervalHistogram;
  private readonly timer: NodeJS.Timeout;
  private last: LagWindow | null = null;
  private closed = false;

  constructor(opts: EventLoopMonitorOptions = {}) {
    this.histogram = monitorEventLoopDelay({ resolution: Math.max(1, opts.resolutionMs ?? 20) });
    this.histogram.enable();
    this.timer = setInterval(() => this.roll(), Math.max(100, opts.windowMs ?? 10_000));
    this.timer.unref();
  }

  /** The lag the probe and the metric use, seconds (see the module doc). */
  lagSeconds(): number {
    const current = this.current();
    return Math.max(this.last?.p99 ?? 0, current.p99);
  }

  /** The last complete window, or the current partial one before any completed. */
  window(): LagWindow {
    return this.last ?? this.current();
  }

  /** Ends the current window now (the timer does it every `windowMs`). */
  roll(): void {
    if (this.closed) return;
    this.last = this.current();
    this.histogram.reset();
  }

  /** Stops sampling. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    this.histogram.disable();
  }

  private current(): LagWindow {
    const h = this.histogram;
    if (this.closed || h.count === 0) return EMPTY;
    return { p99: h.percentile(99) / NS_PER_S, max: h.max / NS_PER_S, mean: h.mean / NS_PER_S };
  }
}
