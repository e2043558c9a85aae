import { afterEach, describe, expect, it } from 'vitest';
import { BalancesData, OrderBook, PrepareOrderData } from '../../../src/venue/schemas.js';
import {
  errBody,
  okData,
  type SimHarness,
  fakeTimeHarnessPerSuite,
  simHarnessPerSuite,
  startSimHarness,
} from '../../support/sim-harness.js';
import { NOTHING_TO_SIGN } from '../../support/venue-wire.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

/** Section 4, POST /orders: the prepare rules, each with its own code. */
describe('POST /orders (prepare)', () => {
  const h = simHarnessPerSuite({ account: { allowedPairs: ['BTC/USDC'] } });

  it('answers 202 with a full signing envelope; nothing rests and nothing is locked', async () => {
    const res = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}env` } });
    expect(res.status).toBe(202);
    const { order, signing } = okData(res, PrepareOrderData);
    expect(order).toMatchObject({
      status: null,
      contractId: null,
      pair: 'BTC/USDC',
      side: 'BUY',
      type: 'LIMIT',
      price: '60000',
      quantity: '0.01',
      filled: '0',
      clientOrderId: 'testmm-env',
      providerFeeAmount: '0',
      cancelFee: { charged: false, amount: '0' },
    });
    expect(order.correlationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(order.timestamp!).toISOString()).toBe(order.timestamp);
    expect(new Date(order.updatedAt!).toISOString()).toBe(order.updatedAt);
    expect(signing).toMatchObject({
      requiresSignature: true,
      hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V2',
      submitUrl: h.submitUrl,
      status: 'PENDING_SIGNATURE',
      prepared: {},
    });
    expect(Buffer.from(signing!.preparedTransactionHash, 'base64')).toHaveLength(32);
    expect(signing!.commandId).toMatch(/^[0-9a-f-]{36}$/);
    expect(signing!.submitToken).toMatch(/^st_/);
    expect(typeof signing!.signingUrl).toBe('string');
    expect(new URL(signing!.submitUrl).pathname).toBe('/submit');
    const book = okData(await h.api('GET', '/orderbook/BTC%2FUSDC'), OrderBook);
    expect(book.bids).toEqual([]);
    const balances = okData(await h.api('GET', '/balances'), BalancesData);
    expect(balances.find((b) => b.instrument === 'USDC')).toEqual({
      instrument: 'USDC',
      available: '100000',
      locked: '0',
    });
  });

  it('refuses a pair not on the account with 403 PAIR_NOT_ALLOWED and allowedPairs', async () => {
    for (const pair of ['ETH/USDC', 'DOGE/USDC']) {
      const res = await h.api('POST', '/orders', { body: { ...LIMIT, pair } });
      expect(res.status).toBe(403);
      expect(errBody(res).error).toMatchObject({ code: 'PAIR_NOT_ALLOWED', allowedPairs: ['BTC/USDC'] });
    }
  });

  it.each([
    ['an unknown side', { side: 'HOLD' }],
    ['an unknown type', { type: 'STOP' }],
    ['a LIMIT without price', { price: undefined }],
    ['a price with 11 decimal places', { price: '60000.00000000001' }],
    ['a price with 11 decimal places written with trailing zeros', { price: '60000.00000000000' }],
    ['a price in exponent form', { price: '6e4' }],
    ['a numeric price', { price: 60000 }],
    ['a non-decimal quantity', { quantity: 'lots' }],
    ['a zero quantity', { quantity: '0' }],
    ['a notional below minQuoteAmount', { quantity: '0.0001' }],
    ['a price on a MARKET order', { type: 'MARKET' }],
  ])('refuses %s with 400 VALIDATION_ERROR', async (_name, change) => {
    const res = await h.api('POST', '/orders', { body: { ...LIMIT, ...change } });
    expect([res.status, errBody(res).error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('rejects, not rounds, a price past 10 decimals but accepts exactly 10', async () => {
    const ok = await h.api('POST', '/orders', { body: { ...LIMIT, price: '60000.0000000001' } });
    expect(ok.status).toBe(202);
    expect(okData(ok, PrepareOrderData).order.price).toBe('60000.0000000001');
  });

  it('refuses a body that is not JSON with 400 VALIDATION_ERROR', async () => {
    const res = await h.api('POST', '/orders', { rawBody: '{"pair":' });
    expect([res.status, errBody(res).error.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('refuses a clientOrderId without the prefix (INVALID_CLIENT_ORDER_ID, expectedPrefix) and over 120 chars (VALIDATION_ERROR)', async () => {
    const bad = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: 'other-1' } });
    expect(bad.status).toBe(400);
    expect(errBody(bad).error).toMatchObject({ code: 'INVALID_CLIENT_ORDER_ID', expectedPrefix: 'testmm-' });
    const long = await h.api('POST', '/orders', {
      body: { ...LIMIT, clientOrderId: `${h.prefix}${'x'.repeat(114)}` },
    });
    expect([long.status, errBody(long).error.code]).toEqual([400, 'VALIDATION_ERROR']);
    const max = await h.api('POST', '/orders', {
      body: { ...LIMIT, clientOrderId: `${h.prefix}${'x'.repeat(113)}` },
    });
    expect(max.status).toBe(202);
  });

  it('refuses an order whose spending token is short with 400 INSUFFICIENT_BALANCE (BUY spends quote, SELL base)', async () => {
    const buy = await h.api('POST', '/orders', { body: { ...LIMIT, quantity: '1.7' } });
    expect([buy.status, errBody(buy).error.code]).toEqual([400, 'INSUFFICIENT_BALANCE']);
    const sell = await h.api('POST', '/orders', { body: { ...LIMIT, side: 'SELL', quantity: '10.5' } });
    expect([sell.status, errBody(sell).error.code]).toEqual([400, 'INSUFFICIENT_BALANCE']);
    // Exactly the available balance is enough.
    expect(
      (await h.api('POST', '/orders', { body: { ...LIMIT, side: 'SELL', quantity: '10' } })).status,
    ).toBe(202);
  });

  it('counts funds locked by resting orders as unavailable', async () => {
    const resting = await h.place({ side: 'BUY', price: '50000', quantity: '1.9' });
    expect(resting.status).toBe('OPEN');
    const res = await h.api('POST', '/orders', { body: { ...LIMIT, price: '10000', quantity: '0.6' } });
    expect([res.status, errBody(res).error.code]).toEqual([400, 'INSUFFICIENT_BALANCE']);
    await h.cancel(resting.contractId!);
  });

  it('refuses an otherwise valid order without a transfer preapproval with 400 LEDGER_COMMAND_REJECTED', async () => {
    h.venue.operator.removePreapproval(h.slug, 'BTC');
    try {
      const res = await h.api('POST', '/orders', { body: LIMIT });
      expect([res.status, errBody(res).error.code]).toEqual([400, 'LEDGER_COMMAND_REJECTED']);
    } finally {
      h.venue.operator.addPreapproval(h.slug, 'BTC');
    }
  });

  it('refuses placements of SUSPENDED and DISABLED accounts with 403 MARKET_MAKER_SUSPENDED', async () => {
    for (const status of ['SUSPENDED', 'DISABLED'] as const) {
      h.venue.operator.setAccountStatus(h.slug, status);
      const res = await h.api('POST', '/orders', { body: LIMIT });
      expect([res.status, errBody(res).error.code]).toEqual([403, 'MARKET_MAKER_SUSPENDED']);
    }
    h.venue.operator.reactivate(h.slug);
    expect((await h.api('POST', '/orders', { body: LIMIT })).status).toBe(202);
  });

  it('answers a repeated clientOrderId still awaiting its signature with the same 202', async () => {
    const body = { ...LIMIT, clientOrderId: `${h.prefix}again` };
    const first = okData(await h.api('POST', '/orders', { body }), PrepareOrderData);
    const second = await h.api('POST', '/orders', { body });
    expect(second.status).toBe(202);
    const again = okData(second, PrepareOrderData);
    expect(again.order.orderId).toBe(first.order.orderId);
    expect(again.signing).toEqual(first.signing);
  });

  it('answers a repeated clientOrderId of a live order with 201 and that order, nothing to sign', async () => {
    const placed = await h.place({
      side: 'BUY',
      price: '40000',
      quantity: '0.01',
      clientOrderId: `${h.prefix}live`,
    });
    const res = await h.api('POST', '/orders', {
      body: { ...LIMIT, price: '40000', clientOrderId: `${h.prefix}live` },
    });
    expect(res.status).toBe(201);
    // The envelope's shape with nothing to sign (an independent client reads every field), …
    const wire = JSON.parse(res.text) as { data: { signing: Record<string, unknown> } };
    expect(wire.data.signing).toEqual(NOTHING_TO_SIGN);
    // … which the daemon's client reads as no envelope.
    const data = okData(res, PrepareOrderData);
    expect(data.signing).toBeNull();
    expect(data.order).toMatchObject({
      orderId: placed.orderId,
      status: 'OPEN',
      contractId: placed.contractId,
    });
    expect(h.venue.truth.orders().filter((o) => o.clientOrderId === `${h.prefix}live`)).toHaveLength(1);
    await h.cancel(placed.contractId!);
  });
});

describe('POST /orders: caps', () => {
  let h: SimHarness;
  afterEach(() => h.close());

  it('answers 429 MAX_OPEN_ORDERS with openOrders and maxOpenOrders at the cap', async () => {
    h = await startSimHarness({ account: { maxOpenOrders: 2 } });
    await h.place({ side: 'BUY', price: '50000', quantity: '0.01' });
    await h.place({ side: 'BUY', price: '50001', quantity: '0.01' });
    const res = await h.api('POST', '/orders', { body: LIMIT });
    expect(res.status).toBe(429);
    expect(errBody(res).error).toMatchObject({ code: 'MAX_OPEN_ORDERS', openOrders: 2, maxOpenOrders: 2 });
  });

  it('answers 429 RATE_LIMITED with limit past ordersPerMinute', async () => {
    h = await startSimHarness({ account: { ordersPerMinute: 3 } });
    for (let i = 0; i < 3; i++) expect((await h.api('POST', '/orders', { body: LIMIT })).status).toBe(202);
    const res = await h.api('POST', '/orders', { body: LIMIT });
    expect(res.status).toBe(429);
    expect(errBody(res).error).toMatchObject({ code: 'RATE_LIMITED', limit: 3 });
    expect(res.headers.get('retry-after')).not.toBeNull();
  });
});

describe('POST /orders: one placement at a time per party', () => {
  const { h, fake } = fakeTimeHarnessPerSuite();

  it('refuses a prepare while the previous placement awaits confirmation with LEDGER_COMMAND_REJECTED', async () => {
    const first = okData(
      await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}a` } }),
      PrepareOrderData,
    );
    expect((await h.submit(first.signing!)).status).toBe(200);
    // Submitted, not committed: the fake clock has not run the commit yet.
    const other = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}b` } });
    expect([other.status, errBody(other).error.code]).toEqual([400, 'LEDGER_COMMAND_REJECTED']);
    const same = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}a` } });
    expect([same.status, errBody(same).error.code]).toEqual([400, 'LEDGER_COMMAND_REJECTED']);
    await fake.tickAsync(0);
    expect((await h.waitForOrder(first.order.orderId, (o) => o.status === 'OPEN')).status).toBe('OPEN');
    const next = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}b` } });
    expect(next.status).toBe(202);
  });
});
