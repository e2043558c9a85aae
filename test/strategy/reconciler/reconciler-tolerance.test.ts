import { describe, expect, it } from 'vitest';

import type { OwnOrderView } from '../../../src/market/market-snapshot.js';
import type { ReconcileParams } from '../../../src/strategy/params.js';
import type { Action, DesiredQuote } from '../../../src/strategy/quote-types.js';
import { edgeBps, isToxic, orderFits, planReconcile } from '../../../src/strategy/reconciler.js';
import { NOW, bal, d, own, quote, tolerance } from '../support/fixtures.js';

/**
 * The reconciler with a quote's own tolerance (the latency-aware model): an asymmetric band of
 * edges around the desired one, and a toxic edge below which a resting order is cancelled at once.
 * Reference 100; the desired bid at 99.75 has an edge of 25 bps.
 */

const PARAMS: ReconcileParams = {
  priceToleranceBps: 5,
  sizeTolerancePct: 20,
  oversizeMultiple: 0,
  maxOrderAgeMs: 3_600_000,
  ordersPerSlot: 2,
};
const RICH = { BTC: bal(100), USDC: bal(100_000) };
const TOL = tolerance();
const BID = quote({ side: 'BUY', price: '99.75', tolerance: TOL });
const ASK = quote({ side: 'SELL', price: '100.25', tolerance: TOL });

function plan(quotes: DesiredQuote[], orders: OwnOrderView[]): string[] {
  const result = { quotes, skipped: [], references: {}, now: NOW };
  return planReconcile(result, orders, RICH, PARAMS).actions.map((a: Action) =>
    a.type === 'cancel'
      ? `cancel ${a.key} (${a.reason.split(':')[0]})`
      : `place ${a.quote.side} ${a.quote.price.toFixed()}` +
        (a.replaces === null ? '' : ` replaces ${a.replaces}`),
  );
}

const bidAt = (price: string, over: Partial<OwnOrderView> = {}): OwnOrderView =>
  own({ key: `bid-${price}`, side: 'BUY', price, ...over });
const askAt = (price: string, over: Partial<OwnOrderView> = {}): OwnOrderView =>
  own({ key: `ask-${price}`, side: 'SELL', price, ...over });

describe('edgeBps', () => {
  it.each([
    ['BUY', '99.75', 25],
    ['BUY', '100.1', -10],
    ['SELL', '100.25', 25],
    ['SELL', '99.9', -10],
  ] as const)('%s at %s against 100: %d bps', (side, price, edge) => {
    expect(edgeBps(side, d(price), d(100))).toBeCloseTo(edge, 9);
  });
});

describe('reconcile with a quote tolerance', () => {
  it.each<{ name: string; quotes: DesiredQuote[]; own: OwnOrderView[]; actions: string[] }>([
    // Band of the bid: edges 16 to 43 bps, i.e. prices 99.57 to 99.84; toxic below 8 bps (99.92).
    { name: 'at the desired edge: kept', quotes: [BID], own: [bidAt('99.75')], actions: [] },
    { name: '8.9 bps inside (edge 16.1): kept', quotes: [BID], own: [bidAt('99.839')], actions: [] },
    {
      name: '9.1 bps inside (edge 15.9): repriced, make before break',
      quotes: [BID],
      own: [bidAt('99.841')],
      actions: ['place BUY 99.75 replaces bid-99.841'],
    },
    { name: '17.9 bps outside (edge 42.9): kept', quotes: [BID], own: [bidAt('99.571')], actions: [] },
    {
      name: '18.1 bps outside (edge 43.1): repriced',
      quotes: [BID],
      own: [bidAt('99.569')],
      actions: ['place BUY 99.75 replaces bid-99.569'],
    },
    {
      name: 'edge 7.9 bps: toxic, cancelled at once and placed afresh (break before make)',
      quotes: [BID],
      own: [bidAt('99.921')],
      actions: ['cancel bid-99.921 (toxic)', 'place BUY 99.75'],
    },
    {
      name: 'the reference went through the ask: toxic',
      quotes: [ASK],
      own: [askAt('99.95')],
      actions: ['cancel ask-99.95 (toxic)', 'place SELL 100.25'],
    },
    {
      name: 'toxic while its replacement is being placed: cancelled, the placement left alone',
      quotes: [BID],
      own: [bidAt('99.95'), bidAt('99.75', { key: 'pending', resting: false })],
      actions: ['cancel bid-99.95 (toxic)'],
    },
    {
      name: 'toxic beside an unknown order: cancelled, nothing placed',
      quotes: [BID],
      own: [bidAt('99.95'), bidAt('99.7', { key: 'unk', resting: false, unknown: true })],
      actions: ['cancel bid-99.95 (toxic)'],
    },
    {
      name: 'an order being cancelled does not hold the slot: the replacement goes beside it',
      quotes: [BID],
      own: [bidAt('99.95', { resting: false, cancelling: true })],
      actions: ['place BUY 99.75'],
    },
  ])('$name', ({ quotes, own: orders, actions }) => {
    expect(plan(quotes, orders)).toEqual(actions);
  });

  it('without a tolerance an order being cancelled still holds its slot', () => {
    const legacy = quote({ side: 'BUY', price: '99.75' });
    expect(plan([legacy], [bidAt('99.95', { resting: false, cancelling: true })])).toEqual([]);
  });

  it('isToxic needs a tolerance', () => {
    expect(isToxic(bidAt('100.5'), quote({ side: 'BUY', price: '99.75' }))).toBe(false);
    expect(isToxic(bidAt('100.5'), BID)).toBe(true);
  });

  it('reprices the most stale quote first', () => {
    // The ask drifted 16 bps inside its band, the bid 10: the ask goes first.
    const tight = { ...TOL, insideBps: 5 };
    const bid = quote({ side: 'BUY', price: '99.75', tolerance: tight });
    const ask = quote({ side: 'SELL', price: '100.25', tolerance: tight });
    expect(plan([bid, ask], [bidAt('99.85'), askAt('100.09')])).toEqual([
      'place SELL 100.25 replaces ask-100.09',
      'place BUY 99.75 replaces bid-99.85',
    ]);
  });
});

describe('orderFits with a narrower or wider band (the checks before a prepare and before signing)', () => {
  it.each([
    { price: '99.75', share: 0.5, fits: true },
    // Edge 20.5: 4.5 bps inside, within half of the 9 bps band.
    { price: '99.795', share: 0.5, fits: true },
    // Edge 19.5: 5.5 bps inside: fits the whole band, not half of it.
    { price: '99.805', share: 0.5, fits: false },
    { price: '99.805', share: 1, fits: true },
    // 9 bps outside is within half of the 18 bps band, 11 bps is not.
    { price: '99.66', share: 0.5, fits: true },
    { price: '99.64', share: 0.5, fits: false },
    // An infinite share: any price that is not toxic (edge 8 bps and more), even with a zero band.
    { price: '98', share: Number.POSITIVE_INFINITY, fits: true },
    { price: '99.92', share: Number.POSITIVE_INFINITY, fits: true },
    { price: '99.921', share: Number.POSITIVE_INFINITY, fits: false },
    // Twice the band (the check before signing, latency.signShare 2): edge 10 is 15 bps inside,
    // beyond the 9 bps band but within twice it; 50 is 25 bps outside, within twice 18.
    { price: '99.9', share: 1, fits: false },
    { price: '99.9', share: 2, fits: true },
    { price: '99.5', share: 1, fits: false },
    { price: '99.5', share: 2, fits: true },
    // The toxic edge holds whatever the share: edge 7.5 < 8.
    { price: '99.925', share: 2, fits: false },
  ])('bid at $price, share $share: $fits', ({ price, share, fits }) => {
    expect(orderFits(bidAt(price), BID, PARAMS, NOW, share).fits).toBe(fits);
  });

  it('an infinite share with a zero-width band still keeps a non-toxic order', () => {
    const flat = quote({ side: 'BUY', price: '99.75', tolerance: { ...TOL, insideBps: 0, outsideBps: 0 } });
    expect(orderFits(bidAt('99.5'), flat, PARAMS, NOW, Number.POSITIVE_INFINITY).fits).toBe(true);
    expect(orderFits(bidAt('99.5'), flat, PARAMS, NOW, 1).fits).toBe(false);
  });
});
