import { describe, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { MarketState } from '../../src/market/market-state.js';
import { PAIRS, account, book, trade } from './support/fake-venue.js';
import { own } from '../strategy/support/fixtures.js';

const T0 = 1_700_000_000_000;

function state(over: Partial<ConstructorParameters<typeof MarketState>[0]> = {}): MarketState {
  return new MarketState({ pairs: ['BTC/USDC', 'ETH/USDC'], ...over });
}

describe('MarketState', () => {
  it('reports a configured pair only once GET /pairs has listed it, with its metadata as Dec', () => {
    const s = state();
    s.applyBook('BTC/USDC', book('BTC/USDC', 1), T0);
    expect(s.snapshot(T0).pairs).toEqual({});

    s.applyPairs(PAIRS, T0 + 1);
    const snap = s.snapshot(T0 + 2);
    expect(Object.keys(snap.pairs)).toEqual(['BTC/USDC', 'ETH/USDC']); // SOL/USDC is not configured
    const btc = snap.pairs['BTC/USDC']!;
    expect(btc.base).toBe('BTC');
    expect(btc.quote).toBe('USDC');
    expect(btc.minQuoteAmount).toBeInstanceOf(Dec);
    expect(btc.minQuoteAmount!.toFixed()).toBe('10');
    expect(snap.pairs['ETH/USDC']!.minQuoteAmount).toBeNull();
    // The book polled before the pairs were known is kept.
    expect(btc.book?.sequence).toBe(1);
    expect(snap.now).toBe(T0 + 2);
  });

  it('lists configured pairs the venue does not', () => {
    const s = new MarketState({ pairs: ['BTC/USDC', 'DOGE/USDC'] });
    expect(s.unlistedPairs).toEqual([]);
    s.applyPairs(PAIRS, T0);
    expect(s.unlistedPairs).toEqual(['DOGE/USDC']);
  });

  it('converts a book at the boundary: Dec levels, sequence, receivedAt', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    expect(s.applyBook('BTC/USDC', book('BTC/USDC', 7, '100.123456789', '100.2'), T0 + 500)).toBe('applied');
    const b = s.snapshot(T0 + 600).pairs['BTC/USDC']!.book!;
    expect(b.receivedAt).toBe(T0 + 500);
    expect(b.sequence).toBe(7);
    expect(b.bids.map((l) => [l.price.toFixed(), l.quantity.toFixed()])).toEqual([
      ['100.123456789', '1.25'],
      ['100', '3'],
    ]);
    expect(b.asks[0]!.price).toBeInstanceOf(Dec);
    expect(b.asks[0]!.price.toFixed()).toBe('100.2');
  });

  it.each([
    {
      name: 'the same levels (a new poll, new objects): the parsed levels and the mid are reused',
      bid: '100.5',
      qty: '1.25',
      reused: true,
    },
    { name: 'a price changed: parsed afresh', bid: '100.6', qty: '1.25', reused: false },
    { name: 'a quantity changed: parsed afresh', bid: '100.5', qty: '1.5', reused: false },
  ])('polls the book again with $name', ({ bid, qty, reused }) => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    s.applyBook('BTC/USDC', book('BTC/USDC', 4), T0 + 1_000);
    const first = s.snapshot(T0 + 1_000).pairs['BTC/USDC']!;
    const again = book('BTC/USDC', 5, bid);
    again.bids[0] = [bid, qty];
    expect(s.applyBook('BTC/USDC', again, T0 + 2_500)).toBe('applied');
    const second = s.snapshot(T0 + 2_500).pairs['BTC/USDC']!;
    // Stamped with this poll either way.
    expect(second.book!.receivedAt).toBe(T0 + 2_500);
    expect(second.book!.sequence).toBe(5);
    expect(second.book!.bids[0]!.price.toFixed()).toBe(bid);
    expect(second.book!.bids[0]!.quantity.toFixed()).toBe(qty);
    expect(second.mids).toHaveLength(2);
    expect(second.mids![1]!.at).toBe(T0 + 2_500);
    expect(second.mids![1]!.price.toFixed()).toBe(new Dec(bid).plus('101.5').div(2).toFixed());
    expect(second.book!.bids === first.book!.bids).toBe(reused);
    expect(second.book!.asks === first.book!.asks).toBe(reused);
    expect(second.mids![1]!.price === first.mids![0]!.price).toBe(reused);
  });

  it('drops a book older than the one held but records the poll as a success', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    s.applyBook('BTC/USDC', book('BTC/USDC', 9), T0 + 1_000);
    expect(s.applyBook('BTC/USDC', book('BTC/USDC', 8, '1', '2'), T0 + 2_000)).toBe('out-of-order');
    const b = s.snapshot(T0 + 2_000).pairs['BTC/USDC']!.book!;
    expect(b.sequence).toBe(9);
    expect(b.receivedAt).toBe(T0 + 1_000); // staleness still shows
    expect(s.lastSuccessAt('book:BTC/USDC')).toBe(T0 + 2_000);
    expect(s.stats.booksOutOfOrder).toBe(1);
    // An equal sequence refreshes the time.
    expect(s.applyBook('BTC/USDC', book('BTC/USDC', 9), T0 + 3_000)).toBe('applied');
    expect(s.snapshot(T0 + 3_000).pairs['BTC/USDC']!.book!.receivedAt).toBe(T0 + 3_000);
    expect(s.applyBook('XRP/USDC', book('XRP/USDC', 1), T0)).toBe('unknown-pair');
  });

  it('keeps a bounded mid history, oldest first', () => {
    const s = state({ mids: { keepMs: 10_000, maxSamples: 3 } });
    s.applyPairs(PAIRS, T0);
    for (let i = 0; i < 5; i++)
      s.applyBook('BTC/USDC', book('BTC/USDC', i + 1, `${100 + i}`, `${102 + i}`), T0 + i * 1_000);
    const mids = s.snapshot(T0 + 5_000).pairs['BTC/USDC']!.mids!;
    expect(mids.map((m) => [m.at - T0, m.price.toFixed()])).toEqual([
      [2_000, '103'],
      [3_000, '104'],
      [4_000, '105'],
    ]);
    // A one-sided book gives no mid.
    s.applyBook('BTC/USDC', { ...book('BTC/USDC', 10), asks: [] }, T0 + 6_000);
    expect(s.snapshot(T0 + 6_000).pairs['BTC/USDC']!.mids!).toHaveLength(3);
  });

  it("keeps the time of the run's first mid after the history has dropped it (midsSince)", () => {
    const s = state({ mids: { keepMs: 2_000, maxSamples: 10 } });
    s.applyPairs(PAIRS, T0);
    expect(s.snapshot(T0).pairs['BTC/USDC']!.midsSince).toBeUndefined();
    // A one-sided book has no mid: the first mid is the next poll's.
    s.applyBook('BTC/USDC', { ...book('BTC/USDC', 1), asks: [] }, T0 + 500);
    expect(s.snapshot(T0 + 500).pairs['BTC/USDC']!.midsSince).toBeUndefined();
    for (let i = 0; i < 5; i++) s.applyBook('BTC/USDC', book('BTC/USDC', i + 2), T0 + 1_000 * (i + 1));
    const btc = s.snapshot(T0 + 5_000).pairs['BTC/USDC']!;
    expect(btc.mids![0]!.at).toBe(T0 + 3_000);
    expect(btc.midsSince).toBe(T0 + 1_000);
  });

  describe('the mid history without the own orders (mids.ownOrders)', () => {
    // The book's best bid 100.5 × 1.25 is ours in full, its best ask 101.5 × 0.75 ours for 0.5.
    const mine = [
      own({ pair: 'BTC/USDC', side: 'BUY', price: '100.5', remaining: '1.25' }),
      own({ pair: 'BTC/USDC', side: 'SELL', price: '101.5', remaining: '0.5' }),
    ];
    const midsOf = (ownOrders: 'include' | 'exclude', wire: boolean): string[] => {
      const s = state({ mids: { keepMs: 60_000, maxSamples: 10, ownOrders } });
      if (wire) s.useOwnOrders(() => mine);
      s.applyPairs(PAIRS, T0);
      s.applyBook('BTC/USDC', book('BTC/USDC', 1), T0 + 1_000);
      s.applyBook('ETH/USDC', book('ETH/USDC', 1), T0 + 1_000);
      const pairs = s.snapshot(T0 + 2_000).pairs;
      return [pairs['BTC/USDC']!.mids![0]!.price.toFixed(), pairs['ETH/USDC']!.mids![0]!.price.toFixed()];
    };
    it.each([
      // Without ours the best bid is the next level, 100: (100 + 101.5) / 2. ETH has no own order.
      { ownOrders: 'exclude' as const, wire: true, mids: ['100.75', '101'] },
      { ownOrders: 'include' as const, wire: true, mids: ['101', '101'] },
      // No source of own orders yet (before the engine exists): the polled book's mid.
      { ownOrders: 'exclude' as const, wire: false, mids: ['101', '101'] },
    ])('$ownOrders, own orders wired: $wire', ({ ownOrders, wire, mids }) => {
      expect(midsOf(ownOrders, wire)).toEqual(mids);
    });
  });

  it('de-duplicates trades by tradeId into a bounded window, newest first', () => {
    const s = state({ tradesKeep: 4 });
    s.applyPairs(PAIRS, T0);
    expect(s.applyTrades('BTC/USDC', [trade(3, T0 + 3), trade(2, T0 + 2), trade(1, T0 + 1)], T0 + 10)).toBe(
      3,
    );
    expect(s.applyTrades('BTC/USDC', [trade(5, T0 + 5), trade(4, T0 + 4), trade(3, T0 + 3)], T0 + 20)).toBe(
      2,
    );
    expect(s.applyTrades('BTC/USDC', [trade(5, T0 + 5), trade(4, T0 + 4)], T0 + 30)).toBe(0);
    const trades = s.snapshot(T0 + 30).pairs['BTC/USDC']!.trades;
    expect(trades.map((t) => t.tradeId)).toEqual(['t5', 't4', 't3', 't2']);
    expect(trades[0]!.price.toFixed()).toBe('101');
    expect(trades[0]!.at).toBe(T0 + 5);
    expect(s.stats.tradesAdded).toBe(5);
    expect(s.lastSuccessAt('trades:BTC/USDC')).toBe(T0 + 30);
  });

  it('drops trades whose executedAt cannot be parsed', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    const bad = { ...trade(9, T0), executedAt: 'yesterday' };
    expect(s.applyTrades('BTC/USDC', [bad, trade(1, T0)], T0)).toBe(1);
    expect(s.stats.tradesUnparseable).toBe(1);
  });

  it('converts balances and the account', () => {
    const s = state();
    expect(s.snapshot(T0).balances).toBeNull();
    expect(s.snapshot(T0).account).toBeNull();
    s.applyBalances([{ instrument: 'USDC', available: '1000.50', locked: '20' }], T0 + 1);
    s.applyAccount(account({ status: 'ACTIVE' }), T0 + 2);
    const snap = s.snapshot(T0 + 3);
    expect(snap.balances!['USDC']!.available.toFixed()).toBe('1000.5');
    expect(snap.balances!['USDC']!.locked.toFixed()).toBe('20');
    expect(snap.balancesAt).toBe(T0 + 1);
    expect(snap.account).toEqual({
      status: 'ACTIVE',
      maxOpenOrders: 50,
      ordersPerMinute: 60,
      clientOrderIdPrefix: 'testmm-',
      readAt: T0 + 2,
      authFailing: false,
    });
  });

  it('marks authFailing on a 401 and clears it on the next authenticated success', () => {
    const s = state();
    s.recordAuthFailure();
    expect(s.authFailing).toBe(true);
    expect(s.snapshot(T0).account).toBeNull(); // never read: nothing to report but the flag
    s.applyAccount(account(), T0);
    expect(s.authFailing).toBe(false);
    s.recordAuthFailure();
    expect(s.snapshot(T0 + 1).account!.authFailing).toBe(true);
    expect(s.snapshot(T0 + 1).account!.readAt).toBe(T0); // the last good read
    s.applyBalances([], T0 + 2);
    expect(s.authFailing).toBe(false);
    expect(s.snapshot(T0 + 2).account!.authFailing).toBe(false);
  });

  it('marks the account suspended on 403 MARKET_MAKER_SUSPENDED until the next account read', () => {
    const s = state();
    s.applyAccount(account(), T0);
    s.recordSuspended();
    expect(s.snapshot(T0).account!.status).toBe('SUSPENDED');
    s.applyAccount(account(), T0 + 1);
    expect(s.snapshot(T0 + 1).account!.status).toBe('ACTIVE');
  });

  it('assembles immutable snapshots that share unchanged pairs', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    s.applyBook('BTC/USDC', book('BTC/USDC', 1), T0);
    s.applyBook('ETH/USDC', book('ETH/USDC', 1), T0);
    const a = s.snapshot(T0);
    s.applyBook('BTC/USDC', book('BTC/USDC', 2), T0 + 1_000);
    const b = s.snapshot(T0 + 1_000);
    expect(b.pairs['ETH/USDC']).toBe(a.pairs['ETH/USDC']);
    expect(b.pairs['BTC/USDC']).not.toBe(a.pairs['BTC/USDC']);
    expect(a.pairs['BTC/USDC']!.book!.sequence).toBe(1); // the older snapshot did not change
    expect(Object.isFrozen(a)).toBe(true);
    expect(Object.isFrozen(a.pairs)).toBe(true);
    expect(Object.isFrozen(a.pairs['BTC/USDC'])).toBe(true);
    expect(Object.isFrozen(a.pairs['BTC/USDC']!.book!.bids)).toBe(true);
    expect(Object.isFrozen(a.pairs['BTC/USDC']!.trades)).toBe(true);
    expect(() => {
      (a.pairs as Record<string, unknown>)['X'] = 1;
    }).toThrow(TypeError);
  });

  it('lists the last success of every expected source', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    s.applyBook('ETH/USDC', book('ETH/USDC', 1), T0 + 5);
    expect(s.lastSuccesses()).toEqual({
      pairs: T0,
      account: null,
      balances: null,
      'book:BTC/USDC': null,
      'trades:BTC/USDC': null,
      'book:ETH/USDC': T0 + 5,
      'trades:ETH/USDC': null,
    });
  });

  it('carries an external reference price when set', () => {
    const s = state();
    s.applyPairs(PAIRS, T0);
    s.setExternal('BTC/USDC', { price: new Dec('100.25'), at: T0 });
    expect(s.snapshot(T0).pairs['BTC/USDC']!.external!.price.toFixed()).toBe('100.25');
    s.setExternal('BTC/USDC', null);
    expect(s.snapshot(T0).pairs['BTC/USDC']!.external).toBeNull();
  });
});
