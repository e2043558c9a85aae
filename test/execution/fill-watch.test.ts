import { describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import { FillWatch } from '../../src/execution/fill-watch.js';
import { Inventory } from '../../src/execution/inventory.js';

const fill = (side: 'BUY' | 'SELL', quantity: string) => ({
  pair: 'BTC/USDC',
  side,
  price: new Dec(100),
  quantity: new Dec(quantity),
});

describe('FillWatch', () => {
  it('stamps a side when its total grows, not fills from before the first pass', () => {
    const inv = Inventory.fromFills([fill('BUY', '1')]);
    const w = new FillWatch();
    expect(w.observe(inv, 1_000)).toEqual({});
    inv.apply(fill('SELL', '0.5'));
    expect(w.observe(inv, 2_000)).toEqual({ 'BTC/USDC:SELL': 2_000 });
    inv.apply(fill('BUY', '0.1'));
    expect(w.observe(inv, 3_000)).toEqual({ 'BTC/USDC:SELL': 2_000, 'BTC/USDC:BUY': 3_000 });
    expect(w.observe(inv, 4_000)).toEqual({ 'BTC/USDC:SELL': 2_000, 'BTC/USDC:BUY': 3_000 });
  });

  it('a pair that fills for the first time after the start is stamped', () => {
    const inv = new Inventory();
    const w = new FillWatch();
    w.observe(inv, 0);
    inv.apply(fill('BUY', '1'));
    expect(w.observe(inv, 5)).toEqual({ 'BTC/USDC:BUY': 5 });
  });
});
