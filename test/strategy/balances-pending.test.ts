import { describe, expect, it } from 'vitest';

import type { DeepPartial, PairStrategyConfig } from '../../src/config/sections/strategy.js';
import { BALANCES_PENDING, type OwnOrderView, type WalletInput } from '../../src/market/market-snapshot.js';
import type { ReconcileParams } from '../../src/strategy/params.js';
import { planReconcile } from '../../src/strategy/reconciler.js';
import { computeQuotes } from '../../src/strategy/strategy.js';
import { BALANCED } from './support/strategy-cases.js';
import { PAIR, bal, market, own, params, show, snapshot } from './support/fixtures.js';

/**
 * The provisional plan of the startup (`execution.prepareBeforeBalances`): while GET /balances is
 * still being read the strategy plans with `BALANCES_PENDING` — as if the holdings sat at their
 * target (no skew, no hard inventory gate, no size skew) and without a funds check — and the
 * reconciler places without one. Unknown balances (null) still plan nothing.
 */

function quotes(balances: WalletInput, over: DeepPartial<PairStrategyConfig> = {}) {
  return computeQuotes(snapshot([market()], null), [], balances, params({ [PAIR]: over }));
}

describe('computeQuotes with the balances pending', () => {
  it.each<{
    name: string;
    over?: DeepPartial<PairStrategyConfig>;
    real: Record<string, ReturnType<typeof bal>>;
  }>([
    // Long base: the real plan skews both quotes down; pending plans them as balanced.
    { name: 'long base: no skew', real: { BTC: bal('1.5'), USDC: bal(100) } },
    { name: 'short base: no skew', real: { BTC: bal('0.6'), USDC: bal(100) } },
    // At maxBase the real plan quotes the SELL alone; pending quotes both sides.
    { name: 'at maxBase: no inventory gate', over: { inventory: { maxBase: '1' } }, real: BALANCED },
    // The size skew shrinks the side that adds to the position; pending sizes both in full.
    {
      name: 'long with a size skew: full sizes',
      over: { inventory: { sizeSkew: 0.8 } },
      real: { BTC: bal('1.5'), USDC: bal(100) },
    },
  ])('$name: the quotes of balanced holdings, where the real plan differs', ({ over, real }) => {
    const pending = quotes(BALANCES_PENDING, over);
    const balanced = quotes(BALANCED, { ...over, inventory: { ...over?.inventory, maxBase: '' } });
    expect(show(pending.quotes)).toEqual(show(balanced.quotes));
    expect(show(quotes(real, over).quotes)).not.toEqual(show(pending.quotes));
    expect(pending.provisional).toBe(true);
  });

  it('allocates no funds: an empty wallet quotes nothing, pending quotes both sides', () => {
    const empty = quotes({ BTC: bal(0), USDC: bal(0) });
    expect(empty.quotes).toEqual([]);
    expect(empty.skipped.map((s) => s.reason)).toContainEqual(expect.stringMatching(/no BTC and no USDC/));
    const pending = quotes(BALANCES_PENDING);
    expect(pending.quotes.map((q) => q.side)).toEqual(['BUY', 'SELL']);
    expect(quotes(BALANCED).provisional).toBeUndefined();
  });

  it('unknown balances (null) still quote nothing and keep the orders', () => {
    const r = quotes(null);
    expect(r.quotes).toEqual([]);
    expect(r.provisional).toBeUndefined();
    expect(r.skipped).toContainEqual({ pair: PAIR, side: null, reason: 'no balances yet', keepOrders: true });
  });
});

describe('planReconcile with the balances pending', () => {
  const PARAMS: ReconcileParams = {
    priceToleranceBps: 5,
    sizeTolerancePct: 20,
    oversizeMultiple: 0,
    maxOrderAgeMs: 60_000,
    ordersPerSlot: 2,
  };
  const plan = (balances: WalletInput, ownOrders: OwnOrderView[] = []) =>
    planReconcile(quotes(BALANCES_PENDING), ownOrders, balances, PARAMS);
  const placed = (p: ReturnType<typeof plan>): string[] =>
    p.actions.flatMap((a) => (a.type === 'place' ? [`${a.quote.slot} ${a.reason}`] : []));

  it.each<{ name: string; balances: WalletInput; places: string[]; deferred: string[] }>([
    {
      name: 'pending: every missing slot placed, no funds check',
      balances: BALANCES_PENDING,
      places: ['BTC/USDC:BUY:0 missing', 'BTC/USDC:SELL:0 missing'],
      deferred: [],
    },
    {
      name: 'an empty wallet: nothing placed, every slot deferred for funds',
      balances: { BTC: bal(0), USDC: bal(0) },
      places: [],
      deferred: ['USDC balance does not cover the order', 'BTC balance does not cover the order'],
    },
    {
      name: 'unknown (null): nothing placed',
      balances: null,
      places: [],
      deferred: ['balances unknown', 'balances unknown'],
    },
  ])('$name', ({ balances, places, deferred }) => {
    const p = plan(balances);
    expect(placed(p)).toEqual(places);
    expect(p.deferred.map((x) => x.reason)).toEqual(deferred);
  });

  it('pending: an order the recovery found is kept when it fits, and never placed twice', () => {
    const [bid] = quotes(BALANCES_PENDING).quotes.filter((q) => q.side === 'BUY');
    const resting = own({ key: 'recovered', side: 'BUY', price: bid!.price, remaining: bid!.quantity });
    const p = plan(BALANCES_PENDING, [resting]);
    expect(p.kept).toEqual(['recovered']);
    expect(placed(p)).toEqual(['BTC/USDC:SELL:0 missing']);
    expect(p.actions.filter((a) => a.type === 'cancel')).toEqual([]);
  });
});
