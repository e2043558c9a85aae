import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics } from '../../src/observability/metrics/create-metrics.js';
import { registerStateCollector } from '../../src/observability/state-collector.js';
import { quoteSlotOf } from '../../src/orders/own-orders-view.js';
import type { FaultSpecInput } from '../../src/sim/faults.js';
import { isInFlight } from '../../src/orders/fsm/index.js';
import { expectNoDuplicateLive } from '../execution/support/ground-truth.js';
import { daemonEnv, type DaemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

/**
 * The daemon on the simulator with a fault on one placement, on a moving market (GBM reference,
 * takers): the unknown placement blocks its own quote slot, the other slots and pairs go on
 * being placed, no quote slot ever has two orders being placed or unknown at once, and a side
 * left without a quote for more than two pipeline cycles is named once at WARN with its reason,
 * and in `ledger_mm_side_missing_seconds`.
 */

afterEach(disposeDaemonEnvs);

/** Steps fake time, checking at every step that no quote slot has two orders placing or unknown. */
async function runChecked(e: DaemonEnv, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 500) {
    await e.fake.tickAsync(500);
    const bySlot = new Map<string, number>();
    for (const o of e.registry().active({ foreign: false })) {
      if (!isInFlight(o.state)) continue;
      const slot = quoteSlotOf(o.slot) ?? o.key;
      bySlot.set(slot, (bySlot.get(slot) ?? 0) + 1);
    }
    for (const [slot, n] of bySlot)
      expect(n, `quote slot ${slot} has ${n} orders placing or unknown`).toBe(1);
  }
}

/** Commits of the party's placements after `t`, with their order ids. */
function commitsAfter(e: DaemonEnv, t: number): { at: number; orderId: string }[] {
  return e.venue.truth
    .commits()
    .filter((c) => c.kind === 'place' && c.ok && c.partyId === e.partyId && c.at > t)
    .map((c) => ({ at: c.at, orderId: c.orderId }));
}

const sideWarnings = (e: DaemonEnv): Record<string, unknown>[] =>
  e.logs.filter((l) => l['level'] === 40 && typeof l['reason'] === 'string' && 'missingMs' in l);

interface Case {
  readonly name: string;
  readonly fault: FaultSpecInput;
  /** What the pipeline saw: a 504 is UNKNOWN at once, a lost 200 after the confirm window. */
  readonly unknownAfterMs: number;
}

const CASES: readonly Case[] = [
  {
    name: 'a 504 that never commits',
    fault: { kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 3 },
    unknownAfterMs: 0,
  },
  {
    name: 'a 504 that commits',
    fault: { kind: 'error', endpoint: 'submit', status: 504, effect: true, at: 3 },
    unknownAfterMs: 0,
  },
  {
    name: 'a 200 that never confirms',
    fault: { kind: 'no-commit', at: 3 },
    unknownAfterMs: 60_000,
  },
];

describe('an unknown placement blocks its own slot, not the party', () => {
  for (const c of CASES) {
    it(`${c.name}, on the 3rd placement: the other slots go on; no slot doubled`, async () => {
      const e = daemonEnv({ latency: 'fast', takerRate: 0.1, seed: 11 });
      e.venue.addFault(c.fault);
      void e.daemon.start();
      await e.until(() => e.venue.truth.submits().length >= 3, 120_000, 250);
      const faultAt = e.venue.truth.submits()[2]!.startedAt;
      const lost = e.venue.truth.submits()[2]!;
      await runChecked(e, 420_000);

      // After the pipeline let go of the unknown order, the other slots were placed: the first
      // commit of another order within two pipeline cycles (fast profile: ~2.5 s each) plus the
      // venue's own hold while our order awaits the ledger.
      const others = commitsAfter(e, faultAt).filter((x) => x.orderId !== lost.orderId);
      expect(others.length).toBeGreaterThan(4);
      const firstOther = others[0]!.at - faultAt;
      console.log(
        `${c.name}: first other placement committed ${(firstOther / 1000).toFixed(1)} s after the fault`,
      );
      if (c.fault.kind === 'no-commit') {
        // The venue refuses every prepare of the party until the lost transaction's deadline.
        expect(firstOther).toBeLessThan(300_000 + 20_000);
      } else {
        expect(firstOther).toBeLessThan(c.unknownAfterMs + 15_000);
      }
      // Both pairs were placed on after the fault, each within the run.
      const pairsPlaced = new Set(others.map((x) => e.venue.truth.order(x.orderId)?.pair));
      expect([...pairsPlaced].sort()).toEqual(['BTC/USDC', 'ETH/USDC']);
      expectNoDuplicateLive(e.venue, e.partyId, e.registry());
      // Stack traces are for bugs, not for venue faults.
      expect(e.logs.filter((l) => JSON.stringify(l).includes('    at '))).toEqual([]);
    });
  }
});

describe('a side missing for more than two pipeline cycles', () => {
  it('one WARN naming the reason (the unknown order and its state), the metric set, the status line', async () => {
    const e = daemonEnv({ latency: 'fast', takerRate: 0.1, seed: 11 });
    const metrics = createMetrics({ pairs: ['BTC/USDC', 'ETH/USDC'], now: () => e.fake.now });
    registerStateCollector(metrics, () => e.daemon.stateView());
    // The 3rd submission: a side quoted for the first time is left UNKNOWN for five minutes.
    e.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 3 });
    void e.daemon.start();
    await e.until(() => e.venue.truth.submits().length >= 3, 120_000, 250);
    const order = await e.untilOrderIn('UNKNOWN', 10_000, 100);
    await e.run(120_000);

    const warns = sideWarnings(e);
    const mine = warns.filter((w) => w['pair'] === order.pair && w['side'] === order.side);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ reason: 'unknown-order' });
    expect(String(mine[0]!['detail'])).toContain(`order ${order.key}`);
    expect(String(mine[0]!['detail'])).toContain('UNKNOWN');

    const text = await metrics.registry.metrics();
    const side = order.side === 'BUY' ? 'buy' : 'sell';
    const series = text
      .split('\n')
      .find((l) => l.startsWith('ledger_mm_side_missing_seconds{') && l.includes(`side="${side}"`));
    expect(series).toContain(`pair="${order.pair}"`);
    expect(series).toContain('reason="unknown_order"');
    expect(Number(series!.split(' ').at(-1))).toBeGreaterThan(60);

    const status = e.daemon.stateView().pairs.find((p) => p.pair === order.pair)!;
    expect(status.sideMissing).toMatchObject([{ side: order.side, reason: 'unknown-order' }]);

    // Once the 5-minute rule settles it, the side is quoted again: one INFO, no second WARN.
    await e.run(300_000);
    expect(sideWarnings(e).filter((w) => w['pair'] === order.pair && w['side'] === order.side)).toHaveLength(
      1,
    );
    expect(
      e.logs.some((l) =>
        String(l['msg']).startsWith(`${order.pair}: ${side === 'buy' ? 'bid' : 'ask'} back after`),
      ),
    ).toBe(true);
  });
});
