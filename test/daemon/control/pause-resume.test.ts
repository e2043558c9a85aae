/**
 * Pause and resume on the simulated venue, in-process under fake timers, judged from the venue's
 * ground truth: a paused pair or side has its quotes cancelled and nothing placed there (no order
 * the venue took after the pause), the other scopes quote on, and a resume quotes again. A pause
 * survives a crash of the store (the journal closed as a SIGKILL leaves it) and a restart.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Daemon } from '../../../src/daemon/daemon.js';
import type { Journal } from '../../../src/orders/journal/index.js';
import { daemonEnv, disposeDaemonEnvs, twoSided, type DaemonEnv } from '../support/daemon-env.js';

afterEach(disposeDaemonEnvs);

function control(d: Daemon, action: 'pause' | 'resume', body: Record<string, unknown>) {
  return d.control.handle({ action, body, who: 'loopback 127.0.0.1' });
}

/** Orders of the party the venue took on `pair` (and `side`) after `t`. */
function placedAfter(e: DaemonEnv, t: number, pair: string, side?: 'BUY' | 'SELL'): number {
  return e.ours().filter((o) => o.pair === pair && (side === undefined || o.side === side) && o.createdAt > t)
    .length;
}

function restingSides(e: DaemonEnv, pair: string): string[] {
  return [...new Set(e.resting(pair).map((o) => o.side))].sort();
}

describe('pause and resume on the simulated venue', () => {
  it('a pair, then a side: quotes cancelled, nothing placed there while paused, quoting again on resume', async () => {
    const e = daemonEnv({ latency: 'fast' });
    await e.startQuoting();

    // Pause a pair.
    const pausedAt = e.fake.now;
    expect(control(e.daemon, 'pause', { pair: 'BTC/USDC' }).status).toBe(200);
    await e.until(() => e.resting('BTC/USDC').length === 0, 60_000);
    await e.run(180_000);
    expect(placedAfter(e, pausedAt, 'BTC/USDC')).toBe(0);
    expect(e.resting('BTC/USDC')).toEqual([]);
    expect(twoSided(e, 'ETH/USDC')).toBe(true);
    expect(placedAfter(e, pausedAt, 'ETH/USDC')).toBeGreaterThan(0);
    // The pause's cancels went through the engine's cancel pool, named after the pause.
    const cancels = e.events.filter((ev) => ev.type === 'cancel');
    expect(cancels.length).toBeGreaterThan(0);
    const view = e.daemon.stateView();
    expect(view.controls?.held.map((h) => `${h.pair} ${h.side} ${h.reason}`)).toEqual([
      'BTC/USDC BUY operator',
      'BTC/USDC SELL operator',
    ]);
    const btc = view.pairs.find((p) => p.pair === 'BTC/USDC')!;
    expect(btc.sideMissing?.map((m) => m.reason)).toEqual(['paused', 'paused']);

    // Pause a side of the other pair.
    const sideAt = e.fake.now;
    expect(control(e.daemon, 'pause', { pair: 'ETH/USDC', side: 'SELL' }).status).toBe(200);
    await e.until(() => !restingSides(e, 'ETH/USDC').includes('SELL'), 60_000);
    await e.run(120_000);
    expect(placedAfter(e, sideAt, 'ETH/USDC', 'SELL')).toBe(0);
    expect(restingSides(e, 'ETH/USDC')).toEqual(['BUY']);
    expect(placedAfter(e, sideAt, 'ETH/USDC', 'BUY')).toBeGreaterThan(0);
    expect(e.daemon.readiness().paused).toEqual([
      'BTC/USDC: paused (operator, by loopback 127.0.0.1)',
      'ETH/USDC SELL: paused (operator, by loopback 127.0.0.1)',
    ]);

    // Resume both: they quote again.
    const resumedAt = e.fake.now;
    expect(control(e.daemon, 'resume', { pair: 'BTC/USDC' }).status).toBe(200);
    expect(control(e.daemon, 'resume', { pair: 'ETH/USDC', side: 'SELL' }).status).toBe(200);
    await e.until(() => e.bothTwoSided(), 120_000);
    expect(placedAfter(e, resumedAt, 'BTC/USDC', 'BUY')).toBeGreaterThan(0);
    expect(placedAfter(e, resumedAt, 'ETH/USDC', 'SELL')).toBeGreaterThan(0);
    expect(e.daemon.stateView().controls?.held).toEqual([]);
    expect(e.daemon.readiness().paused).toBeUndefined();
  }, 120_000);

  it('a pause survives a crash and a restart: the new daemon never quotes there until resumed', async () => {
    const e = daemonEnv({ latency: 'fast' });
    await e.startQuoting();
    expect(control(e.daemon, 'pause', { pair: 'BTC/USDC', side: 'BUY' }).status).toBe(200);
    await e.until(() => !restingSides(e, 'BTC/USDC').includes('BUY'), 60_000);

    // SIGKILL, as the store sees it: the journal closed as a crash leaves it (relaxed writes
    // lost, durable ones kept, lock released), then the process's remains stopped.
    const journal = (e.daemon.engine as unknown as { parts: { journal: Journal } }).parts.journal;
    journal.closeAsCrash();
    await e.closeDaemon(e.daemon, { cancelOrders: false, graceMs: 5_000 });

    const restartAt = e.fake.now;
    const d = e.anotherDaemon();
    void d.start();
    await e.until(() => d.phase === 'running' && d.cycles > 0, 60_000);
    expect(d.control.pauses().map((p) => [p.pair, p.side, p.reason, p.by])).toEqual([
      ['BTC/USDC', 'BUY', 'operator', 'loopback 127.0.0.1'],
    ]);
    await e.run(180_000);
    expect(placedAfter(e, restartAt, 'BTC/USDC', 'BUY')).toBe(0);
    expect(restingSides(e, 'BTC/USDC')).toEqual(['SELL']);
    expect(twoSided(e, 'ETH/USDC')).toBe(true);

    const resumedAt = e.fake.now;
    const answer = control(d, 'resume', {});
    expect(answer.status).toBe(200);
    expect((answer.body as { lifted: { scope: string }[] }).lifted.map((l) => l.scope)).toEqual([
      'BTC/USDC BUY',
    ]);
    await e.until(() => twoSided(e, 'BTC/USDC'), 120_000);
    expect(placedAfter(e, resumedAt, 'BTC/USDC', 'BUY')).toBeGreaterThan(0);
  }, 120_000);

  it('refuses a pause of an unknown pair or side, with the reason', () => {
    const e = daemonEnv({ latency: 'fast' });
    // Before the journal is open: not ready (the change could not be journaled).
    expect(control(e.daemon, 'pause', {})).toMatchObject({ status: 503, body: { error: 'not-ready' } });
    expect(control(e.daemon, 'pause', { pair: 'XRP/USDC' })).toMatchObject({
      status: 400,
      body: {
        error: 'bad-request',
        message: expect.stringContaining('not one of the configured pairs') as unknown,
      },
    });
    expect(control(e.daemon, 'pause', { side: 'HOLD' })).toMatchObject({ status: 400 });
    expect(control(e.daemon, 'pause', { pair: 'BTC/USDC', extra: 1 })).toMatchObject({ status: 400 });
  });
});
