import { describe, expect, it } from 'vitest';

import { latencyParamSpecs } from '../../src/config/sections/latency-params.js';
import { jumpResponse, jumpSeen, warmingUp } from '../../src/strategy/jump-memory.js';
import { latencyAwareModel, latencyAwareShape } from '../../src/strategy/models/latency-aware-model.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { NOW, PAIR, bal, book, d, market, pairParams, params, show, snapshot } from './support/fixtures.js';

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

describe('jumpResponse: what the quotes do while a jump is remembered', () => {
  it.each([
    { name: 'no jump: nothing, whatever is configured', jumped: false, widen: 10, share: 0.25, out: [0, 1] },
    { name: 'a jump: the widening and the share', jumped: true, widen: 10, share: 0.25, out: [10, 0.25] },
    { name: 'a jump, share 1 (off): sizes unchanged', jumped: true, widen: 0, share: 1, out: [0, 1] },
    { name: 'a jump, share 0: nothing quoted', jumped: true, widen: 0, share: 0, out: [0, 0] },
    { name: 'a share above 1 is clamped to 1', jumped: true, widen: 5, share: 1.5, out: [5, 1] },
    { name: 'a negative share is clamped to 0', jumped: true, widen: 5, share: -0.2, out: [5, 0] },
    { name: 'a share that is not a number is 1', jumped: true, widen: 5, share: Number.NaN, out: [5, 1] },
  ])('$name', ({ jumped, widen, share, out }) => {
    const r = jumpResponse(jumped, widen, share);
    expect([r.widenBps, r.sizeShare]).toEqual(out);
  });
});

describe('latency.jumpSizeShare: the param-spec row', () => {
  const spec = latencyParamSpecs.jumpSizeShare;

  it('defaults to 1 (sizes unchanged after a jump, as before the key)', () => {
    expect(spec.default).toBe(1);
    expect(pairParams({ model: 'latency-aware' }).latency.jumpSizeShare).toBe(1);
  });

  it.each([
    { value: 0.5, ok: true },
    { value: 0, ok: true },
    { value: 1, ok: true },
    { value: -0.1, ok: false },
    { value: 1.1, ok: false },
    { value: '0.5', ok: false },
  ])('accepts $value: $ok', ({ value, ok }) => {
    expect(spec.schema.safeParse(value).success).toBe(ok);
  });

  it('reaches the pair parameters', () => {
    expect(
      pairParams({ model: 'latency-aware', latency: { jumpSizeShare: 0.25 } }).latency.jumpSizeShare,
    ).toBe(0.25);
  });
});

describe('latency.jumpSizeShare in the strategy: every level smaller while a jump is remembered', () => {
  // σ fixed at 1 bp per √s: a 50 bps step between mids 5 s apart is 22 σ·√Δt, a jump at z 6.
  const TIMED = { placementMs: 45_000, cancelMs: 35_000, queued: 0 };
  const balances = { BTC: bal(10), USDC: bal(1_000) };
  const quotesWith = (mids: { at: number; price: ReturnType<typeof d> }[], share: number, memoryMs: number) =>
    show(
      computeQuotes(
        snapshot([market({ book: book([[99, 5]], [[101, 5]]), mids })], balances),
        [],
        balances,
        params({
          [PAIR]: {
            model: 'latency-aware',
            levels: { count: 2 },
            inventory: { maxSkewBps: 0 },
            volatility: { fixedSigma: 1e-4 },
            latency: { jumpZ: 6, jumpMemoryMs: memoryMs, jumpSizeShare: share },
          },
        }),
        TIMED,
      ).quotes,
    );
  const JUMPED = [
    { at: NOW - 3_005_000, price: d('100') },
    { at: NOW - 3_000_000, price: d('100.5') },
    { at: NOW - 1_000, price: d('100.5') },
  ];
  const CALM = [
    { at: NOW - 3_005_000, price: d('100') },
    { at: NOW - 3_000_000, price: d('100.01') },
    { at: NOW - 1_000, price: d('100.01') },
  ];
  const qty = (q: string): string => q.split('@')[1]!;

  it.each([
    {
      name: 'a jump 50 min ago, memory 1 h, share 0.5: half the size',
      mids: JUMPED,
      share: 0.5,
      memoryMs: 3_600_000,
      ratio: 0.5,
    },
    { name: 'the same, share 0.25', mids: JUMPED, share: 0.25, memoryMs: 3_600_000, ratio: 0.25 },
    {
      name: 'the same jump beyond a 15 min memory: full size',
      mids: JUMPED,
      share: 0.5,
      memoryMs: 900_000,
      ratio: 1,
    },
    { name: 'no jump, share 0.5: full size', mids: CALM, share: 0.5, memoryMs: 3_600_000, ratio: 1 },
    { name: 'a jump, share 1 (off): full size', mids: JUMPED, share: 1, memoryMs: 3_600_000, ratio: 1 },
  ])('$name', ({ mids, share, memoryMs, ratio }) => {
    const full = quotesWith(CALM, 1, memoryMs);
    const got = quotesWith(mids, share, memoryMs);
    expect(full).toHaveLength(4);
    expect(got).toHaveLength(4);
    got.forEach((q, i) => expect(Number(qty(q))).toBeCloseTo(Number(qty(full[i]!)) * ratio, 6));
  });

  it('the shape carries the share only while a jump is remembered', () => {
    const shapeOf = (mids: typeof JUMPED) => {
      const r = latencyAwareModel.shape({
        pair: PAIR,
        reference: d(100),
        now: NOW,
        market: market({ mids }),
        holdings: null,
        share: null,
        params: pairParams({
          model: 'latency-aware',
          volatility: { fixedSigma: 1e-4 },
          latency: { jumpZ: 6, jumpMemoryMs: 3_600_000, jumpSizeShare: 0.5 },
        }),
        timing: TIMED,
      });
      return r.ok ? r.shape.sizeShare : 'not quoted';
    };
    expect(shapeOf(JUMPED)).toBe(0.5);
    expect(shapeOf(CALM)).toBeUndefined();
  });
});

describe('latency.jumpWarmupMs: quoted as after a jump for that long after the first mid of the run', () => {
  it.each([
    { name: 'off (0), no mid yet', since: undefined, warmupMs: 0, warming: false },
    { name: 'no mid yet', since: undefined, warmupMs: 3_600_000, warming: true },
    { name: 'first mid 59 min 59 s ago', since: NOW - 3_599_000, warmupMs: 3_600_000, warming: true },
    { name: 'first mid exactly an hour ago', since: NOW - 3_600_000, warmupMs: 3_600_000, warming: false },
    { name: 'first mid two hours ago', since: NOW - 7_200_000, warmupMs: 3_600_000, warming: false },
  ])('$name', ({ since, warmupMs, warming }) => {
    expect(warmingUp(since, NOW, warmupMs)).toBe(warming);
  });

  it('the shape carries the jump response while warming up, with no jump in the mids', () => {
    // The history holds 30 min (as trimmed by market.mids.keepMs); the run's first mid is older.
    const mids = [pt(1_800, 100), pt(0, 100)];
    const shapeOf = (midsSince: number) => {
      const r = latencyAwareModel.shape({
        pair: PAIR,
        reference: d(100),
        now: NOW,
        market: { ...market({ mids }), midsSince },
        holdings: null,
        share: null,
        params: pairParams({
          model: 'latency-aware',
          volatility: { fixedSigma: 1e-4 },
          spread: { bidBps: 1, askBps: 1 },
          latency: {
            jumpZ: 6,
            jumpMemoryMs: 3_600_000,
            jumpSizeShare: 0.25,
            jumpWidenBps: 10,
            jumpWarmupMs: 3_600_000,
          },
        }),
        timing: { placementMs: 45_000, cancelMs: 35_000, queued: 0 },
      });
      return r.ok ? [r.shape.sizeShare, r.shape.bidBps] : 'not quoted';
    };
    const [coldShare, coldBid] = shapeOf(NOW - 1_800_000) as [number, number];
    const [warmShare, warmBid] = shapeOf(NOW - 7_200_000) as [number | undefined, number];
    expect(coldShare).toBe(0.25);
    expect(warmShare).toBeUndefined();
    expect(coldBid - warmBid).toBeCloseTo(10, 9);
  });
});
