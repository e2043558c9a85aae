/**
 * The "exchanges" reference from config to the strategy: a config whose pair uses it gets an
 * ExchangesReference started with the market pollers; its readings reach the market state, and
 * the strategy's reference is their median. A config without it builds none.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import FakeTimers from '@sinonjs/fake-timers';
import { describe, expect, it } from 'vitest';

import { loadConfig } from '../../src/config/load.js';
import { fakeClock } from '../../src/core/clock.js';
import { createMarketFeed } from '../../src/daemon/market-feed.js';
import type { TickerExchange } from '../../src/market/reference/ticker-stream.js';
import { referencePrice } from '../../src/strategy/reference-price.js';
import { resolveStrategyParams } from '../../src/strategy/params.js';
import type { VenueClient } from '../../src/venue/client.js';
import { FakeVenue } from '../market/support/fake-venue.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-ref-'));

function configWith(strategy: unknown) {
  const file = path.join(dir, `c${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify({ pairs: ['BTC/USDC'], strategy }));
  return loadConfig({ configFiles: [file], env: {}, cwd: dir });
}

const prices: Record<string, number> = {
  'binance:BTC/USDT': 50_010,
  'binance:USDC/USDT': 1.0002,
  'kraken:BTC/USDC': 50_000,
  'coinbase:BTC/USDC': 50_004,
};
const scripted = async (id: string): Promise<TickerExchange> => ({
  id,
  has: {},
  loadMarkets: async () => ({}),
  fetchTicker: async (symbol) => ({ last: prices[`${id}:${symbol}`] }),
});

describe('createMarketFeed with an "exchanges" reference', () => {
  it('feeds the market state, and the strategy quotes off the median', async () => {
    const config = configWith({
      defaults: {
        reference: { source: 'exchanges' },
        exchanges: {
          minSources: 2,
          pollIntervalMs: 500,
          sources: [
            {
              exchange: 'binance',
              symbol: 'BTC/USDT',
              convert: { exchange: 'binance', symbol: 'USDC/USDT' },
            },
            { exchange: 'kraken', symbol: 'BTC/USDC' },
            { exchange: 'coinbase', symbol: 'BTC/USDC', weight: 2 },
          ],
        },
      },
    });
    const fake = FakeTimers.createClock(1_800_000_000_000);
    const clock = fakeClock(fake);
    const feed = createMarketFeed({
      config,
      venue: new FakeVenue(clock) as unknown as VenueClient,
      clock,
      onBalances: () => undefined,
      onError: () => undefined,
      exchanges: scripted,
    });
    expect(feed.reference).not.toBeNull();
    feed.pollers.start();
    await fake.tickAsync(1_000);
    const snap = feed.state.snapshot(clock.now());
    const market = snap.pairs['BTC/USDC']!;
    expect(market.sources?.map((s) => s.id)).toEqual([
      'binance:BTC/USDT',
      'kraken:BTC/USDC',
      'coinbase:BTC/USDC',
    ]);
    const params = resolveStrategyParams(config.strategy, config.pairs).pairs['BTC/USDC']!;
    const ref = referencePrice(market, [], params, clock.now());
    // binance 50010 / 1.0002 = 49999.99… (weight 1), kraken 50000 (1), coinbase 50004 (2): the
    // cumulative weight reaches half (2 of 4) at kraken, so the median is the mean of 50000 and 50004.
    expect(ref.ok && ref.ref.price.toFixed(2)).toBe('50002.00');
    const closing = feed.pollers.close();
    await fake.tickAsync(10_000);
    await closing;
  });

  it('builds nothing for a config without it', () => {
    const feed = createMarketFeed({
      config: configWith({}),
      venue: new FakeVenue(fakeClock(FakeTimers.createClock(0))) as unknown as VenueClient,
      clock: fakeClock(FakeTimers.createClock(0)),
      onBalances: () => undefined,
      onError: () => undefined,
    });
    expect(feed.reference).toBeNull();
  });
});
