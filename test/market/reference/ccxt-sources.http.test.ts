/**
 * ccxt at the boundary: the real ccxt Binance classes against local HTTP and WebSocket servers
 * on 127.0.0.1 (`binance-stub.ts`), through the exchange factory's `urls` override. Nothing here
 * reaches the internet. The waits are for events (a price arriving), never for wall-clock time.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { systemClock } from '../../../src/core/clock.js';
import type { BookPrice, SourceReading } from '../../../src/market/reference/combine-sources.js';
import { ccxtExchangeFactory } from '../../../src/market/reference/ccxt-exchanges.js';
import { ExchangesReference } from '../../../src/market/reference/exchanges-reference.js';
import { TickerStream } from '../../../src/market/reference/ticker-stream.js';
import { type BinanceStub, startBinanceStub } from './binance-stub.js';

let stub: BinanceStub;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  stub = await startBinanceStub([
    { base: 'BTC', quote: 'USDT' },
    { base: 'USDC', quote: 'USDT' },
  ]);
  stub.setPrice('BTCUSDT', '50000.5');
  stub.setPrice('USDCUSDT', '1.0001');
});

afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  await stub.close();
});

function factory() {
  return ccxtExchangeFactory({
    timeoutMs: 2_000,
    urls: { binance: stub.urls },
    options: { binance: { fetchMarkets: { types: ['spot'] } } },
  });
}

/** A stream whose prices arrive as a queue of promises. */
async function openStream(websocket: boolean, symbol = 'BTC/USDT') {
  const queue: BookPrice[] = [];
  const waiters: Array<(p: BookPrice) => void> = [];
  const errors: unknown[] = [];
  const stream = new TickerStream({
    exchangeId: 'binance',
    exchange: () => factory()('binance'),
    symbol,
    clock: systemClock,
    websocket,
    pollIntervalMs: 20,
    timeoutMs: 2_000,
    maxBackoffMs: 60_000,
    onPrice: (p) => {
      const w = waiters.shift();
      if (w === undefined) queue.push(p);
      else w(p);
    },
    onError: (e) => errors.push(e),
  });
  closers.push(() => stream.close());
  stream.start();
  const next = (): Promise<BookPrice> =>
    new Promise((resolve) => {
      const q = queue.shift();
      if (q === undefined) waiters.push(resolve);
      else resolve(q);
    });
  return { stream, next, errors };
}

describe('ccxt ticker streams against a local Binance', () => {
  it('polls REST when the WebSocket is off', async () => {
    const { stream, next } = await openStream(false);
    expect((await next()).price?.toFixed()).toBe('50000.5');
    stub.setPrice('BTCUSDT', '50010');
    let p = await next();
    while (p.price?.toFixed() !== '50010') p = await next();
    expect(stream.mode).toBe('rest');
    expect(stub.requests).toContain('/api/v3/exchangeInfo');
    expect(stub.requests.filter((r) => r === '/api/v3/ticker/24hr').length).toBeGreaterThanOrEqual(2);
    expect(stub.subscriptions).toEqual([]);
  });

  it('takes prices by WebSocket where ccxt has it', async () => {
    const { stream, next } = await openStream(true);
    expect((await next()).price?.toFixed()).toBe('50000.5');
    stub.setPrice('BTCUSDT', '50123.25');
    expect((await next()).price?.toFixed()).toBe('50123.25');
    expect(stream.mode).toBe('websocket');
    expect(stub.subscriptions).toEqual(['btcusdt@miniTicker']);
    expect(stub.requests).not.toContain('/api/v3/ticker/24hr');
  });

  it('falls back to REST polling when the WebSocket is refused, and counts the failure', async () => {
    stub.wsDown = true;
    const { stream, next, errors } = await openStream(true);
    expect((await next()).price?.toFixed()).toBe('50000.5');
    expect(stream.mode).toBe('rest');
    expect(stream.errors).toBeGreaterThanOrEqual(1);
    expect(errors.length).toBe(stream.errors);
    expect(stub.requests).toContain('/api/v3/ticker/24hr');
  });

  it('counts REST failures and carries on when the exchange comes back', async () => {
    stub.down = true;
    const { stream, next, errors } = await openStream(false);
    const first = next();
    // exchangeInfo and the ticker both fail while the stub is down…
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (errors.length >= 2) resolve();
        else setImmediate(check);
      };
      check();
    });
    expect(stream.latest.price).toBeNull();
    stub.down = false;
    expect((await first).price?.toFixed()).toBe('50000.5');
    expect(stream.errors).toBeGreaterThanOrEqual(2);
  });
});

describe('the exchanges reference over ccxt', () => {
  it('converts BTC/USDT through USDC/USDT into a BTC/USDC reference', async () => {
    const got: SourceReading[][] = [];
    let resolveBoth!: () => void;
    const both = new Promise<void>((r) => (resolveBoth = r));
    const ref = new ExchangesReference({
      clock: systemClock,
      exchanges: factory(),
      pairs: [
        {
          pair: 'BTC/USDC',
          settings: {
            sources: [
              {
                exchange: 'binance',
                symbol: 'BTC/USDT',
                convert: { exchange: 'binance', symbol: 'USDC/USDT' },
              },
            ],
            minSources: 1,
            maxAgeMs: 10_000,
            maxDeviationBps: 50,
            pollIntervalMs: 20,
            timeoutMs: 2_000,
            websocket: true,
          },
        },
      ],
      onReadings: (_pair, r) => {
        got.push([...r]);
        if (r[0]?.price !== null && r[0]?.conversion?.price !== null) resolveBoth();
      },
    });
    closers.push(() => ref.close());
    ref.start();
    await both;
    const [report] = ref.report();
    expect(report!.combination.ok && report!.combination.price.toFixed(4)).toBe('49995.5004');
    expect(report!.sources.map((s) => [s.id, s.state, s.mode])).toEqual([
      ['binance:BTC/USDT', 'used', 'websocket'],
    ]);
    expect(new Set(stub.subscriptions)).toEqual(new Set(['btcusdt@miniTicker', 'usdcusdt@miniTicker']));
    expect(got.length).toBeGreaterThanOrEqual(2);
  });
});
