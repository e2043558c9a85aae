import { describe, expect, it } from 'vitest';
import { timeoutSignal } from '../../src/core/clock.js';
import { IN_PROCESS_BASE_URL } from '../../src/sim/in-process-transport.js';
import { SimVenue } from '../../src/sim/sim-venue.js';
import { testSimConfig } from '../support/sim-harness.js';
import { bookOf, inProcessVenue, prepared } from './support/in-process.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

describe('faults: prepare', () => {
  it('a 5xx at the Nth call, without effect: nothing was prepared', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'prepare', status: 503, at: 2 });
    expect((await v.api('POST', '/orders', LIMIT)).status).toBe(202);
    const r = await v.api('POST', '/orders', { ...LIMIT, clientOrderId: 'testmm-x' });
    expect([r.status, r.json?.error?.code]).toEqual([503, 'INTERNAL_ERROR']);
    expect(v.venue.truth.orders().filter((o) => o.clientOrderId === 'testmm-x')).toEqual([]);
    expect((await v.api('POST', '/orders', LIMIT)).status).toBe(202);
    const fault = v.venue.truth.events().find((e) => e.type === 'fault')!;
    expect(fault).toMatchObject({ kind: 'error', endpoint: 'prepare', callNumber: 2 });
  });

  it('a 5xx with effect: the retry with the same clientOrderId gets the same pending prepare', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'prepare', status: 500, effect: true, at: 1 });
    const body = { ...LIMIT, clientOrderId: 'testmm-retry' };
    expect((await v.api('POST', '/orders', body)).status).toBe(500);
    const retry = await v.api('POST', '/orders', body);
    expect(retry.status).toBe(202);
    expect(v.venue.truth.orders().map((o) => o.orderId)).toEqual([prepared(retry).order.orderId]);
  });

  it('a hang never answers until the client gives up; with effect the prepare happened', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'hang', endpoint: 'prepare', effect: true, at: 1 });
    const transport = v.venue.createTransport();
    const { signal, dispose } = timeoutSignal(v.venue.clock, 35_000);
    const pending = transport.request({
      method: 'POST',
      url: new URL(`${IN_PROCESS_BASE_URL}/orders`),
      headers: { authorization: `Bearer ${v.apiKey}` },
      body: JSON.stringify({ ...LIMIT, clientOrderId: 'testmm-hang' }),
      signal,
    });
    const outcome = pending.then(
      () => 'answered',
      (err: unknown) => (err instanceof DOMException ? err.name : 'other'),
    );
    await v.fake.tickAsync(34_999);
    expect(v.venue.truth.calls().at(-1)!.endedAt).toBeNull();
    await v.fake.tickAsync(1);
    expect(await outcome).toBe('TimeoutError');
    dispose();
    await v.fake.tickAsync(0);
    const call = v.venue.truth.calls().at(-1)!;
    expect([call.clientAborted, call.faults]).toEqual([true, ['fault-1']]);
    // The prepare took effect: the retry is idempotent.
    const retry = await v.api('POST', '/orders', { ...LIMIT, clientOrderId: 'testmm-hang' });
    expect(prepared(retry).order.orderId).toBe(call.orderId);
  });

  it('a 429 burst answers RATE_LIMITED for `times` calls, then recovers', async () => {
    const v = inProcessVenue({ account: { ordersPerMinute: 7 } });
    v.venue.addFault({ kind: 'rate-limit', endpoint: 'prepare', at: 1, times: 3 });
    for (let i = 0; i < 3; i++) {
      const r = await v.api('POST', '/orders', LIMIT);
      expect([r.status, r.json?.error?.code, r.json?.error?.['limit']]).toEqual([429, 'RATE_LIMITED', 7]);
    }
    expect((await v.api('POST', '/orders', LIMIT)).status).toBe(202);
    expect(v.venue.truth.orders()).toHaveLength(1);
  });

  it('a latency spike delays the answer by extraMs', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'latency-spike', endpoint: 'orders', extraMs: 5_000, at: 1 });
    let done = false;
    const p = v.api('GET', '/orders').then((r) => ((done = true), r));
    await v.fake.tickAsync(4_999);
    expect(done).toBe(false);
    await v.fake.tickAsync(1);
    expect((await p).status).toBe(200);
  });

  it('a non-JSON 502 body, as a proxy sends it', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'account', status: 502, nonJson: true, at: 1 });
    const r = await v.api('GET', '/account');
    expect(r.status).toBe(502);
    expect(r.headers['content-type']).toBe('text/html');
    expect(r.body).toContain('502 Bad Gateway');
    expect(r.json).toBeUndefined();
  });
});

describe('faults: submit', () => {
  async function prepareOne(v: ReturnType<typeof inProcessVenue>) {
    const r = await v.api('POST', '/orders', LIMIT);
    const { order, signing } = prepared(r);
    return { orderId: order.orderId, signing };
  }

  it.each([502, 504])('%i with an actual commit: the order rests anyway', async (status) => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'submit', status, effect: true, at: 1 });
    const { orderId, signing } = await prepareOne(v);
    const r = await v.submit(signing);
    expect([r.status, r.json?.error?.code]).toEqual([status, 'INTERNAL_ERROR']);
    await v.fake.tickAsync(0);
    expect((await v.order(orderId)).status).toBe('OPEN');
    expect(v.venue.truth.submits()[0]).toMatchObject({ status, verdict: 'valid', faults: ['fault-1'] });
  });

  it.each([502, 504])('%i without a commit: nothing happened, the token is still good', async (status) => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'submit', status, at: 1 });
    const { orderId, signing } = await prepareOne(v);
    expect((await v.submit(signing)).status).toBe(status);
    await v.fake.tickAsync(0);
    expect((await v.order(orderId)).status).toBeNull();
    expect(v.venue.truth.submits()[0]!.verdict).toBe('not-processed');
    expect((await v.submit(signing)).status).toBe(200);
    await v.fake.tickAsync(0);
    expect((await v.order(orderId)).status).toBe('OPEN');
  });

  it('200 that never commits', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'no-commit', at: 1 });
    const { orderId, signing } = await prepareOne(v);
    expect((await v.submit(signing)).status).toBe(200);
    await v.fake.tickAsync(60_000);
    expect((await v.order(orderId)).status).toBeNull();
    expect(v.venue.truth.commits()).toEqual([]);
  });

  it('the generic 502 message is the same for a fault and a bad signature', async () => {
    const v = inProcessVenue();
    v.venue.addFault({ kind: 'error', endpoint: 'submit', status: 502, at: 1 });
    const { signing } = await prepareOne(v);
    const fault = await v.submit(signing);
    const bad = await v.submit(signing, { signature: Buffer.alloc(64).toString('base64') });
    expect(fault.json?.error?.message).toBe(bad.json?.error?.message);
  });
});

describe('faults: book, scheduling and configuration', () => {
  it('a stale projection stops refreshing for durationMs', async () => {
    const v = inProcessVenue({ config: { bookProjectionLagMs: 100 } });
    v.venue.addFault({ kind: 'stale-book', durationMs: 10_000, at: 1 });
    expect(bookOf(await v.api('GET', '/orderbook/BTC%2FUSDC')).bids).toEqual([]);
    await v.place({ side: 'BUY', price: '60000', quantity: '0.01' });
    await v.fake.tickAsync(9_000);
    expect(bookOf(await v.api('GET', '/orderbook/BTC%2FUSDC')).bids).toEqual([]);
    await v.fake.tickAsync(1_100);
    expect(bookOf(await v.api('GET', '/orderbook/BTC%2FUSDC')).bids).toEqual([['60000', '0.01']]);
  });

  it('fires by probability from a seeded stream: same seed, same pattern', async () => {
    const pattern = async () => {
      const v = inProcessVenue();
      v.venue.addFault({ kind: 'error', endpoint: 'pairs', status: 500, probability: 0.5 });
      const out: number[] = [];
      for (let i = 0; i < 20; i++) out.push((await v.api('GET', '/pairs')).status);
      return out;
    };
    const a = await pattern();
    expect(a).toEqual(await pattern());
    expect(a).toContain(500);
    expect(a).toContain(200);
  });

  it('counts per endpoint kind, can be removed at runtime, and comes from the config', async () => {
    const venue = new SimVenue({
      config: testSimConfig({
        faults: [{ kind: 'error', endpoint: 'trades', status: 500, at: 2, times: 2 }],
      }),
    });
    const t = venue.createTransport();
    const get = async (path: string) =>
      (
        await t.request({
          method: 'GET',
          url: new URL(`${IN_PROCESS_BASE_URL}${path}`),
          headers: {},
          signal: new AbortController().signal,
        })
      ).status;
    expect([
      await get('/pairs'),
      await get('/trades'),
      await get('/pairs'),
      await get('/trades'),
      await get('/trades'),
      await get('/trades'),
    ]).toEqual([200, 200, 200, 500, 500, 200]);
    const id = venue.addFault({ kind: 'error', endpoint: 'pairs', status: 500, probability: 1 });
    expect(await get('/pairs')).toBe(500);
    expect(venue.faults.remove(id)).toBe(true);
    expect(await get('/pairs')).toBe(200);
    expect(venue.faults.list().map((f) => [f.id, f.fired])).toEqual([['fault-1', 2]]);
    await venue.close();
  });
});
