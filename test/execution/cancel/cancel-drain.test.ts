/**
 * Closing the engine drains its cancel pool: a cancel not yet signed is dropped, a cancel already
 * submitted runs to its confirmation and records its outcome, and one whose confirmation does not
 * come is cut by its bound (the drain deadline, or its confirmation window) and left CANCELLING in
 * the journal, which the next start reads before sending anything. The simulated venue with its
 * realistic latencies (a cancel prepare takes 11-23 s, a submit 18-20 s, the commit 11-13 s more),
 * on fake time; the orders poller is kept out of the way so that only the cancel's own reads see it.
 */

import { describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/orders/journal/index.js';
import { settle, simEnvPerTest, until, type DaemonOptions, type DaemonProcess } from '../support/daemon.js';
import type { SimEnv } from '../support/sim-env.js';
import { buy } from '../support/exec-harness.js';
import { callsOf } from '../support/ground-truth.js';

const QUIET_POLLER: DaemonOptions = { ordersPoll: { intervalMs: 3_600_000 } };

const perTest = simEnvPerTest({ latency: 'realistic' });
const env = (): SimEnv => perTest.env();

interface Resting {
  readonly d: DaemonProcess;
  readonly key: string;
  readonly orderId: string;
  readonly path: string;
}

/** An engine on a fresh store with one BUY resting. */
async function restingOrder(options: DaemonOptions = {}): Promise<Resting> {
  const path = env().storePath();
  const d = perTest.start(path, { ...QUIET_POLLER, ...options });
  await settle(env(), d.engine.start());
  const placed = await settle(env(), d.engine.place(buy('BTC/USDC:BUY:0')));
  expect(placed).toMatchObject({ kind: 'placed', state: 'OPEN' });
  return { d, key: placed.key!, orderId: placed.orderId!, path };
}

/** True once the cancel of `key` was submitted (its `cancel-submit` stage reported). */
function cancelSubmitted(d: DaemonProcess, key: string): boolean {
  return d.events.some((e) => e.type === 'stage' && e.stage === 'cancel-submit' && e.key === key);
}

/** The cancel submissions the venue saw. */
function cancelSubmits(): number {
  return env()
    .venue.truth.submits()
    .filter((s) => s.commandKind === 'cancel').length;
}

/** The order's journaled state and its cancel events in order, read from the closed store. */
function journaled(path: string, key: string): { state: string | undefined; cancel: string[] } {
  const journal = openJournal({ path, clock: env().clock, readOnly: true });
  try {
    const events = journal.transitions(key).map((t) => t.eventType);
    return { state: journal.get(key)?.state, cancel: events.filter((e) => e.startsWith('Cancel')) };
  } finally {
    journal.close();
  }
}
const SUBMITTED = ['CancelRequested', 'CancelPrepareStarted', 'CancelSubmitted'];

/** Closes `d`'s engine with `drainMs`; returns the fake ms the close took. */
async function timedClose(
  d: DaemonProcess,
  drainMs: number,
  options: { cancelAll?: boolean } = {},
): Promise<number> {
  const t0 = env().clock.now();
  await settle(env(), d.engine.close({ ...options, drainMs }), drainMs + 60_000, 100);
  return env().clock.now() - t0;
}

describe('closing the cancel pool drains it', () => {
  it('close() during the cancel prepare drops the cancel: its prepare is cut, nothing is signed', async () => {
    const { d, key, orderId, path } = await restingOrder();
    env().venue.addFault({ kind: 'hang', endpoint: 'cancelPrepare' });
    const cancelling = d.engine.cancel(key, { reason: 'test' });
    await until(env(), () => callsOf(env().venue, 'cancelPrepare').length === 1, 60_000, 100);
    expect(d.engine.orders.get(key)!.state).toBe('CANCELLING');

    const ms = await timedClose(d, 120_000);
    expect(ms).toBeLessThan(1_000); // not held for the drain: nothing of it was sent
    expect(await cancelling).toMatchObject({ kind: 'aborted', reason: 'closed', key });
    expect(d.engine.orders.get(key)!.state).toBe('CANCEL_REQUESTED');
    expect(journaled(path, key)).toEqual({
      state: 'CANCEL_REQUESTED',
      cancel: ['CancelRequested', 'CancelPrepareStarted', 'CancelRetry'],
    });
    expect(cancelSubmits()).toBe(0);
    expect(env().venue.truth.order(orderId)!.status).toBe('OPEN');
  });

  it('close() after the cancel submit waits for its confirmation and records the outcome', async () => {
    const { d, key, orderId, path } = await restingOrder();
    const cancelling = d.engine.cancel(key, { reason: 'test' });
    await until(env(), () => cancelSubmitted(d, key), 120_000, 100);
    expect(d.engine.orders.get(key)!.state).toBe('CANCELLING'); // submitted, not yet confirmed

    const ms = await timedClose(d, 120_000);
    expect(ms).toBeGreaterThan(1_000); // it waited for the confirming reads
    expect(ms).toBeLessThan(60_000);
    expect(await cancelling).toMatchObject({ kind: 'cancelled', key, orderId });
    expect(d.engine.orders.get(key)!.state).toBe('CANCELLED');
    expect(journaled(path, key)).toEqual({ state: 'CANCELLED', cancel: [...SUBMITTED, 'CancelConfirmed'] });
    const outcomes = d.events.flatMap((e) => (e.type === 'cancel' ? [e.outcome.kind] : []));
    expect(outcomes).toEqual(['cancelled']);
    expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
    expect(cancelSubmits()).toBe(1);
  });

  it('close() while the cancel submission is in flight lets it land, then confirms it', async () => {
    const { d, key, orderId } = await restingOrder();
    env().venue.addFault({ kind: 'latency-spike', endpoint: 'submit', extraMs: 30_000 });
    const cancelling = d.engine.cancel(key, { reason: 'test' });
    const submitInFlight = (): boolean =>
      callsOf(env().venue, 'submit').some((c) => c.commandKind === 'cancel' && c.endedAt === null);
    await until(env(), submitInFlight, 120_000, 100);

    const ms = await timedClose(d, 120_000);
    expect(ms).toBeGreaterThan(30_000); // the submission's own latency, then the confirmation
    expect(await cancelling).toMatchObject({ kind: 'cancelled', key, orderId });
    expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
  });

  it('close() with a hung confirmation is bounded by the drain deadline; the next start reads it, never re-sends', async () => {
    const { d, key, orderId, path } = await restingOrder();
    const cancelling = d.engine.cancel(key, { reason: 'test' });
    await until(env(), () => cancelSubmitted(d, key), 120_000, 100);
    const hang = env().venue.addFault({ kind: 'hang', endpoint: 'order', probability: 1 });

    const ms = await timedClose(d, 30_000);
    expect(ms).toBeGreaterThanOrEqual(30_000);
    expect(ms).toBeLessThanOrEqual(30_000 + 500);
    expect(await cancelling).toMatchObject({ kind: 'aborted', reason: 'closed', key });
    // A submitted cancel of unknown effect: the journal says so.
    expect(d.engine.orders.get(key)!.state).toBe('CANCELLING');
    expect(journaled(path, key)).toEqual({ state: 'CANCELLING', cancel: SUBMITTED });

    // The venue did take it. The next start reads the order and records it; nothing is re-sent.
    env().venue.faults.remove(hang);
    expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
    const b = perTest.start(path);
    await settle(env(), b.engine.start());
    expect(b.engine.orders.get(key)!.state).toBe('CANCELLED');
    expect(callsOf(env().venue, 'cancelPrepare')).toHaveLength(1);
    expect(cancelSubmits()).toBe(1);
  });

  it('close() with a cancel that never takes effect is bounded by its confirmation window; the next start reads before cancelling again', async () => {
    const { d, key, orderId, path } = await restingOrder({
      ...QUIET_POLLER,
      tuning: { cancel: { confirmWindowMs: 20_000 } },
    });
    const noCommit = env().venue.addFault({ kind: 'no-commit', probability: 1 });
    const cancelling = d.engine.cancel(key, { reason: 'test' });
    await until(env(), () => cancelSubmitted(d, key), 120_000, 100);

    const ms = await timedClose(d, 120_000);
    expect(ms).toBeGreaterThanOrEqual(20_000 - 500);
    expect(ms).toBeLessThan(30_000); // the window and one read, never the 120 s drain
    expect(await cancelling).toMatchObject({ kind: 'aborted', reason: 'closed', key });
    expect(journaled(path, key)).toEqual({ state: 'CANCELLING', cancel: SUBMITTED });
    expect(env().venue.truth.order(orderId)!.status).toBe('OPEN');
    expect(cancelSubmits()).toBe(1); // no second attempt after close

    // The next start reads the order first, finds it resting, and only then cancels it again.
    env().venue.faults.remove(noCommit);
    const callsBefore = env().venue.truth.calls().length;
    const b = perTest.start(path);
    await settle(env(), b.engine.start());
    await until(env(), () => b.engine.orders.get(key)!.state === 'CANCELLED', 300_000, 500);
    const after = env().venue.truth.calls().slice(callsBefore);
    const firstRead = after.findIndex((c) => c.endpoint === 'order' && c.path.endsWith(orderId));
    const firstCancel = after.findIndex((c) => c.endpoint === 'cancelPrepare');
    expect(firstRead).toBeGreaterThanOrEqual(0);
    expect(firstCancel).toBeGreaterThan(firstRead);
    expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
  });

  it('close({ cancelAll }) keeps the whole close within drainMs: the cancels and the drain share one deadline', async () => {
    const { d, key, orderId, path } = await restingOrder();
    env().venue.addFault({ kind: 'hang', endpoint: 'order', probability: 1 });

    const ms = await timedClose(d, 60_000, { cancelAll: true });
    expect(ms).toBeGreaterThanOrEqual(60_000); // prepare and submit (~30-45 s), then reads that hang
    expect(ms).toBeLessThanOrEqual(60_000 + 500);
    expect(cancelSubmits()).toBe(1);
    expect(journaled(path, key)).toEqual({ state: 'CANCELLING', cancel: SUBMITTED });
    expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
  });
});
