import { expect, it } from 'vitest';
import { dec } from '../../src/core/decimal.js';
import { CostBook, type CostRecord } from '../../src/portfolio/cost-book.js';

const rec = (seq: number, pair: string, side: string, price: string, qty: string): CostRecord => ({
  seq,
  pair,
  side,
  price: dec(price),
  delta: dec(qty),
});

it('folds the stored fills after the last one read, once each, per pair, and waits out a closed journal', () => {
  const stored = [rec(1, 'BTC/USDC', 'BUY', '100', '1'), rec(2, 'ETH/USDC', 'SELL', '10', '2')];
  const asked: number[] = [];
  const source = (after: number): CostRecord[] => {
    asked.push(after);
    return stored.filter((r) => r.seq > after);
  };
  const book = new CostBook();
  book.catchUp(source);
  stored.push(rec(3, 'BTC/USDC', 'BUY', '110', '1'));
  book.catchUp(source);
  book.catchUp(() => {
    throw new Error('journal closed');
  });
  book.catchUp(source);
  expect(asked).toEqual([0, 2, 3]);
  expect(book.get('BTC/USDC').position.toFixed()).toBe('2');
  expect(book.get('BTC/USDC').averagePrice?.toFixed()).toBe('105');
  expect(book.get('ETH/USDC').averagePrice?.toFixed()).toBe('10');
  expect(book.get('SOL/USDC').averagePrice).toBeNull();
});
