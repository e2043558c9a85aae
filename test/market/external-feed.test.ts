import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { systemClock, type Clock } from '../../src/core/clock.js';
import { ExternalFeed, extractPrice, parseJsonPath } from '../../src/market/external-feed.js';
import type { ExternalPrice } from '../../src/market/market-snapshot.js';
import { StubServer } from '../support/stub-server.js';

describe('parseJsonPath and extractPrice', () => {
  it.each([
    { path: 'price', steps: ['price'] },
    { path: '$.data.price', steps: ['data', 'price'] },
    { path: '$.result[0].last', steps: ['result', 0, 'last'] },
    { path: '$[1].p', steps: [1, 'p'] },
  ])('$path → $steps', ({ path, steps }) => {
    expect(parseJsonPath(path)).toEqual(steps);
  });

  it.each([
    { json: { price: '101.25' }, path: 'price', out: '101.25' },
    { json: { data: { price: 99.5 } }, path: 'data.price', out: '99.5' },
    { json: { result: [{ last: '7' }, { last: '8' }] }, path: '$.result[1].last', out: '8' },
    { json: { price: '1e3' }, path: 'price', out: null }, // not a plain decimal
    { json: { price: '0' }, path: 'price', out: null }, // not positive
    { json: { price: -3 }, path: 'price', out: null },
    { json: { price: null }, path: 'price', out: null },
    { json: { data: [] }, path: 'data.price', out: null },
    { json: 'oops', path: 'price', out: null },
  ])('$path in $json → $out', ({ json, path, out }) => {
    expect(extractPrice(json, path)?.toFixed() ?? null).toBe(out);
  });
});

/** A clock whose time is set by hand; timers never fire (the tests drive polls with runNow). */
function manualClock(start: number): Clock & { t: number } {
  const c = {
    t: start,
    now: () => c.t,
    setTimeout: () => ({}),
    clearTimeout: () => undefined,
  };
  return c;
}

describe('ExternalFeed', () => {
  it('reports each fetched price with the fetch time, and null once it is older than maxAge', async () => {
    const clock = manualClock(1_000);
    const seen: Array<ExternalPrice | null> = [];
    const errors: unknown[] = [];
    let reply: unknown = { price: '100.5' };
    const feed = new ExternalFeed({
      pair: 'BTC/USDC',
      url: 'https://feed.example/btc',
      jsonPath: 'price',
      intervalMs: 1_000,
      timeoutMs: 1_000,
      maxAgeMs: 5_000,
      clock,
      onPrice: (_pair, p) => seen.push(p),
      onError: (_pair, e) => errors.push(e),
      fetchJson: () => Promise.resolve(reply),
    });
    await feed.runNow();
    expect(seen.map((p) => p && `${p.price.toFixed()}@${p.at}`)).toEqual(['100.5@1000']);

    reply = { nope: 1 };
    clock.t = 3_000;
    await feed.runNow();
    expect(errors).toHaveLength(1);
    expect(feed.latest()?.price.toFixed()).toBe('100.5'); // 2 s old: still fresh

    clock.t = 6_001;
    await feed.runNow();
    expect(feed.latest()).toBeNull();
    expect(seen.at(-1)).toBeNull();
    await feed.close();
  });

  describe('over HTTP (undici)', () => {
    let server: StubServer;
    beforeAll(async () => {
      server = await StubServer.start();
    });
    afterAll(async () => {
      await server.close();
    });

    it('GETs the URL and reads the price', async () => {
      server.on('GET', '/btc', { json: { data: { price: '64000.5' } } });
      let got: ExternalPrice | null = null;
      const feed = new ExternalFeed({
        pair: 'BTC/USDC',
        url: `${server.origin}/btc?symbol=BTC`,
        jsonPath: '$.data.price',
        intervalMs: 1_000,
        timeoutMs: 5_000,
        maxAgeMs: 5_000,
        clock: systemClock,
        onPrice: (_pair, p) => {
          got = p;
        },
      });
      await feed.runNow();
      await feed.close();
      expect((got as ExternalPrice | null)?.price.toFixed()).toBe('64000.5');
      expect(server.requestsTo('GET', '/btc')[0]?.query).toEqual({ symbol: 'BTC' });
    });

    it('treats a non-200 answer as a failed poll', async () => {
      server.on('GET', '/down', { status: 503, body: 'down' });
      const errors: unknown[] = [];
      const feed = new ExternalFeed({
        pair: 'BTC/USDC',
        url: `${server.origin}/down`,
        jsonPath: 'price',
        intervalMs: 1_000,
        timeoutMs: 5_000,
        maxAgeMs: 5_000,
        clock: systemClock,
        onPrice: () => undefined,
        onError: (_pair, e) => errors.push(e),
      });
      await feed.runNow();
      await feed.close();
      expect(String(errors[0])).toMatch(/HTTP 503/);
      expect(feed.stats.failures).toBe(1);
    });
  });
});
