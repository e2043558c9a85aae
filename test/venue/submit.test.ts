import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RateLimitEvent } from '../../src/venue/exchange.js';
import { fail } from '../support/stub-server.js';
import { SUBMIT_BODY, type Harness, useHarness } from './support/fixtures.js';

let h: Harness;
const limited: RateLimitEvent[] = [];
const harness = useHarness({ onRateLimited: (e) => limited.push(e) });
beforeEach(() => {
  h = harness();
});
afterEach(() => {
  limited.length = 0;
});

const url = () => `${h.submitHost.origin}/submit`;

describe('submit is sent exactly once and never retried', () => {
  it('200 with an empty body → accepted', async () => {
    h.submitHost.on('POST', '/submit', { status: 200, body: '' });
    await expect(h.client.submit(url(), SUBMIT_BODY)).resolves.toEqual({ kind: 'accepted' });
    expect(h.submitHost.requests).toHaveLength(1);
    expect(h.api.requests).toHaveLength(0);
  });

  it.each([
    [502, 'INTERNAL_ERROR'],
    [504, 'INTERNAL_ERROR'],
    [500, 'INTERNAL_ERROR'],
  ])('%i → ambiguous, one request', async (status, code) => {
    h.submitHost.on('POST', '/submit', fail(status, code, { correlationId: 'corr-s' }), {
      status: 200,
      body: '',
    });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'ambiguous', error: { code, status, correlationId: 'corr-s' } });
    expect(h.submitHost.requests).toHaveLength(1);
  });

  it('504 with a non-JSON gateway page → ambiguous, one request', async () => {
    h.submitHost.on('POST', '/submit', { status: 504, body: 'Gateway Timeout' }, { status: 200, body: '' });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({
      kind: 'ambiguous',
      error: { code: 'CLIENT_PROTOCOL', status: 504, bodyExcerpt: 'Gateway Timeout' },
    });
    expect(h.submitHost.requests).toHaveLength(1);
  });

  it('a connection dropped before the answer → ambiguous (CLIENT_NETWORK), one request', async () => {
    h.submitHost.on('POST', '/submit', { destroy: true }, { status: 200, body: '' });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'ambiguous', error: { code: 'CLIENT_NETWORK' } });
    expect(h.submitHost.requests).toHaveLength(1);
  });

  it('410 CACHE_EXPIRED → rejected (prepare again)', async () => {
    h.submitHost.on('POST', '/submit', fail(410, 'CACHE_EXPIRED'));
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'rejected', error: { code: 'CACHE_EXPIRED', status: 410 } });
    expect(h.submitHost.requests).toHaveLength(1);
  });

  it('429 → rejected with the limit, reported to the rate-limit hook, not retried', async () => {
    h.submitHost.on('POST', '/submit', fail(429, 'RATE_LIMITED', { limit: 20 }), { status: 200, body: '' });
    const out = await h.client.submit(url(), SUBMIT_BODY);
    expect(out).toMatchObject({ kind: 'rejected', error: { code: 'RATE_LIMITED', limit: 20 } });
    expect(limited).toMatchObject([{ endpoint: 'POST {submitUrl}', limit: 20 }]);
    expect(h.submitHost.requests).toHaveLength(1);
  });
});
