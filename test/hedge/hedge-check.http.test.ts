/**
 * `ledger-mm check`'s hedge lines against a local Binance on 127.0.0.1 (the real ccxt class, its
 * URLs pointed at the stub): markets, the symbol and its minimum, the credentials; a dryRun pair
 * needs none, and the simulated venue is skipped. Nothing reaches the internet.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import type { HedgeConfig } from '../../src/config/schema.js';
import { checkHedgeVenues } from '../../src/hedge/hedge-check.js';
import type { HedgeSettings } from '../../src/hedge/hedge-settings.js';
import { ccxtExchangeFor } from '../../src/hedge/hedge-venue-factory.js';
import { type BinanceStub, startBinanceStub } from '../market/reference/binance-stub.js';

let stub: BinanceStub;
beforeEach(async () => {
  stub = await startBinanceStub([{ base: 'BTC', quote: 'USDT' }]);
  stub.balances.set('BTC', '1.5');
  stub.balances.set('USDT', '90000');
});
afterEach(async () => {
  await stub.close();
});

const d = (x: string): Dec => new Dec(x);
const S: HedgeSettings = {
  pair: 'BTC/USDC',
  exchange: 'binance',
  symbol: 'BTC/USDT',
  market: 'spot',
  rules: {
    mode: 'every-fill',
    thresholdBase: d('0'),
    minOrderBase: d('0.001'),
    maxOrderBase: d('1'),
    maxPositionBase: d('5'),
    maxSlippageBps: 10,
    stepBase: d('0'),
  },
  spotBaselineBase: d('0'),
  onFailure: 'stop',
  widenBps: 20,
  dryRun: false,
  intervalMs: 1_000,
  timeoutMs: 2_000,
};
const HEDGE = (over: Partial<HedgeConfig> = {}): HedgeConfig =>
  ({
    apiKey: 'k',
    apiSecret: 's',
    apiKeyFile: '',
    apiSecretFile: '',
    defaults: {},
    pairs: [],
    ...over,
  }) as HedgeConfig;
const local = (s: HedgeSettings, h: HedgeConfig) =>
  ccxtExchangeFor(s, h, {
    urls: stub.urls,
    options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    credentialsOptional: s.dryRun,
  });
const check = (s: HedgeSettings, h = HEDGE()) => checkHedgeVenues(new Map([[s.pair, s]]), h, local);
const lines = (r: Awaited<ReturnType<typeof check>>) => r.map((c) => `${c.status} ${c.name}: ${c.detail}`);

describe('checkHedgeVenues against a local Binance', () => {
  it('passes markets, symbol and credentials, with the balances', async () => {
    expect(lines(await check(S))).toEqual([
      'pass hedge BTC/USDC markets: binance: 1 markets',
      'pass hedge BTC/USDC symbol: BTC/USDT, minimum order 0.00001',
      'pass hedge BTC/USDC credentials: balances BTC 1.5, USDT 90000',
    ]);
  });

  it('fails an unknown symbol and refused credentials; warns a minimum under the market', async () => {
    stub.badKey = true;
    const r = await check({ ...S, symbol: 'ETH/USDT' });
    expect(r.map((c) => [c.name, c.status])).toEqual([
      ['hedge BTC/USDC markets', 'pass'],
      ['hedge BTC/USDC symbol', 'fail'],
      ['hedge BTC/USDC credentials', 'fail'],
    ]);
    expect(r[2]!.detail).toMatch(/AuthenticationError/);
    stub.badKey = false;
    const small = await check({ ...S, rules: { ...S.rules, minOrderBase: d('0.000001') } });
    expect(small[1]!.status).toBe('warn');
  });

  it('a dryRun pair needs no credentials; the simulated venue is skipped; markets that do not load fail', async () => {
    const dry = await check({ ...S, dryRun: true }, HEDGE({ apiKey: '', apiSecret: '' }));
    expect(dry.map((c) => c.status)).toEqual(['pass', 'pass', 'skip']);
    expect((await check({ ...S, exchange: 'sim' })).map((c) => c.status)).toEqual(['skip']);
    stub.down = true;
    const down = await check(S);
    expect(down.map((c) => [c.name, c.status])).toEqual([['hedge BTC/USDC markets', 'fail']]);
  });
});
