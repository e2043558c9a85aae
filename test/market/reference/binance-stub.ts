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
    requests,
    subscriptions,
  } as { down: boolean; wsDown: boolean; requests: string[]; subscriptions: string[] };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
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
      api: { public: `http://127.0.0.1:${port}/api/v3`, ws: { spot: `ws://127.0.0.1:${wsPort}/ws` } },
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
