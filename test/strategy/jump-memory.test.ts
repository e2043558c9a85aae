import { describe, expect, it } from 'vitest';

import { jumpSeen } from '../../src/strategy/jump-memory.js';
import { latencyAwareShape } from '../../src/strategy/models/latency-aware-model.js';
import { NOW, d, pairParams } from './support/fixtures.js';

const pt = (secondsAgo: number, price: number) => ({ at: NOW - secondsAgo * 1000, price: d(price) });
// σ 1 bp per √s: over 1 s steps, a 10 bp move is 10 σ·√Δt; over 4 s, 5.
const SIGMA = 1e-4;
const bp = (n: number) => 100 * (1 + n * 1e-4);

describe('jumpSeen: a consecutive-mid return above z·σ·√Δt within the memory', () => {
  it.each([
    {
      name: 'a 10 σ step, 5 s ago, z 6',
      mids: [pt(7, bp(0)), pt(6, bp(0)), pt(5, bp(10)), pt(0, bp(10))],
      z: 6,
      memoryMs: 60_000,
      seen: true,
    },
    {
      name: 'the same step with z 12: no jump',
      mids: [pt(7, bp(0)), pt(6, bp(0)), pt(5, bp(10)), pt(0, bp(10))],
      z: 12,
      memoryMs: 60_000,
      seen: false,
    },
    {
      name: 'a downward step counts too',
      mids: [pt(6, bp(0)), pt(5, bp(-10))],
      z: 6,
      memoryMs: 60_000,
      seen: true,
    },
    // The step ends 5 s ago, the memory is 4 s.
    {
      name: 'a step that ended before the memory is forgotten',
      mids: [pt(6, bp(0)), pt(5, bp(10)), pt(0, bp(10))],
      z: 6,
      memoryMs: 4_000,
      seen: false,
    },
    // 10 bps over 4 s is 5 σ·√Δt.
    {
      name: 'a longer interval allows a larger move',
      mids: [pt(8, bp(0)), pt(4, bp(10))],
      z: 6,
      memoryMs: 60_000,
      seen: false,
    },
    {
      name: 'small steps only',
      mids: [pt(3, bp(0)), pt(2, bp(2)), pt(1, bp(4)), pt(0, bp(3))],
      z: 6,
      memoryMs: 60_000,
      seen: false,
    },
    { name: 'off (z 0)', mids: [pt(6, bp(0)), pt(5, bp(50))], z: 0, memoryMs: 60_000, seen: false },
    {
      name: 'samples from the future are ignored',
      mids: [pt(1, bp(0)), pt(-1, bp(50))],
      z: 6,
      memoryMs: 60_000,
      seen: false,
    },
    {
      name: 'an out-of-order sample is skipped',
      mids: [pt(3, bp(0)), pt(1, bp(0)), pt(2, bp(50))],
      z: 6,
      memoryMs: 60_000,
      seen: false,
    },
    { name: 'no mids', mids: [], z: 6, memoryMs: 60_000, seen: false },
  ])('$name', ({ mids, z, memoryMs, seen }) => {
    expect(jumpSeen(mids, NOW, SIGMA, z, memoryMs)).toBe(seen);
  });
});

describe('latencyAwareShape: the jump widening', () => {
  const P = pairParams({ model: 'latency-aware', spread: { bidBps: 5, askBps: 5 } });
  const TIMED = { placementMs: 100_000, cancelMs: 25_000, queued: 0 };

  it('adds jumpWidenBps to both half-spreads, and to nothing else', () => {
    const plain = latencyAwareShape(1, TIMED, P, 0);
    const wide = latencyAwareShape(1, TIMED, P, 0, 12);
    expect(wide.bidBps - plain.bidBps).toBeCloseTo(12, 9);
    expect(wide.askBps - plain.askBps).toBeCloseTo(12, 9);
    expect(wide.tolerance?.BUY.outsideBps).toBe(plain.tolerance?.BUY.outsideBps);
  });
});
