import { describe, expect, it } from 'vitest';
import { Account, PairsData } from '../../../src/venue/schemas.js';
import { errBody, okData, simHarnessPerSuite } from '../../support/sim-harness.js';

/** Section 5: authentication. */
describe('section 5: authentication', () => {
  const h = simHarnessPerSuite();

  it('accepts the key as Authorization: Bearer and as X-API-Key, equivalently', async () => {
    const bearer = okData(await h.api('GET', '/account', { auth: 'bearer' }), Account);
    const header = okData(await h.api('GET', '/account', { auth: 'x-api-key' }), Account);
    expect(bearer).toEqual(header);
    expect(bearer).toMatchObject({
      slug: 'testmm',
      partyId: h.partyId,
      feeExempt: true,
      clientOrderIdPrefix: 'testmm-',
    });
  });

  it.each([
    ['GET', '/account'],
    ['GET', '/orders'],
    ['GET', '/orders/some-id'],
    ['GET', '/balances'],
    ['POST', '/orders'],
    ['POST', '/orders/00abc/cancel'],
  ] as const)(
    '%s %s without a key answers 401 MISSING_API_KEY in the error envelope',
    async (method, path) => {
      const res = await h.api(method, path, { auth: 'none', body: method === 'POST' ? {} : undefined });
      expect(res.status).toBe(401);
      const body = errBody(res);
      expect(body.error.code).toBe('MISSING_API_KEY');
      expect(body.meta?.requestId).toMatch(/^req_/);
    },
  );

  it.each([
    ['a wrong secret', (k: string) => `${k.slice(0, -1)}${k.endsWith('a') ? 'b' : 'a'}`],
    ['an unknown prefix', () => 'mm_ak_ffffffffffff.0123456789abcdef'],
    ['a malformed key', () => 'not-a-key'],
  ])('answers 401 INVALID_API_KEY for %s', async (_name, mutate) => {
    const res = await h.api('GET', '/account', { apiKey: mutate(h.apiKey) });
    expect([res.status, errBody(res).error.code]).toEqual([401, 'INVALID_API_KEY']);
    const viaHeader = await h.api('GET', '/account', { apiKey: mutate(h.apiKey), auth: 'x-api-key' });
    expect(errBody(viaHeader).error.code).toBe('INVALID_API_KEY');
  });

  it('answers AUTH_NOT_CONFIGURED (503 here; the contract shows no status) while key auth is off, public reads unaffected', async () => {
    expect((await h.admin('POST', '/auth', { configured: false })).status).toBe(200);
    try {
      const res = await h.api('GET', '/account');
      expect([res.status, errBody(res).error.code]).toEqual([503, 'AUTH_NOT_CONFIGURED']);
      expect((await h.api('GET', '/pairs', { auth: 'none' })).status).toBe(200);
    } finally {
      await h.admin('POST', '/auth', { configured: true });
    }
    expect((await h.api('GET', '/account')).status).toBe(200);
  });

  it('answers 401 API_KEY_REVOKED for a revoked key and API_KEY_EXPIRED for an expired one', async () => {
    const revoked = h.venue.operator.issueKey(h.slug);
    const expired = h.venue.operator.issueKey(h.slug, { expiresAt: h.venue.clock.now() - 1 });
    h.venue.operator.revokeKey(revoked.slice(6, revoked.indexOf('.')));
    const r1 = await h.api('GET', '/account', { apiKey: revoked });
    expect([r1.status, errBody(r1).error.code]).toEqual([401, 'API_KEY_REVOKED']);
    const r2 = await h.api('GET', '/orders', { apiKey: expired });
    expect([r2.status, errBody(r2).error.code]).toEqual([401, 'API_KEY_EXPIRED']);
    // The account's other key is unaffected.
    expect((await h.api('GET', '/account')).status).toBe(200);
  });

  it('serves public market data without a credential', async () => {
    const pairs = okData(await h.api('GET', '/pairs', { auth: 'none' }), PairsData);
    expect(pairs.pairs.map((p) => p.pair)).toEqual(['BTC/USDC', 'ETH/USDC']);
    expect((await h.api('GET', '/orderbook/BTC%2FUSDC', { auth: 'none' })).status).toBe(200);
    expect((await h.api('GET', '/trades', { auth: 'none' })).status).toBe(200);
  });

  it('needs no API key on the submission host', async () => {
    const order = await h.place({ side: 'BUY', price: '50000', quantity: '0.001' });
    expect(order.status).toBe('OPEN');
    const submit = h.venue.truth.submits().at(-1)!;
    expect([submit.status, submit.verdict]).toEqual([200, 'valid']);
  });
});
