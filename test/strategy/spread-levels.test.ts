import { describe, expect, it } from 'vitest';

import {
  bestQuotes,
  clampDistances,
  decOf,
  levelPrice,
  levelQuantity,
  levelSize,
  meetMinNotional,
  meetsMinNotional,
  floorToStep,
  quoteQuantity,
} from '../../src/strategy/spread-levels.js';
import { d, pairParams } from './support/fixtures.js';

const spread = pairParams({ spread: { minBps: 2, maxBps: 500 } }).spread;

describe('clampDistances: bid = spread − shift, ask = spread + shift, each in [min, max]', () => {
  it.each([
    { shift: 0, bid: 10, ask: 10, out: [10, 10] },
    { shift: -4, bid: 10, ask: 10, out: [14, 6] }, // long: both quotes move down
    { shift: 4, bid: 10, ask: 10, out: [6, 14] }, // short: both move up
    { shift: -20, bid: 10, ask: 10, out: [30, 2] }, // the ask stops at the minimum
    { shift: 0, bid: 800, ask: 1, out: [500, 2] }, // clamped both ways
  ])('shift $shift, $bid/$ask → $out', ({ shift, bid, ask, out }) => {
    const got = clampDistances({ centerShiftBps: shift, bidBps: bid, askBps: ask }, spread);
    expect([got.bidBps, got.askBps]).toEqual(out);
  });
});

describe('bestQuotes and levelPrice', () => {
  it('applies the distances to the reference in bps', () => {
    const q = bestQuotes(d(100), { bidBps: 14, askBps: 6 });
    expect([q.bid.toFixed(), q.ask.toFixed()]).toEqual(['99.86', '100.06']);
  });

  it('strips float noise from bps before it reaches a price', () => {
    expect(decOf(6.000000000000001).toFixed()).toBe('6');
    const q = bestQuotes(d(100), { bidBps: 13.999999999999998, askBps: 6.000000000000001 });
    expect([q.bid.toFixed(), q.ask.toFixed()]).toEqual(['99.86', '100.06']);
  });

  it.each([
    { best: '99.9', side: 'BUY', level: 0, out: '99.9' },
    { best: '99.9', side: 'BUY', level: 1, out: '99.8001' },
    { best: '99.9', side: 'BUY', level: 2, out: '99.7002' },
    { best: '100.1', side: 'SELL', level: 1, out: '100.2001' },
    { best: '100.1', side: 'SELL', level: 2, out: '100.3002' },
  ] as const)('$side level $level from $best at 10 bps → $out', ({ best, side, level, out }) => {
    expect(levelPrice(d(best), side, level, 10).toFixed()).toBe(out);
  });
});

describe('sizes', () => {
  const levels = pairParams({ levels: { size: '0.01', sizeIncrement: '0.005' } }).levels;
  it.each([
    { level: 0, out: '0.01' },
    { level: 1, out: '0.015' },
    { level: 3, out: '0.025' },
  ])('level $level → $out base', ({ level, out }) => {
    expect(levelSize(level, levels).amount.toFixed()).toBe(out);
  });

  it.each([
    { size: '0.0123456789', unit: 'base', price: '30', step: '0.0001', out: '0.0123' },
    { size: '100', unit: 'quote', price: '30', step: '0.001', out: '3.333' },
    { size: '10', unit: 'quote', price: '99.9', step: '0.00000001', out: '0.1001001' },
  ] as const)('$size $unit at $price, step $step → $out', ({ size, unit, price, step, out }) => {
    expect(levelQuantity({ amount: d(size), unit }, d(price), d(step)).toFixed()).toBe(out);
  });

  it.each([
    { qty: '0.01', price: '99', min: '10', step: '0.001', out: '0.102' }, // 10/99 = 0.10101… ↑
    { qty: '0.2', price: '99', min: '10', step: '0.001', out: '0.2' },
    { qty: '0.01', price: '99.9', min: '10', step: '0.00000001', out: '0.10010011' },
    { qty: '0.01', price: '99', min: null, step: '0.001', out: '0.01' },
    { qty: '0.1', price: '100', min: '10', step: '0.1', out: '0.1' }, // exactly the minimum
  ])('raises $qty at $price to the minimum notional $min → $out', ({ qty, price, min, step, out }) => {
    const q = meetMinNotional(d(qty), d(price), min === null ? null : d(min), d(step));
    expect(q.toFixed()).toBe(out);
    expect(meetsMinNotional(q, d(price), min === null ? null : d(min))).toBe(true);
  });
});

describe('levelQuantity in quote units: the 40-digit quotient rounded down to the step', () => {
  // The reference: the division itself, as floorToStep takes it.
  const byDivision = (amount: string, price: string, step: string) =>
    floorToStep(d(amount).div(d(price)), d(step)).toFixed();
  it.each([
    { amount: '15000', price: '43251.27', step: '0.0001' },
    { amount: '15000', price: '2301.5', step: '0.0001' },
    { amount: '15000', price: '1.5', step: '0.0001' }, // an exact quotient
    { amount: '15000', price: '3', step: '1' },
    { amount: '0.001', price: '43251.27', step: '0.0001' }, // rounds to zero
    { amount: '1000000', price: '0.0000123', step: '0.01' },
    { amount: '15000', price: '43251.27', step: '0.00025' }, // not a power of ten
    // The quotient 0.12349999…99857 rounds to 0.1235 at 40 digits, so floorToStep gives 0.1235,
    // one step above the true floor: the double estimate must not decide this one.
    { amount: '0.8644999999999999999999999999999999999999', price: '7', step: '0.0001' },
  ])('$amount / $price to $step', ({ amount, price, step }) => {
    const got = levelQuantity({ amount: d(amount), unit: 'quote' }, d(price), d(step)).toFixed();
    expect(got).toBe(byDivision(amount, price, step));
  });

  it('the rounding case above is what the table says it is', () => {
    expect(byDivision('0.8644999999999999999999999999999999999999', '7', '0.0001')).toBe('0.1235');
  });

  it('agrees with the division on 2 000 drawn prices and sizes', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const got: string[] = [];
    const want: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const price = (1 + next() * 90000).toFixed(2);
      const amount = (10 + next() * 20000).toFixed(i % 3);
      got.push(levelQuantity({ amount: d(amount), unit: 'quote' }, d(price), d('0.0001')).toFixed());
      want.push(byDivision(amount, price, '0.0001'));
    }
    expect(got).toEqual(want);
  });

  it('quoteQuantity raises it to the minimum notional', () => {
    const q = quoteQuantity({ amount: d('0.00001'), unit: 'base' }, d('2301.5'), d('0.0001'), d('10'));
    expect(q.toFixed()).toBe('0.0044');
  });
});
