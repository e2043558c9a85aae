import { describe, expect, it } from 'vitest';

import type { OwnOrderView, PairMarket } from '../../src/market/market-snapshot.js';
import { bookWithoutOwn } from '../../src/market/ownless-book.js';
import { microprice, midPrice, referencePrice } from '../../src/strategy/reference-price.js';
import { NOW, book, d, market, own, pairParams } from './support/fixtures.js';

describe('bookWithoutOwn', () => {
  const polled = book(
    [
      [100, 3],
      [99, 2],
    ],
    [
      [102, 1],
      [103, 4],
    ],
  );
  const cases: Array<{ name: string; own: OwnOrderView[]; bids: string[]; asks: string[] }> = [
    { name: 'no own orders', own: [], bids: ['100x3', '99x2'], asks: ['102x1', '103x4'] },
    {
      name: 'part of the best bid is ours',
      own: [own({ side: 'BUY', price: 100, remaining: 1 })],
      bids: ['100x2', '99x2'],
      asks: ['102x1', '103x4'],
    },
    {
      name: 'the best ask is all ours: the level disappears',
      own: [own({ side: 'SELL', price: 102, remaining: 1 })],
      bids: ['100x3', '99x2'],
      asks: ['103x4'],
    },
    {
      name: 'two own orders at one level, placing and cancelling ones count too',
      own: [
        own({ key: 'a', side: 'BUY', price: 100, remaining: 1, resting: false }),
        own({ key: 'b', side: 'BUY', price: 100, remaining: 2, cancelling: true, resting: false }),
      ],
      bids: ['99x2'],
      asks: ['102x1', '103x4'],
    },
    {
      name: 'own prices written with other digits are the same level (100.00, 100.0 and 100)',
      own: [
        own({ key: 'a', side: 'BUY', price: '100.00', remaining: '0.5' }),
        own({ key: 'b', side: 'BUY', price: '100.0', remaining: '0.25' }),
        own({ key: 'c', side: 'SELL', price: '103.000', remaining: 1 }),
        own({ key: 'd', side: 'SELL', price: '103.0000000001', remaining: 1 }),
      ],
      bids: ['100x2.25', '99x2'],
      asks: ['102x1', '103x3'],
    },
    {
      name: 'more own quantity than the level shows (not yet in the book): level gone, no negative',
      own: [own({ side: 'SELL', price: 103, remaining: 9 })],
      bids: ['100x3', '99x2'],
      asks: ['102x1'],
    },
    {
      name: 'another pair and other prices are untouched',
      own: [
        own({ pair: 'ETH/USDC', side: 'BUY', price: 100, remaining: 3 }),
        own({ side: 'BUY', price: 98 }),
      ],
      bids: ['100x3', '99x2'],
      asks: ['102x1', '103x4'],
    },
  ];
  it.each(cases)('$name', ({ own: mine, bids, asks }) => {
    const b = bookWithoutOwn(polled, mine, 'BTC/USDC');
    expect(b.bids.map((l) => `${l.price.toFixed()}x${l.quantity.toFixed()}`)).toEqual(bids);
    expect(b.asks.map((l) => `${l.price.toFixed()}x${l.quantity.toFixed()}`)).toEqual(asks);
  });
});

describe('mid and microprice', () => {
  it.each([
    { bids: [[100, 1]], asks: [[102, 1]], mid: '101', micro: '101' },
    // Microprice leans toward the thin side: (100·3 + 102·1) / 4 = 100.5.
    { bids: [[100, 1]], asks: [[102, 3]], mid: '101', micro: '100.5' },
    { bids: [[100, 3]], asks: [[102, 1]], mid: '101', micro: '101.5' },
    { bids: [], asks: [[102, 1]], mid: null, micro: null },
  ] as const)('bids $bids asks $asks → mid $mid, micro $micro', ({ bids, asks, mid, micro }) => {
    const b = book(bids, asks);
    expect(midPrice(b)?.toFixed() ?? null).toBe(mid);
    expect(microprice(b)?.toFixed() ?? null).toBe(micro);
  });
});

describe('referencePrice', () => {
  const trades = [{ tradeId: 't', price: d('100.7'), quantity: d(1), at: NOW - 10_000 }];
  type Case = {
    name: string;
    source: 'mid' | 'microprice' | 'last' | 'static' | 'external';
    market?: Partial<PairMarket>;
    own?: OwnOrderView[];
    staticPrice?: string;
    price: string | null;
    reason?: RegExp;
  };
  const cases: Case[] = [
    { name: 'mid of the book', source: 'mid', price: '100' },
    {
      name: 'mid with our own best bid removed',
      source: 'mid',
      market: {
        book: book(
          [
            [99.5, 1],
            [99, 5],
          ],
          [[101, 5]],
        ),
      },
      own: [own({ side: 'BUY', price: 99.5, remaining: 1 })],
      price: '100',
    },
    {
      name: 'microprice with own orders removed',
      source: 'microprice',
      // Top without ours: 99×3 / 102×1 → (99·1 + 102·3) / 4.
      market: {
        book: book(
          [
            [100, 4],
            [99, 3],
          ],
          [[102, 1]],
        ),
      },
      own: [own({ side: 'BUY', price: 100, remaining: 4 })],
      price: '101.25',
    },
    { name: 'no book', source: 'mid', market: { book: null }, price: null, reason: /no book/ },
    {
      name: 'stale book',
      source: 'mid',
      market: { book: book([[99, 1]], [[101, 1]], NOW - 5_001) },
      price: null,
      reason: /stale/,
    },
    {
      name: 'book whose only bid is ours',
      source: 'mid',
      market: { book: book([[99, 1]], [[101, 1]]) },
      own: [own({ side: 'BUY', price: 99, remaining: 1 })],
      price: null,
      reason: /empty side/,
    },
    { name: 'last trade', source: 'last', market: { trades }, price: '100.7' },
    { name: 'no trade', source: 'last', price: null, reason: /no trade/ },
    {
      name: 'stale last trade',
      source: 'last',
      market: { trades: [{ ...trades[0]!, at: NOW - 300_001 }] },
      price: null,
      reason: /stale/,
    },
    { name: 'static price', source: 'static', staticPrice: '123.45', price: '123.45' },
    { name: 'static without price', source: 'static', price: null, reason: /no static price/ },
    {
      name: 'external feed',
      source: 'external',
      market: { external: { price: d(98), at: NOW - 1_000 } },
      price: '98',
    },
    { name: 'no external price', source: 'external', price: null, reason: /no external/ },
    {
      name: 'stale external price',
      source: 'external',
      market: { external: { price: d(98), at: NOW - 15_001 } },
      price: null,
      reason: /stale/,
    },
  ];
  it.each(cases)('$name', (c) => {
    const p = pairParams({ reference: { source: c.source, staticPrice: c.staticPrice ?? '' } });
    const r = referencePrice(market(c.market), c.own ?? [], p, NOW);
    if (c.price === null) {
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(c.reason!);
    } else {
      expect(r.ok && r.ref.price.toFixed()).toBe(c.price);
    }
  });
});
