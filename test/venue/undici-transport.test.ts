import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TransportRequest } from '../../src/venue/transport.js';
import { createLiveVenueClient } from '../../src/venue/live-client.js';
import { UndiciTransport } from '../../src/venue/undici-transport.js';
import { StubServer } from '../support/stub-server.js';

let a: StubServer;
let b: StubServer;
let t: UndiciTransport;
beforeAll(async () => {
  a = await StubServer.start();
  b = await StubServer.start();
  t = new UndiciTransport({ origins: [a.origin, `${b.origin}/submit`], connections: 1 });
});
afterAll(async () => {
  await t.close();
  await Promise.all([a.close(), b.close()]);
});
afterEach(() => {
  a.reset();
  b.reset();
});

function get(url: string, headers: Record<string, string> = {}): TransportRequest {
  return { method: 'GET', url: new URL(url), headers, signal: new AbortController().signal };
}

describe('UndiciTransport', () => {
  it('sends method, path, query, headers and body, and reads the whole body', async () => {
    const big = 'x'.repeat(300_000);
    a.on('POST', '/v1/orders', { status: 201, body: big, contentType: 'text/plain' });
    const res = await t.request({
      method: 'POST',
      url: new URL(`${a.origin}/v1/orders?x=1`),
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: '{"a":1}',
      signal: new AbortController().signal,
    });
    expect(res.status).toBe(201);
    expect(res.body).toBe(big);
    expect(res.truncated).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/plain');
    const [req] = a.requests;
    expect(req).toMatchObject({ method: 'POST', target: '/v1/orders?x=1', body: '{"a":1}' });
    expect(req!.headers.authorization).toBe('Bearer k');
  });

  it('keeps connections alive per origin', async () => {
    a.on('GET', '/p', { status: 200, body: 'ok' });
    b.on('GET', '/p', { status: 200, body: 'ok' });
    for (let i = 0; i < 3; i++) {
      await t.request(get(`${a.origin}/p`));
      await t.request(get(`${b.origin}/p`));
    }
    expect(new Set(a.requests.map((r) => r.remotePort)).size).toBe(1);
    expect(new Set(b.requests.map((r) => r.remotePort)).size).toBe(1);
    expect(a.requests[0]!.remotePort).not.toBe(b.requests[0]!.remotePort);
  });

  it('returns the partial body with truncated: true when the body stream fails after the status', async () => {
    a.on('GET', '/t', { status: 503, truncate: { body: '{"ok":false,"err', declaredLength: 1_000 } });
    const res = await t.request(get(`${a.origin}/t`));
    expect(res).toMatchObject({ status: 503, body: '{"ok":false,"err', truncated: true });
  });

  it('rejects when no status arrives', async () => {
    a.on('GET', '/d', { destroy: true });
    await expect(t.request(get(`${a.origin}/d`))).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('rejects when the signal aborts before the answer', async () => {
    a.on('GET', '/h', { hang: true });
    const ac = new AbortController();
    const p = t.request({ ...get(`${a.origin}/h`), signal: ac.signal });
    const reason = new Error('the caller gave up');
    setTimeout(() => ac.abort(reason), 20);
    // The signal's own reason, not a transport error: the caller can tell its abort apart.
    await expect(p).rejects.toBe(reason);
  });

  it('refuses origins it has no pool for, sending nothing', async () => {
    const c = await StubServer.start();
    try {
      await expect(t.request(get(`${c.origin}/p`))).rejects.toThrow(
        `transport has no pool for origin ${c.origin}`,
      );
      expect(c.requests).toHaveLength(0);
    } finally {
      await c.close();
    }
  });

  it('close() is idempotent and later requests reject', async () => {
    const own = new UndiciTransport({ origins: [a.origin] });
    // A path of its own: a request an earlier test aborted may still reach the stub after its reset.
    a.on('GET', '/closing', { status: 200, body: 'ok' });
    await own.request(get(`${a.origin}/closing`));
    await own.close();
    await own.close();
    await expect(own.request(get(`${a.origin}/closing`))).rejects.toThrow('transport is closed');
    expect(a.requestsTo('GET', '/closing')).toHaveLength(1);
  });
});

describe('createLiveVenueClient', () => {
  it('builds a working client over undici pools for both hosts', async () => {
    a.on('GET', '/v1/pairs', { status: 200, json: { ok: true, data: { pairs: [] } } });
    b.on('POST', '/submit', { status: 200, body: '' });
    const client = createLiveVenueClient({
      baseUrl: `${a.origin}/v1/`,
      submitUrl: `${b.origin}/submit`,
      apiKey: 'mm_ak_p.s',
    });
    try {
      await expect(client.getPairs()).resolves.toEqual([]);
      const submitBody = {
        partyId: 'p',
        commandId: 'c',
        signature: 's',
        publicKey: 'k',
        submitToken: 't',
        prepared: { preparedTransactionHash: 'h', hashingSchemeVersion: 'v' },
      };
      await expect(client.submit(`${b.origin}/submit`, submitBody)).resolves.toEqual({ kind: 'accepted' });
      expect(a.requests.map((r) => r.target)).toEqual(['/v1/pairs']);
      expect(b.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
