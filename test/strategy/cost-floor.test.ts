import { describe, expect, it } from 'vitest';
import type { DeepPartial, PairStrategyConfig } from '../../src/config/sections/strategy.js';
import { costFloor, holdToFloor, type PairCost } from '../../src/strategy/cost-floor.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { BALANCED } from './support/strategy-cases.js';
import { PAIR, bal, d, market, params, show, snapshot } from './support/fixtures.js';

const cost = (position: string, average: string | null, mustShrink = false): PairCost => ({
  position: d(position),
  averagePrice: average === null ? null : d(average),
  mustShrink,
});
const TICK = d('0.01');

describe('the cost floor', () => {
  it.each<{ name: string; cost?: PairCost; bps: number; shut?: boolean; floor: string | null }>([
    { name: 'off (0 bps)', cost: cost('1', '100'), bps: 0, floor: null },
    { name: 'no cost basis known', bps: 50, floor: null },
    { name: 'flat', cost: cost('0', null), bps: 50, floor: null },
    { name: 'long: asks at or above average - 50 bps', cost: cost('2', '100'), bps: 50, floor: 'SELL 99.5' },
    {
      name: 'short: bids at or below average + 50 bps',
      cost: cost('-2', '100'),
      bps: 50,
      floor: 'BUY 100.5',
    },
    {
      name: 'long, a hard inventory limit shut the buys',
      cost: cost('2', '100'),
      bps: 50,
      shut: true,
      floor: null,
    },
    {
      name: 'long, the risk gate holds the pair reducing',
      cost: cost('2', '100', true),
      bps: 50,
      floor: null,
    },
  ])('$name: $floor', ({ cost: c, bps, shut, floor }) => {
    const f = costFloor(c, bps, shut === true);
    expect(f === null ? null : `${f.side} ${f.price.toFixed()}`).toBe(floor);
  });

  it.each([
    ['SELL', '99.2', 'SELL 99.5', '99.5'],
    ['SELL', '99.8', 'SELL 99.5', '99.8'],
    ['BUY', '99.2', 'SELL 99.5', '99.2'],
    ['BUY', '101', 'BUY 100.5', '100.5'],
    ['BUY', '100.1', 'BUY 100.5', '100.1'],
    ['SELL', '99.2', 'SELL 99.123', '99.2'],
    ['SELL', '99.1', 'SELL 99.123', '99.13'],
    ['BUY', '101', 'BUY 100.567', '100.56'],
  ] as const)('a %s at %s under the floor %s is quoted at %s', (side, price, floor, out) => {
    const [fs, fp] = floor.split(' ') as ['BUY' | 'SELL', string];
    expect(holdToFloor(side, d(price), { side: fs, price: d(fp) }, TICK).toFixed()).toBe(out);
  });

  // The fixtures' book is 99/101 (reference 100), spread 10 bps each side, levels 10 bps apart.
  const quotes = (c: PairCost, over: DeepPartial<PairStrategyConfig>, wallet = BALANCED) =>
    show(
      computeQuotes(snapshot([market()], null), [], wallet, params({ [PAIR]: over }), undefined, {
        [PAIR]: c,
      }).quotes,
    );

  it('holds the reducing side of a long position to its cost, deeper levels beyond it; the buys are untouched', () => {
    const base = { levels: { count: 2 }, guards: { tick: '0.01' } };
    const over = { ...base, inventory: { costFloorBps: 20 } };
    const off = quotes(cost('1', '101'), base);
    expect(off).toEqual(['BUY 0 99.9@0.01', 'BUY 1 99.8@0.01', 'SELL 0 100.1@0.01', 'SELL 1 100.21@0.01']);
    // Floor 101 × (1 − 0.002) = 100.798, rounded up to the tick: 100.8.
    expect(quotes(cost('1', '101'), over)).toEqual([
      'BUY 0 99.9@0.01',
      'BUY 1 99.8@0.01',
      'SELL 0 100.8@0.01',
      'SELL 1 100.91@0.01',
    ]);
    // A cost below the market: nothing to hold.
    expect(quotes(cost('1', '99'), over)).toEqual(off);
    // A short position holds the bids instead: floor 99 × 1.002 = 99.198 → 99.19.
    expect(quotes(cost('-1', '99'), over)).toEqual([
      'BUY 0 99.19@0.01',
      'BUY 1 99.09@0.01',
      'SELL 0 100.1@0.01',
      'SELL 1 100.21@0.01',
    ]);
    // At inventory.maxBase the buys are shut: the position must shrink, the floor yields.
    const atMax = { ...base, inventory: { costFloorBps: 20, maxBase: '1' } };
    expect(quotes(cost('1', '101'), atMax, { BTC: bal(1), USDC: bal(100) })).toEqual([
      'SELL 0 100.1@0.01',
      'SELL 1 100.21@0.01',
    ]);
  });
});
