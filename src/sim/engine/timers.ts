/**
 * The engine's timers on the injected clock, tracked so that {@link TimerSet.disposeAll} can
 * cancel everything still pending when a venue is closed (no leaked 5-minute expiry timers
 * keeping a process or a test worker alive).
 */
import type { Clock, TimerHandle } from '../../core/clock.js';

/** See the module doc. */
export class TimerSet {
  private readonly pending = new Set<TimerHandle>();
  private disposed = false;

  constructor(private readonly clock: Clock) {}

  /** Runs `fn` after `ms` on the clock. Returns a handle for {@link TimerSet.cancel}. */
  after(ms: number, fn: () => void): TimerHandle | undefined {
    if (this.disposed) return undefined;
    const handle = this.clock.setTimeout(
      () => {
        this.pending.delete(handle);
        fn();
      },
      Math.max(0, ms),
    );
    this.pending.add(handle);
    return handle;
  }

  cancel(handle: TimerHandle | undefined): void {
    if (handle === undefined || !this.pending.delete(handle)) return;
    this.clock.clearTimeout(handle);
  }

  /** Number of timers not yet fired. */
  get size(): number {
    return this.pending.size;
  }

  /** Cancels every pending timer; later `after` calls are ignored. */
  disposeAll(): void {
    this.disposed = true;
    for (const h of this.pending) this.clock.clearTimeout(h);
    this.pending.clear();
  }
}
