import FakeTimers from '@sinonjs/fake-timers';
import { describe, expect, it } from 'vitest';
import { fakeClock, sleep } from '../../src/core/clock.js';
import type { Clock } from '../../src/core/clock.js';
import { Poller } from '../../src/core/poller.js';
import type { PollerOptions } from '../../src/core/poller.js';

const T0 = 1_700_000_000_000;

function setup(overrides: Partial<PollerOptions> & { taskMs?: number } = {}) {
  const fake = FakeTimers.createClock(T0);
  const clock: Clock = fakeClock(fake);
  const starts: number[] = [];
  let concurrent = 0;
  let maxConcurrent = 0;
  const taskMs = overrides.taskMs ?? 0;
  const poller = new Poller({
    name: 'test',
    clock,
    intervalMs: 1_000,
    task: async (signal) => {
      starts.push(fake.now - T0);
      concurrent += 1;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      try {
        if (taskMs > 0) await sleep(clock, taskMs, signal);
      } finally {
        concurrent -= 1;
      }
    },
    ...overrides,
  });
  return { fake, clock, poller, starts, maxConcurrent: () => maxConcurrent };
}

describe('Poller', () => {
  it('runs at once on start, then every interval, and records lastSuccessAt', async () => {
    const { fake, poller, starts } = setup();
    expect(poller.lastSuccessAt).toBeNull();
    poller.start();
    await fake.tickAsync(3_500);
    expect(starts).toEqual([0, 1_000, 2_000, 3_000]);
    expect(poller.runs).toBe(4);
    expect(poller.lastSuccessAt).toBe(T0 + 3_000);
    expect(poller.failures).toBe(0);
    await poller.close();
  });

  it('never overlaps: a run longer than the interval delays the next one and counts skipped ticks', async () => {
    const { fake, poller, starts, maxConcurrent } = setup({ taskMs: 2_500 });
    poller.start();
    await fake.tickAsync(7_600);
    // Each run takes 2.5 s against a 1 s interval: the next starts when the previous ends.
    expect(starts).toEqual([0, 2_500, 5_000, 7_500]);
    expect(maxConcurrent()).toBe(1);
    expect(poller.skipped).toBe(6); // two missed ticks per finished run
    await poller.close();
  });

  it('runNow during a run does not start a second one; it counts as skipped and joins the run', async () => {
    const { fake, poller, starts, maxConcurrent } = setup({ taskMs: 500 });
    const first = poller.runNow();
    const second = poller.runNow();
    await fake.tickAsync(500);
    await Promise.all([first, second]);
    expect(starts).toEqual([0]);
    expect(poller.skipped).toBe(1);
    expect(maxConcurrent()).toBe(1);
    await poller.close();
  });

  it('draws each period within intervalMs ± jitter', async () => {
    const draws = [0, 0.75, 0.5, 0.25];
    let i = 0;
    const { fake, poller, starts } = setup({ jitterRatio: 0.2, random: () => draws[i++ % draws.length]! });
    poller.start();
    await fake.tickAsync(4_000);
    const gaps = starts.slice(1).map((s, k) => s - starts[k]!);
    expect(gaps.slice(0, 4)).toEqual([800, 1_100, 1_000, 900]);
    for (let k = 0; k < 200; k++) {
      const p = poller.nextPeriodMs();
      expect(p).toBeGreaterThanOrEqual(800);
      expect(p).toBeLessThanOrEqual(1_200);
    }
    await poller.close();
  });

  it('rejects jitter that could reach zero or a non-positive interval', () => {
    const clock = fakeClock(FakeTimers.createClock(T0));
    const task = async (): Promise<void> => {};
    expect(() => new Poller({ name: 'x', clock, intervalMs: 0, task })).toThrow(RangeError);
    expect(() => new Poller({ name: 'x', clock, intervalMs: 100, jitterMs: 100, task })).toThrow(RangeError);
    expect(() => new Poller({ name: 'x', clock, intervalMs: 100, jitterRatio: 1, task })).toThrow(RangeError);
  });

  it('counts failures, reports them to onError and keeps polling; a success resets the streak', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const { fake, poller } = setup({
      task: async () => {
        n += 1;
        if (n <= 2) throw new TypeError(`boom ${n}`);
      },
      onError: (e) => errors.push(e),
    });
    poller.start();
    await fake.tickAsync(1_500);
    expect(poller.failures).toBe(2);
    expect(poller.consecutiveFailures).toBe(2);
    expect(poller.lastErrorAt).toBe(T0 + 1_000);
    expect(poller.lastSuccessAt).toBeNull();
    expect(errors).toHaveLength(2);
    await fake.tickAsync(1_000);
    expect(poller.lastSuccessAt).toBe(T0 + 2_000);
    expect(poller.consecutiveFailures).toBe(0);
    await poller.close();
  });

  it('aborts a run at its timeout with a TimeoutError and counts it as a failure', async () => {
    const errors: unknown[] = [];
    const { fake, poller } = setup({ taskMs: 60_000, timeoutMs: 3_000, onError: (e) => errors.push(e) });
    poller.start();
    await fake.tickAsync(3_000);
    expect(poller.failures).toBe(1);
    expect(errors[0]).toBeInstanceOf(DOMException);
    expect((errors[0] as DOMException).name).toBe('TimeoutError');
    await poller.close();
  });

  it('close aborts the run in flight, awaits it, and stops the loop; it is not a failure', async () => {
    let seen: AbortSignal | undefined;
    let finished = false;
    const fake = FakeTimers.createClock(T0);
    const clock = fakeClock(fake);
    const poller = new Poller({
      name: 'closing',
      clock,
      intervalMs: 1_000,
      task: async (signal) => {
        seen = signal;
        try {
          await sleep(clock, 60_000, signal);
        } finally {
          // Cleanup after the abort still runs before close resolves.
          await Promise.resolve();
          finished = true;
        }
      },
    });
    poller.start();
    await fake.tickAsync(10);
    expect(poller.running).toBe(true);
    await poller.close();
    expect(seen?.aborted).toBe(true);
    expect(finished).toBe(true);
    expect(poller.running).toBe(false);
    expect(poller.failures).toBe(0);
    await fake.tickAsync(10_000);
    expect(poller.runs).toBe(1);
    expect(poller.nextRunAt).toBeNull();
    await poller.close(); // idempotent
    expect(() => poller.start()).toThrow('is closed');
  });

  it('honours initialDelayMs and exposes nextRunAt', async () => {
    const { fake, poller, starts } = setup({ initialDelayMs: 250 });
    poller.start();
    expect(poller.nextRunAt).toBe(T0 + 250);
    await fake.tickAsync(250);
    expect(starts).toEqual([250]);
    expect(poller.nextRunAt).toBe(T0 + 1_250);
    await poller.close();
  });
});
