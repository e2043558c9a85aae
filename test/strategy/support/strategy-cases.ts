import { expect } from 'vitest';

import type { DeepPartial, PairStrategyConfig } from '../../../src/config/sections/strategy.js';
import type { BalanceView, OwnOrderView, PairMarket } from '../../../src/market/market-snapshot.js';
import { computeQuotes } from '../../../src/strategy/strategy.js';
import { PAIR, bal, market, params, show, snapshot } from './fixtures.js';

/** The table runner of the `computeQuotes` tests: one pair, BTC/USDC, mid 100 by default. */

/** Balanced by default: 1 BTC and 100 USDC at 100 is a base share of 0.5 (no skew). */
export const BALANCED = { BTC: bal(1), USDC: bal(100) };

export type Case = {
  name: string;
  over?: DeepPartial<PairStrategyConfig>;
  market?: Partial<PairMarket>;
  balances?: Record<string, BalanceView> | null;
  own?: OwnOrderView[];
  quotes: string[];
  skipped?: RegExp[];
};

export function run(c: Omit<Case, 'name' | 'quotes'>) {
  const balances = c.balances === undefined ? BALANCED : c.balances;
  return computeQuotes(
    snapshot([market(c.market)], balances),
    c.own ?? [],
    balances,
    params({ [PAIR]: c.over ?? {} }),
  );
}

export function check(c: Case): void {
  const r = run(c);
  expect(show(r.quotes)).toEqual(c.quotes);
  for (const re of c.skipped ?? [])
    expect(r.skipped.map((s) => s.reason)).toContainEqual(expect.stringMatching(re));
}
