/**
 * Doubled hedges after a kill at any point, counted over a sweep. The hedging loop of one pair
 * (threshold mode with a band, as `config/examples/hedged.json` runs it) ticks once a second on
 * an exposure that changes every 16 s, past the band in both directions. A run with no kill gives
 * the intended hedges of each change.
 *
 * For each of the 6 changes, the process is killed at every 50 ms of its first 2.5 s (where the
 * hedge is read, journaled, sent, executed and answered), restarted 0.1 s or 2 s later on the same
 * journal file and venue, and run to the end of the change: 612 kills. A second sweep kills the
 * process while an order is in flight (0.5, 1, 1.5 or 2 s into the change), kills the restarted
 * one again at every 100 ms of its first 2.5 s (its recovery), and lets a third process finish:
 * 624 double kills. Each change starts from the hedge position the run with no kill had there.
 *
 * The ground truth is the simulated hedge venue's own record: the orders that reached it and its
 * fills. Every killed run must leave it with exactly the intended orders (side and quantity) and
 * position. A doubled hedge would show as an extra order there, a lost one as a missing order.
 * The venue answers an order 200 ms after executing it (the way back), so a kill can fall between
 * the execution and the answer.
 *
 * A kill is a clock nobody ticks again: nothing of that process runs after it (hedge-crash.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import FakeTimers from '@sinonjs/fake-timers';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { type Clock, fakeClock, sleep } from '../../src/core/clock.js';
import { Dec } from '../../src/core/decimal.js';
import type { HedgeRules } from '../../src/hedge/hedge-decision.js';
import type { HedgeVenue } from '../../src/hedge/hedge-venue.js';
import { HedgeVenueSim } from '../../src/lab/hedge/hedge-venue-sim.js';
import { Rng } from '../../src/sim/rng.js';
import { closeJournals, EVERY_FILL_RULES, HEDGE_TIMEOUT_MS, hedgerOn } from './support/hedger-rig.js';

const d = (x: string | number): Dec => new Dec(x);
const T0 = 1_800_000_000_000;
const STEP_MS = 16_000;
const TICK_MS = 1_000;
/** How long the process stays dead: a quick restart (before its order lands) and a slow one. */
const RESTARTS_MS = [100, 2_000];
const LATENCY_MS = 200;
const ORDER_WIRE_MS = 1_500;
/** This venue's excess base, BTC, in each 12 s step. */
const EXPOSURE = ['0.05', '0.12', '0.08', '-0.02', '-0.09', '0.1'].map(d);
/** A band: hedge what lies beyond 0.03 BTC, back to 0.03 (keepBase = thresholdBase). */
const BAND_RULES: HedgeRules = {
  ...EVERY_FILL_RULES,
  mode: 'threshold',
  thresholdBase: d('0.03'),
  keepBase: d('0.03'),
};

// Hundreds of journal files: in memory where the system has it (a disk's fsyncs would dominate).
const dir = fs.mkdtempSync(
  path.join(fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'mm-hedge-sweep-'),
);
afterEach(closeJournals);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A promise that never settles: what a dead process waits on. */
const never = new Promise<never>(() => undefined);

/**
 * One world: one clock, the hedge venue (starting at `position`) and the processes that come and
 * go. A process sees the clock and the venue through views that go silent at its death: its
 * timers no longer fire, and no answer reaches it. What it had sent goes on: an order on the wire
 * still reaches the venue, 1.5 s after it was sent (a slow path; a read takes 200 ms), so a
 * restarted process can read the venue before its predecessor's order lands, and only the
 * journal tells it one is coming.
 */
class World {
  private readonly fake = FakeTimers.createClock(T0);
  private readonly clock: Clock = fakeClock(this.fake);
  readonly sim: HedgeVenueSim;

  constructor(
    readonly steps: readonly Dec[],
    readonly start: number,
    position: Dec,
  ) {
    this.fake.setSystemTime(start);
    this.sim = new HedgeVenueSim({
      clock: this.clock,
      truePrice: () => d(50_000),
      halfSpreadBps: 1,
      takerFeeBps: 5,
      latencyMs: LATENCY_MS,
      rng: new Rng(7).fork('hedge'),
      receiveWindowMs: HEDGE_TIMEOUT_MS,
    });
    this.sim.setPosition(position);
  }

  get end(): number {
    return this.start + this.steps.length * STEP_MS;
  }

  private exposureAt(t: number): Dec {
    return this.steps[Math.min(this.steps.length - 1, Math.floor((t - this.start) / STEP_MS))]!;
  }

  /** The clock and the venue as one process sees them, silent once `dead()`. */
  private views(dead: () => boolean): { clock: Clock; venue: HedgeVenue } {
    const clock: Clock = {
      now: () => this.clock.now(),
      setTimeout: (fn, ms) => this.clock.setTimeout(() => (dead() ? undefined : fn()), ms),
      clearTimeout: (h) => this.clock.clearTimeout(h),
    };
    const sim = this.sim;
    const mortal = async <T>(call: () => Promise<T>): Promise<T> => {
      try {
        const out = await call();
        return dead() ? never : out;
      } catch (error) {
        if (dead()) return never;
        throw error;
      }
    };
    const venue: HedgeVenue = {
      id: sim.id,
      touch: (s, sig) => mortal(() => sim.touch(s, sig)),
      readOrder: (id, s, sig) => mortal(() => sim.readOrder(id, s, sig)),
      openOrders: (s, sig) => mortal(() => sim.openOrders(s, sig)),
      position: (s, sig) => mortal(() => sim.position(s, sig)),
      // The order's way out is slow; its answer comes back one latency after it executed. Both
      // run on the world's clock: the order lands even if its sender has died.
      placeIoc: (req) =>
        mortal(async () => {
          await sleep(this.clock, ORDER_WIRE_MS - LATENCY_MS);
          const state = await sim.placeIoc(req, new AbortController().signal);
          await sleep(this.clock, LATENCY_MS);
          return state;
        }),
    };
    return { clock, venue };
  }

  /**
   * One process from now until it is killed at `killAt` (absolute ms) or reaches the end: one
   * tick a second on the exposure of the moment. Returns what it left pending at its death.
   */
  async run(file: string, killAt: number | null): Promise<DeathState> {
    let dead = false;
    const { clock, venue } = this.views(() => dead);
    const p = hedgerOn(file, venue, clock, 'h', BAND_RULES);
    const loop = async (): Promise<void> => {
      while (clock.now() < this.end) {
        await p.hedger.tick(this.exposureAt(clock.now()), d(50_000), new AbortController().signal);
        await sleep(clock, TICK_MS);
      }
    };
    const done = loop();
    if (killAt === null) {
      // Past the end by a tick and a hedge's calls, so the loop returns.
      await this.fake.tickAsync(this.end + 3 * TICK_MS - this.clock.now());
      await done;
      return 'idle';
    }
    await this.fake.tickAsync(killAt - this.clock.now());
    dead = true;
    const pending = p.journal.pending();
    if (pending.length === 0) return 'idle';
    const id = pending[0]!.clientOrderId;
    return this.sim.received.some((r) => r.clientOrderId === id) ? 'executed' : 'journaled';
  }

  /** Time passes with no process alive (the restart). */
  async pause(ms: number): Promise<void> {
    await this.fake.tickAsync(ms);
  }

  /** The venue's record: the orders that reached it (side, quantity) and its position from its fills. */
  record(position0: Dec): { orders: string[]; position: string } {
    const position = this.sim.trades.reduce(
      (p, t) => (t.side === 'BUY' ? p.plus(t.quantity) : p.minus(t.quantity)),
      position0,
    );
    return {
      orders: this.sim.received.map((r) => `${r.side} ${r.quantity.toFixed()}`),
      position: position.toFixed(),
    };
  }
}

/** What a killed process left behind: nothing, an order journaled the venue never got, or one it executed. */
type DeathState = 'idle' | 'journaled' | 'executed';

let files = 0;
const newFile = (): string => path.join(dir, `j-${++files}.sqlite`);

/** The run with no kill: each change's intended orders and the hedge position before it. */
async function intended() {
  const w = new World(EXPOSURE, T0, d(0));
  await w.run(newFile(), null);
  const byStep = EXPOSURE.map(() => [] as string[]);
  const before = EXPOSURE.map(() => d(0));
  let position = d(0);
  let i = 0;
  for (const t of w.sim.trades) {
    const step = Math.floor((t.at - T0) / STEP_MS);
    for (; i < step; i++) before[i + 1] = position;
    byStep[step]!.push(`${t.side} ${t.quantity.toFixed()}`);
    position = t.side === 'BUY' ? position.plus(t.quantity) : position.minus(t.quantity);
  }
  for (; i < EXPOSURE.length - 1; i++) before[i + 1] = position;
  return { all: w.record(d(0)), byStep, before };
}

/** The venue's record the run with no kill left after change `step`. */
function expectedAt(want: Awaited<ReturnType<typeof intended>>, step: number) {
  return {
    orders: want.byStep[step],
    position: (want.before[step + 1] ?? d(want.all.position)).toFixed(),
  };
}

/** The world of change `step` alone, from the intended hedge position before it. */
function changeWorld(step: number, before: readonly Dec[]): World {
  return new World([EXPOSURE[step]!], T0 + step * STEP_MS, before[step]!);
}

describe('hedge kill sweep: doubled hedges after a kill at any point', () => {
  it('the run with no kill hedges past the band in both directions (the intended hedges)', async () => {
    const want = await intended();
    // 0.05: sell 0.02 (hedge −0.02); 0.12: sell 0.07 (−0.09); 0.08: in the band; −0.02: buy 0.08
    // (−0.01); −0.09: buy 0.07 (+0.06); 0.1: sell 0.13 (−0.07).
    expect(want.all).toEqual({
      orders: ['SELL 0.02', 'SELL 0.07', 'BUY 0.08', 'BUY 0.07', 'SELL 0.13'],
      position: '-0.07',
    });
    expect(want.byStep.map((s) => s.length)).toEqual([1, 1, 0, 1, 1, 1]);
  });

  it('one kill every 50 ms of each change, restarted 0.1 s and 2 s later: 0 doubled, 0 missing', async () => {
    const want = await intended();
    const deaths: Record<DeathState, number> = { idle: 0, journaled: 0, executed: 0 };
    const wrong: unknown[] = [];
    let kills = 0;
    for (let step = 0; step < EXPOSURE.length; step++) {
      for (const restart of RESTARTS_MS) {
        for (let at = 0; at <= 2_500; at += 50) {
          const w = changeWorld(step, want.before);
          const file = newFile();
          deaths[await w.run(file, w.start + at)]++;
          await w.pause(restart);
          await w.run(file, null);
          const got = w.record(want.before[step]!);
          if (JSON.stringify(got) !== JSON.stringify(expectedAt(want, step)))
            wrong.push({ step, restart, at, got });
          kills++;
        }
      }
    }
    expect(kills).toBe(6 * 2 * 51);
    expect(wrong).toEqual([]);
    // The sweep hit the windows that matter: an order on the wire, an order executed unanswered.
    expect(deaths.journaled).toBeGreaterThanOrEqual(100);
    expect(deaths.executed).toBeGreaterThanOrEqual(10);
  });

  it('killed again during its recovery (every 100 ms), then a third process: 0 doubled, 0 missing', async () => {
    const want = await intended();
    const wrong: unknown[] = [];
    let recovering = 0;
    let kills = 0;
    for (let step = 0; step < EXPOSURE.length; step++) {
      // First kills while an order is in flight: on the wire, executed, answered.
      for (let first = 500; first <= 2_000; first += 500) {
        for (let at = 0; at <= 2_500; at += 100) {
          const w = changeWorld(step, want.before);
          const file = newFile();
          const died = await w.run(file, w.start + first);
          await w.pause(RESTARTS_MS[0]!);
          await w.run(file, w.start + first + RESTARTS_MS[0]! + at);
          await w.pause(RESTARTS_MS[0]!);
          await w.run(file, null);
          if (died !== 'idle') recovering++;
          const got = w.record(want.before[step]!);
          if (JSON.stringify(got) !== JSON.stringify(expectedAt(want, step)))
            wrong.push({ step, first, at, got });
          kills++;
        }
      }
    }
    expect(kills).toBe(6 * 4 * 26);
    expect(wrong).toEqual([]);
    expect(recovering).toBeGreaterThanOrEqual(100);
  });
});
