import { beforeEach, describe, expect, it } from 'vitest';
import { VenueError } from '../../src/venue/errors.js';
import { ok, fail } from '../support/stub-server.js';
import {
  API_KEY,
  ORDER,
  PREPARE_BODY,
  order,
  signing,
  type Harness,
  useHarness,
} from './support/fixtures.js';
import { NOTHING_TO_SIGN } from '../support/venue-wire.js';

let h: Harness;
const harness = useHarness();
beforeEach(() => {
  h = harness();
});

const ACCOUNT = {
  name: 'Acme',
  slug: 'acme',
  partyId: 'party::1220ab',
  status: 'ACTIVE',
  feeExempt: true,
  clientOrderIdPrefix: 'acme-',
  limits: { allowedPairs: ['BTC/USDC'], maxOpenOrders: 50, ordersPerMinute: null },
};

function only(method: string, path: string) {
  const reqs = h.api.requestsTo(method, path);
  expect(reqs).toHaveLength(1);
  return reqs[0]!;
}

describe('public endpoints: no credential', () => {
  it('GET /pairs', async () => {
    const pair = { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: null };
    h.api.on('GET', '/v1/pairs', ok({ pairs: [pair] }));
    await expect(h.client.getPairs()).resolves.toEqual([pair]);
    const req = only('GET', '/v1/pairs');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers.accept).toBe('application/json');
  });

  it('GET /orderbook/{pair} URL-encodes the pair and sends depth', async () => {
    const book = {
      pair: 'BTC/USDC',
      bids: [['64000', '1.5']],
      asks: [['64001', '0.2']],
      asOf: { updateId: 7, sequence: 9, source: 'projection' },
    };
    h.api.on('GET', '/v1/orderbook/BTC%2FUSDC', ok(book));
    await expect(h.client.getOrderBook('BTC/USDC', { depth: 5 })).resolves.toEqual(book);
    const req = only('GET', '/v1/orderbook/BTC%2FUSDC');
    expect(req.query).toEqual({ depth: '5' });
    expect(req.headers.authorization).toBeUndefined();
  });

  it('GET /orderbook/{pair} without depth sends no query string', async () => {
    h.api.on(
      'GET',
      '/v1/orderbook/ETH%2FUSDC',
      ok({ pair: 'ETH/USDC', bids: [], asks: [], asOf: { updateId: null, sequence: 1, source: 's' } }),
    );
    await h.client.getOrderBook('ETH/USDC');
    expect(only('GET', '/v1/orderbook/ETH%2FUSDC').target).toBe('/v1/orderbook/ETH%2FUSDC');
  });

  it('GET /trades with pair, limit and the configurable cursor parameter', async () => {
    const data = {
      pair: 'BTC/USDC',
      trades: [{ tradeId: 't1', price: '64000', quantity: '0.1', executedAt: '2025-01-01T00:00:00Z' }],
      nextCursor: 'n2',
    };
    h.api.on('GET', '/v1/trades', ok(data));
    await expect(h.client.getTrades({ pair: 'BTC/USDC', limit: 10, cursor: 'n1' })).resolves.toEqual(data);
    const req = only('GET', '/v1/trades');
    expect(req.query).toEqual({ pair: 'BTC/USDC', limit: '10', cursor: 'n1' });
    expect(req.headers.authorization).toBeUndefined();

    h.api.reset();
    h.api.on('GET', '/v1/trades', ok(data));
    await h.make({ cursorParam: { trades: 'after' } }).getTrades({ cursor: 'n1' });
    expect(only('GET', '/v1/trades').query).toEqual({ after: 'n1' });
  });
});

describe('authenticated endpoints', () => {
  it('GET /account sends Authorization: Bearer by default', async () => {
    h.api.on('GET', '/v1/account', ok(ACCOUNT));
    await expect(h.client.getAccount()).resolves.toEqual(ACCOUNT);
    const req = only('GET', '/v1/account');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(req.headers['x-api-key']).toBeUndefined();
  });

  it('sends X-API-Key instead when configured', async () => {
    h.api.on('GET', '/v1/account', ok(ACCOUNT));
    await h.make({ authHeader: 'x-api-key' }).getAccount();
    const req = only('GET', '/v1/account');
    expect(req.headers['x-api-key']).toBe(API_KEY);
    expect(req.headers.authorization).toBeUndefined();
  });

  it('GET /orders defaults refreshWallet=false and sends every filter', async () => {
    const data = { orders: [ORDER], pagination: { limit: 50, cursor: null, hasMore: false } };
    h.api.on('GET', '/v1/orders', ok(data));
    await expect(
      h.client.listOrders({
        pair: 'BTC/USDC',
        status: 'PARTIALLY_FILLED',
        side: 'SELL',
        from: new Date('2025-01-01T00:00:00Z'),
        to: '2025-01-02T00:00:00Z',
        limit: 20,
        cursor: 'k1',
      }),
    ).resolves.toEqual(data);
    const req = only('GET', '/v1/orders');
    expect(req.query).toEqual({
      pair: 'BTC/USDC',
      status: 'PARTIALLY_FILLED',
      side: 'SELL',
      from: '2025-01-01T00:00:00.000Z',
      to: '2025-01-02T00:00:00Z',
      refreshWallet: 'false',
      limit: '20',
      cursor: 'k1',
    });
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('GET /orders sends refreshWallet=true only when asked', async () => {
    h.api.on(
      'GET',
      '/v1/orders',
      ok({ orders: [], pagination: { limit: 50, cursor: null, hasMore: false } }),
    );
    await h.client.listOrders();
    await h.client.listOrders({ refreshWallet: true, status: 'ALL' });
    const [a, b] = h.api.requestsTo('GET', '/v1/orders');
    expect(a!.query).toEqual({ refreshWallet: 'false' });
    expect(b!.query).toEqual({ refreshWallet: 'true', status: 'ALL' });
  });

  it('GET /orders/{orderId} returns the order, id URL-encoded', async () => {
    h.api.on('GET', '/v1/orders/o%2F1', ok({ order: order({ orderId: 'o/1' }) }));
    const got = await h.client.getOrder('o/1');
    expect(got.orderId).toBe('o/1');
    expect(got.price).toBe('64000.5');
    expect(only('GET', '/v1/orders/o%2F1').headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('GET /balances normalises to one entry per instrument', async () => {
    h.api.on(
      'GET',
      '/v1/balances',
      ok({ balances: [{ instrument: 'USDC', available: '100.5', locked: '20' }] }),
    );
    await expect(h.client.getBalances()).resolves.toEqual([
      { instrument: 'USDC', available: '100.5', locked: '20' },
    ]);
    const req = only('GET', '/v1/balances');
    expect(req.target).toBe('/v1/balances');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('POST /orders returns a 202 prepare with its signing envelope', async () => {
    const sig = signing(h.submitHost.origin);
    h.api.on(
      'POST',
      '/v1/orders',
      ok({ order: order({ status: null, contractId: null }), signing: sig }, 202),
    );
    const res = await h.client.prepareOrder(PREPARE_BODY);
    expect(res.status).toBe(202);
    expect(res.order.status).toBeNull();
    expect(res.signing).toEqual(sig);
    const req = only('POST', '/v1/orders');
    expect(JSON.parse(req.body)).toEqual(PREPARE_BODY);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it.each([
    ['null', null],
    ['absent', undefined],
    ['an envelope with requiresSignature false and null fields', NOTHING_TO_SIGN],
  ])('POST /orders 201: already resting, nothing to sign (signing %s)', async (_form, signing) => {
    h.api.on('POST', '/v1/orders', ok({ order: order(), signing }, 201));
    await expect(h.client.prepareOrder(PREPARE_BODY)).resolves.toMatchObject({ status: 201, signing: null });
  });

  it('POST /orders 202 with an envelope that asks for nothing is a protocol error', async () => {
    h.api.on('POST', '/v1/orders', ok({ order: order(), signing: { requiresSignature: false } }, 202));
    await expect(h.client.prepareOrder(PREPARE_BODY)).rejects.toMatchObject({ code: 'CLIENT_PROTOCOL' });
  });

  it('POST /orders/{contractId}/cancel with and without a reason', async () => {
    const sig = signing(h.submitHost.origin);
    h.api.on('POST', '/v1/orders/c%3A1/cancel', ok({ cancelled: false, order: order(), signing: sig }, 202));
    const res = await h.client.prepareCancel('c:1', { reason: 'reprice' });
    expect(res).toMatchObject({ status: 202, cancelled: false, signing: sig });
    await h.client.prepareCancel('c:1');
    const [withReason, bare] = h.api.requestsTo('POST', '/v1/orders/c%3A1/cancel');
    expect(JSON.parse(withReason!.body)).toEqual({ reason: 'reprice' });
    expect(bare!.body).toBe('');
    expect(bare!.headers['content-type']).toBeUndefined();
    expect(bare!.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('POST /orders/cancel always yields NOT_SUPPORTED', async () => {
    h.api.on('POST', '/v1/orders/cancel', fail(404, 'NOT_SUPPORTED'));
    await expect(h.client.cancelAllOrders()).rejects.toMatchObject({ code: 'NOT_SUPPORTED', status: 404 });
    h.api.on('POST', '/v1/orders/cancel', ok({}));
    await expect(h.client.cancelAllOrders()).rejects.toMatchObject({ code: 'NOT_SUPPORTED', status: 200 });
    expect(h.api.requestsTo('POST', '/v1/orders/cancel')).toHaveLength(2);
  });

  it('rejects dot-segment ids instead of letting the URL parser rewrite the path', async () => {
    await expect(h.client.getOrder('..')).rejects.toBeInstanceOf(RangeError);
    expect(h.api.requests).toHaveLength(0);
  });
});

describe('pagination walk over GET /orders', () => {
  const page = (ids: string[], cursor: string | null) =>
    ok({
      orders: ids.map((orderId) => order({ orderId })),
      pagination: { limit: 2, cursor, hasMore: cursor !== null },
    });

  it('follows cursors until hasMore is false', async () => {
    h.api.on('GET', '/v1/orders', (req) =>
      req.query.cursor === undefined
        ? page(['a', 'b'], 'p2')
        : req.query.cursor === 'p2'
          ? page(['c', 'd'], 'p3')
          : page(['e'], null),
    );
    const ids: string[] = [];
    for await (const o of h.client.iterateOrders({ status: 'ALL', limit: 2 })) ids.push(o.orderId);
    expect(ids).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(h.api.requests.map((r) => r.query.cursor)).toEqual([undefined, 'p2', 'p3']);
    expect(h.api.requests.every((r) => r.query.refreshWallet === 'false' && r.query.status === 'ALL')).toBe(
      true,
    );
  });

  it('uses the configured cursor parameter name', async () => {
    h.api.on('GET', '/v1/orders', (req) => (req.query.page_token ? page(['b'], null) : page(['a'], 'x')));
    const c = h.make({ cursorParam: 'page_token' });
    const pages = [];
    for await (const p of c.orderPages()) pages.push(p.orders.length);
    expect(pages).toEqual([1, 1]);
    expect(h.api.requests[1]!.query).toEqual({ refreshWallet: 'false', page_token: 'x' });
  });

  it('fails, not truncates, past maxPages', async () => {
    let n = 0;
    h.api.on('GET', '/v1/orders', () => page([`o${n}`], `p${++n}`));
    const seen: string[] = [];
    const walk = async () => {
      for await (const o of h.client.iterateOrders({}, { maxPages: 3 })) seen.push(o.orderId);
    };
    const err = await walk().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(VenueError);
    expect((err as VenueError).code).toBe('CLIENT_PROTOCOL');
    expect(seen).toEqual(['o0', 'o1', 'o2']);
    expect(h.api.requests).toHaveLength(3);
  });

  it('fails on a cursor that repeats', async () => {
    h.api.on('GET', '/v1/orders', page(['a'], 'same'));
    const walk = async () => {
      for await (const _ of h.client.orderPages()) {
        // drain
      }
    };
    await expect(walk()).rejects.toMatchObject({ code: 'CLIENT_PROTOCOL' });
    expect(h.api.requests).toHaveLength(2);
  });
});
