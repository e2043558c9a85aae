import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { PrepareCancelData } from '../../../src/venue/schemas.js';
import { errBody, okData, fakeTimeHarnessPerSuite } from '../../support/sim-harness.js';

/** Section 4, POST /orders/{contractId}/cancel and POST /orders/cancel. */
describe('cancel', () => {
  const { h, fake } = fakeTimeHarnessPerSuite();

  const order = (id: string) => h.getOrder(id);
  const take = (side: 'BUY' | 'SELL', qty: string, limit: string) => h.take(side, qty, limit);

  it('answers 202 {cancelled: false, order, signing}; the commit cancels and releases the lock together', async () => {
    const placed = await h.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    expect(h.venue.engine.balancesOf(h.slug)['USDC']).toEqual({ available: '99400', locked: '600' });
    const res = await h.api('POST', `/orders/${placed.contractId}/cancel`, { body: { reason: 're-price' } });
    expect(res.status).toBe(202);
    const data = okData(res, PrepareCancelData);
    expect(data.cancelled).toBe(false);
    expect(data.order).toMatchObject({ orderId: placed.orderId, status: 'OPEN' });
    expect(data.signing).toMatchObject({
      requiresSignature: true,
      status: 'PENDING_SIGNATURE',
      submitUrl: h.submitUrl,
    });
    expect((await h.submit(data.signing!)).status).toBe(200);
    expect((await order(placed.orderId)).status).toBe('OPEN');
    await fake.tickAsync(0);
    expect((await order(placed.orderId)).status).toBe('CANCELLED');
    expect(h.venue.engine.balancesOf(h.slug)['USDC']).toEqual({ available: '100000', locked: '0' });
    const commit = h.venue.truth.commits().find((c) => c.kind === 'cancel' && c.orderId === placed.orderId)!;
    const snap = h.venue.truth.balances(h.partyId).find((b) => b.reason === 'cancel-commit')!;
    expect(snap.at).toBe(commit.at);
    expect(snap.balances['USDC']).toEqual({ available: '100000', locked: '0' });
  });

  it('works by the current contractId only: a contract archived by a partial fill is 404 CONTRACT_NOT_FOUND', async () => {
    const placed = await h.place({ side: 'SELL', price: '61000', quantity: '0.01' });
    take('BUY', '0.003', '61000');
    const stale = await h.api('POST', `/orders/${placed.contractId}/cancel`);
    expect([stale.status, errBody(stale).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    const current = (await order(placed.orderId)).contractId!;
    expect(current).not.toBe(placed.contractId);
    expect((await h.cancel(current)).status).toBe('CANCELLED');
  });

  it('answers 404 CONTRACT_NOT_FOUND for an unknown contract and for another party’s', async () => {
    const unknown = await h.api('POST', '/orders/00deadbeef/cancel');
    expect([unknown.status, errBody(unknown).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    const other = h.venue.registerAccount({ name: 'Other', slug: 'other', balances: { USDC: '1000' } });
    const mine = await h.place({ side: 'BUY', price: '100', quantity: '0.2' });
    const res = await h.api('POST', `/orders/${mine.contractId}/cancel`, { apiKey: other.apiKey });
    expect([res.status, errBody(res).error.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    await h.cancel(mine.contractId!);
  });

  it('answers 409 ORDER_ALREADY_FILLED and 409 ORDER_ALREADY_CANCELLED', async () => {
    const filled = await h.place({ side: 'SELL', price: '62000', quantity: '0.01' });
    take('BUY', '0.01', '62000');
    const r1 = await h.api('POST', `/orders/${filled.contractId}/cancel`);
    expect([r1.status, errBody(r1).error.code]).toEqual([409, 'ORDER_ALREADY_FILLED']);
    const cancelled = await h.place({ side: 'BUY', price: '100', quantity: '0.2' });
    await h.cancel(cancelled.contractId!);
    const r2 = await h.api('POST', `/orders/${cancelled.contractId}/cancel`);
    expect([r2.status, errBody(r2).error.code]).toEqual([409, 'ORDER_ALREADY_CANCELLED']);
  });

  it('POST /orders/cancel is always 404 NOT_SUPPORTED', async () => {
    for (const auth of ['bearer', 'none'] as const) {
      const res = await h.api('POST', '/orders/cancel', { auth, body: {} });
      expect([res.status, errBody(res).error.code]).toEqual([404, 'NOT_SUPPORTED']);
    }
  });

  it('fails the commit when the order filled between cancel-prepare and commit; the order stays FILLED', async () => {
    const placed = await h.place({ side: 'SELL', price: '63000', quantity: '0.01' });
    const prep = okData(await h.api('POST', `/orders/${placed.contractId}/cancel`), PrepareCancelData);
    take('BUY', '0.01', '63000');
    expect((await h.submit(prep.signing!)).status).toBe(200);
    await fake.tickAsync(0);
    expect((await order(placed.orderId)).status).toBe('FILLED');
    const commit = h.venue.truth.commits().find((c) => c.commandId === prep.signing!.commandId)!;
    expect(commit).toMatchObject({ ok: false, reason: 'already filled' });
  });

  it('fails the commit when a partial fill archived the contract meanwhile; the residual rests', async () => {
    const placed = await h.place({ side: 'SELL', price: '64000', quantity: '0.01' });
    const prep = okData(await h.api('POST', `/orders/${placed.contractId}/cancel`), PrepareCancelData);
    take('BUY', '0.002', '64000');
    await h.submit(prep.signing!);
    await fake.tickAsync(0);
    expect((await order(placed.orderId)).status).toBe('PARTIALLY_FILLED');
    expect(h.venue.truth.commits().find((c) => c.commandId === prep.signing!.commandId)!.ok).toBe(false);
    await h.cancel((await order(placed.orderId)).contractId!);
  });

  it('runs cancels for one party concurrently', async () => {
    const placed = [];
    for (const price of ['100', '101', '102'])
      placed.push(await h.place({ side: 'BUY', price, quantity: '0.2' }));
    const preps = await Promise.all(placed.map((o) => h.api('POST', `/orders/${o.contractId}/cancel`)));
    const signings = preps.map((r) => okData(r, PrepareCancelData).signing!);
    const submits = await Promise.all(signings.map((s) => h.submit(s)));
    expect(submits.map((s) => s.status)).toEqual([200, 200, 200]);
    await fake.tickAsync(0);
    for (const o of placed) expect((await order(o.orderId)).status).toBe('CANCELLED');
  });

  it('cannot complete the cancel of an order whose backing funds were withdrawn (stranded)', async () => {
    const placed = await h.place({ side: 'SELL', price: '65000', quantity: '0.01' });
    const btc = h.venue.engine.balancesOf(h.slug)['BTC']!;
    h.venue.operator.withdraw(h.slug, 'BTC', dec(btc.available).plus('0.005'));
    const prep = await h.api('POST', `/orders/${placed.contractId}/cancel`);
    expect(prep.status).toBe(202);
    await h.submit(okData(prep, PrepareCancelData).signing!);
    await fake.tickAsync(0);
    expect((await order(placed.orderId)).status).toBe('OPEN');
    const commit = h.venue.truth.commits().at(-1)!;
    expect(commit).toMatchObject({ kind: 'cancel', ok: false });
    expect(commit.reason).toContain('stranded');
    expect(h.venue.truth.order(placed.orderId)!.stranded).toBe(true);
  });
});
