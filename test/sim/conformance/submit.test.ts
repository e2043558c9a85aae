import { sign as edSign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { OrdersData, PrepareOrderData, type SigningEnvelope } from '../../../src/venue/schemas.js';
import { errBody, makeTestKey, okData, fakeTimeHarnessPerSuite } from '../../support/sim-harness.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

/** Section 4, POST {submit_url}: the submission rules. The fake clock holds commits until ticked. */
describe('POST {submit_url}', () => {
  const { h, fake } = fakeTimeHarnessPerSuite();

  async function prepare(body: object = LIMIT): Promise<{ orderId: string; signing: SigningEnvelope }> {
    const data = okData(await h.api('POST', '/orders', { body }), PrepareOrderData);
    return { orderId: data.order.orderId, signing: data.signing! };
  }
  const order = (id: string) => h.getOrder(id);

  it('answers 200 with an empty body; the order commits asynchronously and locks funds only then', async () => {
    const { orderId, signing } = await prepare();
    const res = await h.submit(signing);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(res.headers.get('content-length')).toBe('0');
    // Accepted and dispatched, not resting: listed with a null status, nothing locked yet.
    expect(await order(orderId)).toMatchObject({ status: null, contractId: null });
    expect(h.venue.engine.balancesOf(h.slug)['USDC']).toEqual({ available: '100000', locked: '0' });
    const all = okData(await h.api('GET', '/orders?status=ALL&refreshWallet=false'), OrdersData);
    expect(all.orders.map((o) => o.orderId)).toContain(orderId);
    await fake.tickAsync(0);
    expect(await order(orderId)).toMatchObject({ status: 'OPEN' });
    expect((await order(orderId)).contractId).toMatch(/^00[0-9a-f]{66}$/);
    expect(h.venue.engine.balancesOf(h.slug)['USDC']).toEqual({ available: '99400', locked: '600' });
  });

  it('a SELL locks base at commit', async () => {
    const { orderId, signing } = await prepare({ ...LIMIT, side: 'SELL', price: '70000', quantity: '0.5' });
    await h.submit(signing);
    await fake.tickAsync(0);
    expect((await order(orderId)).status).toBe('OPEN');
    expect(h.venue.engine.balancesOf(h.slug)['BTC']).toEqual({ available: '9.5', locked: '0.5' });
  });

  it('accepts the public key in raw and in SPKI form', async () => {
    const a = await prepare({ ...LIMIT, price: '1000' });
    expect((await h.submit(a.signing, { publicKey: h.key.publicKeyRaw })).status).toBe(200);
    await fake.tickAsync(0);
    const b = await prepare({ ...LIMIT, price: '1001' });
    expect((await h.submit(b.signing, { publicKey: h.key.publicKeySpki })).status).toBe(200);
    await fake.tickAsync(0);
    expect((await order(b.orderId)).status).toBe('OPEN');
  });

  it('collapses every signature, key and echo failure into one generic 502, recording each verdict', async () => {
    const other = makeTestKey();
    const { orderId, signing } = await prepare({ ...LIMIT, price: '1002' });
    const textSig = h.key.privateKey;
    const cases: [string, Record<string, string>][] = [
      ['bad-signature', { signature: other.sign(signing.preparedTransactionHash) }],
      // Signing the base64 text instead of the decoded bytes.
      [
        'bad-signature',
        {
          signature: edSign(null, Buffer.from(signing.preparedTransactionHash), textSig).toString('base64'),
        },
      ],
      [
        'public-key-mismatch',
        { publicKey: other.publicKeyRaw, signature: other.sign(signing.preparedTransactionHash) },
      ],
      ['hash-mismatch', { preparedTransactionHash: Buffer.alloc(32, 1).toString('base64') }],
      ['scheme-mismatch', { hashingSchemeVersion: 'HASHING_SCHEME_VERSION_V1' }],
      ['command-mismatch', { commandId: '00000000-0000-4000-8000-000000000000' }],
      ['party-mismatch', { partyId: 'someone::1220ab' }],
      ['unknown-token', { submitToken: 'st_nope' }],
    ];
    const messages = new Set<string>();
    for (const [verdict, overrides] of cases) {
      const res = await h.submit(signing, overrides);
      expect(res.status, verdict).toBe(502);
      messages.add(errBody(res).error.message!);
      expect(h.venue.truth.submits().at(-1)!.verdict).toBe(verdict);
    }
    expect(messages.size).toBe(1);
    // None of them consumed the token: the correct submission still goes through.
    expect((await h.submit(signing)).status).toBe(200);
    await fake.tickAsync(0);
    expect((await order(orderId)).status).toBe('OPEN');
  });

  it('makes the submitToken one-time: a second submission answers 502', async () => {
    const { signing } = await prepare({ ...LIMIT, price: '1003' });
    expect((await h.submit(signing)).status).toBe(200);
    await fake.tickAsync(0);
    const again = await h.submit(signing);
    expect(again.status).toBe(502);
    expect(h.venue.truth.submits().at(-1)!.verdict).toBe('token-used');
  });

  it.each([
    'partyId',
    'commandId',
    'signature',
    'publicKey',
    'submitToken',
    'preparedTransactionHash',
    'hashingSchemeVersion',
  ])('requires %s (400 VALIDATION_ERROR when missing)', async (field) => {
    const { signing } = await prepare({ ...LIMIT, price: '1004' });
    const body: Record<string, unknown> = {
      partyId: h.partyId,
      commandId: signing.commandId,
      signature: h.key.sign(signing.preparedTransactionHash),
      publicKey: h.key.publicKeyRaw,
      submitToken: signing.submitToken,
      prepared: {
        preparedTransactionHash: signing.preparedTransactionHash,
        hashingSchemeVersion: signing.hashingSchemeVersion,
      },
    };
    if (field in body) delete body[field];
    else delete (body['prepared'] as Record<string, unknown>)[field];
    const res = await fetch(signing.submitUrl, { method: 'POST', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(errBody({ status: res.status, headers: res.headers, text: await res.text() }).error.code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('answers 410 CACHE_EXPIRED after 5 minutes and 502 once the 20-minute token is gone', async () => {
    const late = await prepare({ ...LIMIT, price: '1005' });
    const later = await prepare({ ...LIMIT, price: '1006' });
    await fake.tickAsync(5 * 60_000);
    const r1 = await h.submit(late.signing);
    expect([r1.status, errBody(r1).error.code]).toEqual([410, 'CACHE_EXPIRED']);
    expect((await order(late.orderId)).status).toBe('EXPIRED');
    await fake.tickAsync(15 * 60_000);
    const r2 = await h.submit(later.signing);
    expect(r2.status).toBe(502);
    expect(h.venue.truth.submits().at(-1)!.verdict).toBe('token-expired');
  });

  it('records every submission with start and end times and its verdict', () => {
    const submits = h.venue.truth.submits();
    expect(submits.length).toBeGreaterThan(10);
    for (const s of submits) {
      expect(s.endedAt).not.toBeNull();
      expect(s.endedAt!).toBeGreaterThanOrEqual(s.startedAt);
    }
    // Each record carries the verdict the host reached: every one the tests above drove is there,
    // a 200 only for a valid submission.
    expect(new Set(submits.map((s) => s.verdict))).toEqual(
      new Set([
        'valid',
        'bad-signature',
        'public-key-mismatch',
        'hash-mismatch',
        'scheme-mismatch',
        'command-mismatch',
        'party-mismatch',
        'unknown-token',
        'token-used',
        'token-expired',
        'malformed',
        'cache-expired',
      ]),
    );
    expect(submits.filter((s) => s.status === 200 && s.verdict !== 'valid')).toEqual([]);
  });
});
