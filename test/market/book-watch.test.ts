/** The book watch: a book that polls fine but no longer moves is proven stale. */
import { describe, expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { BookWatch, CLOCK_MARGIN_MS } from '../../src/market/book-watch.js';
import { PAIR, snapshot } from '../support/btc-market.js';

describe('the book watch', () => {
  it('proves a frozen book stale from a later trade, and clears on a new sequence', () => {
    const w = new BookWatch();
    w.observe(snapshot(1_000, { book: { ...PAIR.book!, sequence: 7, receivedAt: 1_000 } }));
    const trade = { tradeId: 't', price: dec('1'), quantity: dec('1'), at: 1_000 + CLOCK_MARGIN_MS + 1 };
    const frozen = { book: { ...PAIR.book!, sequence: 7, receivedAt: 9_000 }, trades: [trade] };
    w.observe(snapshot(9_000, frozen));
    expect(w.stale(9_000 + 5_000, 5_000)).toEqual([]);
    const stale = w.stale(9_000 + 5_001, 5_000);
    expect(stale.map((s) => [s.pair, s.since])).toEqual([['BTC/USDC', 1_000]]);
    const adjusted = w.adjust(snapshot(14_001, frozen), stale);
    expect(adjusted.pairs['BTC/USDC']!.book!.receivedAt).toBe(1_000);
    w.observe(snapshot(15_000, { book: { ...PAIR.book!, sequence: 8, receivedAt: 15_000 } }));
    expect(w.stale(30_000, 5_000)).toEqual([]);
  });

  it('takes our own rested orders and committed cancels as proof, but not changes older than the sequence', () => {
    const w = new BookWatch();
    w.observe(snapshot(10_000, { book: { ...PAIR.book!, sequence: 3, receivedAt: 10_000 } }));
    w.changedAfter('BTC/USDC', 9_000, 12_000, 'old');
    expect(w.stale(60_000, 5_000)).toEqual([]);
    w.changedAfter('BTC/USDC', 12_000, 13_000, 'our order rested');
    expect(w.stale(18_001, 5_000).map((s) => s.proof)).toEqual(['our order rested']);
  });
});
