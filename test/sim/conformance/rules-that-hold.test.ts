import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { OrdersData, PrepareCancelData, PrepareOrderData } from '../../../src/venue/schemas.js';
import { errBody, okData, fakeTimeHarnessPerSuite } from '../../support/sim-harness.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

/** Section 3, "Rules that hold": one test per row of the table, over HTTP. */
describe('section 3: rules that hold', () => {
  const { h, fake } = fakeTimeHarnessPerSuite();

  const order = (id: string) => h.getOrder(id);
  const take = (side: 'BUY' | 'SELL', qty: string, limit: string) => h.take(side, qty, limit);

  it('prepare 202: nothing on the book, status and contractId null; an abandoned prepare expires with no funds committed', async () => {
    const res = await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}abandon` } });
    expect(res.status).toBe(202);
    const { order: o } = okData(res, PrepareOrderData);
    expect([o.status, o.contractId]).toEqual([null, null]);
    expect(h.venue.truth.restingOrders()).toEqual([]);
    await fake.tickAsync(5 * 60_000);
    expect((await order(o.orderId)).status).toBe('EXPIRED');
    expect(h.venue.engine.balancesOf(h.slug)['USDC']).toEqual({ available: '100000', locked: '0' });
    const all = okData(await h.api('GET', '/orders?status=ALL&refreshWallet=false'), OrdersData);
    expect(all.orders.map((x) => x.orderId)).not.toContain(o.orderId);
    // The clientOrderId of an abandoned prepare may start afresh.
    const again = okData(
      await h.api('POST', '/orders', { body: { ...LIMIT, clientOrderId: `${h.prefix}abandon` } }),
      PrepareOrderData,
    );
    expect(again.order.orderId).not.toBe(o.orderId);
  });

  it('prepare 201: a repeated clientOrderId of a live order returns it with nothing to sign', async () => {
    const placed = await h.place({
      side: 'BUY',
      price: '100',
      quantity: '0.2',
      clientOrderId: `${h.prefix}r201`,
    });
    const res = await h.api('POST', '/orders', {
      body: { ...LIMIT, price: '100', quantity: '0.2', clientOrderId: `${h.prefix}r201` },
    });
    expect(res.status).toBe(201);
    expect(okData(res, PrepareOrderData)).toMatchObject({
      order: { orderId: placed.orderId, status: 'OPEN' },
      signing: null,
    });
  });

  it('prepared transaction older than 5 minutes at submission: 410 CACHE_EXPIRED', async () => {
    const { signing } = okData(await h.api('POST', '/orders', { body: LIMIT }), PrepareOrderData);
    await fake.tickAsync(5 * 60_000 - 1);
    const early = await h.api('POST', '/orders', { body: LIMIT }); // keeps time moving with a fresh prepare
    expect(early.status).toBe(202);
    await fake.tickAsync(1);
    const res = await h.submit(signing!);
    expect([res.status, errBody(res).error.code]).toEqual([410, 'CACHE_EXPIRED']);
  });

  it('submission 200: accepted, not resting; the order reads OPEN from GET /orders/{orderId} a little later', async () => {
    const { order: o, signing } = okData(await h.api('POST', '/orders', { body: LIMIT }), PrepareOrderData);
    expect((await h.submit(signing!)).status).toBe(200);
    expect((await order(o.orderId)).status).toBeNull();
    await fake.tickAsync(0);
    expect((await order(o.orderId)).status).toBe('OPEN');
  });

  it('a 200 for a transaction that never confirms: the order never rests, and fails at the deadline', async () => {
    h.venue.addFault({ kind: 'no-commit', at: h.venue.faults.count('submit') + 1 });
    const { order: o, signing } = okData(
      await h.api('POST', '/orders', { body: { ...LIMIT, price: '200', quantity: '0.1' } }),
      PrepareOrderData,
    );
    expect((await h.submit(signing!)).status).toBe(200);
    await fake.tickAsync(60_000);
    expect((await order(o.orderId)).status).toBeNull();
    await fake.tickAsync(4 * 60_000);
    expect((await order(o.orderId)).status).toBe('REJECTED');
    expect(h.venue.truth.commits().at(-1)).toMatchObject({
      orderId: o.orderId,
      ok: false,
      reason: 'never-confirmed',
    });
  });

  it('partial fill: the residual rests under a new contractId with the same orderId; the old one is 404 on cancel', async () => {
    const placed = await h.place({ side: 'SELL', price: '70000', quantity: '0.01' });
    take('BUY', '0.004', '70000');
    const after = await order(placed.orderId);
    expect(after).toMatchObject({ orderId: placed.orderId, status: 'PARTIALLY_FILLED', filled: '0.004' });
    expect(after.contractId).not.toBe(placed.contractId);
    const res = await h.api('POST', `/orders/${placed.contractId}/cancel`);
    expect([res.status, errBody(res).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
  });

  it('a fill that leaves a residual below minQuoteAmount expires the residual', async () => {
    const placed = await h.place({ side: 'SELL', price: '69000', quantity: '0.0003' });
    take('BUY', '0.0002', '69000');
    expect(await order(placed.orderId)).toMatchObject({ status: 'EXPIRED', filled: '0.0002' });
    expect(h.venue.truth.order(placed.orderId)!.lock.amount).toBe('0');
  });

  it('cancel of an order already filled: 409 ORDER_ALREADY_FILLED', async () => {
    const placed = await h.place({ side: 'SELL', price: '72000', quantity: '0.01' });
    take('BUY', '1', '72000');
    const res = await h.api('POST', `/orders/${placed.contractId}/cancel`);
    expect([res.status, errBody(res).error.code]).toEqual([409, 'ORDER_ALREADY_FILLED']);
  });

  it('cancel of an order already cancelled: 409 ORDER_ALREADY_CANCELLED', async () => {
    const placed = await h.place({ side: 'BUY', price: '300', quantity: '0.1' });
    await h.cancel(placed.contractId!);
    const res = await h.api('POST', `/orders/${placed.contractId}/cancel`);
    expect([res.status, errBody(res).error.code]).toEqual([409, 'ORDER_ALREADY_CANCELLED']);
  });

  it('cancel committed: the lock is released in the same transaction', async () => {
    const placed = await h.place({ side: 'BUY', price: '400', quantity: '0.1' });
    const lockedBefore = dec(h.venue.engine.balancesOf(h.slug)['USDC']!.locked);
    const prep = okData(await h.api('POST', `/orders/${placed.contractId}/cancel`), PrepareCancelData);
    await h.submit(prep.signing!);
    const before = h.venue.truth.balances(h.partyId).length;
    await fake.tickAsync(0);
    const snaps = h.venue.truth.balances(h.partyId).slice(before);
    expect(snaps).toHaveLength(1);
    expect(dec(snaps[0]!.balances['USDC']!.locked).toFixed()).toBe(lockedBefore.minus(40).toFixed());
    expect((await order(placed.orderId)).status).toBe('CANCELLED');
  });

  it('a non-ACTIVE account is refused new placements; its resting orders continue unaffected', async () => {
    const placed = await h.place({ side: 'SELL', price: '73000', quantity: '0.01' });
    h.venue.operator.suspend(h.slug);
    const res = await h.api('POST', '/orders', { body: LIMIT });
    expect([res.status, errBody(res).error.code]).toEqual([403, 'MARKET_MAKER_SUSPENDED']);
    take('BUY', '0.01', '73000');
    expect((await order(placed.orderId)).status).toBe('FILLED');
    h.venue.operator.reactivate(h.slug);
  });
});
