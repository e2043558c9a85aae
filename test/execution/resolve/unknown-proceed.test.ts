import { afterEach, describe, expect, it } from 'vitest';
import { PREPARED_TX_LIFETIME_MS } from '../../../src/orders/fsm/index.js';
import { buy, execHarness, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, partyOrders } from '../support/ground-truth.js';

/**
 * The default policy after an unknown placement, `proceed`: the unknown order blocks its own
 * slot (and counts as exposure until resolved), and the pipeline moves on to the other slots
 * after one order read and a short pause. The venue's one-at-a-time rule (LEDGER_COMMAND_REJECTED
 * while our previous placement awaits the ledger) is met with exponential backoff and retried for
 * as long as that order awaits it; no slot ever gets a second order while its first is unknown.
 */

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

const QUEUE = { queueTimeoutMs: 10 * 60_000 };

describe("policy 'proceed' (the default)", () => {
  it('504 with commit: one read, a short pause, the next slot placed; the venue refusal is retried with backoff', async () => {
    h = execHarness({ latency: 'realistic' });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: true, at: 1 });
    const [a, b] = await h.settle(
      Promise.all([h.pipeline.place(buy('s-a')), h.pipeline.place(buy('s-b', '59000'))]),
    );

    expect(a).toMatchObject({ kind: 'unresolved', state: 'UNKNOWN' });
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    await h.settle(h.resolver.track(a.key!));
    expect(h.registry.get(a.key!)!.state).toBe('OPEN');
    // One read of the unknown order by the pipeline before it moved on, then the pause.
    const unknownAt = h.eventsOf('unknown')[0]!.at;
    const pause = h.eventsOf('backoff').find((e) => e.reason === 'unknown-order');
    expect(pause).toMatchObject({ delayMs: 2_000 });
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    // b's first prepare went out within seconds of the unknown, not after the 5-minute deadline.
    expect(prepares[1]!.startedAt - unknownAt).toBeLessThan(30_000);
    // The venue refused it while a was in flight to the ledger; the pipeline backed off and retried.
    const refusedCodes = prepares.map((c) => c.code).filter((c) => c !== null);
    expect(refusedCodes.length).toBeGreaterThan(0);
    expect(refusedCodes.every((c) => c === 'LEDGER_COMMAND_REJECTED')).toBe(true);
    expect(partyOrders(h.venue, h.partyId).filter((o) => o.committed)).toHaveLength(2);
  });

  it('504 without commit: the other slot rests long before the 5-minute rule settles the unknown one', async () => {
    h = execHarness({ latency: 'realistic', pipeline: QUEUE });
    h.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 1 });
    const first = h.pipeline.place(buy('s-a'));
    const second = h.pipeline.place(buy('s-b', '59000'));
    const b = await h.settle(second);
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const unknownAt = h.eventsOf('unknown')[0]!.at;
    // Prepare + submit + confirm of one placement (about 45 s) after the unknown, plus the pause.
    expect(h.clock.now() - unknownAt).toBeLessThan(90_000);
    // The unknown order still holds its slot: a new intent for it is refused, not placed.
    expect(h.registry.inSlot('s-a').map((o) => o.state)).toEqual(['UNKNOWN']);
    expect(await h.settle(h.pipeline.place(buy('s-a', '59990')))).toMatchObject({ kind: 'slot-busy' });

    const a = await h.settle(first);
    expect(a).toMatchObject({ kind: 'unresolved', state: 'UNKNOWN' });
    // The venue's own deadline ends it (EXPIRED), read by the resolver: never on the book.
    const resolution = await h.settle(h.resolver.track(a.key!));
    expect(resolution).toMatchObject({ key: a.key, kind: 'terminal', committed: false });
    const order = h.registry.get(a.key!)!;
    const firstPrepare = callsOf(h.venue, 'prepare', h.partyId)[0]!;
    expect(order.updatedAt - firstPrepare.startedAt).toBeGreaterThanOrEqual(PREPARED_TX_LIFETIME_MS);
    expect(h.venue.truth.submits().map((s) => s.status)).toEqual([504, 200]);
  });

  it('a 200 that never confirms: the resolver takes it after the confirm window; prepares back off until the venue lets them through', async () => {
    h = execHarness({ latency: 'realistic', pipeline: QUEUE });
    h.venue.addFault({ kind: 'no-commit', at: 1 });
    const first = h.pipeline.place(buy('s-a'));
    const second = h.pipeline.place(buy('s-b', '59000'));
    const a = await h.settle(first);
    expect(a).toMatchObject({ kind: 'unresolved', state: 'SUBMITTED' });
    const submittedAt = h.venue.truth.submits()[0]!.endedAt!;
    // The confirm window (60 s) plus a read, not the 5-minute deadline.
    expect(h.clock.now() - submittedAt).toBeLessThan(75_000);

    const b = await h.settle(second);
    expect(b).toMatchObject({ kind: 'placed', state: 'OPEN' });
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    const refused = prepares.filter((c) => c.code === 'LEDGER_COMMAND_REJECTED');
    expect(refused.length).toBeGreaterThan(3);
    // Exponential backoff, capped at 16 s: the gaps between refusals grow and never exceed the cap.
    const gaps = refused.slice(1).map((c, i) => c.startedAt - refused[i]!.startedAt);
    expect(gaps[1]!).toBeGreaterThan(gaps[0]!);
    expect(Math.max(...gaps)).toBeLessThan(16_000 + 15_000);
    // b went through as soon as the venue stopped refusing: within one backoff step of its
    // deadline for the lost transaction (prepare + 5 minutes), far from deadline + margin + slack.
    const lostPrepare = prepares[0]!;
    const accepted = prepares.filter((c) => c.code === null)[1]!;
    const venueFreedAt = lostPrepare.endedAt! + PREPARED_TX_LIFETIME_MS;
    expect(accepted.startedAt - venueFreedAt).toBeLessThan(17_000);
    // The lost order is settled by the 5-minute rule and was never duplicated.
    const resolution = await h.settle(h.resolver.track(a.key!));
    expect(resolution).toMatchObject({ key: a.key, kind: 'terminal', committed: false });
    expect(partyOrders(h.venue, h.partyId).map((o) => o.committed)).toEqual([false, true]);
    expect(h.venue.truth.submits().map((s) => s.status)).toEqual([200, 200]);
  });
});
