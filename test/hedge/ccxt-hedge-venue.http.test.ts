/**
 * The ccxt hedge venue at the boundary: the real ccxt Binance class, with test credentials,
 * against a local HTTP server on 127.0.0.1 answering the signed order and account endpoints
 * (`test/market/reference/binance-stub.ts`). Nothing reaches the internet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import { CcxtHedgeVenue, type CcxtTradingExchange } from '../../src/hedge/ccxt-hedge-venue.js';
import { ccxtTradingExchange, loadHedgeCredentials } from '../../src/hedge/hedge-credentials.js';
import { hedgeCodeOf } from '../../src/hedge/hedge-venue.js';
import { type BinanceStub, startBinanceStub } from '../market/reference/binance-stub.js';

let stub: BinanceStub;
beforeEach(async () => {
  stub = await startBinanceStub([{ base: 'BTC', quote: 'USDT' }]);
  stub.setPrice('BTCUSDT', '50000');
  stub.balances.set('BTC', '1.5');
  stub.balances.set('USDT', '100000');
});
afterEach(async () => {
  await stub.close();
});

async function venue(): Promise<CcxtHedgeVenue> {
  const ex = (await ccxtTradingExchange(
    'binance',
    { apiKey: 'test-key', secret: 'test-secret' },
    {
      timeoutMs: 2_000,
      urls: stub.urls,
      options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false, fetchMargins: false },
    },
  )) as CcxtTradingExchange;
  return new CcxtHedgeVenue({ exchange: ex, kind: 'spot', spotBaselineBase: new Dec('1') });
}
const signal = (): AbortSignal => new AbortController().signal;
const req = (id: string, side: 'BUY' | 'SELL', limit: string) => ({
  clientOrderId: id,
  symbol: 'BTC/USDT',
  side,
  quantity: new Dec('0.2'),
  limitPrice: new Dec(limit),
});

describe('CcxtHedgeVenue against a local Binance', () => {
  it('sends an IOC limit order with our client order id, and reads it back by that id', async () => {
    const v = await venue();
    const placed = await v.placeIoc(req('mm-h-1', 'SELL', '49950'), signal());
    expect([
      placed.status,
      placed.filled.toFixed(),
      placed.averagePrice?.toFixed(),
      placed.feeQuote.toFixed(),
    ]).toEqual(['closed', '0.2', '50000', '5']);
    const sent = stub.orders.get('mm-h-1')!;
    expect([sent['timeInForce'], sent['side'], sent['origQty'], sent['price']]).toEqual([
      'IOC',
      'SELL',
      '0.2',
      '49950',
    ]);
    const read = await v.readOrder('mm-h-1', 'BTC/USDT', signal());
    expect(read?.filled.toFixed()).toBe('0.2');
    expect(await v.readOrder('mm-h-never', 'BTC/USDT', signal())).toBeNull();
  });

  it("cuts the quantity and price with the market's precision helpers, as decimal strings", async () => {
    const v = await venue();
    // 0.1 + 0.2 in floats is 0.30000000000000004; as decimals it is 0.3 exactly.
    const quantity = new Dec('0.1').plus('0.2').plus('0.000019999');
    await v.placeIoc(
      { ...req('mm-h-p', 'SELL', '0'), quantity, limitPrice: new Dec('49950.123456') },
      signal(),
    );
    const sent = stub.orders.get('mm-h-p')!;
    // stepSize 0.00001 (truncated), tickSize 0.0001 (rounded).
    expect([sent['origQty'], sent['price']]).toEqual(['0.30001', '49950.1235']);
  });

  it('refuses a quantity under one step before sending anything', async () => {
    const v = await venue();
    const before = stub.requests.filter((r) => r === 'POST /api/v3/order').length;
    const err = await v
      .placeIoc({ ...req('mm-h-s', 'SELL', '49950'), quantity: new Dec('0.000001') }, signal())
      .catch((e: unknown) => e);
    expect(hedgeCodeOf(err)).toBe('HEDGE_REFUSED');
    expect(stub.requests.filter((r) => r === 'POST /api/v3/order').length).toBe(before);
  });

  it('an IOC whose limit is not reached fills nothing', async () => {
    const v = await venue();
    const s = await v.placeIoc(req('mm-h-2', 'BUY', '49000'), signal());
    expect([s.status, s.filled.toFixed(), s.averagePrice]).toEqual(['canceled', '0', null]);
  });

  it('maps insufficient funds, reads the spot position against its baseline, and the touch', async () => {
    const v = await venue();
    stub.noFunds = true;
    const err = await v.placeIoc(req('mm-h-3', 'BUY', '51000'), signal()).catch((e: unknown) => e);
    expect(hedgeCodeOf(err)).toBe('HEDGE_INSUFFICIENT_FUNDS');
    expect((await v.position('BTC/USDT', signal())).toFixed()).toBe('0.5');
    const t = await v.touch('BTC/USDT', signal());
    expect([t.bid?.toFixed(), t.ask?.toFixed()]).toEqual(['50000', '50000']);
    expect(stub.requests).toContain('POST /api/v3/order');
  });
});

describe('loadHedgeCredentials', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mm-hedge-cred-'));
  const none = { apiKey: '', apiSecret: '', apiKeyFile: '', apiSecretFile: '' };
  it('reads the environment first, then the files, and refuses an open file', () => {
    const key = path.join(dir, 'key');
    fs.writeFileSync(key, 'k-from-file\n', { mode: 0o600 });
    expect(loadHedgeCredentials({ ...none, apiKeyFile: key, apiSecret: 's-env' })).toEqual({
      apiKey: 'k-from-file',
      secret: 's-env',
    });
    expect(loadHedgeCredentials({ ...none, apiKey: 'k-env', apiKeyFile: key, apiSecret: 's' }).apiKey).toBe(
      'k-env',
    );
    fs.chmodSync(key, 0o644);
    expect(() => loadHedgeCredentials({ ...none, apiKeyFile: key })).toThrow(/readable by group/);
    expect(() => loadHedgeCredentials(none)).toThrow(/no hedge API key/);
  });
});
