/**
 * The firm's net position in the strategy (`MarketSnapshot.hedge`): the skew reads this venue's
 * holdings plus the hedge venue's, and the hedge gate stops or widens the side that would add to
 * the unhedged position while the hedge venue fails.
 */
import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import type { MarketSnapshot, WalletInput } from '../../src/market/market-snapshot.js';
import type { HedgeOffset } from '../../src/market/net-position.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { BALANCED } from '../strategy/support/strategy-cases.js';
import { PAIR, bal, market, params, snapshot } from '../strategy/support/fixtures.js';

const d = (x: string | number): Dec => new Dec(x);
// Bought 0.5 BTC for 50 USDC from the balanced 1 BTC and 100 USDC.
const LONG = { BTC: bal('1.5'), USDC: bal(50) };

function quotes(balances: WalletInput, hedge?: HedgeOffset) {
  const snap: MarketSnapshot = {
    ...snapshot([market()], null),
    ...(hedge === undefined ? {} : { hedge: { [PAIR]: hedge } }),
  };
  return computeQuotes(snap, [], balances, params({ [PAIR]: { inventory: { maxSkewBps: 30 } } }));
}
const prices = (r: ReturnType<typeof quotes>): string[] =>
  r.quotes.map((q) => `${q.side} ${q.level} ${q.price.toFixed()}`);

describe('the net position in the strategy', () => {
  it('skews by this venue plus the hedge venue: long here, short as much there, is flat', () => {
    const flat = prices(quotes(BALANCED));
    expect(prices(quotes(LONG))).not.toEqual(flat); // long on this venue alone: skewed
    // The hedge sold the 0.5 BTC (for 50 USDC at the reference of 100).
    expect(prices(quotes(LONG, { base: d('-0.5'), quote: d(50) }))).toEqual(flat);
  });

  it('stops the side the gate shuts, with its reason, and quotes the other', () => {
    const gate = {
      BUY: { quote: false, widenBps: 0, reason: 'hedge-venue-failing' as const },
      SELL: { quote: true, widenBps: 0, reason: null },
    };
    const r = quotes(BALANCED, { base: d(0), quote: d(0), gate });
    expect(r.quotes.map((q) => q.side)).toEqual(r.quotes.map(() => 'SELL'));
    expect(r.quotes.length).toBeGreaterThan(0);
    expect(r.skipped).toContainEqual({ pair: PAIR, side: 'BUY', reason: 'hedge-venue-failing' });
  });

  it('widens the side the gate widens, and leaves the other', () => {
    const open = quotes(BALANCED);
    const gate = {
      BUY: { quote: true, widenBps: 50, reason: 'hedge-venue-failing' as const },
      SELL: { quote: true, widenBps: 0, reason: null },
    };
    const widened = quotes(BALANCED, { base: d(0), quote: d(0), gate });
    const best = (r: ReturnType<typeof quotes>, side: 'BUY' | 'SELL') =>
      r.quotes.find((q) => q.side === side && q.level === 0)!.price;
    expect(best(widened, 'BUY').lt(best(open, 'BUY'))).toBe(true);
    expect(best(widened, 'SELL').toFixed()).toBe(best(open, 'SELL').toFixed());
  });
});
