import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { Dec, ZERO } from '../../src/core/decimal.js';
import type { Level, OwnOrderView } from '../../src/market/market-snapshot.js';
import { fundingPools } from '../../src/strategy/funding.js';
import { bookWithoutOwn } from '../../src/market/ownless-book.js';
import { bestPrices } from '../../src/strategy/reference-price.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { NOW, PAIR, bal, market, params, snapshot } from './support/fixtures.js';

/** A positive decimal m·10^e. */
const decimal = (mMax: number, eMin: number, eMax: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: mMax }), fc.integer({ min: eMin, max: eMax }))
    .map(([m, e]) => new Dec(m).times(new Dec(10).pow(e)));

const bpsOf = (x: Dec, bps: number) => x.times(new Dec(bps).div(10_000).plus(1));

const scenario = fc.record({
  mid: decimal(1_000_000, -8, 2),
  bidBps: fc.integer({ min: 0, max: 300 }),
  askBps: fc.integer({ min: 0, max: 300 }),
  emptySide: fc.constantFrom('none', 'none', 'none', 'bids', 'asks'),
  depth: fc.array(fc.tuple(fc.integer({ min: 1, max: 50 }), decimal(1000, -3, 2)), {
    minLength: 1,
    maxLength: 4,
  }),
  own: fc.array(
    fc.record({
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      offsetBps: fc.integer({ min: -400, max: 400 }),
      remaining: decimal(1000, -4, 1),
      state: fc.constantFrom('resting', 'resting', 'placing', 'unknown', 'cancelling'),
      inBook: fc.boolean(),
    }),
    { maxLength: 5 },
  ),
  baseAvail: decimal(10_000, -6, 2),
  quoteAvail: decimal(10_000, -4, 4),
  locked: fc.boolean(),
  tick: fc.constantFrom('', '', '0.0000000001', '0.000001', '0.01', '0.5', '1'),
  step: fc.constantFrom('0.00000001', '0.0001', '0.1', '1'),
  minQuote: fc.option(decimal(100, -2, 2), { nil: null }),
  source: fc.constantFrom('mid' as const, 'microprice' as const, 'static' as const),
  staticOffsetBps: fc.integer({ min: -500, max: 500 }),
  spreadBid: fc.integer({ min: 0, max: 200 }),
  spreadAsk: fc.integer({ min: 0, max: 200 }),
  minBps: fc.constantFrom(0.01, 1, 5),
  levels: fc.integer({ min: 1, max: 4 }),
  spacing: fc.constantFrom(0, 0.5, 10, 50),
  sizeUnit: fc.constantFrom('base' as const, 'quote' as const),
  size: decimal(1000, -4, 2),
  skew: fc.constantFrom(0, 10, 100),
  as: fc.boolean(),
});

describe('computeQuotes, for any snapshot', () => {
  it('never crosses, never exceeds 10 dp, never goes below the minimum notional, never overspends', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const lv = (price: Dec, q: Dec): Level => ({ price, quantity: q });
        let bids = s.depth.map(([k, q]) => lv(bpsOf(s.mid, -s.bidBps - k * 5), q));
        let asks = s.depth.map(([k, q]) => lv(bpsOf(s.mid, s.askBps + k * 5), q));
        const own: OwnOrderView[] = s.own.map((o, i) => ({
          key: `o${i}`,
          slot: `${PAIR}:${o.side}:${i}`,
          pair: PAIR,
          side: o.side,
          price: bpsOf(s.mid, o.offsetBps).toDecimalPlaces(10),
          remaining: o.remaining,
          resting: o.state === 'resting',
          unknown: o.state === 'unknown',
          cancelling: o.state === 'cancelling',
          since: NOW - 1000,
        }));
        // Resting own orders are on the book (where they do not cross it).
        for (const o of own.filter((x, i) => s.own[i]!.inBook)) {
          if (o.side === 'BUY' && (asks[0] === undefined || o.price.lt(asks[0].price))) {
            bids = [...bids, lv(o.price, o.remaining)].sort((a, b) => b.price.comparedTo(a.price));
          }
          if (o.side === 'SELL' && (bids[0] === undefined || o.price.gt(bids[0].price))) {
            asks = [...asks, lv(o.price, o.remaining)].sort((a, b) => a.price.comparedTo(b.price));
          }
        }
        if (s.emptySide === 'bids') bids = [];
        if (s.emptySide === 'asks') asks = [];
        const m = market({
          minQuoteAmount: s.minQuote,
          book: { bids, asks, sequence: 1, receivedAt: NOW },
        });
        const lockedQuote = s.locked ? s.quoteAvail : ZERO;
        const balances = {
          BTC: { available: s.baseAvail, locked: ZERO },
          USDC: { available: s.quoteAvail, locked: lockedQuote },
        };
        const p = params({
          [PAIR]: {
            reference: { source: s.source, staticPrice: bpsOf(s.mid, s.staticOffsetBps).toFixed() },
            spread: { bidBps: s.spreadBid, askBps: s.spreadAsk, minBps: s.minBps, maxBps: 1000 },
            levels: {
              count: s.levels,
              spacingBps: s.spacing,
              sizeUnit: s.sizeUnit,
              size: s.size.toFixed(),
              sizeIncrement: '0',
            },
            inventory: { maxSkewBps: s.skew },
            model: s.as ? 'avellaneda-stoikov' : 'spread',
            avellanedaStoikov: { gamma: 0.1, k: 1.5, horizonSec: 60 },
            volatility: { fixedSigma: 0.0005 },
            guards: { tick: s.tick, quantityStep: s.step },
          },
        });
        const r = computeQuotes(snapshot([m], balances), own, balances, p);

        const best = bestPrices(bookWithoutOwn(m.book!, own, PAIR));
        const ownAsks = own.filter((o) => o.side === 'SELL').map((o) => o.price);
        const ownBids = own.filter((o) => o.side === 'BUY').map((o) => o.price);
        const desiredBids = r.quotes.filter((q) => q.side === 'BUY').map((q) => q.price);
        const desiredAsks = r.quotes.filter((q) => q.side === 'SELL').map((q) => q.price);
        for (const q of r.quotes) {
          expect(q.price.gt(0) && q.quantity.gt(0)).toBe(true);
          expect(q.price.decimalPlaces()).toBeLessThanOrEqual(10);
          if (s.tick !== '') expect(q.price.mod(s.tick).isZero()).toBe(true);
          expect(q.quantity.mod(s.step).isZero()).toBe(true);
          if (s.minQuote !== null) expect(q.price.times(q.quantity).gte(s.minQuote)).toBe(true);
          if (q.side === 'BUY') {
            if (best.bestAsk !== null) expect(q.price.lt(best.bestAsk)).toBe(true);
            for (const a of [...ownAsks, ...desiredAsks]) expect(q.price.lt(a)).toBe(true);
          } else {
            if (best.bestBid !== null) expect(q.price.gt(best.bestBid)).toBe(true);
            for (const b of [...ownBids, ...desiredBids]) expect(q.price.gt(b)).toBe(true);
          }
        }
        const pools = fundingPools(balances, own, () => m);
        const spentQuote = r.quotes
          .filter((q) => q.side === 'BUY')
          .reduce((acc, q) => acc.plus(q.price.times(q.quantity)), ZERO);
        const spentBase = r.quotes
          .filter((q) => q.side === 'SELL')
          .reduce((acc, q) => acc.plus(q.quantity), ZERO);
        expect(spentQuote.lte(pools.get('USDC') ?? ZERO)).toBe(true);
        expect(spentBase.lte(pools.get('BTC') ?? ZERO)).toBe(true);
        // The pool never exceeds available + what our own resting orders lock.
        expect(
          (pools.get('USDC') ?? ZERO).lte(
            s.quoteAvail.plus(own.reduce((a, o) => a.plus(o.price.times(o.remaining)), ZERO)),
          ),
        ).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('quotes something in an ordinary market (the property is not vacuous)', () => {
    const balances = { BTC: bal(1), USDC: bal(100) };
    const r = computeQuotes(snapshot([market()], balances), [], balances, params());
    expect(r.quotes.length).toBe(2);
  });
});
