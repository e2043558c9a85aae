import FakeTimers from '@sinonjs/fake-timers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import type { RateLimitEvent } from '../../src/venue/exchange.js';
import { backoffDelay, type RetryEvent } from '../../src/venue/retry.js';
import { fail, ok } from '../support/stub-server.js';
import {
  FakeTransport,
  PREPARE_BODY,
  fakeClient,
  jsonResponse,
  order,
  signing,
  startHarness,
  type Harness,
} from './support/fixtures.js';

describe('backoffDelay', () => {
  const o = { baseDelayMs: 100, maxDelayMs: 1_000 };
  it('grows exponentially between half and all of each step', () => {
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, o, () => 0))).toEqual([50, 100, 200, 400]);
    expect([1, 2, 3, 4].map((n) => backoffDelay(n, o, () => 0.999999))).toEqual([100, 200, 400, 800]);
  });
  it('is capped, and tolerates a misbehaving random', () => {
    expect(backoffDelay(10, o, () => 0.5)).toBe(750);
    expect(backoffDelay(30, o, () => 7)).toBe(1_000);
    expect(backoffDelay(1, o, () => -3)).toBe(50);
  });
});

describe('retries over HTTP', () => {
  let h: Harness;
  const retries: RetryEvent[] = [];
  const limited: RateLimitEvent[] = [];
  beforeAll(async () => {
    h = await startHarness({ onRetry: (e) => retries.push(e), onRateLimited: (e) => limited.push(e) });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    h.api.reset();
    retries.length = 0;
    limited.length = 0;
  });
  const prepared = () =>
    ok({ order: order({ status: null, contractId: null }), signing: signing(h.submitHost.origin) }, 202);

  it('a prepare with clientOrderId retries a 500 with the identical body', async () => {
    h.api.on('POST', '/v1/orders', fail(500, 'INTERNAL_ERROR'), fail(503, 'INTERNAL_ERROR'), prepared());
    await expect(h.client.prepareOrder(PREPARE_BODY)).resolves.toMatchObject({ status: 202 });
    const bodies = h.api.requestsTo('POST', '/v1/orders').map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0]!)).toMatchObject({ clientOrderId: PREPARE_BODY.clientOrderId });
    expect(retries.map((r) => [r.endpoint, r.attempt, r.error.code])).toEqual([
      ['POST /orders', 1, 'INTERNAL_ERROR'],
      ['POST /orders', 2, 'INTERNAL_ERROR'],
    ]);
  });

  it('a prepare retries a dropped connection and an HTML 502', async () => {
    h.api.on(
      'POST',
      '/v1/orders',
      { destroy: true },
      { status: 502, body: '<html>bad gateway</html>' },
      prepared(),
    );
    await expect(h.client.prepareOrder(PREPARE_BODY)).resolves.toMatchObject({ status: 202 });
    expect(retries.map((r) => r.error.code)).toEqual(['CLIENT_NETWORK', 'CLIENT_PROTOCOL']);
    expect(h.api.requests).toHaveLength(3);
  });

  it('a prepare gives up after the bound', async () => {
    h.api.on('POST', '/v1/orders', fail(500, 'INTERNAL_ERROR'));
    await expect(h.client.prepareOrder(PREPARE_BODY)).rejects.toMatchObject({
      code: 'INTERNAL_ERROR',
      status: 500,
    });
    expect(h.api.requests).toHaveLength(3);
  });

  it('a prepare WITHOUT clientOrderId is never retried (not idempotent)', async () => {
    h.api.on('POST', '/v1/orders', fail(500, 'INTERNAL_ERROR'), prepared());
    const { clientOrderId: _, ...bare } = PREPARE_BODY;
    await expect(h.client.prepareOrder(bare)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(h.api.requests).toHaveLength(1);
  });

  it.each([
    [400, 'VALIDATION_ERROR', {}],
    [429, 'RATE_LIMITED', { limit: 30 }],
    [429, 'MAX_OPEN_ORDERS', { openOrders: 5, maxOpenOrders: 5 }],
    [400, 'LEDGER_COMMAND_REJECTED', {}],
  ])('a prepare is not retried on %i %s', async (status, code, extra) => {
    h.api.on('POST', '/v1/orders', fail(status, code, extra), prepared());
    await expect(h.client.prepareOrder(PREPARE_BODY)).rejects.toMatchObject({ code, status, ...extra });
    expect(h.api.requests).toHaveLength(1);
  });

  it('a cancel prepare retries a 502 like a prepare', async () => {
    h.api.on(
      'POST',
      '/v1/orders/c-1/cancel',
      fail(502, 'INTERNAL_ERROR'),
      ok({ cancelled: false, signing: signing(h.submitHost.origin) }, 202),
    );
    await expect(h.client.prepareCancel('c-1', { reason: 'x' })).resolves.toMatchObject({ status: 202 });
    const bodies = h.api.requests.map((r) => r.body);
    expect(bodies).toEqual(['{"reason":"x"}', '{"reason":"x"}']);
  });

  it('a cancel prepare is not retried on 409', async () => {
    h.api.on('POST', '/v1/orders/c-1/cancel', fail(409, 'ORDER_ALREADY_FILLED'));
    await expect(h.client.prepareCancel('c-1')).rejects.toMatchObject({ code: 'ORDER_ALREADY_FILLED' });
    expect(h.api.requests).toHaveLength(1);
  });

  it('a GET retries 500 then 429, surfacing the limit to the rate-limit hook', async () => {
    h.api.on(
      'GET',
      '/v1/orderbook/BTC%2FUSDC',
      fail(500, 'INTERNAL_ERROR'),
      fail(429, 'RATE_LIMITED', { limit: 120 }),
      ok({ pair: 'BTC/USDC', bids: [], asks: [], asOf: { updateId: 1, sequence: 1, source: 's' } }),
    );
    await expect(h.client.getOrderBook('BTC/USDC')).resolves.toMatchObject({ pair: 'BTC/USDC' });
    expect(h.api.requests).toHaveLength(3);
    expect(limited).toHaveLength(1);
    expect(limited[0]).toMatchObject({
      endpoint: 'GET /orderbook/{pair}',
      limit: 120,
      error: { code: 'RATE_LIMITED' },
    });
    expect(retries.map((r) => r.error.code)).toEqual(['INTERNAL_ERROR', 'RATE_LIMITED']);
  });

  it('a GET that keeps failing stops at the configured bound with the last error', async () => {
    h.api.on('GET', '/v1/account', fail(429, 'RATE_LIMITED', { limit: 10 }));
    const c = h.make({ retry: { readAttempts: 5, baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(c.getAccount()).rejects.toMatchObject({ code: 'RATE_LIMITED', status: 429, limit: 10 });
    expect(h.api.requests).toHaveLength(5);
  });

  it('a GET is not retried on a 4xx', async () => {
    h.api.on('GET', '/v1/orders/o-9', fail(404, 'CONTRACT_NOT_FOUND'));
    await expect(h.client.getOrder('o-9')).rejects.toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
    expect(h.api.requests).toHaveLength(1);
  });
});

describe('backoff runs on the injected clock', () => {
  it('waits the jittered backoff before each GET retry, and no longer', async () => {
    const fake = FakeTimers.createClock(0);
    const transport = new FakeTransport().then(
      () => jsonResponse(500, { ok: false, error: { code: 'INTERNAL_ERROR' } }),
      () => jsonResponse(500, { ok: false, error: { code: 'INTERNAL_ERROR' } }),
      () => jsonResponse(200, { ok: true, data: { pairs: [] } }),
    );
    const client = fakeClient(transport, fakeClock(fake), { random: () => 0, retry: { baseDelayMs: 1_000 } });
    const result = client.getPairs();
    await fake.tickAsync(0);
    expect(transport.calls).toHaveLength(1);
    await fake.tickAsync(499);
    expect(transport.calls).toHaveLength(1);
    await fake.tickAsync(1); // first backoff: half of 1 000 with random() = 0
    expect(transport.calls).toHaveLength(2);
    await fake.tickAsync(999);
    expect(transport.calls).toHaveLength(2);
    await fake.tickAsync(1); // second backoff: half of 2 000
    expect(transport.calls).toHaveLength(3);
    await expect(result).resolves.toEqual([]);
  });

  it('a caller abort during the backoff ends the call with CLIENT_ABORTED', async () => {
    const fake = FakeTimers.createClock(0);
    const transport = new FakeTransport(() =>
      jsonResponse(503, { ok: false, error: { code: 'INTERNAL_ERROR' } }),
    );
    const client = fakeClient(transport, fakeClock(fake), { retry: { baseDelayMs: 10_000 } });
    const ac = new AbortController();
    const result = client.getAccount({ signal: ac.signal });
    const settled = result.catch((e: unknown) => e);
    await fake.tickAsync(100);
    ac.abort();
    await expect(settled).resolves.toMatchObject({ code: 'CLIENT_ABORTED' });
    expect(transport.calls).toHaveLength(1);
  });
});
