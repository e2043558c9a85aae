import { afterEach, describe, expect, it } from 'vitest';
import { SignalRelay, installSignalHandlers } from '../../src/daemon/signals.js';
import { createLogger } from '../../src/logging/logger.js';
import { FakeProcess, daemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

afterEach(disposeDaemonEnvs);

describe('signals', () => {
  it('SIGTERM: stops placing, cancels every resting order, exits 0 within shutdown.graceMs', async () => {
    const e = daemonEnv({ latency: 'fast' });
    const proc = new FakeProcess();
    const stopped: number[] = [];
    installSignalHandlers(proc, e.daemon, createLogger({ level: 'silent' }), (code) => stopped.push(code));
    await e.startQuoting();
    // The signal arrives while a submission is in flight (a reprice or a refill keeps coming).
    await e.until(() => e.daemon.stateView().pipeline?.step === 'submit', 300_000, 50);
    const inFlight = e.daemon.stateView().pipeline!.key!;
    const signalAt = e.fake.now;
    const preparesBefore = e.venue.truth.calls().filter((c) => c.endpoint === 'prepare').length;
    proc.emit('SIGTERM');
    await e.until(() => stopped.length > 0, e.config.shutdown.graceMs, 100);

    expect(stopped).toEqual([0]);
    expect(proc.exits).toEqual([]);
    expect(e.fake.now - signalAt).toBeLessThanOrEqual(e.config.shutdown.graceMs);
    expect(e.daemon.phase).toBe('closed');
    // Ground truth: nothing of the party rests, and nothing is left to commit.
    expect(e.resting()).toEqual([]);
    const pending = e.ours().filter((o) => o.submitted && !o.committed && o.status === null);
    expect(pending).toEqual([]);
    // At most the one prepare that was already running when the signal came.
    const preparesAfter = e.venue.truth
      .calls()
      .filter((c) => c.endpoint === 'prepare' && c.startedAt > signalAt);
    expect(preparesAfter.length).toBeLessThanOrEqual(0);
    expect(preparesBefore).toBeGreaterThan(0);
    // The submission in flight was let finish: it committed, then was cancelled.
    const last = e.ours().find((o) => o.clientOrderId === inFlight);
    expect(last?.committed).toBe(true);
    expect(last?.status).toBe('CANCELLED');
    const shutdown = e.events.find((x) => x.type === 'shutdown');
    expect(shutdown?.type === 'shutdown' && shutdown.report).toMatchObject({
      completed: true,
      activeOrders: 0,
    });
  });

  it('a second signal during the stop exits at once, with the journal intact', async () => {
    const e = daemonEnv({ latency: 'realistic', takers: false });
    const proc = new FakeProcess();
    const stopped: number[] = [];
    installSignalHandlers(proc, e.daemon, createLogger({ level: 'silent' }), (code) => stopped.push(code));
    void e.daemon.start();
    await e.until(() => e.resting().length >= 2, 600_000, 1_000);
    proc.emit('SIGTERM');
    await e.run(1_000, 100);
    proc.emit('SIGINT');
    expect(proc.exits).toEqual([130]);
    expect(stopped).toEqual([]);
    // Whatever rests is in the journal: every order on the venue is known to the registry.
    const registry = e.registry();
    const resting = e.resting();
    expect(resting.length).toBeGreaterThan(0);
    expect(resting.filter((o) => registry.byClientOrderId(o.clientOrderId!) === undefined)).toEqual([]);
  });

  it('SIGHUP reloads; ignored once stopping', async () => {
    const e = daemonEnv({ latency: 'instant', takers: false });
    const proc = new FakeProcess();
    installSignalHandlers(proc, e.daemon, createLogger({ level: 'silent' }), () => undefined);
    proc.emit('SIGHUP');
    expect(e.events.some((x) => x.type === 'config-reload' && x.ok)).toBe(true);
  });
});

describe('the signal relay', () => {
  it('passes signals on, raises its own, exits at once on 128+, defers a normal exit to release()', () => {
    const real = new FakeProcess();
    const relay = new SignalRelay(real);
    const seen: string[] = [];
    relay.on('SIGTERM', () => seen.push('TERM'));
    real.emit('SIGTERM');
    relay.raise('SIGTERM');
    expect(seen).toEqual(['TERM', 'TERM']);
    relay.exit(143);
    expect(real.exits).toEqual([143]);
    relay.exit(0);
    expect(real.exits).toEqual([143]);
    relay.release();
    expect(real.exits).toEqual([143, 0]);
    expect(real.listenerCount('SIGTERM')).toBe(0);
  });
});
