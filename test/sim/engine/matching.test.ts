import { describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { bookOf, inProcessVenue, prepared } from '../support/in-process.js';

describe('matching: price-time priority', () => {
  it('sweeps the best price first, then the earliest order at a price', async () => {
    const v = inProcessVenue();
    const a = await v.place({ side: 'SELL', price: '61000', quantity: '0.01' });
    const b = await v.place({ side: 'SELL', price: '61000', quantity: '0.01' });
    const c = await v.place({ side: 'SELL', price: '60500', quantity: '0.01' });
    expect(v.take('BTC/USDC', 'BUY', '0.015', '61000')).toBe('0.015');
    expect((await v.order(c.orderId)).status).toBe('FILLED');
    expect((await v.order(a.orderId)).filled).toBe('0.005');
    expect((await v.order(b.orderId)).filled).toBe('0');
    const trades = v.venue.truth.trades();
    expect(trades.map((t) => [t.price, t.quantity, t.maker.orderId])).toEqual([
      ['60500', '0.01', c.orderId],
      ['61000', '0.005', a.orderId],
    ]);
  });

  it('never executes beyond the taker limit price', async () => {
    const v = inProcessVenue();
    await v.place({ side: 'SELL', price: '61000', quantity: '0.01' });
    expect(v.take('BTC/USDC', 'BUY', '1', '60999.99')).toBe('0');
    v.background('BTC/USDC', [], [['60990', '0.3']]);
    expect(v.take('BTC/USDC', 'BUY', '1', '61000')).toBe('0.31');
  });

  it('keeps a background level’s time priority when a refresh leaves its price unchanged', async () => {
    const v = inProcessVenue();
    v.background('BTC/USDC', [['59000', '1']], []);
    const mine = await v.place({ side: 'BUY', price: '59000', quantity: '0.01' });
    v.background('BTC/USDC', [['59000', '2']], []);
    v.take('BTC/USDC', 'SELL', '1', '59000');
    expect((await v.order(mine.orderId)).filled).toBe('0');
  });
});

describe('fills: rotation, residual expiry, both legs', () => {
  it('a partial fill rotates contractId, keeps orderId, and the old contract is gone for cancel', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'SELL', price: '60000', quantity: '0.01' });
    v.take('BTC/USDC', 'BUY', '0.004', '60000');
    const after = await v.order(o.orderId);
    expect(after.status).toBe('PARTIALLY_FILLED');
    expect(after.orderId).toBe(o.orderId);
    expect(after.contractId).not.toBe(o.contractId);
    expect(after.filled).toBe('0.004');
    const stale = await v.api('POST', `/orders/${o.contractId}/cancel`);
    expect([stale.status, stale.json?.error?.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    const truth = v.venue.truth.order(o.orderId)!;
    expect(truth.contractIds).toEqual([o.contractId, after.contractId]);
    expect(truth.fills[0]).toMatchObject({
      role: 'maker',
      contractIdBefore: o.contractId,
      contractIdAfter: after.contractId,
    });
  });

  it('a fill leaving a residual below minQuoteAmount expires it and releases its lock', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'SELL', price: '60000', quantity: '0.001' });
    expect(v.balances()['BTC']).toEqual({ available: '9.999', locked: '0.001' });
    v.take('BTC/USDC', 'BUY', '0.0009', '60000');
    const after = await v.order(o.orderId);
    expect(after.status).toBe('EXPIRED');
    expect(after.filled).toBe('0.0009');
    expect(v.balances()['BTC']).toEqual({ available: '9.9991', locked: '0' });
    expect(v.balances()['USDC']!.available).toBe('100054');
  });

  it('a fill moves both legs in one step: BUY maker pays locked quote and receives base', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    expect(v.balances()['USDC']).toEqual({ available: '99400', locked: '600' });
    const before = v.venue.truth.balances(v.partyId).length;
    v.take('BTC/USDC', 'SELL', '0.004', '60000');
    expect(v.balances()['USDC']).toEqual({ available: '99400', locked: '360' });
    expect(v.balances()['BTC']).toEqual({ available: '10.004', locked: '0' });
    // One snapshot for the whole fill: both legs changed together.
    const snaps = v.venue.truth.balances(v.partyId).slice(before);
    expect(snaps).toHaveLength(1);
    expect(snaps[0]!.balances['BTC']!.available).toBe('10.004');
    expect(snaps[0]!.balances['USDC']!.locked).toBe('360');
    expect((await v.order(o.orderId)).filled).toBe('0.004');
  });

  it('a SELL maker pays locked base and receives quote; a full fill reads FILLED with nothing locked', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'SELL', price: '3000', quantity: '1', pair: 'ETH/USDC' });
    expect(v.balances()['ETH']).toEqual({ available: '99', locked: '1' });
    v.take('ETH/USDC', 'BUY', '5', '3100');
    expect((await v.order(o.orderId)).status).toBe('FILLED');
    expect(v.balances()['ETH']).toEqual({ available: '99', locked: '0' });
    expect(v.balances()['USDC']).toEqual({ available: '103000', locked: '0' });
  });
});

describe('an order crossing the book at commit', () => {
  it('executes as a taker at the resting prices, then rests the residual', async () => {
    const v = inProcessVenue();
    v.background(
      'BTC/USDC',
      [],
      [
        ['60100', '0.005'],
        ['60200', '1'],
      ],
    );
    const o = await v.place({ side: 'BUY', price: '60150', quantity: '0.01' });
    expect(o.status).toBe('PARTIALLY_FILLED');
    expect(o.filled).toBe('0.005');
    // Paid 0.005 × 60100; the price improvement is unlocked; the residual locks 0.005 × 60150.
    expect(v.balances()['USDC']).toEqual({ available: '99398.75', locked: '300.75' });
    expect(v.balances()['BTC']!.available).toBe('10.005');
    const book = await v.api('GET', '/orderbook/BTC%2FUSDC');
    expect(bookOf(book)).toMatchObject({ bids: [['60150', '0.005']], asks: [['60200', '1']] });
  });

  it('background liquidity crossing an account order executes against it at the account price', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    v.background('BTC/USDC', [], [['59990', '0.004']]);
    expect((await v.order(o.orderId)).filled).toBe('0.004');
    expect(v.venue.truth.trades()[0]).toMatchObject({ price: '60000', takerSide: 'SELL' });
    const book = await v.api('GET', '/orderbook/BTC%2FUSDC');
    expect(bookOf(book).asks).toEqual([]);
  });

  it('a MARKET order executes immediately and its unfilled rest expires', async () => {
    const v = inProcessVenue();
    v.background('BTC/USDC', [], [['60000', '0.002']]);
    const prep = await v.api('POST', '/orders', {
      pair: 'BTC/USDC',
      side: 'BUY',
      type: 'MARKET',
      quantity: '0.003',
    });
    expect(prep.status).toBe(202);
    const { order, signing } = prepared(prep);
    expect(order.price).toBeNull();
    await v.submit(signing);
    await v.fake.tickAsync(0);
    const o = await v.order(order.orderId);
    expect([o.status, o.filled]).toEqual(['EXPIRED', '0.002']);
    expect(v.balances()['USDC']).toEqual({ available: '99880', locked: '0' });
  });
});

describe('settlement failures', () => {
  it('a missing preapproval on the account side fails the settlement: the taker skips the order', async () => {
    const v = inProcessVenue();
    const o = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    v.venue.operator.removePreapproval(v.slug, 'BTC');
    expect(v.take('BTC/USDC', 'SELL', '0.01', '59000')).toBe('0');
    expect((await v.order(o.orderId)).filled).toBe('0');
    expect(
      v.venue.truth.events().some((e) => e.type === 'settlement.failed' && e['orderId'] === o.orderId),
    ).toBe(true);
  });

  it('withdrawing locked funds strands the order: no fill, no cancel, until the operator clears it', async () => {
    const v = inProcessVenue({ account: { balances: { USDC: '1000', BTC: '0' } } });
    const o = await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    expect(v.balances()['USDC']).toEqual({ available: '400', locked: '600' });
    const { strandedOrderIds } = v.venue.operator.withdraw(v.slug, 'USDC', dec('500'));
    expect(strandedOrderIds).toEqual([o.orderId]);
    expect(v.balances()['USDC']).toEqual({ available: '0', locked: '500' });
    expect(v.take('BTC/USDC', 'SELL', '0.01', '60000')).toBe('0');
    const cancelled = await v.cancel(o.contractId!);
    expect(cancelled.status).toBe('OPEN');
    const failed = v.venue.truth.commits().filter((c) => c.kind === 'cancel');
    expect(failed.map((c) => [c.ok, c.reason?.includes('stranded')])).toEqual([[false, true]]);
    v.venue.operator.forceCancel(o.orderId);
    expect((await v.order(o.orderId)).status).toBe('CANCELLED');
    expect(v.balances()['USDC']).toEqual({ available: '500', locked: '0' });
  });
});
