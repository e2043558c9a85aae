/**
 * The kill-to-clear time at the venue's realistic latencies (cancel prepare 11-23 s, submit
 * 18-20 s, about 12 s more to commit), in one process under fake timers: the daemon against the
 * simulated venue in-process, and the watchdog's own loop and cancel sweep (its own journal, its
 * own venue client) beside it. "Killing" the daemon: its heartbeat stops and it stops acting
 * (closed without cancelling; a submission already sent commits, as it would after a SIGKILL).
 */
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { verificationOf } from '../../src/config/sections/signing.js';
import { createDaemonVenueClient } from '../../src/daemon/startup/venue-client.js';
import { createLogger } from '../../src/logging/logger.js';
import { isAwaitingConfirmation } from '../../src/orders/fsm/index.js';
import { DaemonHeartbeat } from '../../src/observability/http/heartbeat.js';
import { CancelSweeper } from '../../src/watchdog/cancel-sweep.js';
import { Watchdog } from '../../src/watchdog/watchdog.js';
import { createWatchdogMetrics } from '../../src/watchdog/watchdog-metrics.js';
import { daemonEnv, type DaemonEnv } from '../daemon/support/daemon-env.js';

let env: DaemonEnv | undefined;
let wd: Watchdog | undefined;
afterEach(async () => {
  const closing = wd?.close();
  for (let i = 0; i < 400 && closing !== undefined; i++) await env?.fake.tickAsync(500);
  await closing;
  await env?.dispose();
  env = undefined;
  wd = undefined;
});

it('realistic latency: from the daemon dying to nothing of the party resting', async () => {
  env = daemonEnv({ latency: 'realistic', takers: false });
  const e = env;
  const heartbeat = new DaemonHeartbeat({ clock: e.clock, staleMs: 15_000, startupGraceMs: 180_000 });
  e.daemon.subscribe((ev) => heartbeat.observe(ev));
  let dead = false;
  const metrics = createWatchdogMetrics({ heartbeatAgeSeconds: () => wd?.heartbeatAgeSeconds() ?? 0 });
  const sweeper = new CancelSweeper({
    venue: createDaemonVenueClient({
      config: e.config,
      clock: e.clock,
      transport: e.venue.createTransport(),
    }),
    signer: e.signer,
    clock: e.clock,
    storePath: path.join(e.dir, 'watchdog.sqlite'),
    reason: e.config.watchdog.cancelReason,
    execution: e.config.execution,
    verification: verificationOf(e.config.signing),
    drainMs: 140_000,
  });
  wd = new Watchdog({
    clock: e.clock,
    probe: async () =>
      dead ? { alive: false, detail: 'killed' } : { alive: heartbeat.verdict().alive, detail: 'in-process' },
    sweep: (signal, onCancelled) => sweeper.sweep(signal, onCancelled),
    deadAfterMs: e.config.watchdog.deadAfterMs,
    pollMs: e.config.watchdog.pollMs,
    sweepMs: e.config.watchdog.sweepMs,
    logger: createLogger({ level: 'silent' }),
    metrics,
  });
  void e.daemon.start();
  wd.start();
  await e.until(() => e.bothTwoSided(), 900_000, 1_000);
  // A while of normal quoting: the watchdog stays put.
  await e.run(120_000, 1_000);
  expect(wd.mode).toBe('watching');
  expect(await metrics.triggers.get()).toMatchObject({ values: [{ value: 0 }] });
  const restingAtKill = e.resting().map((o) => o.orderId);
  const before = restingAtKill.length;
  expect(before).toBeGreaterThanOrEqual(4);
  // A placement already submitted when the daemon dies commits on its own and is swept too.
  const onTheirWay = e.daemon
    .engine!.orders.active()
    .filter((o) => isAwaitingConfirmation(o.state))
    .map((o) => o.orderId);
  // The sweep cancels `execution.cancelConcurrency` orders at once: one cancel cycle per round.
  const rounds = Math.ceil((before + onTheirWay.length) / e.config.execution.cancelConcurrency);

  const sweptAll = (): boolean => {
    // The sweep's re-list found nothing resting.
    const t = (wd!.status()['triggers'] as { clearedAt: string | null }[]).at(-1);
    return t !== undefined && t.clearedAt !== null;
  };
  const killedAt = e.fake.now;
  dead = true;
  const closing = e.daemon.close({ cancelOrders: false, graceMs: 150_000 });
  await e.until(() => e.resting().length === 0, 600_000, 250);
  const clearMs = e.fake.now - killedAt;
  await closing;
  console.log(
    `watchdog at realistic latency (deadAfterMs ${e.config.watchdog.deadAfterMs}, pollMs ` +
      `${e.config.watchdog.pollMs}): ${before} resting at the kill, nothing resting ${(clearMs / 1000).toFixed(1)} s ` +
      `after it (${((clearMs - e.config.watchdog.deadAfterMs) / 1000).toFixed(1)} s after the trigger; ` +
      `${onTheirWay.length} placement(s) on their way, ${rounds} round(s) of cancels)`,
  );
  expect(wd.mode).toBe('triggered');
  // Within deadAfterMs, one heartbeat read and a cancel cycle (prepare, submit, confirm: ≤ 70 s)
  // per round of concurrent cancels.
  expect(clearMs).toBeLessThanOrEqual(
    e.config.watchdog.deadAfterMs + e.config.watchdog.pollMs + rounds * 70_000,
  );
  expect(clearMs).toBeGreaterThanOrEqual(e.config.watchdog.deadAfterMs);
  // The sweep reports once its re-list is back. (A cancel the daemon had already submitted before
  // it died may take an order off first, as after a real SIGKILL.)
  await e.until(sweptAll, 120_000, 500);
  const byWatchdog = (wd.status()['triggers'] as { cancelled: string[] }[]).at(-1)!.cancelled;
  console.log(`  ${byWatchdog.length} of the ${before} cancelled by the watchdog`);
  expect(byWatchdog.length).toBeGreaterThan(0);
  for (const id of byWatchdog) expect([...restingAtKill, ...onTheirWay]).toContain(id);
  expect(e.ours().filter((o) => o.status === 'FILLED')).toEqual([]);
}, 120_000);
