/**
 * The exchanges reference with scripted exchanges on fake timers: staleness between prices,
 * the WARN that names the sources when a pair falls below minSources, the outlier count, the
 * recovery, and the report the metrics read.
 */
import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';

import { fakeClock } from '../../../src/core/clock.js';
import { Dec } from '../../../src/core/decimal.js';
import type { SourceReading } from '../../../src/market/reference/combine-sources.js';
import { ExchangesReference } from '../../../src/market/reference/exchanges-reference.js';
import { type TickerExchange, tickerPrice, tickerTime } from '../../../src/market/reference/ticker-stream.js';

/** A REST-only exchange whose price per symbol the test sets; null: the call fails. */
function scripted(id: string, prices: Map<string, number | null>): TickerExchange {
  return {
    id,
    has: { fetchTicker: true },
    loadMarkets: async () => ({}),
    fetchTicker: async (symbol) => {
      const p = prices.get(symbol) ?? null;
      if (p === null) throw new Error(`${id} ${symbol} unavailable`);
      return { last: p };
    },
  };
}

const fake = FakeTimers.createClock(1_800_000_000_000);
const clock = fakeClock(fake);
let ref: ExchangesReference | null = null;
afterEach(async () => {
  const r = ref;
  ref = null;
  if (r !== null) {
    const closing = r.close();
    await fake.tickAsync(5_000);
    await closing;
  }
});

async function setup(prices: Record<string, Map<string, number | null>>) {
  const warns: Array<[Record<string, unknown>, string]> = [];
  const infos: string[] = [];
  const last = new Map<string, SourceReading[]>();
  ref = new ExchangesReference({
    clock,
    exchanges: async (id) => scripted(id, prices[id]!),
    pairs: [
      {
        pair: 'BTC/USDC',
        settings: {
          sources: [
            { exchange: 'binance', symbol: 'BTC/USDC' },
            { exchange: 'coinbase', symbol: 'BTC/USDC' },
            { exchange: 'kraken', symbol: 'BTC/USDC' },
          ],
          minSources: 2,
          maxAgeMs: 5_000,
          maxDeviationBps: 50,
          pollIntervalMs: 1_000,
          timeoutMs: 500,
          websocket: true,
        },
      },
    ],
    onReadings: (pair, r) => last.set(pair, [...r]),
    log: {
      warn: ((obj: Record<string, unknown>, msg: string) => warns.push([obj, msg])) as never,
      info: ((_obj: unknown, msg: string) => infos.push(msg)) as never,
    },
    venueMid: () => new Dec('100.2'),
  });
  ref.start();
  return { ref, warns, infos, last };
}

describe('ExchangesReference', () => {
  it('a frozen source goes stale, a jumping one is an outlier: WARN names them, quoting stops, then recovers', async () => {
    const binance = new Map<string, number | null>([['BTC/USDC', 100]]);
    const coinbase = new Map<string, number | null>([['BTC/USDC', 100.1]]);
    const kraken = new Map<string, number | null>([['BTC/USDC', 100.05]]);
    const { ref, warns, infos, last } = await setup({ binance, coinbase, kraken });
    await fake.tickAsync(1_500);
    let [r] = ref.report();
    expect(r!.combination.ok && r!.combination.price.toFixed()).toBe('100.05');
    expect(r!.venueMidDeviationBps).toBeCloseTo(14.99, 1);
    expect(last.get('BTC/USDC')!.map((x) => x.price?.toFixed())).toEqual(['100', '100.1', '100.05']);

    // binance freezes (its calls fail), kraken jumps 2 %.
    binance.set('BTC/USDC', null);
    kraken.set('BTC/USDC', 102.05);
    await fake.tickAsync(6_000);
    [r] = ref.report();
    expect(r!.combination.ok).toBe(false);
    expect(r!.usable).toBe(0);
    expect(r!.sources.map((s) => s.state)).toEqual(['stale', 'outlier', 'outlier']);
    expect(r!.sources[0]!.errors).toBeGreaterThanOrEqual(5);
    const fall = warns.find(([, m]) => m.startsWith('reference: too few usable sources'));
    expect(String(fall?.[0].reason)).toMatch(/binance:BTC\/USDC is stale/);
    expect(String(fall?.[0].reason)).toMatch(/kraken:BTC\/USDC is an outlier/);
    expect(warns.filter(([, m]) => m.startsWith('reference: too few')).length).toBe(1);

    // kraken comes back into line: two agreeing sources are enough.
    kraken.set('BTC/USDC', 100.12);
    await fake.tickAsync(2_000);
    [r] = ref.report();
    expect(r!.combination.ok && r!.combination.price.toFixed()).toBe('100.11');
    expect(infos).toContain('reference: enough sources again');
    expect(r!.sources.map((s) => [s.state, s.outliers])).toEqual([
      ['stale', 0],
      ['used', 1],
      ['used', 1],
    ]);
  });

  it('refuses a conversion leg that does not link the currencies', () => {
    expect(
      () =>
        new ExchangesReference({
          clock,
          exchanges: async (id) => scripted(id, new Map()),
          onReadings: () => undefined,
          pairs: [
            {
              pair: 'BTC/USDC',
              settings: {
                sources: [
                  {
                    exchange: 'kraken',
                    symbol: 'BTC/EUR',
                    convert: { exchange: 'kraken', symbol: 'USDT/USD' },
                  },
                ],
                minSources: 1,
                maxAgeMs: 5_000,
                maxDeviationBps: 50,
                pollIntervalMs: 1_000,
                timeoutMs: 500,
                websocket: false,
              },
            },
          ],
        }),
    ).toThrow(/kraken:USDT\/USD of kraken:BTC\/EUR does not link EUR to USDC/);
  });
});

describe('tickerPrice', () => {
  it.each([
    [{ bid: 100, ask: 100.5, last: 99 }, '100.25'],
    [{ bid: 100, last: 99 }, '99'],
    [{ bid: 101, ask: 100, last: 99 }, '99'],
    [{ last: 0 }, null],
    [{ bid: Number.NaN, ask: 1 }, null],
  ])('%o → %s', (t, want) => {
    expect(tickerPrice(t)?.toFixed() ?? null).toBe(want);
  });
});

describe('tickerTime', () => {
  const NOW = 1_800_000_000_000;
  it.each([
    ['the exchange time when plausible (a frozen feed ages)', NOW - 30_000, NOW - 30_000],
    ['no timestamp: received now', undefined, NOW],
    ['in the future: received now', NOW + 5_000, NOW],
    ['a placeholder (0): received now', 0, NOW],
  ])('%s', (_name, ts, want) => {
    expect(tickerTime({ last: 1, timestamp: ts }, NOW)).toBe(want);
  });
});
