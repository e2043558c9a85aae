import { describe, expect, it } from 'vitest';

import { latencyParamSpecs } from '../../src/config/sections/latency-params.js';
import { jumpSeen } from '../../src/strategy/jump-memory.js';
import { latencyAwareShape } from '../../src/strategy/models/latency-aware-model.js';
import { NOW, d, pairParams } from './support/fixtures.js';

const pt = (secondsAgo: number, price: number) => ({ at: NOW - secondsAgo * 1000, price: d(price) });
// σ 1 bp per √s: over 1 s steps, a 10 bp move is 10 σ·√Δt; over 4 s, 5.
const SIGMA = 1e-4;
const bp = (n: number) => 100 * (1 + n * 1e-4);

describe('jumpSeen: a consecutive-mid return above z·σ·√Δt within the memory (no floor)', () => {
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
    expect(jumpSeen(mids, NOW, SIGMA, z, memoryMs, 0)).toBe(seen);
  });
});

describe('jumpSeen with latency.jumpMinBps: a jump must also be larger than the floor', () => {
  // σ 1 bp per √s as above; `decides` names the test that sets the answer.
  it.each([
    { name: 'a 10 bps step in 1 s, no floor', step: 10, dtSec: 1, z: 6, minBps: 0, seen: true, decides: 'z' },
    {
      name: 'the same step under a 15 bps floor',
      step: 10,
      dtSec: 1,
      z: 6,
      minBps: 15,
      seen: false,
      decides: 'floor',
    },
    {
      name: 'a 20 bps step in 1 s, 15 bps floor',
      step: 20,
      dtSec: 1,
      z: 6,
      minBps: 15,
      seen: true,
      decides: 'both',
    },
    // ln(1.0015) is just under 15 bps: strictly above the floor is required.
    {
      name: 'a step of just under the floor',
      step: 15,
      dtSec: 1,
      z: 6,
      minBps: 15,
      seen: false,
      decides: 'floor',
    },
    {
      name: 'the same step, floor 14.9 bps',
      step: 15,
      dtSec: 1,
      z: 6,
      minBps: 14.9,
      seen: true,
      decides: 'both',
    },
    // 20 bps over 16 s is 5 σ·√Δt: above the floor, below z.
    {
      name: 'a 20 bps step over 16 s, floor 15',
      step: 20,
      dtSec: 16,
      z: 6,
      minBps: 15,
      seen: false,
      decides: 'z',
    },
    {
      name: 'a 10 bps step over 4 s, floor 5',
      step: 10,
      dtSec: 4,
      z: 6,
      minBps: 5,
      seen: false,
      decides: 'z',
    },
    { name: 'a 50 bps step with z 0 (off)', step: 50, dtSec: 1, z: 0, minBps: 15, seen: false, decides: 'z' },
    { name: 'a negative floor is no floor', step: 10, dtSec: 1, z: 6, minBps: -5, seen: true, decides: 'z' },
  ])('$name: $seen ($decides)', ({ step, dtSec, z, minBps, seen }) => {
    const mids = [pt(dtSec + 1, bp(0)), pt(1, bp(step)), pt(0, bp(step))];
    expect(jumpSeen(mids, NOW, SIGMA, z, 60_000, minBps)).toBe(seen);
  });
});

describe('latency.jumpMinBps: the param-spec row', () => {
  const spec = latencyParamSpecs.jumpMinBps;

  it('defaults to 0 (no floor: latency.jumpZ alone decides, as before the key)', () => {
    expect(spec.default).toBe(0);
    expect(pairParams({ model: 'latency-aware' }).latency.jumpMinBps).toBe(0);
  });

  it.each([
    { value: 15, ok: true },
    { value: 0, ok: true },
    { value: 10_000, ok: true },
    { value: -1, ok: false },
    { value: 10_001, ok: false },
    { value: '15', ok: false },
  ])('accepts $value: $ok', ({ value, ok }) => {
    expect(spec.schema.safeParse(value).success).toBe(ok);
  });

  it('reaches the pair parameters', () => {
    expect(pairParams({ model: 'latency-aware', latency: { jumpMinBps: 15 } }).latency.jumpMinBps).toBe(15);
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
