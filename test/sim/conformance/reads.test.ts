import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import {
  Account,
  BalancesData,
  OrderBook,
  OrderData,
  OrdersData,
  PairsData,
  TradesData,
} from '../../../src/venue/schemas.js';
import { type SimHarness, errBody, okData, startSimHarness } from '../../support/sim-harness.js';

/** Section 4 reads: pairs, account, orders (filters, pagination), order, order book, trades, balances. */
describe('reads', () => {
  let h: SimHarness;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    h = await startSimHarness({ account: { maxOpenOrders: 20, ordersPerMinute: 25 } });
    // A small history: two resting BTC bids, one resting ETH ask, one cancelled, one filled, one partial.
    ids['bid1'] = (await h.place({ side: 'BUY', price: '50000', quantity: '0.01' })).orderId;
    ids['bid2'] = (await h.place({ side: 'BUY', price: '50000', quantity: '0.02' })).orderId;
    ids['ethAsk'] = (await h.place({ pair: 'ETH/USDC', side: 'SELL', price: '3500', quantity: '1' })).orderId;
    const c = await h.place({ side: 'BUY', price: '40000', quantity: '0.01' });
    await h.cancel(c.contractId!);
    ids['cancelled'] = c.orderId;
    ids['filled'] = (await h.place({ side: 'SELL', price: '70000', quantity: '0.01' })).orderId;
    ids['partial'] = (await h.place({ side: 'SELL', price: '71000', quantity: '0.02' })).orderId;
    h.venue.market.takeLiquidity('BTC/USDC', 'BUY', dec('0.02'), dec('71000'));
  });
  afterAll(() => h.close());

  const list = async (query: string) => okData(await h.api('GET', `/orders${query}`), OrdersData);

  it('GET /pairs lists both pairs with minQuoteAmount and feeSymbol', async () => {
    const { pairs } = okData(await h.api('GET', '/pairs', { auth: 'none' }), PairsData);
    expect(pairs).toEqual([
      { pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
      { pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' },
    ]);
  });

  it('GET /account shows the account, its prefix and its limits', async () => {
    expect(okData(await h.api('GET', '/account'), Account)).toEqual({
      name: 'Test Market Maker',
      slug: 'testmm',
      partyId: h.partyId,
      status: 'ACTIVE',
      feeExempt: true,
      clientOrderIdPrefix: 'testmm-',
      limits: { allowedPairs: 'all', maxOpenOrders: 20, ordersPerMinute: 25 },
    });
  });

  it('GET /orders defaults to OPEN: every resting status, newest first, with default limit 50', async () => {
    const res = await list('');
    expect(res.orders.map((o) => o.orderId)).toEqual([
      ids['partial'],
      ids['ethAsk'],
      ids['bid2'],
      ids['bid1'],
    ]);
    expect(res.orders[0]!.status).toBe('PARTIALLY_FILLED');
    expect(res.pagination).toEqual({ limit: 50, cursor: null, hasMore: false });
    expect((await list('?status=OPEN')).orders).toEqual(res.orders);
  });

  it('GET /orders status ALL returns the full history, any single status filters exactly', async () => {
    expect((await list('?status=ALL')).orders).toHaveLength(6);
    expect((await list('?status=FILLED')).orders.map((o) => o.orderId)).toEqual([ids['filled']]);
    expect((await list('?status=CANCELLED')).orders.map((o) => o.orderId)).toEqual([ids['cancelled']]);
    expect((await list('?status=PARTIALLY_FILLED')).orders.map((o) => o.orderId)).toEqual([ids['partial']]);
    const bad = await h.api('GET', '/orders?status=SLEEPING');
    expect([bad.status, errBody(bad).error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('GET /orders filters by pair, side and creation time', async () => {
    expect((await list('?status=ALL&pair=ETH%2FUSDC')).orders.map((o) => o.orderId)).toEqual([ids['ethAsk']]);
    expect((await list('?status=ALL&side=SELL')).orders).toHaveLength(3);
    const all = (await list('?status=ALL')).orders;
    const third = all[3]!.timestamp!;
    const from = await list(`?status=ALL&from=${encodeURIComponent(third)}`);
    expect(from.orders.length).toBeGreaterThan(0);
    expect(from.orders.every((o) => o.timestamp! >= third)).toBe(true);
    const to = await list(`?status=ALL&to=${encodeURIComponent(third)}`);
    expect(to.orders.length).toBeGreaterThan(0);
    expect(to.orders.every((o) => o.timestamp! <= third)).toBe(true);
    expect(from.orders.length + to.orders.length).toBeGreaterThanOrEqual(all.length);
    expect(from.orders.length + to.orders.length).toBeGreaterThanOrEqual(6);
    const bad = await h.api('GET', '/orders?from=yesterday');
    expect(errBody(bad).error.code).toBe('VALIDATION_ERROR');
  });

  it('GET /orders paginates with limit and the cursor query parameter', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    const pages: number[] = [];
    do {
      const page: Awaited<ReturnType<typeof list>> = await list(
        `?status=ALL&limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      );
      pages.push(page.orders.length);
      seen.push(...page.orders.map((o) => o.orderId));
      expect(page.pagination.limit).toBe(4);
      expect(page.pagination.hasMore).toBe(page.pagination.cursor !== null);
      cursor = page.pagination.cursor;
    } while (cursor !== null);
    expect(pages).toEqual([4, 2]);
    expect(new Set(seen).size).toBe(6);
    expect(seen).toEqual((await list('?status=ALL')).orders.map((o) => o.orderId));
  });

  it('GET /orders/{orderId} reads the caller’s order; another participant’s is 404 CONTRACT_NOT_FOUND', async () => {
    expect(okData(await h.api('GET', `/orders/${ids['filled']}`), OrderData).order.status).toBe('FILLED');
    const other = h.venue.registerAccount({ name: 'Other', slug: 'other' });
    const res = await h.api('GET', `/orders/${ids['filled']}`, { apiKey: other.apiKey });
    expect([res.status, errBody(res).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    const missing = await h.api('GET', '/orders/not-an-order');
    expect([missing.status, errBody(missing).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    expect((await h.api('GET', '/orders', { apiKey: other.apiKey })).text).toContain('"orders":[]');
  });

  it('GET /orderbook/{pair} aggregates by price level, bids descending, asks ascending, with asOf', async () => {
    h.venue.market.setBackgroundLiquidity(
      'BTC/USDC',
      [
        [dec('50000'), dec('1')],
        [dec('49990'), dec('2')],
      ],
      [
        [dec('72000'), dec('0.5')],
        [dec('73000'), dec('0.7')],
      ],
    );
    const book = okData(await h.api('GET', '/orderbook/BTC%2FUSDC', { auth: 'none' }), OrderBook);
    expect(book.pair).toBe('BTC/USDC');
    expect(book.bids).toEqual([
      ['50000', '1.03'],
      ['49990', '2'],
    ]);
    expect(book.asks).toEqual([
      ['71000', '0.01'],
      ['72000', '0.5'],
      ['73000', '0.7'],
    ]);
    expect(book.asOf.source).toBe('projection');
    expect(book.asOf.sequence).toBeGreaterThan(0);
    const shallow = okData(await h.api('GET', '/orderbook/BTC%2FUSDC?depth=1'), OrderBook);
    expect([shallow.bids.length, shallow.asks.length]).toEqual([1, 1]);
    const unknown = await h.api('GET', '/orderbook/DOGE%2FUSDC');
    expect(errBody(unknown).error.code).toBe('VALIDATION_ERROR');
  });

  it('GET /trades: newest first, no attribution, paged by nextCursor, filterable by pair', async () => {
    const res = okData(await h.api('GET', '/trades?pair=BTC%2FUSDC', { auth: 'none' }), TradesData);
    expect(res.pair).toBe('BTC/USDC');
    expect(res.trades.map((t) => [t.price, t.quantity])).toEqual([
      ['71000', '0.01'],
      ['70000', '0.01'],
    ]);
    for (const t of res.trades)
      expect(Object.keys(t).sort()).toEqual(['executedAt', 'price', 'quantity', 'tradeId']);
    expect(res.nextCursor).toBeNull();
    const first = okData(await h.api('GET', '/trades?limit=1'), TradesData);
    expect(first.trades).toHaveLength(1);
    const second = okData(await h.api('GET', `/trades?limit=1&cursor=${first.nextCursor}`), TradesData);
    expect(second.trades[0]!.tradeId).not.toBe(first.trades[0]!.tradeId);
    expect(second.nextCursor).toBeNull();
    const eth = okData(await h.api('GET', '/trades?pair=ETH%2FUSDC'), TradesData);
    expect(eth.trades).toEqual([]);
  });

  it('GET /balances answers {balances: [{instrument, available, locked}]} and takes no parameters', async () => {
    const res = await h.api('GET', '/balances');
    const balances = okData(res, BalancesData);
    expect(balances.map((b) => b.instrument)).toEqual(['BTC', 'ETH', 'USDC']);
    const usdc = balances.find((b) => b.instrument === 'USDC')!;
    expect(usdc.locked).toBe('1500');
    expect(dec(usdc.available).plus(usdc.locked).toFixed()).toBe(dec('100000').plus(700).plus(710).toFixed());
    const raw = JSON.parse(res.text) as { ok: boolean; data: { balances: unknown } };
    expect([raw.ok, Array.isArray(raw.data.balances)]).toEqual([true, true]);
    const bad = await h.api('GET', '/balances?token=BTC');
    expect([bad.status, errBody(bad).error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('answers unknown routes with 404 in the error envelope', async () => {
    const res = await h.api('GET', '/nothing-here');
    expect(res.status).toBe(404);
    expect(errBody(res).ok).toBe(false);
  });
});
