import FakeTimers from '@sinonjs/fake-timers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import type { VenueClientOptions } from '../../src/venue/client-options.js';
import type { ResponseEvent } from '../../src/venue/exchange.js';
import { UndiciTransport } from '../../src/venue/undici-transport.js';
import { StubServer } from '../support/stub-server.js';
import {
  FakeTransport,
  PREPARE_BODY,
  SUBMIT_BODY,
  fakeClient,
  jsonResponse,
  order,
  startHarness,
  type Harness,
} from './support/fixtures.js';

const SUBMIT_URL = 'https://submit.venue.test/submit';
const { clientOrderId: _, ...NO_COID } = PREPARE_BODY;

/** A client over a transport that never answers, on a fake clock starting at 0. */
function rig(over: Partial<VenueClientOptions> = {}) {
  const fake = FakeTimers.createClock(0);
  const transport = new FakeTransport();
  const events: ResponseEvent[] = [];
  const client = fakeClient(transport, fakeClock(fake), { onResponse: (e) => events.push(e), ...over });
  return { fake, transport, client, events };
}

/** Settles `p` into a value to inspect, so a rejection is never unhandled while time is ticked. */
function settle<T>(p: Promise<T>): { readonly done: boolean; readonly value: unknown } {
  const box = { done: false, value: undefined as unknown };
  p.then(
    (v) => Object.assign(box, { done: true, value: v }),
    (e: unknown) => Object.assign(box, { done: true, value: e }),
  );
  return box;
}

describe('per-call timeouts on the injected clock (no wall-clock waits)', () => {
  it('a prepare times out at 35 s', async () => {
    const { fake, transport, client, events } = rig();
    const r = settle(client.prepareOrder(NO_COID));
    await fake.tickAsync(34_999);
    expect(r.done).toBe(false);
    await fake.tickAsync(1);
    expect(r.value).toMatchObject({ code: 'CLIENT_TIMEOUT', endpoint: 'POST /orders', status: undefined });
    expect(transport.calls).toHaveLength(1);
    expect(transport.calls[0]!.signal.aborted).toBe(true);
    expect(events).toEqual([
      {
        endpoint: 'POST /orders',
        method: 'POST',
        status: undefined,
        code: 'CLIENT_TIMEOUT',
        durationMs: 35_000,
      },
    ]);
  });

  it('GET /orders waits 10 s, but 30 s (the balances class) when it asks refreshWallet=true', async () => {
    const { fake, client } = rig({ retry: { readAttempts: 1 } });
    const polling = settle(client.listOrders({ status: 'OPEN' }));
    const refreshing = settle(client.listOrders({ status: 'OPEN', refreshWallet: true }));
    await fake.tickAsync(10_000);
    expect(polling.value).toMatchObject({ code: 'CLIENT_TIMEOUT', endpoint: 'GET /orders' });
    expect(refreshing.done).toBe(false);
    await fake.tickAsync(20_000);
    expect(refreshing.value).toMatchObject({ code: 'CLIENT_TIMEOUT', endpoint: 'GET /orders' });
  });

  it('a prepare with clientOrderId is retried after a timeout, each attempt with its own 35 s', async () => {
    const { fake, transport, client } = rig({ retry: { baseDelayMs: 100 } });
    transport.then(
      (req) => new Promise((_, reject) => req.signal.addEventListener('abort', () => reject(new Error('x')))),
      () => jsonResponse(202, { ok: true, data: { order: order(), signing: null } }),
    );
    const r = settle(client.prepareOrder(PREPARE_BODY));
    await fake.tickAsync(35_000);
    expect(transport.calls).toHaveLength(1);
    await fake.tickAsync(50); // backoff: half of 100 with random() = 0
    expect(transport.calls).toHaveLength(2);
    expect(transport.calls[1]!.body).toBe(transport.calls[0]!.body);
    // 202 without signing is a protocol error: proves the second answer was decoded.
    expect(r.value).toMatchObject({ code: 'CLIENT_PROTOCOL', status: 202 });
  });

  it('a cancel prepare times out at 35 s by default', async () => {
    const { fake, client } = rig({ retry: { prepareAttempts: 1 } });
    const r = settle(client.prepareCancel('c-1'));
    await fake.tickAsync(34_999);
    expect(r.done).toBe(false);
    await fake.tickAsync(1);
    expect(r.value).toMatchObject({ code: 'CLIENT_TIMEOUT' });
  });

  it('a submit does not time out at 119 s, does at 130 s, and is sent once: ambiguous', async () => {
    const { fake, transport, client } = rig();
    const r = settle(client.submit(SUBMIT_URL, SUBMIT_BODY));
    await fake.tickAsync(119_000);
    expect(r.done).toBe(false);
    await fake.tickAsync(10_999);
    expect(r.done).toBe(false);
    await fake.tickAsync(1);
    expect(r.value).toMatchObject({ kind: 'ambiguous', error: { code: 'CLIENT_TIMEOUT' } });
    await fake.tickAsync(600_000);
    expect(transport.calls).toHaveLength(1);
  });

  it('a submit that answers at 125 s is accepted', async () => {
    const { fake, transport, client } = rig();
    transport.then(
      () =>
        new Promise((resolve) => {
          fake.setTimeout(() => resolve({ status: 200, headers: {}, body: '' }), 125_000);
        }),
    );
    const r = settle(client.submit(SUBMIT_URL, SUBMIT_BODY));
    await fake.tickAsync(125_000);
    expect(r.value).toEqual({ kind: 'accepted' });
  });

  it('balances gets 30 s and other reads 10 s', async () => {
    const { fake, client } = rig({ retry: { readAttempts: 1 } });
    const balances = settle(client.getBalances());
    const account = settle(client.getAccount());
    await fake.tickAsync(9_999);
    expect(account.done).toBe(false);
    await fake.tickAsync(1);
    expect(account.value).toMatchObject({ code: 'CLIENT_TIMEOUT', endpoint: 'GET /account' });
    await fake.tickAsync(19_999);
    expect(balances.done).toBe(false);
    await fake.tickAsync(1);
    expect(balances.value).toMatchObject({ code: 'CLIENT_TIMEOUT', endpoint: 'GET /balances' });
  });

  it('timeouts are configurable', async () => {
    const { fake, client } = rig({ timeouts: { prepare: 5_000, submit: 200_000 } });
    const p = settle(client.prepareOrder(NO_COID));
    const s = settle(client.submit(SUBMIT_URL, SUBMIT_BODY));
    await fake.tickAsync(5_000);
    expect(p.value).toMatchObject({ code: 'CLIENT_TIMEOUT' });
    await fake.tickAsync(194_999);
    expect(s.done).toBe(false);
    await fake.tickAsync(1);
    expect(s.value).toMatchObject({ kind: 'ambiguous' });
  });

  it('a transport that ignores its signal still cannot hang the call', async () => {
    const fake = FakeTimers.createClock(0);
    const deaf = new FakeTransport(() => new Promise(() => {}));
    const client = fakeClient(deaf, fakeClock(fake), { retry: { readAttempts: 1 } });
    const r = settle(client.getPairs());
    await fake.tickAsync(9_999);
    expect(r.done).toBe(false);
    await fake.tickAsync(1);
    expect(r.value).toMatchObject({ code: 'CLIENT_TIMEOUT' });
  });
});

describe('caller aborts', () => {
  it('an abort mid-call is CLIENT_ABORTED (a submit: ambiguous)', async () => {
    const { fake, client } = rig();
    const ac = new AbortController();
    const read = settle(client.getOrder('o-1', { signal: ac.signal }));
    const sub = settle(client.submit(SUBMIT_URL, SUBMIT_BODY, { signal: ac.signal }));
    await fake.tickAsync(1_000);
    ac.abort();
    await fake.tickAsync(0);
    expect(read.value).toMatchObject({ code: 'CLIENT_ABORTED' });
    expect(sub.value).toMatchObject({ kind: 'ambiguous', error: { code: 'CLIENT_ABORTED' } });
  });

  it('an already-aborted signal sends nothing', async () => {
    const { transport, client, events } = rig();
    const ac = new AbortController();
    ac.abort();
    await expect(client.getAccount({ signal: ac.signal })).rejects.toMatchObject({ code: 'CLIENT_ABORTED' });
    await expect(client.submit(SUBMIT_URL, SUBMIT_BODY, { signal: ac.signal })).resolves.toMatchObject({
      kind: 'rejected',
      error: { code: 'CLIENT_ABORTED' },
    });
    expect(transport.calls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it('a caller signal that is itself a timeout is still the caller abort', async () => {
    const { fake, client } = rig({ retry: { readAttempts: 1 } });
    const ac = new AbortController();
    const r = settle(client.getAccount({ signal: ac.signal }));
    ac.abort(new DOMException('caller deadline', 'TimeoutError'));
    await fake.tickAsync(0);
    expect(r.value).toMatchObject({ code: 'CLIENT_ABORTED' });
  });
});

describe('timeouts and failures over real HTTP', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ timeouts: { read: 150, prepare: 150 }, retry: { readAttempts: 1 } });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(() => {
    h.api.reset();
  });

  it('a server that never answers is CLIENT_TIMEOUT after the configured timeout', async () => {
    h.api.on('GET', '/v1/account', { hang: true });
    const t0 = Date.now();
    await expect(h.client.getAccount()).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('a body stalled past the timeout is CLIENT_TIMEOUT, not CLIENT_PROTOCOL', async () => {
    h.api.on('GET', '/v1/account', { stall: { body: '{"ok":true,', declaredLength: 100 } });
    await expect(h.client.getAccount()).rejects.toMatchObject({ code: 'CLIENT_TIMEOUT' });
  });

  it('a refused connection is CLIENT_NETWORK', async () => {
    const gone = await StubServer.start();
    const origin = gone.origin;
    await gone.close();
    const c = h.make({ baseUrl: `${origin}/v1`, transport: new UndiciTransport({ origins: [origin] }) });
    await expect(c.getAccount()).rejects.toMatchObject({ code: 'CLIENT_NETWORK', status: undefined });
  });
});
