import { describe, expect, it } from 'vitest';

import {
  baseShare,
  holdingsSkewBps,
  inventoryDeviation,
  inventoryGate,
  inventoryPressure,
  inventorySkewBps,
  pairHoldings,
  sideLevelCount,
  sizeSkewFactor,
} from '../../src/strategy/inventory-skew.js';
import { bal, d, pairParams } from './support/fixtures.js';

const inv = (over: Parameters<typeof pairParams>[0] = {}) => pairParams(over).inventory;

describe('holdings and share', () => {
  it('adds available and locked; a missing instrument holds zero', () => {
    const h = pairHoldings({ BTC: bal('1', '0.5'), USDC: bal(100) }, 'BTC', 'USDC');
    expect([h.base.toFixed(), h.quote.toFixed()]).toEqual(['1.5', '100']);
    expect(pairHoldings({}, 'BTC', 'USDC').base.toFixed()).toBe('0');
  });

  it.each([
    { base: '1', quote: '100', ref: '100', share: 0.5 },
    { base: '1.5', quote: '100', ref: '100', share: 0.6 },
    { base: '0', quote: '100', ref: '100', share: 0 },
    { base: '2', quote: '0', ref: '100', share: 1 },
    { base: '0', quote: '0', ref: '100', share: null },
  ])('base $base quote $quote at $ref → $share', ({ base, quote, ref, share }) => {
    expect(baseShare({ base: d(base), quote: d(quote) }, d(ref))).toBe(share);
  });

  it('deviation from the target in base units (A–S q)', () => {
    // 10 BTC + 400 USDC at 100 = 14 BTC of value; target half = 7; q = 3.
    expect(inventoryDeviation({ base: d(10), quote: d(400) }, d(100), 0.5).toFixed()).toBe('3');
    expect(inventoryDeviation({ base: d(4), quote: d(1000) }, d(100), 0.5).toFixed()).toBe('-3');
  });
});

describe('inventorySkewBps: target 0.5, range 0.25, max 10 bps', () => {
  const p = inv({ inventory: { targetBaseShare: 0.5, rangeShare: 0.25, maxSkewBps: 10 } });
  it.each([
    { share: 0.5, bps: 0 },
    { share: 0.625, bps: -5 }, // long: quotes move down
    { share: 0.75, bps: -10 },
    { share: 0.95, bps: -10 }, // clamped at the range
    { share: 0.375, bps: 5 }, // short: quotes move up
    { share: 0.25, bps: 10 },
    { share: 0, bps: 10 }, // clamped
  ])('share $share → $bps bps', ({ share, bps }) => {
    expect(inventorySkewBps(share, p)).toBeCloseTo(bps, 12);
  });

  it('is zero when the skew is off', () => {
    expect(inventorySkewBps(0.9, inv({ inventory: { maxSkewBps: 0 } }))).toBe(0);
  });
});

describe('holdingsSkewBps: a target in base units, 40 ± 15, max 12 bps', () => {
  const p = inv({ inventory: { targetBase: '40', rangeBase: '15', maxSkewBps: 12 } });
  const at = (base: string) => ({ base: d(base), quote: d(250_000) });
  it.each([
    { base: '40', bps: 0 },
    { base: '47.5', bps: -6 }, // long: quotes move down
    { base: '55', bps: -12 },
    { base: '70', bps: -12 }, // clamped
    { base: '32.5', bps: 6 },
    { base: '0', bps: 12 },
  ])('base $base → $bps bps (the share is ignored)', ({ base, bps }) => {
    expect(holdingsSkewBps(at(base), 0.1, p)).toBeCloseTo(bps, 12);
  });

  it('without a target in base units, the share rule applies', () => {
    const share = inv({ inventory: { targetBaseShare: 0.5, rangeShare: 0.25, maxSkewBps: 10 } });
    expect(holdingsSkewBps(at('1'), 0.625, share)).toBeCloseTo(-5, 12);
  });
});

describe('inventoryPressure and sizeSkewFactor', () => {
  const at = (base: string) => ({ base: d(base), quote: d(250_000) });
  it.each([
    {
      name: 'target in base units, long',
      over: { targetBase: '40', rangeBase: '15' },
      base: '47.5',
      share: 0.1,
      x: 0.5,
    },
    {
      name: 'target in base units, clamped',
      over: { targetBase: '40', rangeBase: '15' },
      base: '0',
      share: 0.1,
      x: -1,
    },
    {
      name: 'target share, short',
      over: { targetBaseShare: 0.5, rangeShare: 0.25 },
      base: '1',
      share: 0.375,
      x: -0.5,
    },
    { name: 'no range: none', over: { rangeShare: 0 }, base: '1', share: 0.9, x: 0 },
  ])('$name → $x', ({ over, base, share, x }) => {
    expect(inventoryPressure(at(base), share, inv({ inventory: over }))).toBeCloseTo(x, 12);
  });

  it.each([
    { side: 'BUY', pressure: 0.5, sizeSkew: 0.5, factor: 0.75 },
    { side: 'BUY', pressure: -0.5, sizeSkew: 0.5, factor: 1 }, // a bid reduces a short position
    { side: 'SELL', pressure: -1, sizeSkew: 0.8, factor: 0.2 },
    { side: 'SELL', pressure: 1, sizeSkew: 0.8, factor: 1 },
    { side: 'BUY', pressure: 0.333, sizeSkew: 0.5, factor: 0.83 }, // to hundredths
    { side: 'BUY', pressure: 1, sizeSkew: 0, factor: 1 },
  ] as const)(
    '$side at pressure $pressure, sizeSkew $sizeSkew → $factor',
    ({ side, pressure, sizeSkew, factor }) => {
      expect(sizeSkewFactor(side, pressure, sizeSkew)).toBe(factor);
    },
  );
});

describe('sideLevelCount: the adding side sheds its deeper levels at shedOuterAt', () => {
  it.each([
    { side: 'BUY', pressure: 0.5, shedAt: 0.5, levels: 1 }, // long: the bid adds, at the threshold
    { side: 'BUY', pressure: 0.49, shedAt: 0.5, levels: 3 },
    { side: 'SELL', pressure: 0.9, shedAt: 0.5, levels: 3 }, // the ask reduces a long position
    { side: 'SELL', pressure: -0.6, shedAt: 0.5, levels: 1 }, // short: the ask adds
    { side: 'BUY', pressure: -1, shedAt: 0.5, levels: 3 },
    { side: 'BUY', pressure: 1, shedAt: 0, levels: 3 }, // 0 = off
  ] as const)(
    '$side at pressure $pressure, shedOuterAt $shedAt → $levels',
    ({ side, pressure, shedAt, levels }) => {
      expect(sideLevelCount(side, pressure, 3, shedAt)).toBe(levels);
    },
  );

  it('never adds levels', () => {
    expect(sideLevelCount('BUY', 1, 0, 0.5)).toBe(0);
    expect(sideLevelCount('BUY', 0, 1, 0.5)).toBe(1);
  });
});

describe('inventoryGate: past a hard limit only the reducing side is quoted', () => {
  it.each([
    { name: 'within limits', over: {}, base: '1', share: 0.5, buy: true, sell: true },
    { name: 'at maxBase', over: { maxBase: '1' }, base: '1', share: 0.5, buy: false, sell: true },
    { name: 'below maxBase', over: { maxBase: '1.5' }, base: '1', share: 0.5, buy: true, sell: true },
    {
      name: 'above maxBaseShare',
      over: { maxBaseShare: 0.7 },
      base: '1',
      share: 0.71,
      buy: false,
      sell: true,
    },
    {
      name: 'below minBaseShare',
      over: { minBaseShare: 0.3 },
      base: '1',
      share: 0.29,
      buy: true,
      sell: false,
    },
  ])('$name', ({ over, base, share, buy, sell }) => {
    const g = inventoryGate({ base: d(base), quote: d(100) }, share, inv({ inventory: over }));
    expect([g.buy, g.sell]).toEqual([buy, sell]);
    expect(g.reason === null).toBe(buy && sell);
  });
});
