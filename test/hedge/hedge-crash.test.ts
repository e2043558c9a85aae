/**
 * Crash recovery of the hedger: the process is "killed" before a hedge order is journaled, after
 * it is journaled but before it is sent, after the venue executed it but before the answer came
 * back, and the answer is lost without a kill. A new process on the same journal file reads the
 * venue before acting again: the venue receives the hedge exactly once, never twice.
 *
 * A kill is a promise that never settles on a clock nobody ticks again: nothing after that
 * point runs, exactly as when the process dies. The restarted process has its own clock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';

import { type Clock, fakeClock } from '../../src/core/clock.js';
import { Dec } from '../../src/core/decimal.js';
import type { HedgeVenue } from '../../src/hedge/hedge-venue.js';
import { HedgeVenueSim } from '../../src/lab/hedge/hedge-venue-sim.js';
import { Rng } from '../../src/sim/rng.js';
import { closeJournals, hedgerOn } from './support/hedger-rig.js';

const d = (x: string | number): Dec => new Dec(x);
const never = new Promise<never>(() => undefined);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-hedge-'));
afterEach(closeJournals);

function clockAt(t: number): { clock: Clock; fake: FakeTimers.Clock } {
  const fake = FakeTimers.createClock(t);
  return { clock: fakeClock(fake), fake };
}

function simVenue(clock: Clock, lostAnswerRate = 0): HedgeVenueSim {
  return new HedgeVenueSim({
    clock,
    truePrice: () => d(50_000),
    halfSpreadBps: 1,
    takerFeeBps: 5,
    latencyMs: 200,
    rng: new Rng(7).fork('hedge'),
    lostAnswerRate,
  });
}

/** Where the first process dies. */
type KillPoint = 'before-send' | 'after-journal' | 'after-execute';

/** A venue that dies at `point` of its first order call (on the dying process's clock). */
function dying(inner: HedgeVenueSim, point: KillPoint): HedgeVenue {
  return {
    id: inner.id,
    touch: (s, sig) => inner.touch(s, sig),
    readOrder: (id, s, sig) => inner.readOrder(id, s, sig),
    openOrders: (s, sig) => inner.openOrders(s, sig),
    position: (s, sig) => inner.position(s, sig),
    placeIoc: async (req, sig) => {
      if (point === 'after-journal') return never;
      await inner.placeIoc(req, sig);
      return never;
    },
  };
}

describe('hedge crash recovery: never a doubled hedge', () => {
  it.each(['after-journal', 'after-execute'] as const)('killed %s', async (point) => {
    const file = path.join(dir, `${point}.sqlite`);
    // The venue lives on; it runs on the clock of whichever process talks to it.
    let current = clockAt(1_800_000_000_000);
    const venueClock: Clock = {
      now: () => current.clock.now(),
      setTimeout: (fn, ms) => current.clock.setTimeout(fn, ms),
      clearTimeout: (h) => current.clock.clearTimeout(h),
    };
    const inner = simVenue(venueClock);

    // Process 1: a fill left us 0.3 BTC long; it journals a sell and dies at `point`.
    const p1 = hedgerOn(file, dying(inner, point), current.clock, 'h');
    void p1.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
    await current.fake.tickAsync(1_000);
    expect(p1.journal.pending().map((r) => [r.side, r.quantity.toFixed(), r.state])).toEqual([
      ['SELL', '0.3', 'intent'],
    ]);
    expect(inner.received.length).toBe(point === 'after-journal' ? 0 : 1);

    // Process 2 on a fresh clock: the same journal file, the same venue.
    current = clockAt(1_800_000_100_000);
    const p2 = hedgerOn(file, inner, current.clock, 'h');
    expect(p2.executor.pending).toBe(true);
    for (let i = 0; i < 3; i++) {
      const tick = p2.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
      await current.fake.tickAsync(2_000);
      await tick;
    }
    expect(inner.received.length).toBe(1);
    expect(p2.hedger.state.positionBase.toFixed()).toBe('-0.3');
    expect(p2.journal.pending()).toEqual([]);
    expect(p2.journal.all().map((r) => r.state)).toEqual(
      point === 'after-journal' ? ['never-sent', 'settled'] : ['settled'],
    );
  });

  it('killed at any moment of a tick (every 50 ms), then restarted: exactly one hedge reaches the venue', async () => {
    for (let killAt = 0; killAt <= 1_000; killAt += 50) {
      const file = path.join(dir, `any-${killAt}.sqlite`);
      let current = clockAt(1_800_000_000_000);
      const venueClock: Clock = {
        now: () => current.clock.now(),
        setTimeout: (fn, ms) => current.clock.setTimeout(fn, ms),
        clearTimeout: (h) => current.clock.clearTimeout(h),
      };
      const inner = simVenue(venueClock);
      const p1 = hedgerOn(file, inner, current.clock, 'h');
      void p1.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
      await current.fake.tickAsync(killAt); // then the process dies: its clock never moves again
      current = clockAt(1_800_000_100_000);
      const p2 = hedgerOn(file, inner, current.clock, 'h');
      for (let i = 0; i < 3; i++) {
        const tick = p2.hedger.tick(d('0.3'), d(50_000), new AbortController().signal);
        await current.fake.tickAsync(2_000);
        await tick;
      }
      expect([killAt, inner.received.length]).toEqual([killAt, 1]);
      expect([killAt, p2.hedger.state.positionBase.toFixed()]).toEqual([killAt, '-0.3']);
    }
  });

  it('a lost answer (no kill) is read before anything else is sent', async () => {
    const { clock, fake } = clockAt(1_800_000_000_000);
    const venue = simVenue(clock, 1); // every order's answer is lost
    const h = hedgerOn(path.join(dir, 'lost.sqlite'), venue, clock, 'h');
    const first = h.hedger.tick(d('-0.5'), d(50_000), new AbortController().signal);
    await fake.tickAsync(2_000);
    expect((await first).sent).toBe(true);
    expect(h.executor.pending).toBe(true);
    const second = h.hedger.tick(d('-0.5'), d(50_000), new AbortController().signal);
    await fake.tickAsync(2_000);
    const r = await second;
    expect(r.settled.map((s) => s.filled.toFixed())).toEqual(['0.5']);
    expect(r.hold).toBe('none');
    expect(venue.received.length).toBe(1);
    expect(h.hedger.state.positionBase.toFixed()).toBe('0.5');
    // Cost: 5 bps fee on 0.5 × 50 005, and 1 bps of slippage against the reference.
    expect(h.hedger.state.feesQuote.toFixed()).toBe('12.50125');
    expect(h.hedger.state.slippageQuote.toFixed(2)).toBe('2.50');
  });

  it('a failing hedge venue is reported, and the hedger recovers with it', async () => {
    const { clock, fake } = clockAt(1_800_000_000_000);
    const venue = new HedgeVenueSim({
      clock,
      truePrice: () => d(100),
      halfSpreadBps: 1,
      takerFeeBps: 5,
      latencyMs: 10,
      rng: new Rng(1).fork('hedge'),
      unavailableRate: 1,
    });
    const h = hedgerOn(path.join(dir, 'fail.sqlite'), venue, clock, 'h');
    const t1 = h.hedger.tick(d('1'), d(100), new AbortController().signal);
    await fake.tickAsync(100);
    expect((await t1).hold).toBe('venue-failing');
    expect(h.hedger.state.failingSince).toBe(1_800_000_000_000 + 10);
    (venue as unknown as { o: { unavailableRate: number } }).o.unavailableRate = 0;
    const t2 = h.hedger.tick(d('1'), d(100), new AbortController().signal);
    await fake.tickAsync(100);
    expect((await t2).sent).toBe(true);
    expect(h.hedger.state.failing).toBe(false);
    expect(h.hedger.state.positionBase.toFixed()).toBe('-1');
  });
});
