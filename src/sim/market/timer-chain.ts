/**
 * One pending timer on the injected clock, rescheduled by its own callback: the building block of
 * the market model's self-rescheduling chains. Times are absolute (ms of the clock), so a chain
 * that schedules `previous + period` does not drift, and fractional targets (Poisson arrivals)
 * are rounded up to the next whole millisecond, the clock's resolution.
 */
import type { Clock, TimerHandle } from '../../core/clock.js';

/** See the module doc. */
export class TimerChain {
  private handle: TimerHandle | undefined;

  constructor(private readonly clock: Clock) {}

  /** Runs `fn` at absolute time `at` (or at once-ish if `at` is past), replacing any pending run. */
  at(at: number, fn: () => void): void {
    this.cancel();
    const delay = Math.max(0, Math.ceil(at - this.clock.now()));
    const handle = this.clock.setTimeout(() => {
      if (this.handle !== handle) return;
      this.handle = undefined;
      fn();
    }, delay);
    this.handle = handle;
  }

  /** Cancels the pending run, if any. Idempotent. */
  cancel(): void {
    if (this.handle === undefined) return;
    const handle = this.handle;
    this.handle = undefined;
    this.clock.clearTimeout(handle);
  }

  /** True while a run is scheduled. */
  get pending(): boolean {
    return this.handle !== undefined;
  }
}
