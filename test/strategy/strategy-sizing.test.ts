import { describe, expect, it } from 'vitest';

import { computeQuotes } from '../../src/strategy/strategy.js';
import { BALANCED, type Case, check, run } from './support/strategy-cases.js';
import { NOW, PAIR, bal, book, d, market, own, params, show, snapshot } from './support/fixtures.js';

describe('computeQuotes: minimum notional and balances', () => {
  const noSkew = { inventory: { maxSkewBps: 0 } };
  it.each<Case>([
    // 10/99.9 = 0.10010010… ↑ 0.10010011; 10/100.1 = 0.09990009… ↑ 0.0999001.
    {
      name: 'size raised to the minimum notional',
      market: { minQuoteAmount: d(10) },
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: noSkew,
      quotes: ['BUY 0 99.9@0.10010011', 'SELL 0 100.1@0.0999001'],
    },
    {
      name: 'balance cannot cover the minimum: level skipped',
      market: { minQuoteAmount: d(10) },
      balances: { BTC: bal(1), USDC: bal(5) },
      over: noSkew,
      quotes: ['SELL 0 100.1@0.0999001'],
      skipped: [/USDC .*cannot cover/],
    },
    // 0.5 USDC buys 0.5/99.9 = 0.005005005… ↓ 0.00500500.
    {
      name: 'size shrunk to the available quote',
      balances: { BTC: bal(1), USDC: bal('0.5') },
      over: noSkew,
      quotes: ['BUY 0 99.9@0.005005', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'size shrunk to the available base',
      balances: { BTC: bal('0.004'), USDC: bal(100) },
      over: noSkew,
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.004'],
    },
    {
      name: 'funds locked in our own resting bid count (it will be replaced)',
      balances: { BTC: bal(1), USDC: bal('0.5', '0.999') },
      own: [own({ side: 'BUY', price: '99.9', remaining: '0.01' })],
      over: noSkew,
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'funds of an own order being cancelled do not count',
      balances: { BTC: bal(1), USDC: bal('0.5', '0.999') },
      own: [own({ side: 'BUY', price: '99.9', remaining: '0.01', cancelling: true })],
      over: noSkew,
      quotes: ['BUY 0 99.9@0.005005', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'funds locked in our own resting ask count',
      balances: { BTC: bal('0.002', '0.01'), USDC: bal(100) },
      own: [own({ side: 'SELL', price: '100.1', remaining: '0.01' })],
      over: noSkew,
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'],
    },
  ])('$name', check);
});

describe('computeQuotes: the size skew shrinks the side that adds to the position', () => {
  // BTC 1 held; sizes 0.01; the price skew off so only sizes move.
  const skew = (targetBase: string, rangeBase: string, sizeSkew: number) => ({
    inventory: { maxSkewBps: 0, targetBase, rangeBase, sizeSkew },
  });
  it.each<Case>([
    {
      name: 'off (0): both sides at full size however long',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: skew('0', '1', 0),
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'long by half the range, skew 0.5: the bid at 1 − 0.5·0.5 of its size',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: skew('0.5', '1', 0.5),
      quotes: ['BUY 0 99.9@0.0075', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'short by half the range: the ask shrinks instead',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: skew('1.5', '1', 0.5),
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.0075'],
    },
    {
      name: 'past the range: the factor stays at 1 − sizeSkew',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: skew('0', '0.5', 0.8),
      quotes: ['BUY 0 99.9@0.002', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'at the target: full size',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: skew('1', '0.5', 0.8),
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'],
    },
  ])('$name', check);
});

describe('computeQuotes: shedOuterAt leaves the adding side one level', () => {
  // BTC 1 held; 3 levels 10 bps apart; the price skew off so only the level count moves.
  const shed = (targetBase: string, shedOuterAt: number) => ({
    inventory: { maxSkewBps: 0, targetBase, rangeBase: '1', shedOuterAt },
    levels: { count: 3, spacingBps: 10 },
  });
  const ALL = ['BUY 0 99.9@0.01', 'BUY 1 99.8001@0.01', 'BUY 2 99.7002@0.01'];
  const ASKS = ['SELL 0 100.1@0.01', 'SELL 1 100.2001@0.01', 'SELL 2 100.3002@0.01'];
  it.each<Case>([
    {
      name: 'long by half the range, shed at 0.5: the bid keeps level 0, the ask all three',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: shed('0.5', 0.5),
      quotes: ['BUY 0 99.9@0.01', ...ASKS],
    },
    {
      name: 'short by half the range: the ask sheds instead',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: shed('1.5', 0.5),
      quotes: [...ALL, 'SELL 0 100.1@0.01'],
    },
    {
      name: 'below the threshold: every level',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: shed('0.6', 0.5),
      quotes: [...ALL, ...ASKS],
    },
    {
      name: 'off (0): every level however long',
      balances: { BTC: bal(1), USDC: bal(1000) },
      over: shed('0', 0),
      quotes: [...ALL, ...ASKS],
    },
  ])('$name', check);
});

describe('computeQuotes: levels', () => {
  const noSkew = { maxSkewBps: 0 };
  it.each<Case>([
    {
      name: '3 levels, 10 bps apart, +0.005 per level',
      over: { inventory: noSkew, levels: { count: 3, spacingBps: 10, sizeIncrement: '0.005' } },
      quotes: [
        'BUY 0 99.9@0.01',
        'BUY 1 99.8001@0.015',
        'BUY 2 99.7002@0.02',
        'SELL 0 100.1@0.01',
        'SELL 1 100.2001@0.015',
        'SELL 2 100.3002@0.02',
      ],
    },
    // 10/99.9 ↓ 0.1001001; 10/100.1 = 0.0999000999… ↓ 0.09990009 (at 1e-8).
    {
      name: 'size in quote notional',
      over: { inventory: noSkew, levels: { sizeUnit: 'quote', size: '10' } },
      balances: { BTC: bal(1), USDC: bal(1000) },
      quotes: ['BUY 0 99.9@0.1001001', 'SELL 0 100.1@0.09990009'],
    },
    {
      name: 'spacing finer than the tick: levels one tick apart',
      over: { inventory: noSkew, levels: { count: 3, spacingBps: 0.1 }, guards: { tick: '0.1' } },
      quotes: [
        'BUY 0 99.9@0.01',
        'BUY 1 99.8@0.01',
        'BUY 2 99.7@0.01',
        'SELL 0 100.1@0.01',
        'SELL 1 100.2@0.01',
        'SELL 2 100.3@0.01',
      ],
    },
    {
      name: 'a level under the price floor is dropped',
      over: { inventory: noSkew, levels: { count: 2 }, guards: { priceFloor: '99.85' } },
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01', 'SELL 1 100.2001@0.01'],
      skipped: [/outside the price band/],
    },
  ])('$name', check);

  it('funds the best level of every pair before deeper levels', () => {
    const eth = market({ pair: 'ETH/USDC', book: book([[9.9, 50]], [[10.1, 50]]) });
    const p = params({
      [PAIR]: { inventory: { maxSkewBps: 0 }, levels: { count: 2 } },
      'ETH/USDC': { inventory: { maxSkewBps: 0 }, levels: { count: 2, size: '0.1' } },
    });
    // USDC 2: BTC level 0 costs 0.999, ETH level 0 0.999; BTC level 1 gets the last 0.002.
    const balances = { BTC: bal(1), ETH: bal(10), USDC: bal(2) };
    const r = computeQuotes(snapshot([market(), eth], balances), [], balances, p);
    const bids = r.quotes
      .filter((q) => q.side === 'BUY')
      .map((q) => `${q.pair} ${q.level} ${q.quantity.toFixed()}`);
    expect(bids).toEqual(['BTC/USDC 0 0.01', 'BTC/USDC 1 0.00002004', 'ETH/USDC 0 0.1']);
  });
});

describe('computeQuotes: what is not quoted', () => {
  it.each<Case>([
    { name: 'disabled pair', over: { enabled: false }, quotes: [], skipped: [/disabled/] },
    {
      name: 'stale book',
      market: { book: book([[99, 5]], [[101, 5]], NOW - 60_000) },
      quotes: [],
      skipped: [/stale/],
    },
    {
      name: 'reference outside the band',
      over: { guards: { priceCeiling: '99' } },
      quotes: [],
      skipped: [/outside the price band/],
    },
    {
      name: 'A–S without a volatility estimate',
      over: { model: 'avellaneda-stoikov' },
      quotes: [],
      skipped: [/volatility/],
    },
    { name: 'nothing held', balances: {}, quotes: [], skipped: [/no BTC and no USDC/] },
  ])('$name', check);

  it('no balances yet: nothing quoted, existing orders kept', () => {
    const r = run({ balances: null });
    expect(r.quotes).toEqual([]);
    expect(r.skipped).toEqual([{ pair: PAIR, side: null, reason: 'no balances yet', keepOrders: true }]);
  });

  it('a pair without market data', () => {
    const r = computeQuotes(snapshot([], BALANCED), [], BALANCED, params());
    expect(r.skipped[0]?.reason).toMatch(/no market data/);
  });
});

describe('computeQuotes: Avellaneda–Stoikov', () => {
  it('quotes around the reservation price with the optimal spread', () => {
    // 10 BTC + 400 USDC at 100: q = 3. σ_rel 0.02 → σ = 2; γ 0.1, k 1.5, τ 1 → r = 98.8 (−120 bps),
    // half spread 84.5385… bps. Bid distance 204.54 bps → 97.954614788; ask −35.46 → minBps 2.
    const balances = { BTC: bal(10), USDC: bal(400) };
    const r = run({
      balances,
      over: {
        model: 'avellaneda-stoikov',
        avellanedaStoikov: { gamma: 0.1, k: 1.5, horizonSec: 1 },
        volatility: { fixedSigma: 0.02 },
      },
    });
    expect(show(r.quotes)).toEqual(['BUY 0 97.9546147886@0.01', 'SELL 0 100.02@0.01']);
  });
});
