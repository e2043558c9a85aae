import { describe, expect, it } from 'vitest';

import type { BalanceView, OwnOrderView } from '../../../src/market/market-snapshot.js';
import type { ReconcileParams } from '../../../src/strategy/params.js';
import type { Action, DesiredQuote, QuoteSkip, StrategyResult } from '../../../src/strategy/quote-types.js';
import { planReconcile, reconcile } from '../../../src/strategy/reconciler.js';
import { NOW, bal, own, quote } from '../support/fixtures.js';

const PARAMS: ReconcileParams = {
  priceToleranceBps: 5,
  sizeTolerancePct: 20,
  oversizeMultiple: 0,
  maxOrderAgeMs: 60_000,
  ordersPerSlot: 2,
};
const RICH = { BTC: bal(100), ETH: bal(100), USDC: bal(100_000) };

const BID = quote({ side: 'BUY', price: '99.9' });
const ASK = quote({ side: 'SELL', price: '100.1' });

function result(quotes: DesiredQuote[], skipped: QuoteSkip[] = []): StrategyResult {
  return { quotes, skipped, references: {}, now: NOW };
}

function show(actions: readonly Action[]): string[] {
  return actions.map((a) =>
    a.type === 'cancel'
      ? `cancel ${a.key}`
      : `place ${a.quote.slot} ${a.quote.price.toFixed()}@${a.quote.quantity.toFixed()} p${a.priority}` +
        (a.replaces === null ? '' : ` replaces ${a.replaces}`),
  );
}

type Case = {
  name: string;
  quotes: DesiredQuote[];
  own?: OwnOrderView[];
  skipped?: QuoteSkip[];
  balances?: Record<string, BalanceView> | null;
  actions: string[];
};

function check(c: Case): void {
  const balances = c.balances === undefined ? RICH : c.balances;
  expect(show(reconcile(result(c.quotes, c.skipped), c.own ?? [], balances, PARAMS))).toEqual(c.actions);
}

describe('reconcile: keep within tolerance, refresh when too old', () => {
  const bidAt = (price: string, remaining = '1', since = NOW - 1_000) =>
    own({ key: 'old', side: 'BUY', price, remaining, since });
  it.each<Case>([
    {
      name: 'nothing on the book: both best levels placed',
      quotes: [BID, ASK],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10000', 'place BTC/USDC:SELL:0 100.1@1 p10000'],
    },
    { name: 'same order: kept', quotes: [BID], own: [bidAt('99.9')], actions: [] },
    // 0.049 / 99.9 = 4.9 bps ≤ 5: kept. 0.051 / 99.9 = 5.1 bps: repriced.
    { name: 'price 4.9 bps off: kept', quotes: [BID], own: [bidAt('99.949')], actions: [] },
    {
      name: 'price 5.1 bps off: replaced',
      quotes: [BID],
      own: [bidAt('99.951')],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'],
    },
    { name: 'price 4.9 bps lower: kept', quotes: [BID], own: [bidAt('99.851')], actions: [] },
    {
      name: 'size 20 % smaller (partly filled): kept',
      quotes: [BID],
      own: [bidAt('99.9', '0.8')],
      actions: [],
    },
    {
      name: 'size 21 % smaller: replaced',
      quotes: [BID],
      own: [bidAt('99.9', '0.79')],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'],
    },
    {
      name: 'size 21 % larger: replaced',
      quotes: [BID],
      own: [bidAt('99.9', '1.21')],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'],
    },
    { name: 'at maxOrderAge: kept', quotes: [BID], own: [bidAt('99.9', '1', NOW - 60_000)], actions: [] },
    {
      name: 'older than maxOrderAge: refreshed',
      quotes: [BID],
      own: [bidAt('99.9', '1', NOW - 60_001)],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'],
    },
  ])('$name', check);

  it('reports why: missing, reprice, refresh', () => {
    const reasons = (o: OwnOrderView[]) =>
      planReconcile(result([BID]), o, RICH, PARAMS).actions.map((a) =>
        a.type === 'place' ? a.reason : a.type,
      );
    expect(reasons([])).toEqual(['missing']);
    expect(reasons([bidAt('99')])).toEqual(['reprice']);
    expect(reasons([bidAt('99.9', '1', NOW - 60_001)])).toEqual(['refresh']);
  });
});

describe('reconcile: make before break when the balance covers both orders', () => {
  const old = own({ key: 'old', side: 'BUY', price: '99', remaining: '1' });
  it.each<Case>([
    {
      name: 'covered: the new order first, replacing the old',
      quotes: [BID],
      own: [old],
      balances: { USDC: bal('99.9', 99) },
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'],
    },
    {
      name: 'not covered: cancel the old now, place on a later cycle',
      quotes: [BID],
      own: [old],
      balances: { USDC: bal('99.8', 99) },
      actions: ['cancel old'],
    },
    {
      name: 'an ask replacement needs base',
      quotes: [ASK],
      own: [own({ key: 'a', side: 'SELL', price: 101 })],
      balances: { BTC: bal('0.5', 1) },
      actions: ['cancel a'],
    },
    { name: 'a missing slot without funds waits', quotes: [BID], balances: { USDC: bal(50) }, actions: [] },
    {
      name: 'unknown balances: nothing placed, nothing broken',
      quotes: [BID],
      own: [old],
      balances: null,
      actions: [],
    },
    {
      name: 'funds go to the higher priority first',
      quotes: [BID, quote({ side: 'BUY', level: 1, price: '99.8' })],
      balances: { USDC: bal(150) },
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10000'],
    },
  ])('$name', check);

  it('lists what it deferred', () => {
    const plan = planReconcile(result([BID]), [old], { USDC: bal(1) }, PARAMS);
    expect(plan.deferred).toEqual([
      { slot: 'BTC/USDC:BUY:0', reason: 'waiting for the cancel to release funds' },
    ]);
  });
});

describe('reconcile: placement priority', () => {
  it('missing best level of an empty side first, then by distance', () => {
    const quotes = [
      BID,
      quote({ side: 'BUY', level: 1, price: '99.8' }), // 20 bps
      ASK,
      quote({ side: 'SELL', level: 1, price: '100.15' }), // 15 bps
    ];
    const kept = own({ key: 'ask0', side: 'SELL', price: '100.1' });
    // 1 of 4 slots fulfilled: pairFill = round(999/4) = 250.
    expect(show(reconcile(result(quotes), [kept], RICH, PARAMS))).toEqual([
      'place BTC/USDC:BUY:0 99.9@1 p10250',
      'place BTC/USDC:SELL:1 100.15@1 p10015250',
      'place BTC/USDC:BUY:1 99.8@1 p10020250',
    ]);
  });

  it('a side with a live order (even one being placed) is not "missing"', () => {
    const placing = own({ key: 'p', side: 'BUY', price: '99.9', resting: false, slot: 'BTC/USDC:BUY:1' });
    expect(show(reconcile(result([BID]), [placing], RICH, PARAMS))).toEqual([
      'place BTC/USDC:BUY:0 99.9@1 p10010000',
    ]);
  });

  it('across pairs at equal distance, the pair furthest from its target first', () => {
    const eth = (side: 'BUY' | 'SELL', price: string) => quote({ pair: 'ETH/USDC', side, price });
    const quotes = [BID, ASK, eth('BUY', '99.9'), eth('SELL', '100.1')];
    // BTC: its ask is kept (1 of 2 fulfilled, pairFill 500); ETH has nothing (pairFill 0).
    // Both bids are the missing best level of their side (tier 0) at 10 bps.
    const kept = own({ key: 'ask', side: 'SELL', price: '100.1' });
    expect(show(reconcile(result(quotes), [kept], RICH, PARAMS))).toEqual([
      'place ETH/USDC:BUY:0 99.9@1 p10000',
      'place ETH/USDC:SELL:0 100.1@1 p10000',
      'place BTC/USDC:BUY:0 99.9@1 p10500',
    ]);
  });
});

describe('reconcile: one order per slot', () => {
  it.each<Case>([
    {
      name: 'unknown order on the slot: no placement',
      quotes: [BID],
      own: [own({ key: 'u', side: 'BUY', price: '90', unknown: true, resting: false })],
      actions: [],
    },
    {
      name: 'order being placed on the slot: no placement',
      quotes: [BID],
      own: [own({ key: 'p', side: 'BUY', price: '90', resting: false })],
      actions: [],
    },
    {
      name: 'order being cancelled on the slot: no placement',
      quotes: [BID],
      own: [own({ key: 'c', side: 'BUY', price: '90', cancelling: true })],
      actions: [],
    },
    {
      name: 'a replacement in flight: the old resting order is left to the daemon',
      quotes: [BID],
      own: [
        own({ key: 'old', side: 'BUY', price: '90' }),
        own({ key: 'new', side: 'BUY', price: '99.9', resting: false }),
      ],
      actions: [],
    },
    {
      name: 'the same slot desired twice: one placement',
      quotes: [BID, quote({ side: 'BUY', price: '99.7' })],
      actions: ['place BTC/USDC:BUY:0 99.9@1 p10000'],
    },
    {
      name: 'two resting orders on a slot: keep the fitting one, cancel the other',
      quotes: [BID],
      own: [own({ key: 'far', side: 'BUY', price: '95' }), own({ key: 'near', side: 'BUY', price: '99.9' })],
      actions: ['cancel far'],
    },
    {
      name: 'two resting orders, neither fits: replace the nearer, cancel the other',
      quotes: [BID],
      own: [own({ key: 'far', side: 'BUY', price: '95' }), own({ key: 'near', side: 'BUY', price: '99' })],
      actions: ['cancel far', 'place BTC/USDC:BUY:0 99.9@1 p10010000 replaces near'],
    },
  ])('$name', check);
});

describe('reconcile: orders not wanted', () => {
  const stray = own({ key: 's', side: 'SELL', price: '105', slot: 'BTC/USDC:SELL:3' });
  it.each<Case>([
    {
      name: 'slot no longer desired: cancelled first, unranked',
      quotes: [BID],
      own: [stray],
      actions: ['cancel s', 'place BTC/USDC:BUY:0 99.9@1 p10000'],
    },
    {
      name: 'an adopted order without a slot: cancelled',
      quotes: [],
      own: [own({ key: 'x', side: 'BUY', price: '50', slot: null })],
      actions: ['cancel x'],
    },
    {
      name: 'pair skipped (stale reference): cancelled',
      quotes: [],
      own: [stray],
      skipped: [{ pair: 'BTC/USDC', side: null, reason: 'no reference price: book is stale' }],
      actions: ['cancel s'],
    },
    {
      name: 'pair skipped with keepOrders (no balances yet): left alone',
      quotes: [],
      own: [stray],
      skipped: [{ pair: 'BTC/USDC', side: null, reason: 'no balances yet', keepOrders: true }],
      actions: [],
    },
    {
      name: 'a keepOrders skip of the other side does not protect it',
      quotes: [],
      own: [stray],
      skipped: [{ pair: 'BTC/USDC', side: 'BUY', reason: 'x', keepOrders: true }],
      actions: ['cancel s'],
    },
    {
      name: 'not desired but still being placed: nothing to cancel yet',
      quotes: [],
      own: [own({ key: 'p', side: 'SELL', price: '105', resting: false })],
      actions: [],
    },
    {
      name: 'not desired and already being cancelled: no second cancel',
      quotes: [],
      own: [own({ key: 'c', side: 'SELL', price: '105', cancelling: true })],
      actions: [],
    },
  ])('$name', check);

  it('a level skip names only the order of that level', () => {
    const skipped: QuoteSkip[] = [
      { pair: 'BTC/USDC', side: 'SELL', level: 1, reason: 'balance of BTC cannot cover' },
    ];
    const [a] = reconcile(result([], skipped), [stray], RICH, PARAMS);
    expect(a).toEqual({ type: 'cancel', key: 's', reason: 'slot no longer desired' });
  });

  it('carries the skip reason on the cancel', () => {
    const skipped: QuoteSkip[] = [
      { pair: 'BTC/USDC', side: null, reason: 'no reference price: book is stale' },
    ];
    const [a] = reconcile(result([], skipped), [stray], RICH, PARAMS);
    expect(a).toEqual({ type: 'cancel', key: 's', reason: 'no reference price: book is stale' });
  });
});

describe('reconcile: an order far above the desired size goes at once (oversizeMultiple)', () => {
  const bidOf = (remaining: string) => own({ key: 'old', side: 'BUY', price: '99.9', remaining });
  const run = (multiple: number, remaining: string) =>
    show(reconcile(result([BID]), [bidOf(remaining)], RICH, { ...PARAMS, oversizeMultiple: multiple }));
  it.each([
    // The quote wants 1: more than twice that is cancelled now and the slot placed afresh.
    { multiple: 2, remaining: '2.01', actions: ['cancel old', 'place BTC/USDC:BUY:0 99.9@1 p10010000'] },
    // Exactly twice is not above it: replaced make before break, as any off-size order.
    { multiple: 2, remaining: '2', actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'] },
    { multiple: 0, remaining: '5', actions: ['place BTC/USDC:BUY:0 99.9@1 p10010000 replaces old'] },
    // Within the size tolerance (20 %): kept whatever the multiple; beyond it, cancelled at once.
    { multiple: 1, remaining: '1.2', actions: [] },
    { multiple: 1, remaining: '1.21', actions: ['cancel old', 'place BTC/USDC:BUY:0 99.9@1 p10010000'] },
  ])('multiple $multiple, remaining $remaining', ({ multiple, remaining, actions }) => {
    expect(run(multiple, remaining)).toEqual(actions);
  });

  it('says why it cancelled', () => {
    const plan = planReconcile(result([BID]), [bidOf('3')], RICH, { ...PARAMS, oversizeMultiple: 2 });
    expect(plan.actions[0]).toMatchObject({
      type: 'cancel',
      key: 'old',
      reason: 'oversize: more than 2 times the desired size',
    });
  });
});
