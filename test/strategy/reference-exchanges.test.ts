/**
 * `reference.source: "exchanges"` in the strategy: the median of the market's source readings,
 * or no reference (the pair is not quoted) with the reason naming the sources; and the config
 * rule that a pair on "exchanges" lists at least minSources sources.
 */
import { describe, expect, it } from 'vitest';

import { strategyConfigIssues } from '../../src/config/sections/strategy-rules.js';
import type { SourceReading } from '../../src/market/reference/combine-sources.js';
import { referencePrice } from '../../src/strategy/reference-price.js';
import { NOW, d, defaultStrategyConfig, market, pairParams } from './support/fixtures.js';

const reading = (id: string, price: number, ageMs = 0): SourceReading => ({
  id,
  weight: 1,
  price: d(price),
  at: NOW - ageMs,
});
const p = pairParams({ reference: { source: 'exchanges' }, exchanges: { minSources: 2, maxAgeMs: 5_000 } });

describe('referencePrice from exchanges', () => {
  it.each([
    {
      name: 'the median of fresh sources, not the venue book (99/101)',
      sources: [reading('a', 200), reading('b', 200.4), reading('c', 200.2)],
      want: '200.2',
    },
    {
      name: 'a jumping source is left out',
      sources: [reading('a', 200), reading('b', 250), reading('c', 200.2)],
      want: '200.1',
    },
    {
      name: 'fewer than minSources fresh: not quoted, the reason names the sources',
      sources: [reading('a', 200, 6_000), reading('b', 200.4), reading('c', 230)],
      want: /^0 of 3 reference sources usable, need 2: a is stale \(6\.0 s old\); b is an outlier/,
    },
    { name: 'no sources at all', sources: [], want: /^no reference sources$/ },
  ])('$name', ({ sources, want }) => {
    const r = referencePrice(market({ sources }), [], p, NOW);
    if (typeof want === 'string') {
      expect(r.ok && r.ref.price.toFixed()).toBe(want);
      expect(r.ok && r.ref.source).toBe('exchanges');
    } else expect(r.ok ? 'ok' : r.reason).toMatch(want);
  });
});

describe('the exchanges config rule', () => {
  it('a pair on "exchanges" needs at least minSources sources', () => {
    const cfg = defaultStrategyConfig();
    const bad = {
      ...cfg,
      defaults: { ...cfg.defaults, reference: { ...cfg.defaults.reference, source: 'exchanges' as const } },
    };
    expect(strategyConfigIssues(bad, ['BTC/USDC']).map((i) => i.key)).toEqual([
      'strategy.defaults.exchanges.sources',
    ]);
    const good = {
      ...bad,
      defaults: {
        ...bad.defaults,
        exchanges: {
          ...bad.defaults.exchanges,
          sources: [
            { exchange: 'binance', symbol: 'BTC/USDT' },
            { exchange: 'kraken', symbol: 'BTC/USD' },
          ],
        },
      },
    };
    expect(strategyConfigIssues(good, ['BTC/USDC'])).toEqual([]);
  });
});
