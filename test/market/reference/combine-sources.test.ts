import { describe, expect, it } from 'vitest';

import { Dec } from '../../../src/core/decimal.js';
import {
  type SourceReading,
  combineSources,
  conversionDivides,
  weightedMedian,
} from '../../../src/market/reference/combine-sources.js';

const NOW = 1_800_000_000_000;
const RULES = { minSources: 2, maxAgeMs: 10_000, maxDeviationBps: 50 };

/** A source priced `price`, `ageMs` ago. */
function src(id: string, price: string | null, ageMs = 0, weight = 1): SourceReading {
  return {
    id,
    weight,
    price: price === null ? null : new Dec(price),
    at: price === null ? null : NOW - ageMs,
  };
}

describe('weightedMedian', () => {
  it.each([
    {
      name: 'odd count',
      items: [
        ['1', 1],
        ['3', 1],
        ['2', 1],
      ],
      want: '2',
    },
    {
      name: 'even count: mean of the middle two',
      items: [
        ['1', 1],
        ['2', 1],
        ['3', 1],
        ['4', 1],
      ],
      want: '2.5',
    },
    {
      name: 'a heavy source pulls the median to it',
      items: [
        ['1', 1],
        ['2', 1],
        ['10', 3],
      ],
      want: '10',
    },
    {
      name: 'weight exactly half: mean with the next',
      items: [
        ['1', 2],
        ['3', 1],
        ['5', 1],
      ],
      want: '2',
    },
    { name: 'single source', items: [['7.5', 0.3]], want: '7.5' },
  ] as const)('$name', ({ items, want }) => {
    const got = weightedMedian(items.map(([p, w]) => ({ price: new Dec(p), weight: w })));
    expect(got.toFixed()).toBe(want);
  });
});

describe('combineSources', () => {
  const cases: Array<{
    name: string;
    readings: SourceReading[];
    rules?: Partial<typeof RULES>;
    price: string | null;
    states: string[];
    reason?: RegExp;
  }> = [
    {
      name: 'three agreeing sources: their median',
      readings: [src('a', '100'), src('b', '100.2'), src('c', '100.1')],
      price: '100.1',
      states: ['used', 'used', 'used'],
    },
    {
      name: 'a jumping source is left out, the others stay',
      readings: [src('a', '100'), src('b', '110'), src('c', '100.1')],
      price: '100.05',
      states: ['used', 'outlier', 'used'],
    },
    {
      name: 'a stale source is left out (age at the limit counts as stale)',
      readings: [src('a', '100', 10_000), src('b', '100.2', 9_999), src('c', '100.1')],
      price: '100.15',
      states: ['stale', 'used', 'used'],
    },
    {
      name: 'fewer than minSources fresh: no reference, the reason names the sources',
      readings: [src('a', '100', 20_000), src('b', null), src('c', '100.1')],
      price: null,
      states: ['stale', 'no-price', 'used'],
      reason: /1 of 3 reference sources usable, need 2: a is stale \(20\.0 s old\); b has no price yet/,
    },
    {
      name: 'two sources that disagree: both left out, no reference',
      readings: [src('a', '100'), src('b', '101')],
      rules: { minSources: 1 },
      price: null,
      states: ['outlier', 'outlier'],
      reason: /0 of 2 .* a is an outlier \(-99\.0 bps/,
    },
    {
      name: 'two outliers out of five, worst first',
      readings: [src('a', '100'), src('b', '100.1'), src('c', '100.2'), src('d', '90'), src('e', '120')],
      rules: { minSources: 3 },
      price: '100.1',
      states: ['used', 'used', 'used', 'outlier', 'outlier'],
    },
    {
      name: 'minSources 3 with an outlier among three: no reference',
      readings: [src('a', '100'), src('b', '110'), src('c', '100.1')],
      rules: { minSources: 3 },
      price: null,
      states: ['used', 'outlier', 'used'],
      reason: /2 of 3 reference sources usable, need 3: b is an outlier \(\+994\.5 bps/,
    },
    {
      name: 'weights: the heavy source decides within the tolerance',
      readings: [src('a', '100', 0, 1), src('b', '100.3', 0, 3), src('c', '100.1', 0, 1)],
      price: '100.3',
      states: ['used', 'used', 'used'],
    },
    {
      name: 'a non-positive price counts as none',
      readings: [src('a', '0'), src('b', '100'), src('c', '100.2')],
      price: '100.1',
      states: ['no-price', 'used', 'used'],
    },
  ];
  it.each(cases)('$name', ({ readings, rules, price, states, reason }) => {
    const got = combineSources(readings, { ...RULES, ...rules }, NOW);
    expect(got.ok ? got.price.toFixed() : null).toBe(price);
    expect(got.verdicts.map((v) => v.state)).toEqual(states);
    if (reason !== undefined) expect(got.ok ? '' : got.reason).toMatch(reason);
  });

  it('the reference is as old as its oldest used source', () => {
    const got = combineSources(
      [src('a', '100', 3_000), src('b', '100', 1_000), src('c', '200', 0)],
      RULES,
      NOW,
    );
    expect(got.ok && got.at).toBe(NOW - 3_000);
  });

  it('reports deviations from the reference, and an outlier from the others', () => {
    const got = combineSources([src('a', '100'), src('b', '100.2'), src('c', '101')], RULES, NOW);
    expect(got.ok && got.price.toFixed()).toBe('100.1');
    const dev = got.verdicts.map((v) => v.deviationBps);
    expect(dev[0]).toBeCloseTo(-9.99, 2);
    expect(dev[1]).toBeCloseTo(9.99, 2);
    expect(dev[2]).toBeCloseTo(89.91, 2);
    expect(got.verdicts[2]!.state).toBe('outlier');
  });
});

describe('conversion legs', () => {
  const usdt = (leg: string | null, legAgeMs: number, divide: boolean): SourceReading => ({
    ...src('binance:BTC/USDT', '50000'),
    conversion: {
      id: 'binance:USDC/USDT',
      price: leg === null ? null : new Dec(leg),
      at: leg === null ? null : NOW - legAgeMs,
      divide,
    },
  });

  it('divides by a USDC/USDT leg and multiplies by a USDT/USDC leg', () => {
    const div = combineSources([usdt('1.0002', 0, true)], { ...RULES, minSources: 1 }, NOW);
    expect(div.ok && div.price.toFixed(6)).toBe('49990.002000');
    const mul = combineSources([usdt('0.9998', 0, false)], { ...RULES, minSources: 1 }, NOW);
    expect(mul.ok && mul.price.toFixed()).toBe('49990');
  });

  it('a stale leg makes its source stale; a missing leg leaves it without a price', () => {
    const stale = combineSources([usdt('1', 11_000, true), src('c', '50000')], RULES, NOW);
    expect(stale.verdicts.map((v) => [v.state, v.ageMs])).toEqual([
      ['stale', 11_000],
      ['used', 0],
    ]);
    expect(stale.ok).toBe(false);
    const none = combineSources([usdt(null, 0, true)], { ...RULES, minSources: 1 }, NOW);
    expect(none.verdicts[0]!.state).toBe('no-price');
  });

  it.each([
    ['BTC/USDT', 'USDT/USDC', 'USDC', false],
    ['BTC/USDT', 'USDC/USDT', 'USDC', true],
    ['BTC/USDT:USDT', 'USDC/USDT', 'USDC', true],
    ['BTC/USD', 'USDC/USDT', 'USDC', null],
  ] as const)('%s through %s into %s: divide %s', (source, leg, quote, want) => {
    expect(conversionDivides(source, leg, quote)).toBe(want);
  });
});
