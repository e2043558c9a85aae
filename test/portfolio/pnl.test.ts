/** The risk gate's inputs from the positions: inventory, and PnL only where it is known. */
import { describe, expect, it } from 'vitest';
import { ZERO, dec } from '../../src/core/decimal.js';
import { riskInputs, type PairPosition } from '../../src/portfolio/pnl.js';

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
