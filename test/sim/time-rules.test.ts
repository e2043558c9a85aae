import { describe, expect, it } from 'vitest';
import type FakeTimers from '@sinonjs/fake-timers';
import { bookOf, inProcessVenue, prepared, type InProcessVenue, type Parsed } from './support/in-process.js';

/** Ticks the fake clock until `p` settles; returns its value and the fake time it took. */
async function timed<T>(
  fake: FakeTimers.Clock,
  p: Promise<T>,
  stepMs = 50,
): Promise<{ ms: number; value: T }> {
  const start = fake.now;
  let settled = false;
  let value: T | undefined;
  void p.then((v) => {
    settled = true;
    value = v;
  });
  while (!settled) await fake.tickAsync(stepMs);
  return { ms: fake.now - start, value: value as T };
}

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

describe('latency profile: realistic (fake clock)', () => {
  const v: InProcessVenue = inProcessVenue({ latency: 'realistic' });

  it('prepare answers in 9–14 s, cancel prepare in 11–23 s, submit in 18–20 s, OPEN ~12 s after', async () => {
    const prep = await timed(v.fake, v.api('POST', '/orders', LIMIT));
    expect(prep.value.status).toBe(202);
    expect(prep.ms).toBeGreaterThanOrEqual(9_000);
    expect(prep.ms).toBeLessThanOrEqual(14_050);
    const { order, signing } = prepared(prep.value);
    const sub = await timed(v.fake, v.submit(signing));
    expect(sub.value.status).toBe(200);
    expect(sub.ms).toBeGreaterThanOrEqual(18_000);
    expect(sub.ms).toBeLessThanOrEqual(20_050);
    const answeredAt = v.fake.now;
    let openAt = 0;
    while (openAt === 0) {
      await v.fake.tickAsync(100);
      const read = await timed(v.fake, v.api('GET', `/orders/${order.orderId}`), 10);
      if ((read.value.json?.data as { order: { status: string } }).order.status === 'OPEN')
        openAt = v.fake.now;
    }
    expect(openAt - answeredAt).toBeGreaterThanOrEqual(11_000);
    expect(openAt - answeredAt).toBeLessThanOrEqual(13_500);
    const contractId = (await timed(v.fake, v.order(order.orderId), 10)).value.contractId!;
    const cancel = await timed(v.fake, v.api('POST', `/orders/${contractId}/cancel`));
    expect(cancel.value.status).toBe(202);
    expect(cancel.ms).toBeGreaterThanOrEqual(11_000);
    expect(cancel.ms).toBeLessThanOrEqual(23_050);
  });

  it('balances: a cold cache takes over 10 s, then warm calls take under a second', async () => {
    const cold = await timed(v.fake, v.api('GET', '/balances'));
    expect(cold.ms).toBeGreaterThanOrEqual(10_500);
    expect(cold.ms).toBeLessThanOrEqual(14_050);
    const warm = await timed(v.fake, v.api('GET', '/balances'), 10);
    expect(warm.ms).toBeGreaterThanOrEqual(300);
    expect(warm.ms).toBeLessThanOrEqual(1_010);
  });

  it('GET /orders takes tens of seconds with refreshWallet (the default), under a second without', async () => {
    const refresh = await timed(v.fake, v.api('GET', '/orders'));
    expect(refresh.ms).toBeGreaterThanOrEqual(25_000);
    expect(refresh.ms).toBeLessThanOrEqual(40_050);
    const quick = await timed(v.fake, v.api('GET', '/orders?refreshWallet=false'), 10);
    expect(quick.ms).toBeLessThanOrEqual(1_010);
  });

  it('other reads and early refusals take 50–300 ms', async () => {
    const calls = [
      () => v.api('GET', '/pairs'),
      () => v.api('GET', '/orderbook/BTC%2FUSDC'),
      () => v.api('POST', '/orders', { ...LIMIT, side: 'X' }),
    ];
    for (const call of calls) {
      const r = await timed(v.fake, call(), 5);
      expect(r.ms).toBeGreaterThanOrEqual(50);
      expect(r.ms).toBeLessThanOrEqual(305);
    }
  });
});

describe('latency profile: fast and overrides', () => {
  it('fast scales everything by 0.05', async () => {
    const v = inProcessVenue({ latency: 'fast' });
    const r = await timed(v.fake, v.api('POST', '/orders', LIMIT), 5);
    expect(r.ms).toBeGreaterThanOrEqual(450);
    expect(r.ms).toBeLessThanOrEqual(705);
  });

  it('a single value is overridable in config', async () => {
    const v = inProcessVenue({ config: { latency: { profile: 'instant', overrides: { prepare: 1234 } } } });
    const r = await timed(v.fake, v.api('POST', '/orders', LIMIT), 1);
    expect(r.ms).toBe(1234);
    expect((await v.api('GET', '/pairs')).status).toBe(200);
  });
});

describe('deadlines and windows (fake clock)', () => {
  const prepare = async (v: InProcessVenue, body: object = LIMIT): Promise<Parsed> =>
    v.api('POST', '/orders', body);

  it('the prepared transaction is cached for exactly 5 minutes', async () => {
    const v = inProcessVenue();
    const a = await prepare(v);
    const b = await prepare(v);
    await v.fake.tickAsync(5 * 60_000 - 1);
    expect((await v.submit(prepared(a).signing)).status).toBe(200);
    await v.fake.tickAsync(1);
    const late = await v.submit(prepared(b).signing);
    expect([late.status, late.json?.error?.code]).toEqual([410, 'CACHE_EXPIRED']);
  });

  it('the submitToken lives 20 minutes even when the cache would outlive it', async () => {
    const v = inProcessVenue({ config: { timing: { preparedTtlMs: 30 * 60_000 } } });
    const a = await prepare(v);
    const b = await prepare(v);
    await v.fake.tickAsync(20 * 60_000 - 1);
    expect((await v.submit(prepared(a).signing)).status).toBe(200);
    await v.fake.tickAsync(1);
    const late = await v.submit(prepared(b).signing);
    expect(late.status).toBe(502);
    expect(v.venue.truth.submits().at(-1)!.verdict).toBe('token-expired');
  });

  it('ordersPerMinute is a sliding 60 s window of prepares', async () => {
    const v = inProcessVenue({ account: { ordersPerMinute: 3 } });
    // Prepares at t = 0, 20 s and 40 s fill the window.
    for (let i = 0; i < 3; i++) {
      expect((await prepare(v)).status).toBe(202);
      await v.fake.tickAsync(20_000);
    }
    // At t = 60 s the prepare of t = 0 has left the window: one slot, then full again.
    expect((await prepare(v)).status).toBe(202);
    const refused = await prepare(v);
    expect([refused.status, refused.json?.error?.code, refused.json?.error?.['limit']]).toEqual([
      429,
      'RATE_LIMITED',
      3,
    ]);
    await v.fake.tickAsync(20_000);
    expect((await prepare(v)).status).toBe(202);
  });

  it('an API key with an expiry answers API_KEY_EXPIRED from that time', async () => {
    const v = inProcessVenue();
    const prefix = v.apiKey.slice(6, v.apiKey.indexOf('.'));
    v.venue.operator.setKeyExpiry(prefix, v.fake.now + 1_000);
    expect((await v.api('GET', '/account')).status).toBe(200);
    await v.fake.tickAsync(1_000);
    const r = await v.api('GET', '/account');
    expect([r.status, r.json?.error?.code]).toEqual([401, 'API_KEY_EXPIRED']);
  });

  it('a submitted placement that never confirms blocks the party’s prepares until its deadline', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'no-commit', at: 1 });
    const a = await prepare(v);
    expect((await v.submit(prepared(a).signing)).status).toBe(200);
    await v.fake.tickAsync(60_000);
    expect((await prepare(v)).json?.error?.code).toBe('LEDGER_COMMAND_REJECTED');
    await v.fake.tickAsync(4 * 60_000);
    expect((await v.order(prepared(a).order.orderId)).status).toBe('REJECTED');
    expect((await prepare(v)).status).toBe(202);
  });

  it('a submitted placement whose commit would land past the 5-minute deadline never commits', async () => {
    const v = inProcessVenue({
      config: { latency: { profile: 'instant', overrides: { confirm: [20_000, 20_000] } } },
    });
    const a = await prepare(v);
    await v.fake.tickAsync(5 * 60_000 - 10_000);
    expect((await v.submit(prepared(a).signing)).status).toBe(200);
    await v.fake.tickAsync(20_000);
    const order = await v.order(prepared(a).order.orderId);
    expect([order.status, order.contractId]).toEqual(['REJECTED', null]);
    expect(v.venue.truth.commits().at(-1)).toMatchObject({ ok: false, reason: 'past-deadline' });
    expect(v.balances()['USDC']?.locked).toBe('0');
  });

  it('the book projection lags by up to bookProjectionLagMs', async () => {
    const v = inProcessVenue({ config: { bookProjectionLagMs: 1_000 } });
    const book = async () => bookOf(await v.api('GET', '/orderbook/BTC%2FUSDC'));
    expect((await book()).bids).toEqual([]);
    await v.fake.tickAsync(100);
    await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    expect((await book()).bids).toEqual([]);
    await v.fake.tickAsync(899);
    expect((await book()).bids).toEqual([]);
    await v.fake.tickAsync(1);
    expect((await book()).bids).toEqual([['60000', '0.01']]);
  });
});
