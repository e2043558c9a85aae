import { describe, expect, it } from 'vitest';
import { runFigures } from '../../../src/lab/simulate/figures/figures.js';
import { invariantBreaks } from '../../../src/lab/simulate/figures/invariants.js';
import { fullFillBound, quantile } from '../../../src/lab/simulate/figures/quote-figures.js';
import { venueLimit } from '../../../src/lab/simulate/figures/venue-limit.js';
import { PAIR, extraOrder, prepareCall, syntheticCapture } from './support/synthetic-capture.js';

const S = 1000;

/** bps of (ask − bid) over their mid. */
const spreadBps = (bid: number, ask: number): number => ((ask - bid) / ((ask + bid) / 2)) * 10_000;

describe('the figures of a hand-made run (see support/synthetic-capture.ts)', () => {
  const { figures: f } = runFigures('daemon', syntheticCapture(), 10);
  const pair = f.pairs[0]!;

  it('two-sided: from the first moment both sides rest, and over the whole run', () => {
    // Both sides from 84 s; the ask is missing from 495 s to 504 s.
    expect(f.timeToFirstTwoSidedMs).toBe(84 * S);
    expect(f.timeToAllTwoSidedMs).toBe(84 * S);
    expect(f.twoSidedAfterFirst).toBeCloseTo(907 / 916, 6);
    expect(f.twoSidedOverall).toBeCloseTo(0.907, 6);
    expect(pair.longestOneSidedMs).toBe(9 * S);
  });

  it('the quoted spread is time-weighted over the two-sided time', () => {
    const expected =
      (spreadBps(99.9, 100.1) * 378 + spreadBps(100.09, 100.1) * 33 + spreadBps(100.09, 100.31) * 496) / 907;
    expect(f.avgQuotedSpreadBps).toBeCloseTo(expected, 2);
  });

  it('requote latency: from the reference leaving the band to the next order of the slot resting', () => {
    // 400 s: the reference moves 20 bps (band 10). b1 → b2 rests at 462 s; a1 → a2 at 504 s.
    // 800 s: it moves again; b2 and a2 are never replaced (censored).
    expect(f.requoteMoves).toBe(4);
    expect(f.requoteCensored).toBe(2);
    expect(f.requoteP50Ms).toBe(62 * S);
    expect(f.requoteP95Ms).toBe(104 * S);
    expect(quantile([5, 1, 4, 2, 3], 0.5)).toBe(3);
  });

  it('requote latency by direction: the rise at 400 s left the ask too aggressive, the bid too passive', () => {
    expect(f.requoteTowardP50Ms).toBe(104 * S); // a1 → a2
    expect(f.requoteAwayP50Ms).toBe(62 * S); // b1 → b2
  });

  it('the pipeline: busy from each prepare to its commit, or to the answer of one never submitted', () => {
    // [0, 42] + [42, 84] + [100, 110] + [420, 462] + [462, 504] s = 178 s of 1000.
    expect(f.pipelineUtilisation).toBeCloseTo(0.178, 6);
    expect(f.prepares).toBe(5);
    expect(f.placements).toBe(4);
    expect(f.cancels).toBe(2);
    expect(f.placementsPerHour).toBeCloseTo(14.4, 3);
    expect(f.cancelsPerHour).toBeCloseTo(7.2, 3);
    expect(f.abandonedPrepares).toBe(1);
    expect(f.expiredPrepares).toBe(1);
  });

  it('fills, volume and the spread captured against the reference (our legs only)', () => {
    expect(f.fills).toBe(3);
    expect(f.volumeQuote).toBe('199.9950'); // 50.05 + 99.9 + 50.045
    expect(pair.volumeBase).toBe('2');
    // Sold 0.5 at 0.1 over 100, bought 1 at 0.1 under 100, bought 0.5 at 0.11 under 100.2.
    expect(f.spreadCaptured).toBe('0.2050'); // 0.05 + 0.1 + 0.055
    expect(f.spreadCapturedBps).toBeCloseTo((0.205 / 199.995) * 10_000, 2);
  });

  it('inventory, PnL and drawdown', () => {
    // Position 0 (0–200 s), −0.5 (–300 s), +0.5 (–700 s), +1 (–1000 s).
    expect(Number(pair.inventoryMean)).toBeCloseTo(0.45, 8);
    expect(Number(pair.inventoryStd)).toBeCloseTo(Math.sqrt(0.2225), 7);
    expect(pair.finalPosition).toBe('1');
    // Cash −99.895 + 1 × 100.2.
    expect(pair.pnl).toBe('0.3050');
    expect(f.pnl).toBe('0.3050');
    // Peak 0.305 (700–800 s), trough −0.095 while the reference is 99.8.
    expect(f.maxDrawdown).toBe('0.4000');
  });

  it('markouts: the reference move after each fill, from our side, volume-weighted', () => {
    // The reference only moves at 400, 800 and 900 s: nothing moves within 5, 30 or 60 s of a fill.
    expect(f.markouts.map((m) => m.horizonS)).toEqual([5, 30, 60, 300]);
    expect(f.markouts.slice(0, 3).map((m) => m.pnl)).toEqual(['0.0000', '0.0000', '0.0000']);
    // 300 s: sold 0.5 at 200 s, the reference rose 0.2 by 500 s (−0.1); bought 1 at 300 s, up 0.2
    // by 600 s (+0.2); bought 0.5 at 700 s, flat at 1000 s (the run's end, still counted).
    const m300 = f.markouts[3]!;
    expect(m300.fills).toBe(3);
    expect(m300.pnl).toBe('0.1000');
    expect(m300.bps).toBeCloseTo((0.1 / (50 + 100 + 50.1)) * 10_000, 2);
    expect(f.adverseSelection60).toBe('0.0000');
    expect(pair.markout60Bps).toBe(0);
  });

  it('the PnL splits into spread captured and inventory revaluation', () => {
    expect(f.inventoryRevaluation).toBe('0.1000'); // 0.305 − 0.205
  });

  it('a run without guard episodes reports no halts', () => {
    expect(f.halts).toEqual({ count: 0, totalMs: 0, byRule: {} });
    expect(f.guardTrips.count).toBe(0);
  });

  it('no invariant is broken', () => {
    expect(f.invariantBreaks).toEqual({
      duplicateCommits: 0,
      duplicateLive: 0,
      overlappingPlacements: 0,
      concurrentPrepares: 0,
      selfTrades: 0,
      total: 0,
    });
  });

  it('the venue limit of the realistic profile, and the run against it', () => {
    const limit = venueLimit(syntheticCapture().latencyRanges);
    expect(limit.placementMs).toBe(11_500 + 19_000 + 12_000);
    expect(limit.minTimeToTwoSidedMs).toBe(85_000);
    expect(limit.maxPlacementsPerHour).toBeCloseTo(3_600_000 / 42_500, 9);
    expect(f.vsLimit.timeToTwoSidedShare).toBeCloseTo(85 / 84, 9);
    expect(f.vsLimit.placementRateShare).toBeCloseTo(14.4 / (3_600_000 / 42_500), 6);
  });
});

describe('invariant breaks', () => {
  it('counts a clientOrderId committed twice, two live orders in one slot, and overlaps', () => {
    const base = syntheticCapture();
    const again = extraOrder(
      {
        id: 'b1bis',
        side: 'BUY',
        price: '99.9',
        createdAt: 50 * S,
        restsAt: 60 * S,
        endsAt: 80 * S,
        slot: '',
      },
      'c-b1',
    );
    const twin = extraOrder(
      {
        id: 'a1twin',
        side: 'SELL',
        price: '100.2',
        createdAt: 90 * S,
        restsAt: 100 * S,
        endsAt: 120 * S,
        slot: '',
      },
      'c-a1twin',
    );
    const c = syntheticCapture({
      orders: [...base.orders, again, twin],
      slots: new Map([...base.slots, ['c-a1twin', `${PAIR}:SELL:0#0`]]),
      // A prepare arriving at 20 s, while b1 (submitted) waits for its commit, and overlapping x1's.
      spans: [
        ...base.spans,
        {
          orderId: 'late',
          partyId: base.partyIds[0]!,
          preparedAt: 20 * S,
          settledAt: null,
          outcome: 'pending',
        },
      ],
      calls: [...base.calls, prepareCall('late', 105, 108)],
    });
    // b1bis rests (60–80 s) while b1 (same slot via c-b1) rests 42–470 s: also a live duplicate.
    expect(invariantBreaks(c)).toEqual({
      duplicateCommits: 1,
      duplicateLive: 2,
      overlappingPlacements: 1,
      concurrentPrepares: 1,
      selfTrades: 0,
      total: 5,
    });
  });
});

describe('the venue bound after full fills', () => {
  it('each order filled in full empties its side for at least one placement, unless another rests', () => {
    const spec = { side: 'BUY' as const, price: '99', slot: '' };
    const orders = [
      // Filled at 100 s with nothing else on its side: the side is empty for ≥ 42.5 s.
      extraOrder({ ...spec, id: 'f1', createdAt: 0, restsAt: 10 * S, endsAt: 100 * S, endStatus: 'FILLED' }),
      // Filled at 300 s while f3 rests on the same side: no gap.
      extraOrder({
        ...spec,
        id: 'f2',
        createdAt: 150 * S,
        restsAt: 160 * S,
        endsAt: 300 * S,
        endStatus: 'FILLED',
      }),
      extraOrder({ ...spec, id: 'f3', createdAt: 250 * S, restsAt: 290 * S, endsAt: null }),
      extraOrder({ ...spec, id: 'c1', side: 'SELL', createdAt: 0, restsAt: 10 * S, endsAt: 500 * S }),
    ];
    expect(fullFillBound(orders, PAIR, 42_500, 10 * S, 1000 * S)).toEqual({
      fullFills: 2,
      bound: 1 - 42.5 / 990,
    });
    expect(fullFillBound(orders, PAIR, 42_500, null, 1000 * S).bound).toBe(1);
  });
});
