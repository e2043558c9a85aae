import { describe, it } from 'vitest';

import { type Case, check } from './support/strategy-cases.js';
import { bal, book, own } from './support/fixtures.js';

describe('computeQuotes: spreads and inventory skew (ref = mid 100, spread 10 bps, skew ±10 bps over ±0.25)', () => {
  it.each<Case>([
    { name: 'balanced: no skew', quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'] },
    // share 0.6 → (0.5 − 0.6)/0.25 = −0.4 → −4 bps: bid 14 bps, ask 6 bps.
    {
      name: 'long: both quotes move down',
      balances: { BTC: bal('1.5'), USDC: bal(100) },
      quotes: ['BUY 0 99.86@0.01', 'SELL 0 100.06@0.01'],
    },
    // share 60/160 = 0.375 → +5 bps: bid 5 bps, ask 15 bps.
    {
      name: 'short: both quotes move up',
      balances: { BTC: bal('0.6'), USDC: bal(100) },
      quotes: ['BUY 0 99.95@0.01', 'SELL 0 100.15@0.01'],
    },
    // share 0.8 → clamped −10 bps: bid 20 bps; ask 0 → clamped to minBps 2.
    {
      name: 'long past the range: clamped',
      balances: { BTC: bal(4), USDC: bal(100) },
      quotes: ['BUY 0 99.8@0.01', 'SELL 0 100.02@0.01'],
    },
    // share 0.2 → clamped +10 bps: bid 0 → minBps 2; ask 20 bps.
    {
      name: 'short past the range: clamped',
      balances: { BTC: bal('0.25'), USDC: bal(100) },
      quotes: ['BUY 0 99.98@0.01', 'SELL 0 100.2@0.01'],
    },
  ])('$name', check);
});

describe('computeQuotes: hard inventory limits quote only the reducing side', () => {
  it.each<Case>([
    {
      name: 'at maxBase: SELL only',
      over: { inventory: { maxBase: '1' } },
      quotes: ['SELL 0 100.1@0.01'],
      skipped: [/maxBase/],
    },
    {
      name: 'over maxBaseShare: SELL only',
      over: { inventory: { maxBaseShare: 0.55 } },
      balances: { BTC: bal('1.5'), USDC: bal(100) },
      quotes: ['SELL 0 100.06@0.01'],
      skipped: [/maxBaseShare/],
    },
    {
      name: 'under minBaseShare: BUY only',
      over: { inventory: { minBaseShare: 0.45 } },
      balances: { BTC: bal('0.6'), USDC: bal(100) },
      quotes: ['BUY 0 99.95@0.01'],
      skipped: [/minBaseShare/],
    },
  ])('$name', check);
});

describe('computeQuotes: never crosses the book or our own orders', () => {
  const noSkew = { inventory: { maxSkewBps: 0 } };
  it.each<Case>([
    // static 102: bid 101.898 would cross the best ask 101 → one tick under it.
    {
      name: 'bid above the best ask (static reference)',
      over: { ...noSkew, reference: { source: 'static', staticPrice: '102' }, guards: { tick: '0.01' } },
      quotes: ['BUY 0 100.99@0.01', 'SELL 0 102.11@0.01'],
    },
    {
      name: 'same at 10 decimal places',
      over: { ...noSkew, reference: { source: 'static', staticPrice: '102' } },
      quotes: ['BUY 0 100.9999999999@0.01', 'SELL 0 102.102@0.01'],
    },
    // static 98: ask 98.098 would cross the best bid 99 → one tick over it.
    {
      name: 'ask below the best bid',
      over: { ...noSkew, reference: { source: 'static', staticPrice: '98' }, guards: { tick: '0.01' } },
      quotes: ['BUY 0 97.9@0.01', 'SELL 0 99.01@0.01'],
    },
    {
      name: 'our own stale ask below the desired bid',
      over: { ...noSkew, guards: { tick: '0.01' } },
      market: {
        book: book(
          [[99, 5]],
          [
            [99.85, 1],
            [101, 5],
          ],
        ),
      },
      own: [own({ side: 'SELL', price: 99.85, remaining: 1, slot: 'BTC/USDC:SELL:1' })],
      quotes: ['BUY 0 99.84@0.01', 'SELL 0 100.1@0.01'],
    },
    {
      name: 'our own bid above the desired ask, even while it is being cancelled',
      over: { ...noSkew, guards: { tick: '0.01' } },
      market: {
        book: book(
          [
            [100.2, 1],
            [99, 5],
          ],
          [[101, 5]],
        ),
      },
      own: [own({ side: 'BUY', price: 100.2, remaining: 1, cancelling: true })],
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.21@0.01'],
    },
  ])('$name', check);
});

describe('computeQuotes: rounding away from the market', () => {
  it.each<Case>([
    {
      name: 'tick 0.05: 99.93 → 99.9 (BUY down), 100.07 → 100.1 (SELL up)',
      over: { spread: { bidBps: 7, askBps: 7 }, guards: { tick: '0.05' } },
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1@0.01'],
    },
    // mid 100.00000000005: bid 99.90000000004995 ↓, ask 100.10000000005005 ↑ at 10 dp.
    {
      name: '10 decimal places',
      over: { inventory: { maxSkewBps: 0 } },
      market: { book: book([[99, 5]], [['101.0000000001', 5]]) },
      quotes: ['BUY 0 99.9@0.01', 'SELL 0 100.1000000001@0.01'],
    },
  ])('$name', check);
});
