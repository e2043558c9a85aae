/**
 * The 5-minute prepared-transaction lifetime: a 410 CACHE_EXPIRED on submit, and a prepare that
 * came back too old to submit safely, are both re-prepared with the SAME clientOrderId, so the
 * venue can never hold two live orders for one intent.
 *
 * A 5-minute latency spike on the first prepare makes its transaction expire before it is signed.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, partyOrders } from '../support/ground-truth.js';
import { STATES_TO_OPEN } from '../../orders/support/fixtures.js';

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

const SLOW_PREPARE = {
  kind: 'latency-spike',
  endpoint: 'prepare',
  extraMs: 300_000,
  at: 1,
  times: 1,
} as const;

describe('410 CACHE_EXPIRED', () => {
  it('re-prepares with the same clientOrderId and places once', async () => {
    // The local age guard is relaxed so the submission really reaches the venue and gets its 410.
    h = execHarness({ timeouts: { prepare: 400_000 }, pipeline: { submitAgeLimitMs: 600_000 } });
    h.venue.addFault(SLOW_PREPARE);
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));

    expect(outcome).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const cid = outcome.clientOrderId!;
    // Ground truth: both prepares carried the same clientOrderId; the first transaction's submission
    // was answered 410; only the second order ever committed.
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    expect(prepares.map((c) => c.clientOrderId)).toEqual([cid, cid]);
    expect(h.venue.truth.submits().map((s) => [s.status, s.code])).toEqual([
      [410, 'CACHE_EXPIRED'],
      [200, null],
    ]);
    const orders = partyOrders(h.venue, h.partyId);
    expect(orders.map((o) => [o.clientOrderId, o.status, o.committed])).toEqual([
      [cid, 'EXPIRED', false],
      [cid, 'OPEN', true],
    ]);
    // The registry follows the new orderId under the same key; the journal knows both.
    expect(h.registry.get(cid)!.orderId).toBe(orders[1]!.orderId);
    expect(h.registry.byOrderId(orders[0]!.orderId)?.key).toBe(cid);
    expect(h.journal.transitions(cid).map((t) => t.toState)).toEqual([
      // The first attempt up to SUBMITTING; after CACHE_EXPIRED, PREPARING for the re-prepare and then
      // the whole way from PREPARING to OPEN.
      ...STATES_TO_OPEN.slice(0, STATES_TO_OPEN.indexOf('SUBMITTING') + 1),
      'PREPARING',
      ...STATES_TO_OPEN.slice(1),
    ]);
    expect(h.eventsOf('retry')).toMatchObject([{ operation: 're-prepare', code: 'CACHE_EXPIRED', key: cid }]);
  });

  it('a prepare that returns too old is not submitted: re-prepared with the same clientOrderId', async () => {
    h = execHarness({ timeouts: { prepare: 400_000 } });
    h.venue.addFault(SLOW_PREPARE);
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));

    expect(outcome).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const cid = outcome.clientOrderId!;
    expect(callsOf(h.venue, 'prepare', h.partyId).map((c) => c.clientOrderId)).toEqual([cid, cid]);
    // Ground truth: the stale transaction was never sent; one submission, for the fresh one.
    const [stale, fresh] = partyOrders(h.venue, h.partyId);
    const submits = h.venue.truth.submits();
    expect(submits.map((s) => s.orderId)).toEqual([fresh!.orderId]);
    expect(stale).toMatchObject({ clientOrderId: cid, submitted: false, committed: false });
    expect(h.eventsOf('retry')).toMatchObject([{ operation: 're-prepare', code: 'LOCAL_DEADLINE' }]);
  });

  it('gives up after maxReprepares, committing nothing', async () => {
    // Two 5-minute prepares exceed the default 10-minute task bound; widen it for this case.
    h = execHarness({
      timeouts: { prepare: 400_000 },
      pipeline: { maxReprepares: 1, taskTimeoutMs: 20 * 60_000 },
    });
    h.venue.addFault({ ...SLOW_PREPARE, times: 2 });
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    expect(outcome).toMatchObject({ kind: 'failed', code: 'CACHE_EXPIRED' });
    expect(h.registry.get(outcome.key!)!.state).toBe('ABANDONED');
    expect(h.venue.truth.submits()).toHaveLength(0);
  });
});
