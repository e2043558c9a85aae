import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { systemClock } from '../../src/core/clock.js';
import { bindVenueClientHooks } from '../../src/observability/venue-hooks.js';
import { VenueError } from '../../src/venue/errors.js';
import { FakeTransport, fakeClient, jsonResponse } from '../venue/support/fixtures.js';
import { samplesOf } from './support/exposition.js';
import { testMetrics, type TestMetrics } from './support/test-metrics.js';

let t: TestMetrics;
beforeEach(() => {
  t = testMetrics();
});
afterEach(() => t.close());

const PAIRS_OK = jsonResponse(200, { ok: true, data: { pairs: [] } });
const fail = (status: number, code: string, extra: Record<string, unknown> = {}) =>
  jsonResponse(status, { ok: false, error: { code, message: 'x', ...extra } });

describe('bindVenueClientHooks on a real VenueClient', () => {
  it('counts requests by endpoint and status, errors by code, retries, and durations', async () => {
    const transport = new FakeTransport().then(
      () => fail(500, 'INTERNAL_ERROR'),
      () => PAIRS_OK,
    );
    const client = fakeClient(transport, systemClock, {
      ...bindVenueClientHooks(t.metrics),
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    await client.getPairs();
    const ep = 'GET /pairs';
    expect(await t.value('ledger_mm_venue_requests_total', { endpoint: ep, status: '500' })).toBe(1);
    expect(await t.value('ledger_mm_venue_requests_total', { endpoint: ep, status: '200' })).toBe(1);
    expect(await t.value('ledger_mm_venue_errors_total', { endpoint: ep, code: 'INTERNAL_ERROR' })).toBe(1);
    expect(await t.value('ledger_mm_venue_retries_total', { endpoint: ep, code: 'INTERNAL_ERROR' })).toBe(1);
    expect(await t.value('ledger_mm_venue_request_duration_seconds_count', { endpoint: ep })).toBe(2);
  });

  it('counts 429 RATE_LIMITED and keeps the limit the venue announced', async () => {
    const transport = new FakeTransport().then(
      () => fail(429, 'RATE_LIMITED', { limit: 120 }),
      () => PAIRS_OK,
    );
    const client = fakeClient(transport, systemClock, {
      ...bindVenueClientHooks(t.metrics),
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
    });
    await client.getPairs();
    expect(await t.value('ledger_mm_venue_rate_limited_total', { endpoint: 'GET /pairs' })).toBe(1);
    expect(await t.value('ledger_mm_venue_rate_limit_requests')).toBe(120);
    expect(await t.value('ledger_mm_venue_errors_total', { code: 'RATE_LIMITED' })).toBe(1);
  });
});

describe('bindVenueClientHooks, synthetic calls', () => {
  it('reports a request without a response as status none, and guards the endpoint label', async () => {
    const hooks = bindVenueClientHooks(t.metrics);
    hooks.onResponse({
      endpoint: 'POST {submitUrl}',
      method: 'POST',
      status: undefined,
      code: 'CLIENT_TIMEOUT',
      durationMs: 130_000,
    });
    hooks.onResponse({ endpoint: 'GET /orders/o-123', method: 'GET', status: 200, durationMs: 5 });
    const f = await t.scrape();
    expect(
      samplesOf(f, 'ledger_mm_venue_requests_total').map((s) => [s.labels.endpoint, s.labels.status]),
    ).toEqual([
      ['POST {submitUrl}', 'none'],
      ['other', '200'],
    ]);
    const bucket = samplesOf(f, 'ledger_mm_venue_request_duration_seconds_bucket').find(
      (s) => s.labels.endpoint === 'POST {submitUrl}' && s.labels.le === '120',
    );
    expect(bucket?.value).toBe(0); // 130 s is past the 120 s bucket
    expect(await t.value('ledger_mm_metrics_label_overflow_total')).toBe(1);
  });

  it('ignores a 429 without a limit for the gauge', async () => {
    const hooks = bindVenueClientHooks(t.metrics);
    const error = new VenueError({ code: 'RATE_LIMITED', message: 'x', status: 429 });
    hooks.onRateLimited({ endpoint: 'POST /orders', limit: undefined, error });
    expect(await t.value('ledger_mm_venue_rate_limited_total', { endpoint: 'POST /orders' })).toBe(1);
    expect(await t.value('ledger_mm_venue_rate_limit_requests')).toBe(0);
  });
});
