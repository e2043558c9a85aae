import { afterEach, describe, expect, it } from 'vitest';
import { daemonEnv, type DaemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

afterEach(disposeDaemonEnvs);

/** The party's prepares after `t`: all of them, and those the venue accepted. */
function preparesAfter(e: DaemonEnv, t: number): { all: number; accepted: number } {
  const calls = e.venue.truth.calls().filter((c) => c.endpoint === 'prepare' && c.startedAt > t);
  return { all: calls.length, accepted: calls.filter((c) => c.status !== null && c.status < 300).length };
}

/** Orders of the party that committed after `t`. */
function committedAfter(e: DaemonEnv, t: number): number {
  return e.venue.truth
    .commits()
    .filter((c) => c.kind === 'place' && c.ok && c.partyId === e.partyId && c.at > t).length;
}

describe('the account', () => {
  it('a failing preflight (account suspended at start): not ready, nothing placed, retried until it passes', async () => {
    const e = daemonEnv({ latency: 'fast', takers: false, tuning: { retryMs: 20_000 } });
    e.venue.operator.suspend(e.slug);
    const started = e.daemon.start();
    await e.run(90_000);
    expect(e.daemon.phase).toBe('preflight');
    expect(e.venue.truth.calls().filter((c) => c.endpoint === 'prepare')).toEqual([]);
    const r = e.daemon.readiness();
    expect(r.ready).toBe(false);
    expect(r.reasons.join('\n')).toMatch(/preflight failed: account status: SUSPENDED/);
    const attempts = e.events.filter((x) => x.type === 'preflight').length;
    expect(attempts).toBeGreaterThanOrEqual(4);

    e.venue.operator.reactivate(e.slug);
    await e.until(() => e.bothTwoSided(), 120_000);
    expect(await started).toBe(true);
    expect(e.daemon.readiness().ready).toBe(true);
  });

  it('suspended on a moving market: places nothing, cancels the quotes that leave tolerance, resumes after reactivation', async () => {
    // Takers on: fills and reprices keep the daemon wanting to place.
    const e = daemonEnv({ latency: 'fast', takerRate: 0.1 });
    await e.startQuoting();
    const suspendedAt = e.fake.now;
    e.venue.operator.suspend(e.slug);
    await e.run(180_000);

    // At most the one prepare that discovered the suspension (refused 403); nothing accepted.
    const during = preparesAfter(e, suspendedAt);
    expect(during.accepted).toBe(0);
    expect(during.all).toBeLessThanOrEqual(1);
    expect(committedAfter(e, suspendedAt)).toBe(0);
    const r = e.daemon.readiness();
    expect(r.ready).toBe(false);
    expect(r.reasons.join('\n')).toContain('SUSPENDED');
    // Cancels still work while suspended: a quote that left tolerance is cancelled (it cannot be
    // replaced), the others rest on.
    const cancelled = e.venue.truth
      .commits()
      .filter((c) => c.kind === 'cancel' && c.ok && c.partyId === e.partyId && c.at > suspendedAt);
    expect(cancelled.length).toBeGreaterThan(0);
    const reasons = cancelled.map(
      (c) => e.registry().get(e.venue.truth.order(c.orderId)!.clientOrderId!)?.cancelReason ?? '',
    );
    expect(reasons.every((r) => r.includes('the account is SUSPENDED'))).toBe(true);
    const params = e.daemon.params.reconcile;
    const wanted = e.daemon.lastCycle!.strategy.quotes;
    for (const o of e.resting()) {
      const q = wanted.find((w) => w.pair === o.pair && w.side === o.side)!;
      const off = Math.abs(Number(o.price) / q.price.toNumber() - 1) * 10_000;
      expect(off).toBeLessThanOrEqual(params.priceToleranceBps + 1);
    }

    const reactivatedAt = e.fake.now;
    e.venue.operator.reactivate(e.slug);
    await e.until(() => committedAfter(e, reactivatedAt) > 0, 120_000);
    await e.until(() => e.daemon.readiness().ready, 60_000);
    await e.until(() => e.bothTwoSided(), 120_000);
  });

  it('a revoked API key stops placing, and readiness says why', async () => {
    const e = daemonEnv({ latency: 'fast', takerRate: 0.1 });
    await e.startQuoting();
    const prefix = e.apiKey.slice('mm_ak_'.length, e.apiKey.indexOf('.'));
    const revokedAt = e.fake.now;
    e.venue.operator.revokeKey(prefix);
    await e.run(120_000);

    expect(preparesAfter(e, revokedAt).accepted).toBe(0);
    expect(committedAfter(e, revokedAt)).toBe(0);
    const r = e.daemon.readiness();
    expect(r.ready).toBe(false);
    expect(r.reasons.join('\n')).toMatch(/API key is failing/);
    expect(e.daemon.stateView().account?.authFailing).toBe(true);
  });
});
