/** The risk gate's inputs from the positions: inventory, and PnL only where it is known. */
import { describe, expect, it } from 'vitest';
import { ZERO, dec } from '../../src/core/decimal.js';
import { Inventory, type PairInventory } from '../../src/execution/inventory.js';
import type { MarketSnapshot } from '../../src/market/market-snapshot.js';
import { Positions, realised, riskInputs, type PairPosition } from '../../src/portfolio/pnl.js';

describe('the risk inputs from positions', () => {
  const position = (base: string, quote: string, mark: string | null, pnl: string): PairPosition => ({
    pair: 'BTC/USDC',
    base: dec(base),
    quote: dec(quote),
    mark: mark === null ? null : dec(mark),
    pnl: dec(pnl),
    realised: ZERO,
    cost: { averagePrice: null, realised: ZERO, unrealised: ZERO },
    fills: 1,
  });

  it.each<{ name: string; p: PairPosition; pnl: string | null }>([
    { name: 'marked', p: position('0.5', '-30000', '61000', '500'), pnl: '500' },
    { name: 'flat, no mark: the quote flow is the PnL', p: position('0', '12.5', null, '12.5'), pnl: '12.5' },
    { name: 'a position with no mark: not known', p: position('0.5', '-30000', null, '-30000'), pnl: null },
  ])('$name', ({ p, pnl }) => {
    const r = riskInputs([p]);
    expect(r.inventory['BTC/USDC']!.toFixed()).toBe(p.base.toFixed());
    expect(r.pnl['BTC/USDC'] === null ? null : r.pnl['BTC/USDC']!.toFixed()).toBe(pnl);
  });
});

describe('positions with the hedge venue (the firm net position)', () => {
  const snap = (): MarketSnapshot => ({
    now: 0,
    pairs: {},
    balances: null,
    balancesAt: null,
    account: null,
  });
  const bought = Inventory.fromFills([
    { pair: 'BTC/USDC', side: 'BUY', price: dec('100'), quantity: dec('2') },
  ]);
  const refs = { 'BTC/USDC': { price: dec('110') } };

  it("adds the hedge venue's base and quote flow: the inventory guard and the PnL read the net", () => {
    const alone = new Positions(['BTC/USDC']).compute(bought, snap(), refs)[0]!;
    expect([alone.base.toFixed(), alone.pnl.toFixed()]).toEqual(['2', '20']);
    // The hedge sold the 2 at 100.5, paying 0.2 in fees: flat, the revaluation gone.
    const hedged = new Positions(
      ['BTC/USDC'],
      () => [],
      () => ({
        'BTC/USDC': { base: dec('-2'), quote: dec('200.8') },
      }),
    ).compute(bought, snap(), refs)[0]!;
    expect([hedged.base.toFixed(), hedged.quote.toFixed(), hedged.pnl.toFixed()]).toEqual([
      '0',
      '0.8',
      '0.8',
    ]);
    expect(riskInputs([hedged]).inventory['BTC/USDC']!.toFixed()).toBe('0');
    expect(hedged.fills).toBe(1);
  });
});

describe('realised PnL of an inventory', () => {
  const inventory = (
    bought: string,
    buyNotional: string,
    sold: string,
    sellNotional: string,
  ): PairInventory =>
    ({
      pair: 'BTC/USDC',
      base: dec(bought).minus(dec(sold)),
      quote: dec(sellNotional).minus(dec(buyNotional)),
      bought: dec(bought),
      sold: dec(sold),
      buyNotional: dec(buyNotional),
      sellNotional: dec(sellNotional),
      fills: 2,
    }) as PairInventory;

  it('is the matched quantity times the average sell minus the average buy, asked again or changed', () => {
    const inv = inventory('2', '200', '1', '110');
    expect(realised(inv).toFixed()).toBe('10');
    expect(realised(inv).toFixed()).toBe('10');
    expect(realised(inventory('2', '200', '3', '360')).toFixed()).toBe('40');
    // A field replaced in place is seen (readonly by contract only).
    (inv as { sellNotional: unknown }).sellNotional = dec('90');
    expect(realised(inv).toFixed()).toBe('-10');
    expect(realised(inventory('0', '0', '1', '110')).toFixed()).toBe('0');
  });
});
