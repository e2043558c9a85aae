import { afterEach, describe, expect, it } from 'vitest';
import { PREPARED_TX_LIFETIME_MS } from '../../../src/orders/fsm/index.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, partyOrders } from '../support/ground-truth.js';
import { interceptingTransport, isOrderRead, jsonResponse } from '../support/transports.js';

/**
 * Ambiguous submissions (504 with and without effect), a 200 that never confirms, and a venue
 * whose reads cannot see the order: the order goes UNKNOWN (or stays SUBMITTED), is READ, never
 * re-submitted or re-prepared under a new clientOrderId, and resolves to what really happened.
 * Its slot stays blocked until then, and (policy `wait`, the old behaviour kept as an option) no
 * other prepare goes out meanwhile. The default policy, `proceed`, is in unknown-proceed.test.ts.
 */

const WAIT = { afterUnknown: 'wait' } as const;

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

/** The commit time of an order in the ground truth (its first resting or terminal status). */
function settledAt(h: ExecHarness, orderId: string): number {
  const o = h.venue.truth.order(orderId)!;
  return o.history.find((x) => x.status !== null)!.at;
}

describe('504 on submit', () => {
  it('with commit: UNKNOWN, read, resolved OPEN; the next prepare waits for it; no duplicate', async () => {
    h = execHarness({ pipeline: WAIT });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: true, at: 1 });
    const first = h.pipeline.place(buy('s-a'));
    const second = h.pipeline.place(buy('s-b', '59000'));
    const [a, b] = await h.settle(Promise.all([first, second]));

    expect(a).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(h.journal.transitions(a.key!).map((t) => t.toState)).toContain('UNKNOWN');
    expect(h.eventsOf('unknown').map((e) => e.key)).toEqual([a.key]);
    expect(h.eventsOf('unknown-resolved')).toMatchObject([
      { key: a.key, resolution: 'resting', state: 'OPEN' },
    ]);

    // Ground truth: one submit per order, and exactly one venue order per clientOrderId.
    const orders = partyOrders(h.venue, h.partyId);
    expect(orders.map((o) => [o.clientOrderId, o.status])).toEqual([
      [a.clientOrderId, 'OPEN'],
      [b.clientOrderId, 'OPEN'],
    ]);
    expect(h.venue.truth.submits().map((s) => s.status)).toEqual([504, 200]);
    // Policy wait: the second prepare went out only after the first had committed.
    const secondPrepare = callsOf(h.venue, 'prepare', h.partyId)[1]!;
    expect(secondPrepare.startedAt).toBeGreaterThanOrEqual(settledAt(h, orders[0]!.orderId));
  });

  it('without commit: UNKNOWN until the 5-minute rule settles it never-committed; the slot stays blocked until then', async () => {
    h = execHarness({ pipeline: { ...WAIT, queueTimeoutMs: 10 * 60_000 } });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 1 });
    const first = h.pipeline.place(buy('s-a'));
    await h.advance(4 * 60_000);
    const blocked = h.registry.inSlot('s-a');
    expect(blocked.map((o) => o.state)).toEqual(['UNKNOWN']);
    const again = h.pipeline.place(buy('s-a', '59990'));
    const [a, b] = await h.settle(Promise.all([first, again]));

    expect(a).toMatchObject({ kind: 'never-committed' });
    const resolvedAt = h.eventsOf('unknown-resolved')[0]!;
    expect(resolvedAt).toMatchObject({ key: a.key, resolution: 'never-committed' });
    // The venue's own 5-minute deadline (from the prepare's arrival) ended it: EXPIRED, never on the book.
    const firstPrepare = callsOf(h.venue, 'prepare', h.partyId)[0]!;
    expect(resolvedAt.at - firstPrepare.startedAt).toBeGreaterThanOrEqual(PREPARED_TX_LIFETIME_MS);
    expect(h.registry.get(a.key!)!.state).toBe('EXPIRED');
    // The slot was freed only then, and the new intent placed under a NEW clientOrderId.
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(b.clientOrderId).not.toBe(a.clientOrderId);
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    expect(prepares[1]!.startedAt).toBeGreaterThanOrEqual(resolvedAt.at);
    // Ground truth: the first transaction never committed and was never re-submitted.
    const orders = partyOrders(h.venue, h.partyId);
    expect(orders.map((o) => [o.clientOrderId, o.committed])).toEqual([
      [a.clientOrderId, false],
      [b.clientOrderId, true],
    ]);
    expect(h.venue.truth.submits()).toHaveLength(2);
  });

  it('a venue that hides the order (404): NeverCommitted only after the 5 minutes', async () => {
    let hide = true;
    h = execHarness({
      pipeline: WAIT,
      wrap: (inner) =>
        interceptingTransport(inner, (req) =>
          hide && isOrderRead(req)
            ? jsonResponse(404, { ok: false, error: { code: 'CONTRACT_NOT_FOUND', message: 'not found' } })
            : undefined,
        ),
    });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 1 });
    const a = await h.settle(h.pipeline.place(buy('s-a')));
    hide = false;

    expect(a).toMatchObject({ kind: 'never-committed', state: 'REJECTED' });
    const order = h.registry.get(a.key!)!;
    expect(order.rejectCode).toBe('NEVER_COMMITTED');
    const settled = h.journal.transitions(a.key!).find((t) => t.toState === 'REJECTED')!;
    expect(settled.eventType).toBe('NeverCommitted');
    expect(settled.at - order.preparedAt!).toBeGreaterThanOrEqual(PREPARED_TX_LIFETIME_MS);
    const onVenue = partyOrders(h.venue, h.partyId);
    expect(onVenue.length).toBeGreaterThan(0);
    expect(onVenue.filter((o) => o.committed)).toEqual([]);
  });
});

describe('reads that keep failing', () => {
  it('keep the order UNKNOWN (slot blocked, alarm past the deadline); the pipeline moves on only after the deadline', async () => {
    let failReads = true;
    h = execHarness({
      pipeline: WAIT,
      wrap: (inner) =>
        interceptingTransport(inner, (req) =>
          failReads && isOrderRead(req)
            ? jsonResponse(500, { ok: false, error: { code: 'INTERNAL_ERROR', message: 'down' } })
            : undefined,
        ),
    });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 1 });
    const a = await h.settle(h.pipeline.place(buy('s-a')));
    expect(a).toMatchObject({ kind: 'unresolved', state: 'UNKNOWN' });
    const order = h.registry.get(a.key!)!;
    expect(h.clock.now() - order.preparedAt!).toBeGreaterThan(PREPARED_TX_LIFETIME_MS);
    expect(h.eventsOf('alarm')).toMatchObject([{ reason: 'unknown-unresolved', key: a.key }]);
    // Still exposure as far as we know: the slot stays blocked.
    expect(await h.settle(h.pipeline.place(buy('s-a', '59990')))).toMatchObject({ kind: 'slot-busy' });
    // Past the deadline its transaction cannot be pending any more: another slot may place. (Its own
    // confirmation cannot read either, so it too ends unresolved, and the resolver keeps it.)
    const b = await h.settle(h.pipeline.place(buy('s-b', '59000')));
    expect(b).toMatchObject({ kind: 'unresolved', state: 'SUBMITTED' });
    expect(partyOrders(h.venue, h.partyId).map((o) => [o.clientOrderId, o.committed])).toEqual([
      [a.clientOrderId, false],
      [b.clientOrderId, true],
    ]);

    failReads = false;
    const resolution = await h.settle(h.resolver.track(a.key!));
    expect(resolution).toMatchObject({ kind: 'terminal', committed: false });
    expect(await h.settle(h.resolver.track(b.key!))).toMatchObject({ kind: 'resting', state: 'OPEN' });
    expect(h.registry.inSlot('s-a')).toEqual([]);
    const resolved = h.eventsOf('unknown-resolved');
    expect(resolved.map((e) => [e.key, e.resolution]).sort()).toEqual(
      [
        [a.key, 'never-committed'],
        [b.key, 'resting'],
      ].sort(),
    );
  });
});

describe('a 200 that never confirms', () => {
  it('stays SUBMITTED, is settled by the 5-minute rule, never duplicated; the slot is freed only then', async () => {
    h = execHarness({ pipeline: { ...WAIT, queueTimeoutMs: 10 * 60_000 } });
    h.venue.addFault({ kind: 'no-commit', at: 1 });
    const first = h.pipeline.place(buy('s-a'));
    await h.advance(3 * 60_000);
    expect(h.registry.inSlot('s-a').map((o) => o.state)).toEqual(['SUBMITTED']);
    const again = h.pipeline.place(buy('s-a', '59990'));
    await h.advance(60_000);
    expect(h.registry.inSlot('s-a').map((o) => o.state)).toEqual(['SUBMITTED']);
    const [a, b] = await h.settle(Promise.all([first, again]));

    expect(a).toMatchObject({ kind: 'never-committed', state: 'REJECTED' });
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const ended = h.journal.transitions(a.key!).at(-1)!;
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    expect(ended.at - prepares[0]!.startedAt).toBeGreaterThanOrEqual(PREPARED_TX_LIFETIME_MS);
    expect(prepares).toHaveLength(2);
    expect(prepares[1]!.startedAt).toBeGreaterThanOrEqual(ended.at);
    expect(h.venue.truth.submits().map((s) => s.status)).toEqual([200, 200]);
  });
});
