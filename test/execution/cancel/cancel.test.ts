import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import { buy, execHarness, sell, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, partyOrders } from '../support/ground-truth.js';
import { editData, rewritingTransport } from '../support/transports.js';

/**
 * The cancel pool against the simulated venue (realistic latencies, fake time): rotated
 * contracts, fills racing cancels, residual expiry, stranded orders, deferred cancels and dedupe.
 * Outside takers trade against our resting orders through the sim's market port; the registry
 * learns of those fills only from the cancel flow's own reads (no poller runs here).
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

/** Places one BUY 0.01 @ 60000 and returns its registry key and venue orderId. */
async function placeBuy(x: ExecHarness, slot = 's-a'): Promise<{ key: string; orderId: string }> {
  const out = await x.settle(x.pipeline.place(buy(slot)));
  expect(out).toMatchObject({ kind: 'placed', state: 'OPEN' });
  return { key: out.key!, orderId: out.orderId! };
}

/** An outside taker selling into our bid. */
function sellInto(x: ExecHarness, qty: string): string {
  return x.venue.market.takeLiquidity('BTC/USDC', 'SELL', dec(qty), dec('60000')).toFixed();
}

/** The contractId a cancel prepare call targeted. */
function targetOf(path: string): string {
  return decodeURIComponent(path.split('/').at(-2)!);
}

describe('cancel pool', () => {
  it('a stale contractId after a partial fill: 404, re-read, retried with the new contractId', async () => {
    h = execHarness();
    const { key, orderId } = await placeBuy(h);
    const c1 = h.registry.get(key)!.contractIds[0]!;
    expect(sellInto(h, '0.004')).toBe('0.004');
    const c2 = h.venue.truth.order(orderId)!.contractId!;
    expect(c2).not.toBe(c1);

    const outcome = await h.settle(h.pool.cancel(key, { reason: 'reprice' }));
    expect(outcome).toMatchObject({ kind: 'cancelled', key, orderId });
    expect(outcome.filled?.toFixed()).toBe('0.004');
    const order = h.registry.get(key)!;
    expect(order).toMatchObject({ state: 'CANCELLED', contractIds: [c1, c2], cancelReason: 'reprice' });
    expect(h.journal.fills(orderId).map((f) => f.delta.toFixed())).toEqual(['0.004']);
    // Ground truth: the first cancel targeted c1 (404), the second c2; the order is cancelled.
    const cancels = callsOf(h.venue, 'cancelPrepare', h.partyId);
    expect(cancels.map((c) => [targetOf(c.path), c.code])).toEqual([
      [c1, 'CONTRACT_NOT_FOUND'],
      [c2, null],
    ]);
    expect(h.venue.truth.order(orderId)).toMatchObject({ status: 'CANCELLED', filled: '0.004' });
  });

  it('409 ORDER_ALREADY_FILLED: the order is FILLED with the filled of a fresh read', async () => {
    h = execHarness();
    const { key, orderId } = await placeBuy(h);
    sellInto(h, '0.01');
    const outcome = await h.settle(h.pool.cancel(key));
    expect(outcome).toMatchObject({ kind: 'filled' });
    expect(h.registry.get(key)).toMatchObject({ state: 'FILLED' });
    expect(h.registry.get(key)!.filled.toFixed()).toBe('0.01');
    expect(h.journal.fills(orderId).map((f) => f.filled.toFixed())).toEqual(['0.01']);
    expect(callsOf(h.venue, 'cancelPrepare', h.partyId).map((c) => c.code)).toEqual(['ORDER_ALREADY_FILLED']);
  });

  it('a fill racing an in-flight cancel: the cancel commit fails, the read says FILLED', async () => {
    h = execHarness();
    const { key, orderId } = await placeBuy(h);
    const cancelling = h.pool.cancel(key);
    while (h.venue.truth.submits().filter((s) => s.commandKind === 'cancel').length === 0)
      await h.advance(500);
    sellInto(h, '0.01'); // the taker lands between the cancel's submission and its commit
    const outcome = await h.settle(cancelling);
    expect(outcome).toMatchObject({ kind: 'filled' });
    expect(h.registry.get(key)!.filled.toFixed()).toBe('0.01');
    await h.advance(60_000); // the cancel's own commit attempt lands later, and fails
    expect(h.venue.truth.commits().filter((c) => c.kind === 'cancel')).toMatchObject([
      { orderId, ok: false, reason: 'already filled' },
    ]);
  });

  it('residual expiry is EXPIRED with its fills, not mistaken for a lost order', async () => {
    h = execHarness();
    const { key, orderId } = await placeBuy(h);
    sellInto(h, '0.0099'); // leaves 0.0001 × 60000 = 6 USDC, below the 10 USDC minimum
    expect(h.venue.truth.order(orderId)!.status).toBe('EXPIRED');
    const outcome = await h.settle(h.pool.cancel(key));
    expect(outcome).toMatchObject({ kind: 'ended', state: 'EXPIRED' });
    const order = h.registry.get(key)!;
    expect(order.state).toBe('EXPIRED');
    expect(order.filled.toFixed()).toBe('0.0099');
    expect(order.flags.alarms).toEqual([]);
    expect(h.eventsOf('alarm')).toEqual([]);
  });

  it('a placement whose crossing leaves a residual below the minimum ends EXPIRED at once', async () => {
    h = execHarness();
    h.venue.market.setBackgroundLiquidity('BTC/USDC', [], [[dec('59990'), dec('0.0099')]]);
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    expect(outcome).toMatchObject({ kind: 'ended', state: 'EXPIRED' });
    expect(h.registry.get(outcome.key!)!.filled.toFixed()).toBe('0.0099');
  });

  it('a withdrawal that strands the order: STRANDED + alarm after a bounded number of attempts', async () => {
    h = execHarness({ pool: { strandAfter: 3, confirmWindowMs: 60_000 } });
    const placed = await h.settle(h.pipeline.place(sell('s-ask', '61000', '1')));
    const key = placed.key!;
    const { strandedOrderIds } = h.venue.operator.withdraw(h.slug, 'BTC', dec('10'));
    expect(strandedOrderIds).toEqual([placed.orderId]);

    const outcome = await h.settle(h.pool.cancel(key));
    expect(outcome).toMatchObject({ kind: 'stranded', attempts: 3 });
    const order = h.registry.get(key)!;
    expect(order.state).toBe('STRANDED');
    expect(order.flags.alarms).toContain('stranded');
    expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'stranded', key }]);
    // Ground truth: exactly three cancels went out, every commit failed, the order still rests.
    const cancelSubmits = h.venue.truth.submits().filter((s) => s.commandKind === 'cancel');
    expect(cancelSubmits.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(
      h.venue.truth
        .commits()
        .filter((c) => c.kind === 'cancel')
        .map((c) => c.reason),
    ).toEqual([
      'stranded: backing funds were withdrawn',
      'stranded: backing funds were withdrawn',
      'stranded: backing funds were withdrawn',
    ]);
    expect(h.venue.truth.order(placed.orderId!)).toMatchObject({ status: 'OPEN', stranded: true });
    // Not retried forever: asking again does not reach the venue.
    expect(await h.settle(h.pool.cancel(key))).toMatchObject({ kind: 'stranded' });
    expect(callsOf(h.venue, 'cancelPrepare', h.partyId)).toHaveLength(3);
  });

  it('a cancel requested before the order rests is deferred, then followed once it rests', async () => {
    h = execHarness();
    const placing = h.pipeline.place(buy('s-a'));
    while (h.registry.all()[0]?.state !== 'SUBMITTING') await h.advance(500);
    const key = h.registry.all()[0]!.key;
    expect(await h.pool.cancel(key, { reason: 'stale quote' }).then((o) => o.kind)).toBe('deferred');
    const placed = await h.settle(placing);
    expect(placed).toMatchObject({ kind: 'placed', state: 'CANCEL_REQUESTED' });
    await h.settle(
      (async () => {
        while (h.registry.get(key)!.state !== 'CANCELLED') await h.advance(1_000);
      })(),
    );
    expect(h.venue.truth.order(placed.orderId!)!.status).toBe('CANCELLED');
  });

  it('a cancel requested before signing abandons the prepare unsigned', async () => {
    h = execHarness();
    const placing = h.pipeline.place(buy('s-a'));
    await h.advance(1_000);
    const key = h.registry.all()[0]!.key;
    expect((await h.settle(h.pool.cancel(key))).kind).toBe('deferred');
    expect(await h.settle(placing)).toMatchObject({ kind: 'not-wanted', stage: 'prepared' });
    expect(h.registry.get(key)!.state).toBe('ABANDONED');
    expect(h.venue.truth.submits()).toHaveLength(0);
  });

  it('a cancel prepare that echoes another order is never signed', async () => {
    let tamper = true;
    h = execHarness({
      wrap: (inner) =>
        rewritingTransport(inner, (req, res) =>
          tamper && req.method === 'POST' && req.url.pathname.endsWith('/cancel') && res.status === 202
            ? editData(res, (d) =>
                Object.assign(d['order'] as Record<string, unknown>, { orderId: 'o-someone-else' }),
              )
            : undefined,
        ),
    });
    const { key } = await placeBuy(h);
    const outcome = await h.settle(h.pool.cancel(key));
    tamper = false;
    expect(outcome).toMatchObject({ kind: 'echo-mismatch' });
    expect(h.registry.get(key)!.state).toBe('CANCEL_REQUESTED');
    expect(h.eventsOf('echo-refused')).toMatchObject([{ operation: 'cancel', key }]);
    expect(h.venue.truth.submits().filter((s) => s.commandKind === 'cancel')).toHaveLength(0);
    // The next request, with an honest echo, cancels it.
    expect(await h.settle(h.pool.cancel(key))).toMatchObject({ kind: 'cancelled' });
  });

  it('one cancel in flight per order: a second request joins the first', async () => {
    h = execHarness();
    const { key } = await placeBuy(h);
    const a = h.pool.cancel(key);
    const b = h.pool.cancel(key);
    expect(b).toBe(a);
    expect(h.pool.isCancelling(key)).toBe(true);
    await h.settle(Promise.all([a, b]));
    expect(callsOf(h.venue, 'cancelPrepare', h.partyId)).toHaveLength(1);
    expect(partyOrders(h.venue, h.partyId)[0]!.status).toBe('CANCELLED');
  });
});
