import { afterEach, expect, it } from 'vitest';
import { daemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

afterEach(disposeDaemonEnvs);

it('a book that stops refreshing (sim freezeBook) halts the pair and cancels its quotes; quoting resumes after', async () => {
  // Takers trade often enough that the public trades prove the book has moved.
  const e = daemonEnv({ latency: 'fast', takerRate: 0.3 });
  void e.daemon.start();
  await e.until(() => e.bothTwoSided(), 120_000);

  const frozenAt = e.fake.now;
  const FREEZE_MS = 180_000;
  e.venue.freezeBook(FREEZE_MS);
  // The book polls still succeed (same snapshot every time); the daemon proves it stale.
  await e.until(() => e.resting().length === 0, 90_000, 250);
  const cancelledWithinMs = e.fake.now - frozenAt;

  const last = e.daemon.lastCycle!;
  expect(last.stale.map((s) => s.pair).sort()).toEqual(['BTC/USDC', 'ETH/USDC']);
  expect(last.verdict.pairStates).toMatchObject({ 'BTC/USDC': 'halted', 'ETH/USDC': 'halted' });
  expect(e.daemon.readiness().reasons.join('\n')).toMatch(/BTC\/USDC: the book is stale/);
  // Nothing new is placed while the data is stale.
  const quietFrom = e.fake.now;
  await e.run(30_000);
  const placed = e.venue.truth.calls().filter((c) => c.endpoint === 'prepare' && c.startedAt > quietFrom);
  expect(placed).toEqual([]);
  expect(e.resting()).toEqual([]);
  console.log(`stale book: quotes cancelled ${(cancelledWithinMs / 1000).toFixed(1)} s after the freeze`);

  // Fresh data again: both pairs are quoted again.
  await e.run(frozenAt + FREEZE_MS - e.fake.now);
  await e.until(() => e.bothTwoSided(), 120_000);
  expect(e.daemon.lastCycle!.stale).toEqual([]);
});
