/**
 * The hedge venue on a perpetual (`hedge.market: "perp"`): the real ccxt Binance class with its
 * `swap` markets, against a local USDⓈ-M futures server on 127.0.0.1 (below). The position is
 * read from ccxt `fetchPositions` (contracts × contract size, signed by side), an IOC hedge
 * moves it, and the pending-order recovery reads the order back by its client order id. Nothing
 * reaches the internet.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Dec } from '../../src/core/decimal.js';
import { CcxtHedgeVenue, type CcxtTradingExchange } from '../../src/hedge/ccxt-hedge-venue.js';
import { ccxtTradingExchange } from '../../src/hedge/hedge-credentials.js';

/** One position row of `positionRisk` (one-way mode: side BOTH, signed amount). */
interface StubPosition {
  positionSide: 'BOTH' | 'LONG' | 'SHORT';
  positionAmt: string;
}

/** A stand-in for the few Binance USDⓈ-M endpoints the hedge venue calls. */
class FuturesStub {
  readonly requests: string[] = [];
  readonly orders = new Map<string, Record<string, unknown>>();
  positions: StubPosition[] = [{ positionSide: 'BOTH', positionAmt: '0' }];
  price = '50000';
  private readonly server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      this.requests.push(`${req.method} ${url.pathname}`);
      const q = req.method === 'POST' ? new URLSearchParams(body) : url.searchParams;
      const [status, json] = this.answer(req.method ?? 'GET', url.pathname, q);
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(json));
    });
  });

  async start(): Promise<Record<string, unknown>> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    const api: Record<string, string> = {};
    for (const [key, path] of [
      ['fapiPublic', '/fapi/v1'],
      ['fapiPublicV2', '/fapi/v2'],
      ['fapiPublicV3', '/fapi/v3'],
      ['fapiPrivate', '/fapi/v1'],
      ['fapiPrivateV2', '/fapi/v2'],
      ['fapiPrivateV3', '/fapi/v3'],
      ['fapiData', '/futures/data'],
    ] as const)
      api[key] = `${base}${path}`;
    return { api };
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private answer(method: string, path: string, q: URLSearchParams): [number, unknown] {
    switch (`${method} ${path}`) {
      case 'GET /fapi/v1/exchangeInfo':
        return [200, EXCHANGE_INFO];
      case 'GET /fapi/v1/leverageBracket':
        return [200, [{ symbol: 'BTCUSDT', brackets: [BRACKET] }]];
      case 'GET /fapi/v2/positionRisk':
      case 'GET /fapi/v3/positionRisk':
        return [200, this.positions.map((p) => this.positionRow(p))];
      case 'GET /fapi/v1/ticker/bookTicker':
        return [200, { symbol: 'BTCUSDT', bidPrice: this.price, askPrice: this.price, time: 0 }];
      case 'GET /fapi/v1/order': {
        const o = this.orders.get(q.get('origClientOrderId') ?? '');
        return o === undefined ? [400, { code: -2013, msg: 'Order does not exist.' }] : [200, o];
      }
      case 'GET /fapi/v1/openOrders':
        return [200, []];
      case 'POST /fapi/v1/order':
        return [200, this.place(q)];
      default:
        return [404, { code: -1, msg: `not here: ${method} ${path}` }];
    }
  }

  private positionRow(p: StubPosition): Record<string, unknown> {
    return {
      symbol: 'BTCUSDT',
      positionSide: p.positionSide,
      positionAmt: p.positionAmt,
      entryPrice: this.price,
      markPrice: this.price,
      unRealizedProfit: '0',
      liquidationPrice: '0',
      leverage: '5',
      maxNotionalValue: '1000000',
      marginType: 'cross',
      isolatedMargin: '0',
      isAutoAddMargin: 'false',
      notional: String(Number(p.positionAmt) * Number(this.price)),
      isolatedWallet: '0',
      updateTime: 0,
    };
  }

  /** An IOC limit order: filled at the price when the limit allows, in one-way mode. */
  private place(q: URLSearchParams): Record<string, unknown> {
    const side = q.get('side') ?? '';
    const qty = q.get('quantity') ?? '0';
    const limit = Number(q.get('price'));
    const fills = side === 'BUY' ? Number(this.price) <= limit : Number(this.price) >= limit;
    const executed = fills ? qty : '0';
    if (fills) {
      const p = this.positions[0]!;
      const signed = side === 'BUY' ? Number(executed) : -Number(executed);
      p.positionAmt = String(Number(p.positionAmt) + signed);
    }
    const order = {
      symbol: 'BTCUSDT',
      orderId: this.orders.size + 1,
      clientOrderId: q.get('newClientOrderId'),
      price: q.get('price'),
      avgPrice: fills ? this.price : '0',
      origQty: qty,
      executedQty: executed,
      cumQuote: String(Number(executed) * Number(this.price)),
      status: fills ? 'FILLED' : 'EXPIRED',
      timeInForce: q.get('timeInForce'),
      type: 'LIMIT',
      side,
      positionSide: 'BOTH',
      reduceOnly: false,
      updateTime: 0,
    };
    this.orders.set(String(order.clientOrderId), order);
    return order;
  }
}

const BRACKET = {
  bracket: 1,
  initialLeverage: 125,
  notionalCap: 50000,
  notionalFloor: 0,
  maintMarginRatio: 0.004,
  cum: 0,
};
const EXCHANGE_INFO = {
  serverTime: 0,
  assets: [],
  symbols: [
    {
      symbol: 'BTCUSDT',
      pair: 'BTCUSDT',
      contractType: 'PERPETUAL',
      deliveryDate: 4133404800000,
      onboardDate: 1569398400000,
      status: 'TRADING',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      marginAsset: 'USDT',
      pricePrecision: 2,
      quantityPrecision: 3,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      underlyingType: 'COIN',
      triggerProtect: '0.0500',
      orderTypes: ['LIMIT', 'MARKET'],
      timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.10', maxPrice: '4529764', tickSize: '0.10' },
        { filterType: 'LOT_SIZE', minQty: '0.001', maxQty: '1000', stepSize: '0.001' },
        { filterType: 'MIN_NOTIONAL', notional: '100' },
      ],
    },
  ],
};

const SYMBOL = 'BTC/USDT:USDT';
let stub: FuturesStub;
let urls: Record<string, unknown>;
beforeEach(async () => {
  stub = new FuturesStub();
  urls = await stub.start();
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
      urls,
      options: {
        defaultType: 'swap',
        fetchMarkets: { types: ['linear'] },
        fetchCurrencies: false,
        fetchMargins: false,
      },
    },
  )) as CcxtTradingExchange;
  return new CcxtHedgeVenue({ exchange: ex, kind: 'perp' });
}
const signal = (): AbortSignal => new AbortController().signal;

describe('CcxtHedgeVenue on a perpetual, against a local Binance USDⓈ-M', () => {
  it('reads the position from fetchPositions, and an IOC hedge moves it', async () => {
    const v = await venue();
    expect((await v.position(SYMBOL, signal())).toFixed()).toBe('0');
    const placed = await v.placeIoc(
      {
        clientOrderId: 'mm-hp-1',
        symbol: SYMBOL,
        side: 'SELL',
        quantity: new Dec('0.2'),
        limitPrice: new Dec('49950'),
      },
      signal(),
    );
    expect([placed.status, placed.filled.toFixed(), placed.averagePrice?.toFixed()]).toEqual([
      'closed',
      '0.2',
      '50000',
    ]);
    const sent = stub.orders.get('mm-hp-1')!;
    expect([sent['timeInForce'], sent['side'], sent['origQty']]).toEqual(['IOC', 'SELL', '0.2']);
    expect(stub.requests).toContain('POST /fapi/v1/order');
    expect((await v.position(SYMBOL, signal())).toFixed()).toBe('-0.2');
    expect(stub.requests.some((r) => /^GET \/fapi\/v[23]\/positionRisk$/.test(r))).toBe(true);
    // Recovery reads a pending order back by its client order id, on the futures endpoint.
    expect((await v.readOrder('mm-hp-1', SYMBOL, signal()))?.filled.toFixed()).toBe('0.2');
    expect(await v.readOrder('mm-hp-never', SYMBOL, signal())).toBeNull();
  });

  it.each([
    [[{ positionSide: 'BOTH', positionAmt: '0.35' }], '0.35'],
    [[{ positionSide: 'BOTH', positionAmt: '-1.25' }], '-1.25'],
    [
      [
        { positionSide: 'LONG', positionAmt: '0.5' },
        { positionSide: 'SHORT', positionAmt: '-0.2' },
      ],
      '0.3',
    ],
  ] as const)('signs the position by its side: %j is %s', async (positions, want) => {
    stub.positions = positions.map((p) => ({ ...p }));
    const v = await venue();
    expect((await v.position(SYMBOL, signal())).toFixed()).toBe(want);
  });
});
