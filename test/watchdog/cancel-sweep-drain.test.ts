/**
 * The watchdog's stand-down in the middle of a cancel, at the venue's realistic latencies on fake
 * time: the sweep's engine closes and its cancel pool drains, so a cancel already submitted is
 * confirmed and listed as the watchdog's (what the daemon's attribution asks `/status` about),
 * with no read-back of aborted cancels; one whose confirmation hangs past the drain bound stays
 * CANCELLING in the watchdog's journal, and the next sweep reads it before sending anything.
 */
import { expect, it } from 'vitest';
import { defaultsOf } from '../../src/config/define.js';
import { executionSchema, type ExecutionConfig } from '../../src/config/sections/execution.js';
import type { EngineEvent } from '../../src/execution/order-engine.js';
import { openJournal } from '../../src/orders/journal/index.js';
import { CancelSweeper } from '../../src/watchdog/cancel-sweep.js';
import { settle, simEnvPerTest, until } from '../execution/support/daemon.js';
import type { SimEnv } from '../execution/support/sim-env.js';
import { buy } from '../execution/support/exec-harness.js';
import { callsOf } from '../execution/support/ground-truth.js';

const perTest = simEnvPerTest({ latency: 'realistic' });
const env = (): SimEnv => perTest.env();

/** A daemon that placed one BUY and stopped without cancelling it: its orderId. */
async function orphanedOrder(): Promise<string> {
  const d = perTest.start(env().storePath('daemon.sqlite'), { ordersPoll: { intervalMs: 3_600_000 } });
  await settle(env(), d.engine.start());
  const placed = await settle(env(), d.engine.place(buy('BTC/USDC:BUY:0')));
  expect(placed).toMatchObject({ kind: 'placed', state: 'OPEN' });
  await settle(env(), d.engine.close());
  return placed.orderId!;
}

function sweeper(storePath: string, drainMs: number, events: EngineEvent[]): CancelSweeper {
  return new CancelSweeper({
    venue: env().client(),
    signer: env().signer,
    clock: env().clock,
    storePath,
    reason: 'ledger-mm-watchdog: test',
    // The `execution` table's defaults (a new key needs no edit here).
    execution: defaultsOf(executionSchema) as ExecutionConfig,
    verification: { policy: 'if-present' },
    drainMs,
    onEngineEvent: (e) => events.push(e),
  });
}

const submitted = (events: EngineEvent[]): boolean =>
  events.some((e) => e.type === 'stage' && e.stage === 'cancel-submit');

it('a stand-down after the cancel submit waits for its confirmation: the cancel is listed as the watchdog’s', async () => {
  const orderId = await orphanedOrder();
  const events: EngineEvent[] = [];
  const s = sweeper(env().storePath('watchdog.sqlite'), 140_000, events);
  const standDown = new AbortController();
  const noted: string[] = [];
  const sweeping = s.sweep(standDown.signal, (id) => noted.push(id));
  await until(env(), () => submitted(events), 300_000, 100);
  expect(env().venue.truth.order(orderId)!.status).toBe('OPEN');
  const readsBefore = callsOf(env().venue, 'order').length;

  standDown.abort();
  const report = await settle(env(), sweeping, 200_000, 100);
  expect(report).toEqual({ cancelled: [orderId], failures: [], gone: 0, left: -1 });
  expect(noted).toEqual([orderId]);
  expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
  // Confirmed by the cancel's own reads while the pool drained; nothing sent after the stand-down.
  expect(callsOf(env().venue, 'order').length).toBeGreaterThan(readsBefore);
  expect(callsOf(env().venue, 'cancelPrepare')).toHaveLength(1);
});

it('a stand-down whose confirmation hangs is cut at the drain bound; the next sweep reads it and sends nothing', async () => {
  const orderId = await orphanedOrder();
  const events: EngineEvent[] = [];
  const store = env().storePath('watchdog.sqlite');
  const s = sweeper(store, 30_000, events);
  const standDown = new AbortController();
  const sweeping = s.sweep(standDown.signal);
  await until(env(), () => submitted(events), 300_000, 100);
  const hang = env().venue.addFault({ kind: 'hang', endpoint: 'order', probability: 1 });

  standDown.abort();
  const t0 = env().clock.now();
  const report = await settle(env(), sweeping, 200_000, 100);
  expect(env().clock.now() - t0).toBeLessThanOrEqual(30_000 + 500);
  expect(report).toEqual({
    cancelled: [],
    failures: [{ orderId, reason: 'aborted', detail: 'closed' }],
    gone: 0,
    left: -1,
  });
  const journal = openJournal({ path: store, clock: env().clock, readOnly: true });
  try {
    expect(journal.findByOrderId(orderId)?.order.state).toBe('CANCELLING');
  } finally {
    journal.close();
  }

  // The venue took it: the next sweep's recovery reads it as cancelled and sends nothing more.
  env().venue.faults.remove(hang);
  const next = await settle(env(), s.sweep(new AbortController().signal), 200_000, 100);
  expect(next).toEqual({ cancelled: [], failures: [], gone: 0, left: 0 });
  expect(callsOf(env().venue, 'cancelPrepare')).toHaveLength(1);
  expect(env().venue.truth.order(orderId)!.status).toBe('CANCELLED');
});
