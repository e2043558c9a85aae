import { beforeEach, describe, expect, it } from 'vitest';
import type { VenueError } from '../../src/venue/errors.js';
import { classify, type Disposition, type VenueCode } from '../../src/venue/errors.js';
import { fail } from '../support/stub-server.js';
import { PREPARE_BODY, SUBMIT_BODY, type Harness, useHarness, caught } from './support/fixtures.js';

let h: Harness;
const harness = useHarness();
beforeEach(() => {
  h = harness();
});

const NO_COID = { ...PREPARE_BODY, clientOrderId: undefined };

interface Row {
  code: VenueCode;
  status: number;
  extra?: Record<string, unknown>;
  /** Expected disposition for a read, a prepare, a submit. */
  as: [Disposition, Disposition, Disposition];
}

const FFF: Row['as'] = ['fatal', 'fatal', 'fatal'];

// Section 7 of the contract. AUTH_NOT_CONFIGURED and INTERNAL_ERROR have no documented status;
// 500 is used for both.
const TABLE: Row[] = [
  { code: 'MISSING_API_KEY', status: 401, as: FFF },
  { code: 'INVALID_API_KEY', status: 401, as: FFF },
  { code: 'API_KEY_REVOKED', status: 401, as: FFF },
  { code: 'API_KEY_EXPIRED', status: 401, as: FFF },
  { code: 'MARKET_MAKER_SUSPENDED', status: 403, as: FFF },
  { code: 'PAIR_NOT_ALLOWED', status: 403, extra: { allowedPairs: ['ETH/USDC'] }, as: FFF },
  { code: 'INVALID_CLIENT_ORDER_ID', status: 400, extra: { expectedPrefix: 'acme-' }, as: FFF },
  { code: 'VALIDATION_ERROR', status: 400, as: FFF },
  { code: 'INSUFFICIENT_BALANCE', status: 400, as: FFF },
  {
    code: 'LEDGER_COMMAND_REJECTED',
    status: 400,
    extra: { correlationId: 'corr-9' },
    as: ['fatal', 'ambiguous', 'ambiguous'],
  },
  {
    code: 'MAX_OPEN_ORDERS',
    status: 429,
    extra: { openOrders: 50, maxOpenOrders: 50 },
    as: ['fatal', 'retryable', 'retryable'],
  },
  { code: 'RATE_LIMITED', status: 429, extra: { limit: 60 }, as: ['retryable', 'retryable', 'retryable'] },
  { code: 'CACHE_EXPIRED', status: 410, as: FFF },
  { code: 'CONTRACT_NOT_FOUND', status: 404, as: FFF },
  { code: 'ORDER_ALREADY_FILLED', status: 409, as: FFF },
  { code: 'ORDER_ALREADY_CANCELLED', status: 409, as: FFF },
  { code: 'NOT_SUPPORTED', status: 404, as: FFF },
  { code: 'AUTH_NOT_CONFIGURED', status: 500, as: FFF },
  { code: 'INTERNAL_ERROR', status: 500, as: ['retryable', 'retryable', 'ambiguous'] },
];

describe.each(TABLE)('$code ($status)', ({ code, status, extra = {}, as: [read, prepare, submit] }) => {
  it('surfaces code, status, requestId and extra fields, classified per the table', async () => {
    h.api.on('POST', '/v1/orders', fail(status, code, extra, `rq-${code}`));
    const err = await caught(h.client.prepareOrder(NO_COID));
    expect(err).toMatchObject({ code, status, requestId: `rq-${code}`, endpoint: 'POST /orders', ...extra });
    expect(err.venueCode).toBeUndefined();
    for (const k of [
      'expectedPrefix',
      'allowedPairs',
      'limit',
      'openOrders',
      'maxOpenOrders',
      'correlationId',
    ]) {
      if (!(k in extra)) expect(err[k as keyof VenueError]).toBeUndefined();
    }
    expect([classify(err, 'read'), classify(err, 'prepare'), classify(err, 'submit')]).toEqual([
      read,
      prepare,
      submit,
    ]);
    // The message is for humans; nobody matches on it, but it must name the endpoint and code.
    expect(err.message).toContain(code);
  });

  it(`a GET is ${read === 'retryable' ? 'retried to the bound' : 'not retried'}`, async () => {
    h.api.on('GET', '/v1/account', fail(status, code, extra));
    const err = await caught(h.client.getAccount());
    expect(err.code).toBe(code);
    expect(h.api.requestsTo('GET', '/v1/account')).toHaveLength(read === 'retryable' ? 3 : 1);
  });

  it(`a submit comes back ${submit === 'ambiguous' ? 'ambiguous' : 'rejected'}, sent once`, async () => {
    h.submitHost.on('POST', '/submit', fail(status, code, extra));
    const out = await h.client.submit(`${h.submitHost.origin}/submit`, SUBMIT_BODY);
    expect(out).toMatchObject({
      kind: submit === 'ambiguous' ? 'ambiguous' : 'rejected',
      error: { code, status },
    });
    expect(h.submitHost.requests).toHaveLength(1);
  });
});

describe('codes outside the enumeration', () => {
  it('a 4xx with an unknown code is CLIENT_UNKNOWN_CODE carrying venueCode, not retried', async () => {
    h.api.on('GET', '/v1/account', fail(418, 'BRAND_NEW_CODE', {}, 'rq-x'));
    const err = await caught(h.client.getAccount());
    expect(err).toMatchObject({
      code: 'CLIENT_UNKNOWN_CODE',
      venueCode: 'BRAND_NEW_CODE',
      status: 418,
      requestId: 'rq-x',
    });
    expect(classify(err, 'read')).toBe('fatal');
    expect(h.api.requests).toHaveLength(1);
  });

  it('a 5xx with an unknown code is transient: reads retry, submits are ambiguous', async () => {
    h.api.on('GET', '/v1/account', fail(503, 'UPSTREAM_DOWN'));
    const err = await caught(h.client.getAccount());
    expect(err).toMatchObject({ code: 'CLIENT_UNKNOWN_CODE', venueCode: 'UPSTREAM_DOWN', status: 503 });
    expect(h.api.requests).toHaveLength(3);
    h.submitHost.on('POST', '/submit', fail(503, 'UPSTREAM_DOWN'));
    const out = await h.client.submit(`${h.submitHost.origin}/submit`, SUBMIT_BODY);
    expect(out.kind).toBe('ambiguous');
  });

  it('keeps the code when an extra field is malformed, dropping only that field', async () => {
    h.api.on('GET', '/v1/account', fail(429, 'RATE_LIMITED', { limit: 'sixty', correlationId: 'corr-2' }), {
      status: 200,
      json: { ok: true, data: {} },
    });
    const c = h.make({ retry: { readAttempts: 1 } });
    const err = await caught(c.getAccount());
    expect(err).toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
      correlationId: 'corr-2',
      requestId: 'req-1',
    });
    expect(err.limit).toBeUndefined();
  });

  it('takes correlationId from meta when the error object lacks it', async () => {
    h.api.on('POST', '/v1/orders', {
      status: 400,
      json: {
        ok: false,
        error: { code: 'LEDGER_COMMAND_REJECTED' },
        meta: { requestId: 'r', correlationId: 'corr-m' },
      },
    });
    const err = await caught(h.client.prepareOrder(NO_COID));
    expect(err).toMatchObject({ code: 'LEDGER_COMMAND_REJECTED', correlationId: 'corr-m', requestId: 'r' });
  });
});
