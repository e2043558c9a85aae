import { beforeEach, describe, expect, it } from 'vitest';
import { EXCERPT_MAX } from '../../src/venue/decode.js';
import { VenueError, classify } from '../../src/venue/errors.js';
import type { ResponseEvent } from '../../src/venue/exchange.js';
import { fail, ok, type StubReply } from '../support/stub-server.js';
import {
  ORDER,
  PREPARE_BODY,
  SUBMIT_BODY,
  order,
  signing,
  type Harness,
  caught,
  useHarness,
} from './support/fixtures.js';

let h: Harness;
const harness = useHarness({ retry: { readAttempts: 1, baseDelayMs: 1, maxDelayMs: 5 } });
beforeEach(() => {
  h = harness();
});

const HTML_502 = `<html><head><title>502 Bad Gateway</title></head><body>${'x'.repeat(400)}</body></html>`;

describe('bodies that are not the envelope → CLIENT_PROTOCOL with status and excerpt', () => {
  const cases: { name: string; reply: StubReply; status: number; excerpt: string }[] = [
    { name: 'a 200 that is not JSON', reply: { status: 200, body: 'hello' }, status: 200, excerpt: 'hello' },
    { name: 'a 200 with an empty body', reply: { status: 200, body: '' }, status: 200, excerpt: '' },
    {
      name: 'a 200 JSON without the envelope',
      reply: { status: 200, json: ORDER },
      status: 200,
      excerpt: JSON.stringify(ORDER).slice(0, EXCERPT_MAX),
    },
    {
      name: 'a 200 envelope whose data has the wrong shape',
      reply: ok({ order: { ...ORDER, price: 64000.5 } }),
      status: 200,
      excerpt: JSON.stringify({ ok: true, data: { order: { ...ORDER, price: 64000.5 } } }).slice(
        0,
        EXCERPT_MAX,
      ),
    },
    {
      name: 'an HTML 502 page',
      reply: { status: 502, body: HTML_502, contentType: 'text/html' },
      status: 502,
      excerpt: HTML_502.slice(0, EXCERPT_MAX),
    },
    {
      name: 'a 400 that is JSON but not an error body',
      reply: { status: 400, json: { message: 'bad' } },
      status: 400,
      excerpt: '{"message":"bad"}',
    },
  ];

  it.each(cases)('$name', async ({ reply, status, excerpt }) => {
    h.api.on('GET', '/v1/orders/o-1', reply);
    const err = await caught(h.client.getOrder('o-1'));
    expect(err).toMatchObject({ code: 'CLIENT_PROTOCOL', status, endpoint: 'GET /orders/{orderId}' });
    expect(err.bodyExcerpt).toBe(excerpt);
    expect(err.bodyExcerpt!.length).toBeLessThanOrEqual(EXCERPT_MAX);
  });

  it('a non-JSON 5xx is transient: reads retry, a submit is ambiguous', async () => {
    h.api.on('GET', '/v1/orders/o-1', { status: 502, body: HTML_502, contentType: 'text/html' });
    const err = await caught(h.client.getOrder('o-1'));
    expect(classify(err, 'read')).toBe('retryable');
    expect(classify(err, 'submit')).toBe('ambiguous');
  });

  it('a truncated 200 body (Content-Length larger than sent)', async () => {
    const full = JSON.stringify({ ok: true, data: { order: ORDER } });
    h.api.on('GET', '/v1/orders/o-1', { truncate: { body: full.slice(0, 40), declaredLength: full.length } });
    const err = await caught(h.client.getOrder('o-1'));
    expect(err).toMatchObject({ code: 'CLIENT_PROTOCOL', status: 200, bodyExcerpt: full.slice(0, 40) });
  });

  it('a truncated error body keeps its status', async () => {
    const full = JSON.stringify({ ok: false, error: { code: 'CONTRACT_NOT_FOUND' } });
    h.api.on('GET', '/v1/orders/o-1', {
      truncate: { body: full.slice(0, 20), declaredLength: 500 },
      status: 404,
    });
    const err = await caught(h.client.getOrder('o-1'));
    expect(err).toMatchObject({ code: 'CLIENT_PROTOCOL', status: 404, bodyExcerpt: full.slice(0, 20) });
  });

  it('an {ok:false} body on a 2xx is still an error', async () => {
    h.api.on('GET', '/v1/orders/o-1', {
      status: 200,
      json: { ok: false, error: { code: 'CONTRACT_NOT_FOUND' } },
    });
    await expect(h.client.getOrder('o-1')).rejects.toMatchObject({ code: 'CONTRACT_NOT_FOUND', status: 200 });
  });

  it('a 202 prepare without a signing envelope is a protocol error', async () => {
    h.api.on('POST', '/v1/orders', ok({ order: order({ status: null }) }, 202));
    const err = await caught(h.client.prepareOrder({ ...PREPARE_BODY, clientOrderId: undefined }));
    expect(err).toMatchObject({ code: 'CLIENT_PROTOCOL', status: 202 });
  });

  it('a 200 prepare (contract says 201 or 202) is a protocol error', async () => {
    h.api.on('POST', '/v1/orders', ok({ order: order(), signing: signing(h.submitHost.origin) }, 200));
    const err = await caught(h.client.prepareOrder({ ...PREPARE_BODY, clientOrderId: undefined }));
    expect(err).toMatchObject({ code: 'CLIENT_PROTOCOL', status: 200 });
  });
});

describe('submit bodies', () => {
  const url = () => `${h.submitHost.origin}/submit`;

  it('200 with an EMPTY body is accepted', async () => {
    h.submitHost.on('POST', '/submit', { status: 200, body: '' });
    await expect(h.client.submit(url(), SUBMIT_BODY)).resolves.toEqual({ kind: 'accepted' });
  });

  it('200 with a JSON {ok:true} body is accepted too', async () => {
    h.submitHost.on('POST', '/submit', ok(null));
    await expect(h.client.submit(url(), SUBMIT_BODY)).resolves.toEqual({ kind: 'accepted' });
  });

  it('200 with garbage is ambiguous (the host took something)', async () => {
    h.submitHost.on('POST', '/submit', { status: 200, body: '<html>' });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({
      kind: 'ambiguous',
      error: { code: 'CLIENT_PROTOCOL', status: 200, bodyExcerpt: '<html>' },
    });
  });

  it('an HTML 502 is ambiguous with its status and excerpt', async () => {
    h.submitHost.on('POST', '/submit', { status: 502, body: HTML_502, contentType: 'text/html' });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'ambiguous', error: { code: 'CLIENT_PROTOCOL', status: 502 } });
  });
});

describe('onResponse hook', () => {
  it('reports endpoint template, method, status, code and duration per request', async () => {
    const events: ResponseEvent[] = [];
    const c = h.make({ onResponse: (e) => events.push(e) });
    h.api.on('GET', '/v1/orders/o-1', { ...ok({ order: ORDER }), delayMs: 60 });
    h.api.on('GET', '/v1/orders/o-2', fail(404, 'CONTRACT_NOT_FOUND'));
    h.submitHost.on('POST', '/submit', { status: 200, body: '' });
    await c.getOrder('o-1');
    await expect(c.getOrder('o-2')).rejects.toBeInstanceOf(VenueError);
    await c.submit(`${h.submitHost.origin}/submit`, SUBMIT_BODY);
    expect(events.map(({ durationMs: _, ...e }) => e)).toEqual([
      { endpoint: 'GET /orders/{orderId}', method: 'GET', status: 200 },
      { endpoint: 'GET /orders/{orderId}', method: 'GET', status: 404, code: 'CONTRACT_NOT_FOUND' },
      { endpoint: 'POST {submitUrl}', method: 'POST', status: 200 },
    ]);
    // The first answer was held 60 ms by the server: its duration covers that wait.
    expect(events[0]!.durationMs).toBeGreaterThanOrEqual(55);
    expect(events.map((e) => Number.isFinite(e.durationMs))).toEqual([true, true, true]);
  });

  it('a throwing hook does not break the call', async () => {
    const c = h.make({
      onResponse: () => {
        throw new Error('metrics bug');
      },
    });
    h.api.on('GET', '/v1/orders/o-1', ok({ order: ORDER }));
    await expect(c.getOrder('o-1')).resolves.toMatchObject({ orderId: 'o-1' });
  });
});
