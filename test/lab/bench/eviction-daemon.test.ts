import { afterEach, expect, it } from 'vitest';
import { isTerminal } from '../../../src/orders/fsm/index.js';
import { daemonEnv, disposeDaemonEnvs } from '../../daemon/support/daemon-env.js';
import { positionRange } from '../../daemon/support/truth-figures.js';

/**
 * The daemon trading with fills while its registry forgets terminal orders every minute (kept
 * two minutes): nothing it trades on needs an evicted order. Inventory equals what the venue's
 * ground truth says the party traded, every order the venue still shows open is tracked, only
 * recent terminal orders are held, and both pairs are quoted two-sided to the end.
 */

const RETENTION_MS = 120_000;
const INTERVAL_MS = 60_000;

afterEach(disposeDaemonEnvs);

it('trades with fills for 40 simulated minutes while terminal orders are evicted', async () => {
  const fast = { initialMs: 700, factor: 1.5, maxMs: 3_000 };
  const e = daemonEnv({
    latency: 'fast',
    takerRate: 1,
    tuning: {
      engine: {
        execution: { placement: { confirmBackoff: fast }, cancel: { confirmBackoff: fast } },
        eviction: { intervalMs: INTERVAL_MS, retentionMs: RETENTION_MS },
      },
    },
  });
  void e.daemon.start();
  let peak = 0;
  for (let t = 0; t < 40 * 60_000; t += 10_000) {
    await e.run(10_000, 1_000);
    peak = Math.max(peak, e.registry().size);
  }
  // Takers stop; the orders poller sees the last fills.
  e.venue.stopMarket();
  await e.run(30_000, 1_000);
  const engine = e.daemon.engine!;
  const now = e.clock.now();
  const ours = e.ours();

  // Eviction ran, and what is left is active or recent.
  expect(engine.evicted).toBeGreaterThan(0);
  for (const o of engine.orders.all()) {
    if (isTerminal(o.state)) expect(o.updatedAt).toBeGreaterThanOrEqual(now - RETENTION_MS - INTERVAL_MS);
  }
  expect(peak).toBeLessThan(ours.length);
  // Nothing that may still be on the book was forgotten.
  const resting = ours.filter((x) => x.status === 'OPEN' || x.status === 'PARTIALLY_FILLED');
  expect(resting.length).toBeGreaterThan(0);
  expect(
    resting.filter((o) => engine.orders.byOrderId(o.orderId) === undefined).map((o) => o.orderId),
  ).toEqual([]);
  // Fills of evicted orders stay in the inventory: it matches the venue's trades of the party.
  const trades = e.venue.truth.trades();
  let fills = 0;
  for (const pair of ['BTC/USDC', 'ETH/USDC']) {
    const truth = positionRange(trades, e.partyId, pair);
    fills += truth.fills;
    expect(engine.inventory.get(pair).base.toFixed(), `${pair} inventory`).toBe(truth.last.toFixed());
  }
  // (A read may reveal several trades at once: the daemon counts fills per read, not per trade.)
  expect(fills).toBeGreaterThan(0);
  expect(engine.inventory.fillCount).toBeGreaterThan(0);
  expect(e.bothTwoSided()).toBe(true);
  expect(e.daemon.pipelineFailures).toBe(0);
}, 120_000);
