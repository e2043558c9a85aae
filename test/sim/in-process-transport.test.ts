import { describe, expect, it } from 'vitest';
import { timeoutSignal } from '../../src/core/clock.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../src/sim/in-process-transport.js';
import type { TransportRequest } from '../../src/venue/transport.js';
import { inProcessVenue } from './support/in-process.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' };

function req(url: string, init: Partial<TransportRequest> = {}): TransportRequest {
  return { method: 'GET', url: new URL(url), headers: {}, signal: new AbortController().signal, ...init };
}

describe('InProcessTransport', () => {
  it('drives a whole placement through the Transport interface: prepare, sign, submit to signing.submitUrl', async () => {
    const v = inProcessVenue();
    const t = v.venue.createTransport({
      baseUrl: 'http://localhost:9000/api/v1',
      submitUrl: 'http://localhost:9001/submit',
    });
    const auth = { authorization: `Bearer ${v.apiKey}` };
    const prep = await t.request(
      req('http://localhost:9000/api/v1/orders', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify(LIMIT),
      }),
    );
    expect(prep.status).toBe(202);
    const { order, signing } = (
      JSON.parse(prep.body) as { data: { order: { orderId: string }; signing: Record<string, string> } }
    ).data;
    expect(signing['submitUrl']).toBe('http://localhost:9001/submit');
    const body = JSON.stringify({
      partyId: v.partyId,
      commandId: signing['commandId'],
      signature: v.key.sign(signing['preparedTransactionHash']!),
      publicKey: v.key.publicKeySpki,
      submitToken: signing['submitToken'],
      prepared: {
        preparedTransactionHash: signing['preparedTransactionHash'],
        hashingSchemeVersion: signing['hashingSchemeVersion'],
      },
    });
    const sub = await t.request(req(signing['submitUrl']!, { method: 'POST', body }));
    expect([sub.status, sub.body]).toEqual([200, '']);
    await v.fake.tickAsync(0);
    const read = await t.request(
      req(`http://localhost:9000/api/v1/orders/${order.orderId}`, { headers: auth }),
    );
    expect((JSON.parse(read.body) as { data: { order: { status: string } } }).data.order.status).toBe('OPEN');
    expect(v.venue.truth.submits()[0]!.path).toBe('/submit');
  });

  it('reaches the admin endpoints on the base origin', async () => {
    const v = inProcessVenue();
    const t = v.venue.createTransport();
    const res = await t.request(req('http://127.0.0.1:8710/admin/truth/orders'));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ ok: true, data: { orders: [] } });
  });

  it('fails like a refused connection for any other origin', async () => {
    const v = inProcessVenue();
    const t = v.venue.createTransport();
    await expect(t.request(req('http://elsewhere.test/v1/pairs'))).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('honours the AbortSignal under fake timers: a realistic prepare outlives a short timeout', async () => {
    const v = inProcessVenue({ latency: 'realistic' });
    const t = v.venue.createTransport();
    const { signal } = timeoutSignal(v.venue.clock, 5_000);
    const p = t.request(
      req(`${IN_PROCESS_BASE_URL}/orders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${v.apiKey}` },
        body: JSON.stringify(LIMIT),
        signal,
      }),
    );
    const outcome = p.then(
      (r) => r.status,
      (e: unknown) => (e as Error).name,
    );
    await v.fake.tickAsync(5_000);
    expect(await outcome).toBe('TimeoutError');
    // The venue carried on: the prepare exists and its call ends when its latency is over.
    await v.fake.tickAsync(10_000);
    const call = v.venue.truth.prepares()[0]!;
    expect(call).toMatchObject({ status: 202, clientAborted: true });
  });

  it('rejects at once when the signal is already aborted, and after close', async () => {
    const v = inProcessVenue();
    const t = v.venue.createTransport();
    const ac = new AbortController();
    ac.abort(new DOMException('gone', 'AbortError'));
    await expect(t.request(req(`${IN_PROCESS_BASE_URL}/pairs`, { signal: ac.signal }))).rejects.toMatchObject(
      { name: 'AbortError' },
    );
    expect(v.venue.truth.calls()).toEqual([]);
    await t.close();
    await expect(t.request(req(`${IN_PROCESS_BASE_URL}/pairs`))).rejects.toThrow(/closed/);
  });

  it('routes the default submit URL to the submission host', async () => {
    const v = inProcessVenue();
    const t = v.venue.createTransport();
    const res = await t.request(req(IN_PROCESS_SUBMIT_URL, { method: 'POST', body: '{}' }));
    expect(res.status).toBe(400);
    expect(v.venue.truth.calls()[0]).toMatchObject({
      host: 'submit',
      endpoint: 'submit',
      verdict: 'malformed',
    });
  });
});
