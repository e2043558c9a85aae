import { afterEach, expect, it } from 'vitest';
import { installSignalHandlers } from '../../src/daemon/signals.js';
import { createLogger } from '../../src/logging/logger.js';
import { FakeProcess, daemonEnv, disposeDaemonEnvs } from './support/daemon-env.js';

/**
 * SIGTERM with a placement whose outcome is unknown: the stop cancels what it can, waits at most
 * `shutdown.unknownWaitMs` for the unknown order, then exits 0 naming it (it is in the journal).
 * The next start resolves it.
 */

afterEach(disposeDaemonEnvs);

it('exits 0 within unknownWaitMs plus the cancels, names the unknown order; the next start resolves it', async () => {
  const e = daemonEnv({ latency: 'fast', takers: false });
  // The 3rd submission answers 504 and never commits: UNKNOWN until the venue's 5-minute deadline.
  e.venue.addFault({ kind: 'error', endpoint: 'submit', status: 504, effect: false, at: 3 });
  const proc = new FakeProcess();
  const stopped: number[] = [];
  installSignalHandlers(proc, e.daemon, createLogger({ level: 'silent' }), (code) => stopped.push(code));
  void e.daemon.start();
  const unknown = await e.untilOrderIn('UNKNOWN', 120_000, 100);
  await e.run(5_000);

  const signalAt = e.fake.now;
  proc.emit('SIGTERM');
  await e.until(() => stopped.length > 0, e.config.shutdown.graceMs, 100);
  const tookMs = e.fake.now - signalAt;

  expect(stopped).toEqual([0]);
  // unknownWaitMs (30 s) plus the cancels (fast profile: a couple of seconds), not the 150 s bound.
  expect(tookMs).toBeGreaterThanOrEqual(e.config.shutdown.unknownWaitMs);
  expect(tookMs).toBeLessThan(e.config.shutdown.unknownWaitMs + 15_000);
  expect(e.resting()).toEqual([]);
  const shutdown = e.events.find((x) => x.type === 'shutdown');
  expect(shutdown?.type === 'shutdown' && shutdown.report).toMatchObject({
    completed: true,
    unresolved: [expect.stringContaining(unknown.key)],
  });
  const line = e.logs.find((l) => String(l['msg']).includes('left in the journal for the next start'));
  expect(String(line?.['msg'])).toContain(`${unknown.key} (${unknown.side} ${unknown.pair}, UNKNOWN)`);
  console.log(`SIGTERM with an unknown placement: exit 0 after ${(tookMs / 1000).toFixed(1)} s`);

  // The next start (same store, venue and clock) resolves it by reading the venue.
  const restarted = e.anotherDaemon();
  void restarted.start();
  await e.until(
    () => restarted.engine?.orders.get(unknown.key)?.state !== 'UNKNOWN' && restarted.phase === 'running',
    600_000,
    500,
  );
  const settled = restarted.engine!.orders.get(unknown.key);
  // Settled by the read or the 5-minute rule: never on the book (the 504 had no effect).
  expect(settled === undefined || ['EXPIRED', 'REJECTED'].includes(settled.state)).toBe(true);
  expect(e.ours().filter((o) => o.clientOrderId === unknown.clientOrderId && o.committed)).toEqual([]);
});
