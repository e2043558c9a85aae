/**
 * A stand-in for the few Binance spot endpoints ccxt calls for a public price, on 127.0.0.1:
 * REST `GET /api/v3/exchangeInfo` and `GET /api/v3/ticker/24hr`, and the WebSocket stream
 * (`SUBSCRIBE` to `<symbol>@miniTicker`, then ticker events). Prices are set by the test.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { type WebSocket, WebSocketServer } from 'ws';

/** One market of the stub: ccxt symbol `BASE/QUOTE`. */
export interface StubMarket {
  readonly base: string;
  readonly quote: string;
}

export interface BinanceStub {
  /** ccxt `urls` override for the `binance` id. */
  readonly urls: Record<string, unknown>;
  /** Sets the price (bid = ask = last) of a Binance symbol id (`BTCUSDT`), pushed to WebSocket subscribers. */
  setPrice(id: string, price: string): void;
  /** REST paths requested, in order. */
  readonly requests: string[];
  /** SUBSCRIBE params received over WebSocket. */
  readonly subscriptions: string[];
  /** When true, REST answers 503. */
  down: boolean;
  /** When true, WebSocket connections are refused. */
  wsDown: boolean;
  /** Spot balances of the signed `GET /api/v3/account`. */
  readonly balances: Map<string, string>;
  /** Orders received by the signed `POST /api/v3/order`, by client order id. */
  readonly orders: Map<string, Record<string, unknown>>;
  /** When true, `POST /api/v3/order` answers -2010 (insufficient balance). */
  noFunds: boolean;
  /** When true, every signed endpoint answers 401 -2015 (the API key is refused). */
  badKey: boolean;
  /** Drops every open WebSocket connection. */
  dropSockets(): void;
  close(): Promise<void>;
}

export async function startBinanceStub(markets: readonly StubMarket[]): Promise<BinanceStub> {
  const prices = new Map<string, string>();
  const requests: string[] = [];
  const subscriptions: string[] = [];
  const subscribers = new Map<string, Set<WebSocket>>();
  const exchangeInfo = {
    serverTime: 0,
    symbols: markets.map((m) => ({
      symbol: `${m.base}${m.quote}`,
      status: 'TRADING',
      baseAsset: m.base,
      quoteAsset: m.quote,
      baseAssetPrecision: 8,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      permissions: ['SPOT'],
      orderTypes: ['LIMIT'],
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.0001', maxPrice: '1000000', tickSize: '0.0001' },
        { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '9000', stepSize: '0.00001' },
      ],
    })),
  };
  const stub = {
    down: false,
    wsDown: false,
    noFunds: false,
    badKey: false,
    balances: new Map<string, string>(),
    orders: new Map<string, Record<string, unknown>>(),
    requests,
    subscriptions,
  } as {
    down: boolean;
    wsDown: boolean;
    noFunds: boolean;
    badKey: boolean;
    balances: Map<string, string>;
    orders: Map<string, Record<string, unknown>>;
    requests: string[];
    subscriptions: string[];
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${req.method === 'GET' ? '' : `${req.method} `}${url.pathname}`);
    if (
      req.method === 'POST' ||
      url.pathname === '/api/v3/order' ||
      url.pathname === '/api/v3/openOrders' ||
      url.pathname === '/api/v3/account'
    ) {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => signed(req.method ?? 'GET', url, new URLSearchParams(body), res));
      return;
    }
    res.setHeader('content-type', 'application/json');
    if (stub.down) {
      res.statusCode = 503;
      res.end('{"code":-1,"msg":"down"}');
      return;
    }
    if (url.pathname === '/api/v3/exchangeInfo') {
      res.end(JSON.stringify(exchangeInfo));
      return;
    }
    const id = url.searchParams.get('symbol') ?? '';
    const price = prices.get(id);
    if (url.pathname === '/api/v3/ticker/24hr' && price !== undefined) {
      res.end(
        JSON.stringify({ symbol: id, bidPrice: price, askPrice: price, lastPrice: price, closeTime: 0 }),
      );
      return;
    }
    res.statusCode = 400;
    res.end('{"code":-1121,"msg":"Invalid symbol."}');
  });
  /** The signed endpoints: orders and the account (signatures are not checked). */
  function signed(method: string, url: URL, body: URLSearchParams, res: http.ServerResponse): void {
    const q = method === 'POST' ? body : url.searchParams;
    const send = (status: number, json: unknown): void => {
      res.statusCode = status;
      res.end(JSON.stringify(json));
    };
    if (stub.badKey) {
      send(401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
      return;
    }
    if (url.pathname === '/api/v3/account') {
      send(200, {
        balances: [...stub.balances].map(([asset, free]) => ({ asset, free, locked: '0' })),
        accountType: 'SPOT',
        permissions: ['SPOT'],
      });
      return;
    }
    if (url.pathname === '/api/v3/openOrders') {
      send(200, []);
      return;
    }
    if (method === 'GET' && url.pathname === '/api/v3/order') {
      const o = stub.orders.get(q.get('origClientOrderId') ?? '');
      if (o === undefined) send(400, { code: -2013, msg: 'Order does not exist.' });
      else send(200, o);
      return;
    }
    if (method === 'POST' && url.pathname === '/api/v3/order') {
      if (stub.noFunds) {
        send(400, { code: -2010, msg: 'Account has insufficient balance for requested action.' });
        return;
      }
      const id = q.get('symbol') ?? '';
      const side = q.get('side') ?? '';
      const limit = Number(q.get('price'));
      const market = Number(prices.get(id));
      const fills = side === 'BUY' ? market <= limit : market >= limit;
      const qty = q.get('quantity') ?? '0';
      const executed = fills ? qty : '0';
      const order = {
        symbol: id,
        orderId: stub.orders.size + 1,
        clientOrderId: q.get('newClientOrderId'),
        transactTime: 0,
        price: q.get('price'),
        origQty: qty,
        executedQty: executed,
        cummulativeQuoteQty: String(Number(executed) * market),
        status: fills ? 'FILLED' : 'EXPIRED',
        timeInForce: q.get('timeInForce'),
        type: 'LIMIT',
        side,
        fills: fills
          ? [
              {
                price: String(market),
                qty: executed,
                commission: String(Number(executed) * market * 0.0005),
                commissionAsset: 'USDT',
              },
            ]
          : [],
      };
      stub.orders.set(String(order.clientOrderId), order);
      send(200, order);
      return;
    }
    send(404, { code: -1, msg: 'not here' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const wss = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    verifyClient: () => !stub.wsDown,
  });
  await new Promise<void>((resolve) => wss.on('listening', resolve));
  const wsPort = (wss.address() as AddressInfo).port;
  const push = (ws: WebSocket, id: string): void => {
    const price = prices.get(id);
    if (price === undefined) return;
    ws.send(JSON.stringify({ e: '24hrMiniTicker', E: 0, s: id, c: price, o: price, h: price, l: price }));
  };
  wss.on('connection', (ws) => {
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { method: string; params: string[]; id: number };
      ws.send(JSON.stringify({ result: null, id: msg.id }));
      for (const p of msg.params) {
        subscriptions.push(p);
        const id = p.split('@')[0]!.toUpperCase();
        let set = subscribers.get(id);
        if (set === undefined) subscribers.set(id, (set = new Set()));
        set.add(ws);
        push(ws, id);
      }
    });
    ws.on('close', () => {
      for (const set of subscribers.values()) set.delete(ws);
    });
  });

  return Object.assign(stub, {
    urls: {
      api: {
        public: `http://127.0.0.1:${port}/api/v3`,
        private: `http://127.0.0.1:${port}/api/v3`,
        ws: { spot: `ws://127.0.0.1:${wsPort}/ws` },
      },
    },
    setPrice(id: string, price: string): void {
      prices.set(id, price);
      for (const ws of subscribers.get(id) ?? []) push(ws, id);
    },
    dropSockets(): void {
      for (const ws of wss.clients) ws.terminate();
    },
    async close(): Promise<void> {
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
