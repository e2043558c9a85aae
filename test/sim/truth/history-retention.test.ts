import { describe, expect, it } from 'vitest';
import { prepared, inProcessVenue } from '../support/in-process.js';

/**
 * The paper venue's bounded history: ended orders, dead commands and old public trades are
 * forgotten after the retention; anything a client can still act on stays.
 */

const HOUR = 60 * 60_000;
const RETENTION = { endedOrdersMs: HOUR, publicTrades: 3, sweepMs: 60_000 };

describe('venue history retention (paper mode)', () => {
  it('forgets an order an hour after it ended, and keeps a resting one however old', async () => {
    const v = inProcessVenue();
    v.venue.engine.retainHistory(RETENTION);
    const resting = await v.place({
      side: 'BUY',
      price: '50000',
      quantity: '0.01',
      clientOrderId: 'testmm-a',
    });
    const ended = await v.place({ side: 'BUY', price: '50001', quantity: '0.01', clientOrderId: 'testmm-b' });
    const cancelled = await v.cancel(ended.contractId!);
    expect(cancelled.status).toBe('CANCELLED');

    await v.fake.tickAsync(HOUR - 120_000);
    expect((await v.api('GET', `/orders/${ended.orderId}`)).status).toBe(200);
    await v.fake.tickAsync(180_000);
    const gone = await v.api('GET', `/orders/${ended.orderId}`);
    expect([gone.status, gone.json?.error?.code]).toEqual([404, 'CONTRACT_NOT_FOUND']);
    expect(v.venue.engine.core.orders.byContractId(ended.contractId!)).toBeUndefined();
    const history = await v.api('GET', '/orders?status=ALL');
    const ids = (history.json?.data as { orders: { orderId: string }[] }).orders.map((o) => o.orderId);
    expect(ids).toEqual([resting.orderId]);

    // Hours later the resting order is still there and still cancellable by its contract.
    await v.fake.tickAsync(5 * HOUR);
    expect((await v.order(resting.orderId)).status).toBe('OPEN');
    expect((await v.cancel(resting.contractId!)).status).toBe('CANCELLED');
  });

  it('forgets a dead prepared command only after its submitToken died, never one awaiting its commit', async () => {
    const v = inProcessVenue();
    const retention = v.venue.engine.retainHistory({ ...RETENTION, sweepMs: HOUR * 24 });
    const commands = v.venue.engine.core.commands;
    const order = { pair: 'BTC/USDC', type: 'LIMIT', side: 'BUY', price: '1000', quantity: '0.1' };
    const prepareBuy = async () => prepared(await v.api('POST', '/orders', order));
    const abandoned = await prepareBuy();
    // Its order expired at the 5-minute deadline and goes an hour later; the command's token
    // dies at 20 minutes and the command an hour after that.
    await v.fake.tickAsync(HOUR + 20 * 60_000 - 1_000);
    expect(retention.sweep()).toMatchObject({ orders: 1, commands: 0 });
    await v.fake.tickAsync(2_000);
    expect(retention.sweep()).toMatchObject({ orders: 0, commands: 1 });
    expect(commands.get(abandoned.signing.commandId)).toBeUndefined();
    // A late submission of the forgotten command gets the host's generic 502, as after 20 min.
    const late = await v.submit(abandoned.signing);
    expect(late.status).toBe(502);

    const pending = await prepareBuy();
    // Accepted by the host, its commit never lands: the command stays `submitted`.
    v.venue.addFault({ kind: 'no-commit', endpoint: 'submit' });
    expect((await v.submit(pending.signing)).status).toBe(200);
    const cmd = commands.get(pending.signing.commandId)!;
    expect(cmd.state).toBe('submitted');
    // Even a command whose token died is kept while a commit may still land for it.
    cmd.tokenExpiresAt = 0;
    expect(retention.sweep().commands).toBe(0);
    expect(commands.get(pending.signing.commandId)).toBe(cmd);
  });

  it('keeps the most recent public trades only', async () => {
    const v = inProcessVenue();
    const retention = v.venue.engine.retainHistory(RETENTION);
    for (let i = 0; i < 5; i++) {
      v.background('BTC/USDC', [], [[String(60_000 + i), '0.01']]);
      await v.place({ side: 'SELL', price: String(59_000 + i), quantity: '0.01' });
      expect(v.take('BTC/USDC', 'BUY', '0.01', String(59_000 + i))).toBe('0.01');
    }
    expect(retention.sweep().trades).toBe(2);
    const trades = await v.api('GET', '/trades?pair=BTC/USDC&limit=10');
    const prices = (trades.json?.data as { trades: { price: string }[] }).trades.map((t) => t.price);
    expect(prices).toEqual(['59004', '59003', '59002']);
  });

  it('refuses a retention shorter than the submitToken lifetime', () => {
    const v = inProcessVenue();
    expect(() => v.venue.engine.retainHistory({ endedOrdersMs: 10 * 60_000, publicTrades: 10 })).toThrow(
      /20-minute/,
    );
  });
});
