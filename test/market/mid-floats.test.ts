import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import type { MidSample } from '../../src/market/market-snapshot.js';
import { midFloats } from '../../src/market/mid-floats.js';
import { appendMid, MID_LINEAGE_DEPTH, midLineage } from '../../src/market/mid-history.js';
import { jumpScan, jumpSeen } from '../../src/strategy/jump-memory.js';
import { sampledSigma, sampledSigmaScan } from '../../src/strategy/sampled-volatility.js';
import { Rng } from '../../src/sim/rng.js';

const T0 = Date.parse('2025-01-06T00:00:00.000Z');

/**
 * A polled history: a sample every 1.4-1.8 s, a random walk of the mid with a jump now and then,
 * prices on a 0.005 grid (the book mid of a 0.01 tick), the oldest dropped past `keepMs`.
 */
function* polls(n: number, seed: number): Generator<{ at: number; sample: MidSample }> {
  const rng = new Rng(seed);
  let at = T0;
  let p = 100;
  for (let i = 0; i < n; i++) {
    at += 1_400 + rng.int(0, 400);
    p *= 1 + (rng.next() - 0.5) * 0.0008 + (rng.next() < 0.01 ? (rng.next() - 0.5) * 0.02 : 0);
    yield { at, sample: { at, price: new Dec(Math.round(p * 200) / 200) } };
  }
}

const LIMITS = { keepMs: 600_000, maxSamples: 300 };
const HALF_LIVES = [120, 30];

describe('the doubles of a mid history are the scans’ doubles, computed once per sample', () => {
  it('gives every version of a 1 500-poll history the scans’ σ and jump answers, read after 1 to 11 polls', () => {
    let mids: readonly MidSample[] = [];
    let reads = 0;
    let jumps = 0;
    let next = 0;
    let gap = 1;
    let i = 0;
    for (const { at, sample } of polls(1_500, 7)) {
      mids = appendMid(mids, sample, LIMITS);
      if (i++ !== next) continue;
      next += gap;
      gap = (gap % 11) + 1;
      reads += 1;
      // Read a little after the poll, as the quote pass does, and with windows shorter than the history.
      const now = at + 300;
      for (const [windowMs, sampleMs] of [
        [300_000, 15_000],
        [600_000, 5_000],
      ] as const) {
        expect(sampledSigma(mids, now, windowMs, sampleMs, HALF_LIVES)).toEqual(
          sampledSigmaScan(mids, now, windowMs, sampleMs, HALF_LIVES),
        );
      }
      const sigma = sampledSigmaScan(mids, now, 300_000, 15_000, [120])?.sigmas[0] ?? 1e-4;
      for (const [z, memoryMs, minBps] of [
        [6, 3_600_000, 20],
        [3, 120_000, 0],
        [6, 30_000, 5],
      ] as const) {
        const seen = jumpSeen(mids, now, sigma, z, memoryMs, minBps);
        expect(seen).toBe(jumpScan(mids, now, sigma, z, memoryMs, minBps));
        if (seen) jumps += 1;
      }
    }
    expect(reads).toBeGreaterThan(200);
    // Both answers occur, so the comparison above tests the jump test and not only its defaults.
    expect(jumps).toBeGreaterThan(20);
    expect(jumps).toBeLessThan(reads * 3 - 20);
  });

  it('extends one buffer from version to version instead of building each history afresh', () => {
    let mids: readonly MidSample[] = [];
    const buffers = new Set<unknown>();
    let i = 0;
    for (const { sample } of polls(1_000, 3)) {
      mids = appendMid(mids, sample, LIMITS);
      const view = midFloats(mids);
      expect(view).not.toBeNull();
      buffers.add(view!.buf);
      expect(view!.end - view!.start).toBe(mids.length);
      expect(view!.buf.samples[view!.start]).toBe(mids[0]);
      expect(view!.buf.samples[view!.end - 1]).toBe(mids[mids.length - 1]);
      i += 1;
    }
    expect(i).toBe(1_000);
    // One buffer, copied only when its dropped head outgrew the history (300 samples kept): about
    // every 300 polls once the history is full, not on every poll.
    expect(buffers.size).toBeGreaterThanOrEqual(2);
    expect(buffers.size).toBeLessThanOrEqual(4);
    // A copy of the history (new array, same samples) is recognised only as a history of its own.
    const copy = [...mids];
    expect(midFloats(copy)!.buf).not.toBe(midFloats(mids)!.buf);
  });

  it('lists the returns above a floor once, extending the list as samples arrive', () => {
    const prices = [100, 100.5, 103, 103.1, 99];
    const series = prices.map((p, k) => ({ at: T0 + k * 1_000, price: new Dec(p) }));
    const buf = midFloats(series)!.buf;
    // |ln| above 1 %: 100.5→103 (2.5 %) and 103.1→99 (4.1 %).
    expect(buf.returnsAbove(0.01)).toEqual([2, 4]);
    expect(buf.push({ at: T0 + 5_000, price: new Dec(110) })).toBe(true);
    expect(buf.returnsAbove(0.01)).toEqual([2, 4, 5]);
    // Another floor: listed afresh.
    expect(buf.returnsAbove(0.03)).toEqual([4, 5]);
  });

  it('reaches back a bounded number of versions: read after more unread polls, a history is built afresh', () => {
    let mids: readonly MidSample[] = [];
    const buffers: unknown[] = [];
    let i = 0;
    // Read after poll 20, 28 (8 polls later: extended) and 37 (9 polls later: built afresh).
    for (const { sample } of polls(40, 9)) {
      mids = appendMid(mids, sample, LIMITS);
      if (i === 20 || i === 28 || i === 37) buffers.push(midFloats(mids)!.buf);
      i += 1;
    }
    expect(buffers).toHaveLength(3);
    expect(buffers[1]).toBe(buffers[0]);
    expect(buffers[2]).not.toBe(buffers[0]);
    let depth = 0;
    for (let v = midLineage(mids); v !== undefined; v = midLineage(v.from)) depth += 1;
    expect(depth).toBe(MID_LINEAGE_DEPTH);
  });

  it('keeps two histories extended from one apart, and answers the older one as before', () => {
    let mids: readonly MidSample[] = [];
    let last = T0;
    for (const { at, sample } of polls(100, 5)) {
      mids = appendMid(mids, sample, LIMITS);
      last = at;
      midFloats(mids);
    }
    const a = appendMid(mids, { at: last + 1_500, price: new Dec(100) }, LIMITS);
    const b = appendMid(mids, { at: last + 1_500, price: new Dec(140) }, LIMITS);
    const now = last + 1_600;
    for (const h of [a, b, mids]) {
      expect(jumpSeen(h, now, 1e-4, 6, 60_000, 20)).toBe(jumpScan(h, now, 1e-4, 6, 60_000, 20));
      expect(sampledSigma(h, now, 600_000, 5_000, HALF_LIVES)).toEqual(
        sampledSigmaScan(h, now, 600_000, 5_000, HALF_LIVES),
      );
    }
    expect(jumpSeen(b, now, 1e-4, 6, 60_000, 20)).toBe(true);
    expect(midFloats(a)!.buf).not.toBe(midFloats(b)!.buf);
  });

  it.each([
    { name: 'its first return', prices: [100, 130, 130, 130], seen: true },
    { name: 'its last return', prices: [100, 100, 100, 130], seen: true },
    { name: 'no return', prices: [100, 100.1, 100, 100.1], seen: false },
  ])('finds a jump in $name of a clean history, as the scan does', ({ prices, seen }) => {
    const series = prices.map((p, k) => ({ at: T0 + k * 2_000, price: new Dec(p) }));
    expect(midFloats(series)).not.toBeNull();
    const now = T0 + 7_000;
    expect(jumpSeen(series, now, 1e-4, 6, 60_000, 20)).toBe(seen);
    expect(jumpScan(series, now, 1e-4, 6, 60_000, 20)).toBe(seen);
  });

  it.each([
    { name: 'a price not positive', bad: { at: T0 + 3_000, price: new Dec(0) } },
    { name: 'a time not later than the one before', bad: { at: T0 + 2_000, price: new Dec(101) } },
  ])('has no view of a series with $name, which the scans read as before', ({ bad }) => {
    const series: MidSample[] = [
      { at: T0, price: new Dec(100) },
      { at: T0 + 2_000, price: new Dec(100) },
      bad,
      { at: T0 + 4_000, price: new Dec(130) },
    ];
    expect(midFloats(series)).toBeNull();
    const now = T0 + 5_000;
    expect(jumpSeen(series, now, 1e-4, 6, 60_000, 20)).toBe(true);
    expect(sampledSigma(series, now, 60_000, 1_000, [30])).toEqual(
      sampledSigmaScan(series, now, 60_000, 1_000, [30]),
    );
  });
});
