/**
 * One placement at a time per party, many cancels at once — checked on the simulator's
 * ground-truth timeline (call start/end times, commit times), not on what the daemon believes.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { PrepareOrderData, type Order } from '../../../src/venue/schemas.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, maxOverlap, partyOrders } from '../support/ground-truth.js';
import { limitOrderBody } from '../../support/venue-wire.js';

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

/** Another process of the same party placing an order behind the pipeline's back. */
async function externalPlace(x: ExecHarness, clientOrderId: string): Promise<Order> {
  const prep = await x.venue.router.handle({
    host: 'api',
    method: 'POST',
    path: '/v1/orders',
    headers: { authorization: `Bearer ${x.apiKey}` },
    body: JSON.stringify(limitOrderBody({ clientOrderId })),
  });
  const data = PrepareOrderData.parse((JSON.parse(prep.body) as { data: unknown }).data);
  const s = data.signing!;
  await x.venue.router.handle({
    host: 'submit',
    method: 'POST',
    path: '/submit',
    body: JSON.stringify({
      partyId: x.partyId,
      commandId: s.commandId,
      signature: x.signer.sign(s.preparedTransactionHash),
      publicKey: x.signer.publicKey,
      submitToken: s.submitToken,
      prepared: {
        preparedTransactionHash: s.preparedTransactionHash,
        hashingSchemeVersion: s.hashingSchemeVersion,
      },
    }),
  });
  return data.order;
}

describe('one placement at a time', () => {
  it('a concurrent-prepare rejection (LEDGER_COMMAND_REJECTED): checks, backs off, same clientOrderId, no duplicate', async () => {
    h = execHarness();
    const external = externalPlace(h, 'testmm-external-1');
    // Start our placement once the other process's submission is awaiting the ledger.
    while (h.venue.truth.submits().length === 0) await h.advance(250);
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    const ext = await h.settle(external);

    expect(outcome).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const ours = callsOf(h.venue, 'prepare', h.partyId).slice(1);
    expect(ours.length).toBeGreaterThanOrEqual(2);
    expect(ours.slice(0, -1).every((c) => c.code === 'LEDGER_COMMAND_REJECTED')).toBe(true);
    expect(ours.at(-1)).toMatchObject({ code: null, clientOrderId: outcome.clientOrderId });
    // The accepted prepare went out only after the other placement had committed.
    const extCommit = h.venue.truth.commits().find((c) => c.orderId === ext.orderId)!;
    expect(ours.at(-1)!.startedAt).toBeGreaterThanOrEqual(extCommit.at);
    expect(h.eventsOf('retry').filter((e) => e.code === 'LEDGER_COMMAND_REJECTED').length).toBe(
      ours.length - 1,
    );
    expect(h.eventsOf('backoff').some((e) => e.reason === 'LEDGER_COMMAND_REJECTED')).toBe(true);
    // Ground truth: one order per clientOrderId, both resting.
    expect(partyOrders(h.venue, h.partyId).map((o) => [o.clientOrderId, o.status])).toEqual([
      ['testmm-external-1', 'OPEN'],
      [outcome.clientOrderId, 'OPEN'],
    ]);
  });

  it('placements never overlap while cancels run concurrently (bounded), even beside a placement', async () => {
    h = execHarness({ pool: { concurrency: 2 } });
    const placed = await h.settle(
      Promise.all([
        h.pipeline.place(buy('s-a', '59000')),
        h.pipeline.place(buy('s-b', '58000')),
        h.pipeline.place(buy('s-c', '57000')),
      ]),
    );
    expect(placed.map((o) => o.kind)).toEqual(['placed', 'placed', 'placed']);
    const fourth = h.pipeline.place(buy('s-d', '56000'));
    const cancels = placed.map((o) => h!.pool.cancel(o.key!));
    const [d, ...cancelled] = await h.settle(Promise.all([fourth, ...cancels]));
    expect(d).toMatchObject({ kind: 'placed', state: 'OPEN' });
    expect(cancelled.map((c) => c.kind)).toEqual(['cancelled', 'cancelled', 'cancelled']);

    // Placements: each prepare starts only after the previous placement committed.
    const spans = h.venue.truth.placementSpans(h.partyId).sort((a, b) => a.preparedAt - b.preparedAt);
    expect(spans).toHaveLength(4);
    for (let i = 1; i < spans.length; i++) {
      expect(spans[i]!.preparedAt).toBeGreaterThanOrEqual(spans[i - 1]!.settledAt!);
    }
    // No two placement calls (prepare or placement submit) were ever open at once.
    const placementCalls = [
      ...callsOf(h.venue, 'prepare', h.partyId),
      ...h.venue.truth.submits().filter((s) => s.commandKind === 'place'),
    ];
    expect(placementCalls).toHaveLength(8);
    expect(maxOverlap(placementCalls)).toBe(1);

    // Cancels overlapped one another, never more than the pool's bound, and ran beside the placement.
    const cancelCalls = callsOf(h.venue, 'cancelPrepare', h.partyId);
    expect(cancelCalls).toHaveLength(3);
    expect(maxOverlap(cancelCalls)).toBe(2);
    const fourthPrepare = callsOf(h.venue, 'prepare', h.partyId)[3]!;
    expect(maxOverlap([fourthPrepare, ...cancelCalls])).toBeGreaterThanOrEqual(2);
    const cancelQueue = h.eventsOf('queue').filter((e) => e.queue === 'cancel');
    expect(Math.max(...cancelQueue.map((e) => e.inFlight))).toBe(2);
    expect(Math.max(...cancelQueue.map((e) => e.depth))).toBe(1);
    const stages = new Set(h.eventsOf('stage').map((e) => e.stage));
    expect([...stages].sort()).toEqual(
      [
        'cancel-confirm',
        'cancel-prepare',
        'cancel-sign',
        'cancel-submit',
        'confirm',
        'prepare',
        'sign',
        'submit',
      ].sort(),
    );
  });
});
