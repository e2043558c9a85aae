/**
 * A paused daemon is not a dead one. The watchdog judges liveness by the heartbeat `/healthz`
 * answers (a 200 is a heartbeat; the heartbeat is alive while quote cycles complete). A paused
 * daemon still runs its quote cycle (it plans no quote in the paused scope), so over a real HTTP
 * server on 127.0.0.1 (port 0), after ten minutes of fake time paused, `/healthz` answers 200 and
 * the watchdog's probe reads it alive, while `/readyz`, `/metrics` and `/status` show the pause.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  attachObservability,
  type AttachedObservability,
} from '../../../src/daemon/reporting/observability-wiring.js';
import { createMetrics } from '../../../src/observability/metrics/create-metrics.js';
import { httpProbe } from '../../../src/watchdog/heartbeat-probe.js';
import { parseExposition, valueOf } from '../../observability/support/exposition.js';
import { daemonEnv, disposeDaemonEnvs } from '../support/daemon-env.js';

let attached: AttachedObservability | null = null;
afterEach(async () => {
  await attached?.close();
  attached = null;
  await disposeDaemonEnvs();
});

describe('the watchdog and a paused daemon', () => {
  it('a daemon paused for ten minutes reads alive on /healthz; the pause shows on /readyz, /metrics and /status', async () => {
    const e = daemonEnv({ latency: 'fast' });
    await e.startQuoting();
    const metrics = createMetrics({ pairs: e.config.pairs, now: () => e.clock.now() });
    attached = await attachObservability(metrics, e.daemon, {
      host: '127.0.0.1',
      port: 0,
      clock: e.clock,
      control: e.daemon.control,
      heartbeat: { heartbeatStaleMs: 20_000, startupGraceMs: 60_000, heartbeatFile: '' },
    });
    const base = `http://127.0.0.1:${attached.address.port}`;

    const paused = await fetch(`${base}/control/pause`, { method: 'POST', body: '{}' });
    expect(paused.status).toBe(200);
    await e.until(() => e.resting().length === 0, 60_000);
    const cyclesBefore = e.daemon.cycles;
    await e.run(600_000);
    expect(e.resting()).toEqual([]);
    expect(e.daemon.cycles).toBeGreaterThan(cyclesBefore + 100);

    const health = await fetch(`${base}/healthz`);
    const body = (await health.json()) as { heartbeat: { alive: boolean; lastCycleAgeMs: number } };
    expect(health.status).toBe(200);
    expect(body.heartbeat.alive).toBe(true);
    expect(body.heartbeat.lastCycleAgeMs).toBeLessThan(20_000);
    expect(await httpProbe(`${base}/healthz`, 2_000)(new AbortController().signal)).toEqual({
      alive: true,
      detail: '200',
    });

    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { paused: string[] }).paused).toEqual([
      'all pairs: paused (operator, by loopback 127.0.0.1)',
    ]);
    const families = parseExposition(await (await fetch(`${base}/metrics`)).text());
    for (const pair of e.config.pairs) {
      expect(valueOf(families, 'ledger_mm_paused', { pair, side: 'buy', reason: 'operator' })).toBe(1);
      expect(valueOf(families, 'ledger_mm_paused', { pair, side: 'sell', reason: 'operator' })).toBe(1);
    }
    const status = (await (await fetch(`${base}/status`)).json()) as {
      controls: { pauses: { scope: string; by: string }[] };
    };
    expect(status.controls.pauses.map((p) => [p.scope, p.by])).toEqual([['all pairs', 'loopback 127.0.0.1']]);

    // Resumed: the series is gone, the daemon quotes again.
    expect((await fetch(`${base}/control/resume`, { method: 'POST', body: '{}' })).status).toBe(200);
    await e.until(() => e.bothTwoSided(), 120_000);
    const after = parseExposition(await (await fetch(`${base}/metrics`)).text());
    expect(
      valueOf(after, 'ledger_mm_paused', { pair: 'BTC/USDC', side: 'buy', reason: 'operator' }),
    ).toBeUndefined();
  }, 120_000);
});
