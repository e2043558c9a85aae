/**
 * The time a rig runs on, injected (house rule 3): {@link LIVE_TIME}, the wall clock, for paper
 * trading over HTTP; a {@link FakeTime} (@sinonjs/fake-timers, not installed globally) for
 * `ledger-mm simulate` and the benches, where the daemon and the in-process venue share one
 * clock that the rig advances itself.
 *
 * Both answer {@link RigTime.drive}: wait for a promise, ticking fake time meanwhile (a daemon's
 * stop waits on its own timers, so under fake time nothing settles unless time moves).
 */
import FakeTimers from '@sinonjs/fake-timers';
import { fakeClock, systemClock, type Clock } from '../../core/clock.js';

/** The clock of a rig, and how to wait on it. */
export interface RigTime {
  readonly kind: 'live' | 'fake';
  readonly clock: Clock;
  /**
   * Resolves with `promise`. Under fake time, ticks `stepMs` at a time (at most `maxSteps`
   * steps) while it is pending; live, simply awaits it.
   */
  drive<T>(promise: Promise<T>, o?: { readonly stepMs?: number; readonly maxSteps?: number }): Promise<T>;
}

/** The wall clock (paper trading). */
export const LIVE_TIME: RigTime = {
  kind: 'live',
  clock: systemClock,
  drive: (promise) => promise,
};

/** Fake timers from `t0`, advanced by the rig (simulate, benches). */
export class FakeTime implements RigTime {
  readonly kind = 'fake';
  /** The fake-timers clock itself (its `now`, `tickAsync`, `nextAsync`). */
  readonly fake: FakeTimers.Clock;
  readonly clock: Clock;

  constructor(t0: number) {
    // A loop limit far above any run's timers: a day's run fires millions.
    this.fake = FakeTimers.createClock(t0, 10_000_000);
    this.clock = fakeClock(this.fake);
  }

  get now(): number {
    return this.fake.now;
  }

  /** Advances to `until` in steps of at most `stepMs`, calling `onStep` after each. */
  async advanceTo(until: number, stepMs: number, onStep?: () => void): Promise<void> {
    while (this.fake.now < until) {
      await this.fake.tickAsync(Math.min(stepMs, until - this.fake.now));
      onStep?.();
    }
  }

  async drive<T>(
    promise: Promise<T>,
    o: { readonly stepMs?: number; readonly maxSteps?: number } = {},
  ): Promise<T> {
    let settled = false;
    const tracked = promise.finally(() => (settled = true));
    const steps = o.maxSteps ?? 2_000;
    for (let i = 0; i < steps && !settled; i++) await this.fake.tickAsync(o.stepMs ?? 500);
    return tracked;
  }

  /**
   * Runs fake time timer by timer until `promise` settles (what settles on promises alone settles
   * first, before any timer fires early); throws past `maxMs` of fake time.
   */
  async settle<T>(promise: Promise<T>, maxMs = 3_600_000): Promise<T> {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    const until = this.fake.now + maxMs;
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (done) break;
      if (this.fake.now > until) throw new Error(`did not settle within ${maxMs} ms of fake time`);
      if (this.fake.countTimers() > 0) await this.fake.nextAsync();
    }
    return tracked;
  }
}
