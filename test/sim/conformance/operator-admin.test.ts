import { describe, expect, it } from 'vitest';
import { Account, PrepareCancelData, PrepareOrderData } from '../../../src/venue/schemas.js';
import { errBody, okData, simHarnessPerSuite } from '../../support/sim-harness.js';

const LIMIT = { pair: 'BTC/USDC', side: 'BUY', type: 'LIMIT', price: '60000', quantity: '0.01' } as const;

interface AdminOk<T> {
  ok: true;
  data: T;
}
const json = <T>(r: { text: string }) => (JSON.parse(r.text) as AdminOk<T>).data;

/** The operator's actions through the loopback admin endpoints, and the ground-truth reads. */
describe('operator actions over /admin (loopback)', () => {
  const h = simHarnessPerSuite();

  it('suspends, disables and reactivates an account', async () => {
    for (const [action, status] of [
      ['suspend', 'SUSPENDED'],
      ['disable', 'DISABLED'],
    ] as const) {
      expect((await h.admin('POST', `/accounts/${h.slug}/${action}`)).status).toBe(200);
      expect(okData(await h.api('GET', '/account'), Account).status).toBe(status);
      const res = await h.api('POST', '/orders', { body: LIMIT });
      expect([res.status, errBody(res).error.code]).toEqual([403, 'MARKET_MAKER_SUSPENDED']);
    }
    await h.admin('POST', `/accounts/${h.slug}/reactivate`);
    expect((await h.api('POST', '/orders', { body: LIMIT })).status).toBe(202);
  });

  it('issues, expires and revokes keys', async () => {
    const { apiKey } = json<{ apiKey: string }>(await h.admin('POST', `/accounts/${h.slug}/keys`, {}));
    expect((await h.api('GET', '/account', { apiKey })).status).toBe(200);
    const prefix = apiKey.slice(6, apiKey.indexOf('.'));
    await h.admin('POST', `/keys/${prefix}/expiry`, { expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect(errBody(await h.api('GET', '/account', { apiKey })).error.code).toBe('API_KEY_EXPIRED');
    await h.admin('POST', `/keys/${prefix}/expiry`, { expiresAt: null });
    await h.admin('POST', `/keys/${prefix}/revoke`);
    expect(errBody(await h.api('GET', '/account', { apiKey })).error.code).toBe('API_KEY_REVOKED');
  });

  it('deposits, and withdraws into locked funds, stranding the resting order', async () => {
    await h.admin('POST', `/accounts/${h.slug}/deposit`, { token: 'ETH', amount: '5' });
    const order = await h.place({ pair: 'ETH/USDC', side: 'SELL', price: '3000', quantity: '100' });
    expect(h.venue.engine.balancesOf(h.slug)['ETH']).toEqual({ available: '5', locked: '100' });
    const res = await h.admin('POST', `/accounts/${h.slug}/withdraw`, { token: 'ETH', amount: '6' });
    expect(json<{ strandedOrderIds: string[] }>(res).strandedOrderIds).toEqual([order.orderId]);
    expect(h.venue.engine.balancesOf(h.slug)['ETH']).toEqual({ available: '0', locked: '99' });
    const prep = okData(await h.api('POST', `/orders/${order.contractId}/cancel`), PrepareCancelData);
    expect((await h.submit(prep.signing!)).status).toBe(200);
    const settled = () => h.venue.truth.commits().find((c) => c.commandId === prep.signing!.commandId);
    for (let i = 0; i < 100 && !settled(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(settled()).toMatchObject({ ok: false });
    expect(h.venue.truth.order(order.orderId)!.status).toBe('OPEN');
    const tooMuch = await h.admin('POST', `/accounts/${h.slug}/withdraw`, { token: 'ETH', amount: '1000' });
    expect(tooMuch.status).toBe(400);
    expect((await h.admin('POST', `/orders/${order.orderId}/force-cancel`)).status).toBe(200);
    expect(h.venue.truth.order(order.orderId)!.status).toBe('CANCELLED');
    expect(h.venue.engine.balancesOf(h.slug)['ETH']).toEqual({ available: '99', locked: '0' });
  });

  it('removes and restores a preapproval', async () => {
    await h.admin('POST', `/accounts/${h.slug}/preapprovals/USDC/remove`);
    expect(errBody(await h.api('POST', '/orders', { body: LIMIT })).error.code).toBe(
      'LEDGER_COMMAND_REJECTED',
    );
    await h.admin('POST', `/accounts/${h.slug}/preapprovals/USDC/add`);
    expect((await h.api('POST', '/orders', { body: LIMIT })).status).toBe(202);
  });

  it('adds faults at runtime', async () => {
    const res = await h.admin('POST', '/faults', {
      kind: 'error',
      endpoint: 'pairs',
      status: 503,
      times: 1,
      at: 1,
    });
    expect(res.status).toBe(201);
    expect((await h.api('GET', '/pairs')).status).toBe(503);
    expect((await h.api('GET', '/pairs')).status).toBe(200);
    const { faults } = json<{ faults: { id: string; fired: number }[] }>(await h.admin('GET', '/faults'));
    expect(faults.map((f) => f.fired)).toEqual([1]);
    expect((await h.admin('POST', '/faults', { kind: 'nonsense' })).status).toBe(400);
  });

  it('serves the ground truth: orders with history, calls with times and verdicts, commits, balances, events', async () => {
    const orders = json<{ orders: { orderId: string; history: { status: string | null }[] }[] }>(
      await h.admin('GET', '/truth/orders'),
    );
    expect(orders.orders.length).toBeGreaterThan(0);
    const stranded = orders.orders.find((o) => o.history.some((x) => x.status === 'CANCELLED'))!;
    expect(stranded.history.map((x) => x.status)).toEqual([null, null, 'OPEN', 'OPEN', 'CANCELLED']);
    const calls = json<{
      calls: { endpoint: string; startedAt: number; endedAt: number; verdict?: string }[];
    }>(await h.admin('GET', '/truth/calls'));
    const prepares = calls.calls.filter((c) => c.endpoint === 'prepare');
    expect(prepares.length).toBeGreaterThan(3);
    expect(prepares.every((c) => c.endedAt >= c.startedAt)).toBe(true);
    const submitCalls = calls.calls.filter((c) => c.endpoint === 'submit');
    expect(submitCalls.length).toBeGreaterThan(0);
    expect(submitCalls.filter((c) => c.verdict !== 'valid')).toEqual([]);
    const commits = json<{ commits: { ok: boolean }[] }>(await h.admin('GET', '/truth/commits'));
    expect(commits.commits.some((c) => !c.ok)).toBe(true);
    const balances = json<{ balances: { reason: string }[] }>(
      await h.admin('GET', `/truth/balances?partyId=${encodeURIComponent(h.partyId)}`),
    );
    expect(balances.balances.map((b) => b.reason)).toContain('withdraw');
    const events = json<{ events: { type: string }[] }>(await h.admin('GET', '/truth/events'));
    expect(events.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['operator.withdraw', 'order.stranded', 'fault']),
    );
    const placements = json<{ placements: { outcome: string }[] }>(await h.admin('GET', '/truth/placements'));
    expect(placements.placements.some((p) => p.outcome === 'committed')).toBe(true);
  });

  it('is not served on the submission host', async () => {
    const res = await fetch(h.submitUrl.replace('/submit', '/admin/truth/orders'));
    expect(res.status).toBe(404);
  });

  it('registers a further account and returns its key', async () => {
    const res = await h.admin('POST', '/accounts', {
      name: 'Second',
      slug: 'second',
      balances: { USDC: '50' },
    });
    expect(res.status).toBe(201);
    const { apiKey } = json<{ apiKey: string }>(res);
    expect(okData(await h.api('GET', '/account', { apiKey }), Account).slug).toBe('second');
    const prep = await h.api('POST', '/orders', {
      apiKey,
      body: { ...LIMIT, price: '100', quantity: '0.2' },
    });
    expect(okData(prep, PrepareOrderData).order.status).toBeNull();
  });
});
