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

describe('quoteQuantity: meetMinNotional of levelQuantity, remembered', () => {
  const step = d('0.0001');
  const cases = [
    { amount: '15000', unit: 'quote', price: '43251.27', min: '10' },
    { amount: '15000', unit: 'quote', price: '43251.28', min: '10' },
    { amount: '15000', unit: 'quote', price: '2301.5', min: '10' },
    { amount: '15000', unit: 'quote', price: '2301.50', min: null },
    { amount: '0.5', unit: 'base', price: '2301.5', min: '10' },
    { amount: '0.00001', unit: 'base', price: '2301.5', min: '10' }, // raised to the minimum
    { amount: '16000', unit: 'quote', price: '43251.27', min: '10' },
  ] as const;
  it('gives the computed value on every call, first or remembered, for equal inputs written apart', () => {
    const mins = new Map<string | null, ReturnType<typeof d> | null>();
    const minOf = (m: string | null) => {
      if (!mins.has(m)) mins.set(m, m === null ? null : d(m));
      return mins.get(m)!;
    };
    const got: string[] = [];
    const want: string[] = [];
    for (let round = 0; round < 3; round++) {
      for (const c of cases) {
        // A fresh decimal each time, as a pass computes them.
        const size = { amount: d(c.amount), unit: c.unit };
        const price = d(round === 2 ? `${c.price}000` : c.price);
        const min = minOf(c.min);
        got.push(quoteQuantity(size, price, step, min).toFixed());
        want.push(meetMinNotional(levelQuantity(size, price, step), price, min, step).toFixed());
      }
    }
    expect(got).toEqual(want);
    expect(got.slice(0, 7)).toEqual(['0.3468', '0.3468', '6.5174', '6.5174', '0.5', '0.0044', '0.3699']);
  });
});
