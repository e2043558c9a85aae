import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import FakeTimers from '@sinonjs/fake-timers';
import { fakeClock, systemClock, type Clock } from '../../src/core/clock.js';
import { defaultsOf } from '../../src/config/define.js';
import { marketSchema, type MarketConfig } from '../../src/config/sections/market.js';
import { MarketPollers, type MarketVenue } from '../../src/market/market-pollers.js';
import type { VenueClient } from '../../src/venue/client.js';
import { createLiveVenueClient } from '../../src/venue/live-client.js';
import { startSimHarness, type SimHarness } from '../support/sim-harness.js';

/**
 * The pollers against the simulated venue over real HTTP, on the system clock: the wire shapes
 * of the real endpoints go through the venue client's schemas and into the snapshot.
 */

const DEFAULTS = defaultsOf(marketSchema) as unknown as MarketConfig;

/**
 * Records when each call started (clock ms), per method and pair, and waits for the calls in
 * flight: the clock is fake, the HTTP is real, so time moves only between calls.
 */
function recording(
  client: VenueClient,
  clock: Clock,
): { venue: MarketVenue; starts: Map<string, number[]>; settled: () => Promise<void> } {
  const starts = new Map<string, number[]>();
  let inFlight = 0;
  const note = <T>(key: string, call: () => Promise<T>): Promise<T> => {
    const list = starts.get(key) ?? [];
    list.push(clock.now());
    starts.set(key, list);
    inFlight += 1;
    return call().finally(() => (inFlight -= 1));
  };
  const venue: MarketVenue = {
    getOrderBook: (pair, query, opts) => note(`book:${pair}`, () => client.getOrderBook(pair, query, opts)),
    getTrades: (query, opts) => note(`trades:${query?.pair ?? ''}`, () => client.getTrades(query, opts)),
    getBalances: (opts) => note('balances', () => client.getBalances(opts)),
    getAccount: (opts) => note('account', () => client.getAccount(opts)),
    getPairs: (opts) => note('pairs', () => client.getPairs(opts)),
  };
  /** Bounded: at most 5 s of real time for the loopback calls in flight to answer. */
  const settled = async (): Promise<void> => {
    for (let i = 0; i < 1_000 && inFlight > 0; i++) await delay(5);
    expect(inFlight).toBe(0);
    await delay(0);
  };
  return { venue, starts, settled };
}

describe('MarketPollers over HTTP against the simulated venue', () => {
  let h: SimHarness;
  let client: VenueClient;

  beforeAll(async () => {
    h = await startSimHarness();
    client = createLiveVenueClient({ baseUrl: h.baseUrl, submitUrl: h.submitUrl, apiKey: h.apiKey });
    // A resting bid and ask, and one trade (a buy crossing a resting sell).
    await h.place({ side: 'BUY', price: '29000', quantity: '0.001' });
    await h.place({ side: 'SELL', price: '31000', quantity: '0.002' });
    await h.place({ side: 'SELL', price: '30000', quantity: '0.001' });
    await h.place({ side: 'BUY', price: '30000', quantity: '0.001' });
  });

  afterAll(async () => {
    await client?.close();
    await h?.close();
  });

  it('polls every source, spaces book polls by at least 1 s and builds a Dec snapshot', async () => {
    const fake = FakeTimers.createClock(Date.now());
    const clock = fakeClock(fake);
    const { venue, starts, settled } = recording(client, clock);
    const pollers = new MarketPollers({
      config: {
        ...DEFAULTS,
        book: { intervalMs: 1_000, depth: 5 },
        trades: { intervalMs: 1_000, limit: 10, keep: 50 },
        jitterMs: 0,
      },
      pairs: ['BTC/USDC', 'ETH/USDC'],
      venue,
      clock,
    });
    try {
      pollers.start();
      await settled();
      // 2.3 s of fake time, in the steps the pollers' timers fire at.
      for (const step of [1_000, 1_000, 300]) {
        await fake.tickAsync(step);
        await settled();
      }
      const snap = pollers.state.snapshot(clock.now());

      const bookStarts = starts.get('book:BTC/USDC') ?? [];
      expect(bookStarts.length).toBeGreaterThanOrEqual(2);
      expect(bookStarts.length).toBeLessThanOrEqual(3);
      // Never 2 polls in 1 s.
      for (let i = 1; i < bookStarts.length; i++)
        expect(bookStarts[i]! - bookStarts[i - 1]!).toBeGreaterThanOrEqual(1_000);
      expect(starts.get('balances')).toHaveLength(1);
      expect(starts.get('account')).toHaveLength(1);
      expect(starts.get('pairs')).toHaveLength(1);

      const btc = snap.pairs['BTC/USDC']!;
      expect(btc.minQuoteAmount!.toFixed()).toBe('10');
      expect(btc.book!.bids[0]!.price.toFixed()).toBe('29000');
      expect(btc.book!.asks[0]!.price.toFixed()).toBe('31000');
      expect(btc.book!.asks[0]!.quantity.toFixed()).toBe('0.002');
      expect(btc.mids!.at(-1)!.price.toFixed()).toBe('30000');
      expect(btc.trades.map((t) => [t.price.toFixed(), t.quantity.toFixed()])).toEqual([['30000', '0.001']]);
      expect(snap.pairs['ETH/USDC']!.book!.bids).toEqual([]);
      expect(snap.balances!['USDC']).toBeDefined();
      expect(snap.account).toMatchObject({ status: 'ACTIVE', maxOpenOrders: 50, authFailing: false });
      expect(snap.account!.clientOrderIdPrefix).toBe(h.prefix);
      for (const p of pollers.stats()) {
        expect(p.lastSuccessAt, p.name).not.toBeNull();
        expect(p.failures, p.name).toBe(0);
      }
    } finally {
      await pollers.close();
    }
  });

  it('marks the key failing on a real 401 and recovers when the key works again', async () => {
    const pollers = new MarketPollers({
      config: DEFAULTS,
      pairs: ['BTC/USDC'],
      venue: client,
      clock: systemClock,
    });
    const prefix = h.apiKey.slice('mm_ak_'.length, h.apiKey.indexOf('.'));
    try {
      await pollers.poller('account')!.runNow();
      expect(pollers.state.snapshot(systemClock.now()).account!.authFailing).toBe(false);

      h.venue.operator.setKeyExpiry(prefix, systemClock.now() - 1_000);
      await pollers.poller('account')!.runNow();
      expect(pollers.state.authFailing).toBe(true);
      expect(pollers.state.snapshot(systemClock.now()).account!.authFailing).toBe(true);

      h.venue.operator.setKeyExpiry(prefix, null);
      await pollers.poller('balances')!.runNow();
      expect(pollers.state.authFailing).toBe(false);
      expect(pollers.state.snapshot(systemClock.now()).account!.authFailing).toBe(false);
    } finally {
      h.venue.operator.setKeyExpiry(prefix, null);
      await pollers.close();
    }
  });
});
