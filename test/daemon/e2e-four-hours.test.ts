import { performance } from 'node:perf_hooks';
import { afterEach, expect, it } from 'vitest';
import { Dec } from '../../src/core/decimal.js';
import { quoteSlotOf } from '../../src/orders/own-orders-view.js';
import { expectNoDuplicateLive, maxOverlap } from '../execution/support/ground-truth.js';
import { baseConfig, daemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';
import {
  maxLivePerQuoteSlot,
  overlappingPlacements,
  positionRange,
  twoSidedShare,
} from './support/truth-figures.js';

const HOUR_MS = 3_600_000;
const RUN_MS = 4 * HOUR_MS;
const MAX_INVENTORY = { 'BTC/USDC': '2', 'ETH/USDC': '40' } as const;

afterEach(disposeDaemonEnvs);

/**
 * Four simulated hours in-process under fake timers: the daemon against the simulated venue at
 * REALISTIC latencies (about 45 s per placement, one at a time), the market model running with
 * takers on both pairs. Everything asserted comes from the venue's ground truth.
 */
it('quotes both pairs two-sided for 4 simulated hours at realistic latencies, within limits', async () => {
  const config = (store: string): Record<string, unknown> => ({
    ...baseConfig(store),
    strategy: {
      defaults: {
        spread: { bidBps: 15, askBps: 15, minBps: 3, maxBps: 200 },
        levels: { count: 1, sizeUnit: 'quote', size: '15000' },
        inventory: { targetBaseShare: 0.5, rangeShare: 0.1, maxSkewBps: 15 },
      },
      reconcile: { priceToleranceBps: 10, sizeTolerancePct: 40 },
    },
    risk: {
      maxOrderNotional: '20000',
      maxInventoryNotional: '150000',
      pairLimits: Object.entries(MAX_INVENTORY).map(([pair, maxInventory]) => ({ pair, maxInventory })),
      ordersPerMinute: 30,
      dailyLoss: { perPair: '50000', total: '100000' },
    },
  });
  const e = daemonEnv({
    latency: 'realistic',
    balances: { USDC: '300000', BTC: '5', ETH: '100' },
    config,
  });
  let staleCycles = 0;
  let deniedPlacements = 0;
  e.daemon.subscribe((x) => {
    if (x.type !== 'cycle') return;
    if (x.report.stale.length > 0) staleCycles += 1;
    deniedPlacements += x.report.verdict.denied.length;
  });
  const wallStart = performance.now();
  const simStart = e.fake.now;
  void e.daemon.start();
  for (let t = 0; t < RUN_MS; t += 1_000) await e.fake.tickAsync(1_000);
  const simEnd = e.fake.now;
  const wallMs = performance.now() - wallStart;

  const orders = e.ours();
  const trades = e.venue.truth.trades();
  const registry = e.registry();
  const slotOf = (o: { clientOrderId: string | null }): string | null =>
    o.clientOrderId === null ? null : quoteSlotOf(registry.byClientOrderId(o.clientOrderId)?.slot ?? null);
  const sides = (['BTC/USDC', 'ETH/USDC'] as const).map((pair) => twoSidedShare(orders, pair, simEnd));
  const positions = (['BTC/USDC', 'ETH/USDC'] as const).map((pair) => ({
    pair,
    ...positionRange(trades, e.partyId, pair),
  }));
  const spans = e.venue.truth.placementSpans(e.partyId);
  const cancels = e.venue.truth
    .commits()
    .filter((c) => c.kind === 'cancel' && c.partyId === e.partyId && c.ok);
  const committed = orders.filter((o) => o.committed).length;

  console.log(
    [
      `4 simulated hours (realistic latency, takers on): ${(wallMs / 1000).toFixed(1)} s wall`,
      ...sides.map(
        (s) =>
          `  ${s.pair}: two-sided ${(s.share * 100).toFixed(2)} % of the time since ${((s.from ?? simStart) - simStart) / 1000} s, longest one-sided gap ${(s.longestGapMs / 1000).toFixed(0)} s`,
      ),
      `  placements: ${spans.length} prepared, ${committed} committed; cancels committed: ${cancels.length}`,
      ...positions.map(
        (p) =>
          `  ${p.pair}: ${p.fills} fills, position range [${p.min.toFixed()}, ${p.max.toFixed()}], final ${p.last.toFixed()}`,
      ),
      `  most orders of one quote slot on the book at once: ${maxLivePerQuoteSlot(orders, slotOf)}`,
      `  quote cycles: ${e.daemon.cycles} (${staleCycles} with a book proven stale); placements denied by the risk gate: ${deniedPlacements}`,
      `  consecutive pipeline failures at the end: ${e.daemon.pipelineFailures}`,
    ].join('\n'),
  );

  expect(simEnd - simStart).toBeGreaterThanOrEqual(RUN_MS);
  for (const s of sides) {
    expect(s.from, `${s.pair} was never two-sided`).not.toBeNull();
    expect(s.share, `${s.pair} two-sided share`).toBeGreaterThanOrEqual(0.9);
  }
  for (const p of positions) {
    const limit = new Dec(MAX_INVENTORY[p.pair]);
    expect(p.max.lte(limit) && p.min.gte(limit.neg()), `${p.pair} position within ±${limit.toFixed()}`).toBe(
      true,
    );
  }
  expectNoDuplicateLive(e.venue, e.partyId, registry);
  expect(maxLivePerQuoteSlot(orders, slotOf)).toBeLessThanOrEqual(2);
  const prepareCalls = e.venue.truth
    .calls()
    .filter((c) => c.endpoint === 'prepare' && c.partyId === e.partyId);
  expect(maxOverlap(prepareCalls)).toBe(1);
  const submitted = new Set(orders.filter((o) => o.submitted).map((o) => o.orderId));
  expect(overlappingPlacements(spans, submitted)).toEqual([]);
}, 120_000);
