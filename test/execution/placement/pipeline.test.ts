/**
 * The placement pipeline against the simulated venue (realistic latencies, fake time): the happy
 * path, journal-before-IO, freshness, slot rules and the typed refusals. Every test ends on the
 * venue's ground truth: no live order was ever duplicated.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { dec } from '../../../src/core/decimal.js';
import type { PlacementOutcome } from '../../../src/execution/execution-events.js';
import { buy, execHarness, sell, type ExecHarness } from '../support/exec-harness.js';
import { callsOf, closeChecked, partyOrders } from '../support/ground-truth.js';
import { STATES_TO_OPEN } from '../../orders/support/fixtures.js';

let h: ExecHarness | undefined;
afterEach(async () => {
  await closeChecked(h);
  h = undefined;
});

describe('placement pipeline: happy path', () => {
  it('places one order to OPEN; the venue holds exactly one order; the journal led every call', async () => {
    h = execHarness();
    const outcome = await h.settle(h.pipeline.place(buy('BTC/USDC:BUY:0')));

    expect(outcome).toMatchObject({
      kind: 'placed',
      state: 'OPEN',
      alreadyLive: false,
      slot: 'BTC/USDC:BUY:0',
    });
    const cid = outcome.clientOrderId!;
    expect(cid.startsWith('testmm-')).toBe(true);
    expect(cid.length).toBeLessThanOrEqual(120);

    // Ground truth: one order, ours, resting at the exact price and quantity.
    const orders = partyOrders(h.venue, h.partyId);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ clientOrderId: cid, status: 'OPEN', price: '60000', quantity: '0.01' });
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(1);
    expect(h.venue.truth.submits().filter((s) => s.verdict === 'valid')).toHaveLength(1);

    // The registry agrees, and the journal holds the same state.
    const tracked = h.registry.get(cid)!;
    expect(tracked).toMatchObject({
      state: 'OPEN',
      orderId: orders[0]!.orderId,
      contractIds: [orders[0]!.contractId],
    });
    expect(h.journal.get(cid)?.state).toBe('OPEN');

    // Journal before IO: the intent was journaled before the prepare carrying its clientOrderId,
    // and SUBMITTING before the submission.
    const calls = h.venue.truth.calls();
    const prepareCall = calls.find((c) => c.endpoint === 'prepare' && c.clientOrderId === cid)!;
    const submitCall = calls.find((c) => c.endpoint === 'submit')!;
    const intentMark = h.journalMarks.find((m) => m.key === cid && m.state === 'INTENT')!;
    const submitMark = h.journalMarks.find((m) => m.key === cid && m.event === 'SubmitStarted')!;
    expect(intentMark.callsBefore).toBeLessThan(prepareCall.id);
    expect(submitMark.callsBefore).toBeLessThan(submitCall.id);
    expect(h.journal.transitions(cid).map((t) => t.toState)).toEqual([...STATES_TO_OPEN]);

    // Observability: each stage timed, the outcome reported.
    const stages = h.eventsOf('stage').map((e) => e.stage);
    expect(stages).toEqual(['prepare', 'sign', 'submit', 'confirm']);
    const prepare = h.eventsOf('stage').find((e) => e.stage === 'prepare')!;
    expect(prepare.ms).toBeGreaterThanOrEqual(9_000);
    expect(prepare.ms).toBeLessThanOrEqual(14_000);
    expect(h.eventsOf('placement').map((e) => e.outcome.kind)).toEqual(['placed']);
  });

  it('runs intents one at a time, highest priority first; a newer intent replaces a waiting one for its slot', async () => {
    h = execHarness();
    const first = h.pipeline.place(buy('s-a', '59000'));
    const low = h.pipeline.place(buy('s-b', '58000'), { priority: 0 });
    const replaced = h.pipeline.place(buy('s-c', '57000'), { priority: 1 });
    const replacing = h.pipeline.place(buy('s-c', '57500'), { priority: 5 });
    expect(h.pipeline.depth).toBe(2);
    const outcomes = await h.settle(Promise.all([first, low, replaced, replacing]));

    expect(outcomes.map((o) => o.kind)).toEqual(['placed', 'placed', 'superseded', 'placed']);
    // Ground truth: s-c went before s-b, at the replacing price; the replaced intent never reached the venue.
    const prepares = callsOf(h.venue, 'prepare', h.partyId);
    expect(prepares.map((c) => c.clientOrderId)).toEqual([
      outcomes[0].clientOrderId,
      outcomes[3].clientOrderId,
      outcomes[1].clientOrderId,
    ]);
    expect(partyOrders(h.venue, h.partyId).map((o) => o.price)).toEqual(['59000', '57500', '58000']);
    const queue = h.eventsOf('queue').filter((e) => e.queue === 'placement');
    expect(Math.max(...queue.map((e) => e.depth))).toBe(2);
    expect(Math.max(...queue.map((e) => e.oldestWaitMs))).toBeGreaterThan(30_000);
  });

  it('drops an intent that is no longer wanted: before prepare, and unsigned after prepare', async () => {
    let wanted: boolean | 'toxic' = true;
    h = execHarness({ policy: { isWanted: () => wanted } });
    wanted = false;
    const stale = await h.settle(h.pipeline.place(buy('s-a')));
    expect(stale).toMatchObject({ kind: 'not-wanted', stage: 'queued', key: null });
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(0);

    wanted = true;
    const p = h.pipeline.place(buy('s-a'));
    await h.advance(1_000);
    wanted = 'toxic'; // the market moved while the prepare was in flight
    const abandoned = await h.settle(p);
    expect(abandoned).toMatchObject({ kind: 'not-wanted', stage: 'prepared' });
    expect(h.registry.get(abandoned.key!)?.state).toBe('ABANDONED');
    // The check's cause goes with the abandoned prepare, for the metrics.
    expect(h.eventsOf('prepare-abandoned')).toMatchObject([{ reason: 'not-wanted', cause: 'toxic' }]);
    // Ground truth: prepared once, never submitted; the prepare expires committing nothing.
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(1);
    expect(h.venue.truth.submits()).toHaveLength(0);
    await h.advance(301_000);
    expect(partyOrders(h.venue, h.partyId).map((o) => [o.status, o.committed])).toEqual([['EXPIRED', false]]);
  });

  it('tells the freshness check where it runs: before the prepare, then before signing', async () => {
    const stages: string[] = [];
    h = execHarness({
      policy: {
        isWanted: (_intent, stage) => {
          stages.push(stage);
          return true;
        },
      },
    });
    expect((await h.settle(h.pipeline.place(buy('s-a')))).kind).toBe('placed');
    expect(stages[0]).toBe('queued');
    expect(stages.at(-1)).toBe('prepared');
    expect(new Set(stages)).toEqual(new Set(['queued', 'prepared']));
  });

  it('never places for a slot whose order is still active', async () => {
    h = execHarness();
    const first = await h.settle(h.pipeline.place(buy('s-a')));
    expect(first.kind).toBe('placed');
    const second = await h.settle(h.pipeline.place(buy('s-a', '59990')));
    expect(second).toMatchObject({ kind: 'slot-busy', occupantKey: first.key, occupantState: 'OPEN' });
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(1);
  });
});

describe('placement pipeline: refusals are typed outcomes', () => {
  it('INSUFFICIENT_BALANCE, MAX_OPEN_ORDERS and a missing preapproval surface as outcomes', async () => {
    h = execHarness({
      account: { balances: { USDC: '700', BTC: '0' }, maxOpenOrders: 1, preapprovals: ['USDC', 'BTC'] },
      pipeline: { maxOpenOrdersCooldownMs: 1_000, ledgerRejectRetries: 1 },
    });
    const outcomes: PlacementOutcome[] = [];
    outcomes.push(await h.settle(h.pipeline.place(sell('s-sell'))));
    outcomes.push(await h.settle(h.pipeline.place(buy('s-1', '60000', '0.01'))));
    outcomes.push(await h.settle(h.pipeline.place(buy('s-2', '100', '0.5'))));
    h.venue.operator.removePreapproval(h.slug, 'BTC');
    h.venue.operator.setAccountStatus(h.slug, 'ACTIVE');
    await h.settle(h.pool.cancel(outcomes[1]!.key!));
    outcomes.push(await h.settle(h.pipeline.place(buy('s-3', '100', '0.5'))));

    expect(outcomes.map((o) => o.kind)).toEqual([
      'insufficient-balance',
      'placed',
      'max-open-orders',
      'ledger-rejected',
    ]);
    expect(outcomes[2]).toMatchObject({ openOrders: 1, maxOpenOrders: 1 });
    expect(outcomes[3]).toMatchObject({ attempts: 2 });
    for (const o of [outcomes[0]!, outcomes[2]!, outcomes[3]!]) {
      expect(h.registry.get(o.key!)).toMatchObject({ state: 'REJECTED' });
    }
    expect(h.eventsOf('backoff').some((e) => e.reason === 'MAX_OPEN_ORDERS')).toBe(true);
  });

  it('RATE_LIMITED pauses the whole pipeline before the next placement', async () => {
    h = execHarness({ pipeline: { rateLimitCooldownMs: 60_000 } });
    h.venue.addFault({ kind: 'rate-limit', endpoint: 'prepare', at: 1, times: 1 });
    const limited = h.pipeline.place(buy('s-a'));
    const next = h.pipeline.place(buy('s-b'));
    const [a, b] = await h.settle(Promise.all([limited, next]));
    expect(a).toMatchObject({ kind: 'rate-limited', retryAfterMs: 60_000 });
    expect(b.kind).toBe('placed');
    // The 429 is answered before authentication, so its call record carries no party.
    const [first, second] = callsOf(h.venue, 'prepare');
    expect(second!.startedAt - first!.endedAt!).toBeGreaterThanOrEqual(60_000);
  });

  it('a 429 on submit re-sends the SAME signed transaction after a backoff (nothing was dispatched)', async () => {
    h = execHarness();
    h.venue.addFault({ kind: 'rate-limit', endpoint: 'submit', at: 1, times: 1 });
    const outcome = await h.settle(h.pipeline.place(buy('s-a')));
    expect(outcome).toMatchObject({ kind: 'placed', state: 'OPEN' });
    // Ground truth: one prepare, two submissions (429, then 200 for the one command), one order.
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(1);
    const submits = h.venue.truth.submits();
    expect(submits.map((s) => [s.status, s.verdict])).toEqual([
      [429, 'not-processed'],
      [200, 'valid'],
    ]);
    expect(submits[1]!.commandId).toBe(h.venue.truth.prepares()[0]!.commandId);
    expect(h.journal.transitions(outcome.key!).map((t) => t.toState)).toContain('SIGNED');
    expect(h.eventsOf('retry')).toMatchObject([{ operation: 'resubmit', code: 'RATE_LIMITED' }]);
  });

  it('refuses malformed intents without calling the venue', async () => {
    h = execHarness();
    const bad = await h.settle(h.pipeline.place({ ...buy('s-a'), price: dec('60000.00000000001') }));
    expect(bad).toMatchObject({ kind: 'refused', code: 'INVALID_INTENT' });
    expect(callsOf(h.venue, 'prepare')).toHaveLength(0);
  });
});

describe('placement pipeline: close()', () => {
  it('drops waiting intents, abandons an unsigned prepare, and refuses new ones', async () => {
    h = execHarness();
    const running = h.pipeline.place(buy('s-a'));
    const waiting = h.pipeline.place(buy('s-b'));
    await h.advance(2_000);
    const closing = h.pipeline.close();
    const [r, w] = await h.settle(Promise.all([running, waiting]));
    await h.settle(closing);
    expect(w).toMatchObject({ kind: 'aborted', reason: 'closed', key: null });
    expect(r).toMatchObject({ kind: 'aborted', reason: 'closed' });
    expect(h.registry.get(r.key!)?.state).toBe('ABANDONED');
    expect(await h.pipeline.place(buy('s-c'))).toMatchObject({ kind: 'aborted', reason: 'closed' });
    expect(h.venue.truth.submits()).toHaveLength(0);
  });

  it("a caller's signal drops its intent while it waits; the queue timeout does too", async () => {
    h = execHarness({ pipeline: { queueTimeoutMs: 30_000 } });
    const ctl = new AbortController();
    const running = h.pipeline.place(buy('s-a'));
    const aborted = h.pipeline.place(buy('s-b'), { signal: ctl.signal });
    const timedOut = h.pipeline.place(buy('s-c'));
    await h.advance(1_000);
    ctl.abort();
    const [r, a, t] = await h.settle(Promise.all([running, aborted, timedOut]));
    expect(r.kind).toBe('placed');
    expect(a).toMatchObject({ kind: 'aborted', reason: 'signal', key: null });
    expect(t).toMatchObject({ kind: 'aborted', reason: 'queue-timeout', key: null });
    expect(callsOf(h.venue, 'prepare', h.partyId)).toHaveLength(1);
  });

  it('lets an in-flight submission finish and confirms nothing more', async () => {
    h = execHarness();
    const running = h.pipeline.place(buy('s-a'));
    // Prepare takes 9–14 s; by 20 s the submission (18–20 s) is in flight.
    await h.advance(20_000);
    expect(h.registry.get(h.registry.all()[0]!.key)?.state).toBe('SUBMITTING');
    const closing = h.pipeline.close({ drainMs: 60_000 });
    const r = await h.settle(running);
    await h.settle(closing);
    expect(['placed', 'unresolved']).toContain(r.kind);
    expect(h.venue.truth.submits().map((s) => s.status)).toEqual([200]);
    expect(h.venue.truth.submits()[0]!.clientAborted).toBe(false);
  });
});
