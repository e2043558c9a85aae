import { describe, expect, it } from 'vitest';

import { crossLimits, effectiveTick, inBand, noCross, roundAway } from '../../src/strategy/price-guards.js';
import { d, own } from './support/fixtures.js';

describe('roundAway: BUY down, SELL up, to the tick and at most 10 decimal places', () => {
  it.each([
    { price: '100.123456789012', side: 'BUY', tick: null, out: '100.123456789' },
    { price: '100.123456789012', side: 'SELL', tick: null, out: '100.1234567891' },
    { price: '100.12', side: 'BUY', tick: '0.05', out: '100.1' },
    { price: '100.12', side: 'SELL', tick: '0.05', out: '100.15' },
    { price: '100.1', side: 'BUY', tick: '0.05', out: '100.1' }, // on the tick: unchanged
    { price: '100.1', side: 'SELL', tick: '0.05', out: '100.1' },
    { price: '1.0000000000015', side: 'BUY', tick: '0.000000000001', out: '1' }, // tick finer than 10 dp
    { price: '1.0000000000015', side: 'SELL', tick: '0.000000000001', out: '1.0000000001' },
    { price: '0.00000000001', side: 'SELL', tick: null, out: '0.0000000001' },
  ] as const)('$side $price tick $tick → $out', ({ price, side, tick, out }) => {
    const r = roundAway(d(price), side, effectiveTick(tick === null ? null : d(tick)));
    expect(r.toFixed()).toBe(out);
    expect(r.decimalPlaces()).toBeLessThanOrEqual(10);
  });
});

describe('crossLimits: the own-less book and every own order, whatever its state', () => {
  it.each([
    { name: 'book only', own: [], below: '101', above: '99' },
    {
      name: 'own ask under the best ask',
      own: [own({ side: 'SELL', price: 100.5 })],
      below: '100.5',
      above: '99',
    },
    {
      name: 'own bid over the best bid',
      own: [own({ side: 'BUY', price: 99.5 })],
      below: '101',
      above: '99.5',
    },
    {
      name: 'unknown and cancelling orders count',
      own: [
        own({ side: 'SELL', price: 100.2, unknown: true, resting: false }),
        own({ side: 'BUY', price: 99.7, cancelling: true }),
      ],
      below: '100.2',
      above: '99.7',
    },
    {
      name: 'other pairs do not',
      own: [own({ pair: 'ETH/USDC', side: 'SELL', price: 50 })],
      below: '101',
      above: '99',
    },
  ])('$name', ({ own: mine, below, above }) => {
    const l = crossLimits({ bestBid: d(99), bestAsk: d(101) }, mine, 'BTC/USDC');
    expect([l.bidBelow?.toFixed(), l.askAbove?.toFixed()]).toEqual([below, above]);
  });

  it('has no limit on an empty side', () => {
    expect(crossLimits({ bestBid: null, bestAsk: null }, [], 'BTC/USDC')).toEqual({
      bidBelow: null,
      askAbove: null,
    });
  });
});

describe('noCross: one tick inside the limit, then rounded away', () => {
  const limits = { bidBelow: d(101), askAbove: d('99.5') };
  it.each([
    { price: '101', side: 'BUY', tick: '0.01', out: '100.99' },
    { price: '102.3', side: 'BUY', tick: '0.01', out: '100.99' },
    { price: '100.5', side: 'BUY', tick: '0.01', out: '100.5' },
    { price: '99', side: 'SELL', tick: '0.01', out: '99.51' },
    { price: '99.5', side: 'SELL', tick: null, out: '99.5000000001' },
    { price: '99.6', side: 'SELL', tick: '0.01', out: '99.6' },
  ] as const)('$side $price → $out', ({ price, side, tick, out }) => {
    expect(noCross(d(price), side, limits, effectiveTick(tick === null ? null : d(tick)))?.toFixed()).toBe(
      out,
    );
  });

  it('rounds an off-grid limit down for a bid', () => {
    expect(noCross(d(101), 'BUY', { bidBelow: d('100.005'), askAbove: null }, d('0.01'))?.toFixed()).toBe(
      '99.99',
    );
  });

  it('gives null when no positive bid is left', () => {
    expect(noCross(d(1), 'BUY', { bidBelow: d('0.01'), askAbove: null }, d('0.01'))).toBeNull();
  });
});

describe('inBand', () => {
  it.each([
    { price: '100', floor: null, ceiling: null, ok: true },
    { price: '100', floor: '100', ceiling: '110', ok: true },
    { price: '99.99', floor: '100', ceiling: null, ok: false },
    { price: '110.01', floor: null, ceiling: '110', ok: false },
  ])('$price in [$floor, $ceiling] → $ok', ({ price, floor, ceiling, ok }) => {
    expect(inBand(d(price), floor === null ? null : d(floor), ceiling === null ? null : d(ceiling))).toBe(ok);
  });
});
