import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/logging/logger.js';
import { DaemonHeartbeat, HeartbeatFileWriter } from '../../src/observability/http/heartbeat.js';
import { ObservabilityServer } from '../../src/observability/http/http-server.js';
import type { SweepReport } from '../../src/watchdog/cancel-sweep.js';
import { fileProbe, httpProbe, type ProbeResult } from '../../src/watchdog/heartbeat-probe.js';
import { Watchdog } from '../../src/watchdog/watchdog.js';
import { createWatchdogMetrics } from '../../src/watchdog/watchdog-metrics.js';

const silent = createLogger({ level: 'silent' });

/** A watchdog on a fake clock with a scripted heartbeat and a recording sweep. */
function harness(
  o: {
    deadAfterMs?: number;
    sweepResult?: () => SweepReport;
    sweepMs?: number;
    /** Replaces the scripted probe when it returns a promise (e.g. one that never settles). */
    probe?: (alive: boolean, signal: AbortSignal) => Promise<ProbeResult> | null;
  } = {},
) {
  const fake = FakeTimers.createClock(1_000_000, 1_000_000);
  const clock = fakeClock(fake);
  let alive = true;
  const sweeps: { at: number; aborted: () => boolean }[] = [];
  const metrics = createWatchdogMetrics({ heartbeatAgeSeconds: () => 0 });
  const wd = new Watchdog({
    clock,
    probe: async (signal): Promise<ProbeResult> =>
      o.probe?.(alive, signal) ?? { alive, detail: alive ? '200' : 'ECONNREFUSED' },
    sweep: async (signal) => {
      sweeps.push({ at: fake.now, aborted: () => signal.aborted });
      await new Promise<void>((resolve) => {
        const t = fake.setTimeout(() => resolve(), 2_000);
        signal.addEventListener('abort', () => {
          fake.clearTimeout(t);
          resolve();
        });
      });
      return o.sweepResult?.() ?? { cancelled: ['o1', 'o2'], failures: [], gone: 0, left: 0 };
    },
    deadAfterMs: o.deadAfterMs ?? 60_000,
    pollMs: 5_000,
    sweepMs: o.sweepMs ?? 10_000,
    logger: silent,
    metrics,
  });
  return {
    fake,
    wd,
    sweeps,
    metrics,
    setAlive: (a: boolean) => (alive = a),
    run: async (ms: number) => {
      for (let t = 0; t < ms; t += 500) await fake.tickAsync(500);
    },
  };
}

const value = async (m: { get(): Promise<{ values: { value: number }[] }> }): Promise<number> =>
  (await m.get()).values.reduce((s, v) => s + v.value, 0);

describe('Watchdog', () => {
  it('never sweeps while heartbeats arrive, however long', async () => {
    const h = harness();
    h.wd.start();
    await h.run(600_000);
    expect(h.sweeps).toEqual([]);
    expect(h.wd.mode).toBe('watching');
    expect(await value(h.metrics.triggers)).toBe(0);
    await h.wd.close();
  });

  it('triggers once the heartbeat has been silent for deadAfterMs, and sweeps again every sweepMs', async () => {
    const h = harness();
    h.wd.start();
    await h.run(10_000);
    const silentFrom = h.fake.now;
    h.setAlive(false);
    await h.run(55_000);
    expect(h.sweeps).toEqual([]);
    await h.run(15_000);
    expect(h.sweeps.length).toBe(1);
    // The last heartbeat was at most one poll before the silence began.
    expect(h.sweeps[0]!.at - silentFrom).toBeGreaterThanOrEqual(55_000);
    expect(h.sweeps[0]!.at - silentFrom).toBeLessThanOrEqual(65_000);
    await h.run(30_000);
    expect(h.sweeps.length).toBeGreaterThanOrEqual(3);
    expect(await value(h.metrics.triggers)).toBe(1);
    expect(await value(h.metrics.ordersCancelled)).toBe(2 * h.sweeps.filter((s) => !s.aborted()).length);
    expect(await value(h.metrics.daemonAlive)).toBe(0);
    await h.wd.close();
  });

  it('a read that never comes back does not hold the trigger back: the sweep starts deadAfterMs after the last heartbeat', async () => {
    // A stopped daemon's socket accepts and never answers; if the read's own timeout failed
    // too, the poller would wait on it forever.
    // It ends only when the watchdog closes.
    const hang = (signal: AbortSignal): Promise<ProbeResult> =>
      new Promise((resolve) =>
        signal.addEventListener('abort', () => resolve({ alive: false, detail: 'aborted' })),
      );
    const h = harness({ probe: (alive, signal) => (alive ? null : hang(signal)) });
    h.wd.start();
    await h.run(10_000);
    h.setAlive(false);
    await h.run(50_000);
    expect(h.sweeps).toEqual([]);
    await h.run(20_000);
    expect(h.sweeps.length).toBe(1);
    // On time, to the millisecond, though every read since the silence began is still pending.
    const [t] = h.wd.status()['triggers'] as { lastHeartbeatAt: string }[];
    expect(h.sweeps[0]!.at - Date.parse(t!.lastHeartbeatAt)).toBe(60_000);
    expect(h.wd.mode).toBe('triggered');
    await h.wd.close();
  });

  it('a daemon that never answered is dead deadAfterMs after the watchdog started', async () => {
    const h = harness();
    h.setAlive(false);
    h.wd.start();
    await h.run(59_000);
    expect(h.sweeps).toEqual([]);
    await h.run(2_000);
    expect(h.sweeps.length).toBe(1);
    await h.wd.close();
  });

  it('stands down when the heartbeat comes back: the running sweep is aborted, no more sweeps', async () => {
    const h = harness({ sweepMs: 1_000 });
    h.setAlive(false);
    h.wd.start();
    await h.run(61_000);
    expect(h.sweeps.length).toBeGreaterThanOrEqual(1);
    h.setAlive(true);
    await h.run(6_000);
    expect(h.wd.mode).toBe('watching');
    const n = h.sweeps.length;
    await h.run(120_000);
    expect(h.sweeps.length).toBe(n);
    expect(await value(h.metrics.daemonAlive)).toBe(1);
    const triggers = h.wd.status()['triggers'] as { endedAt: string | null }[];
    expect(triggers.length).toBe(1);
    expect(typeof triggers[0]!.endedAt).toBe('string');
    await h.wd.close();
  });

  it('counts failures by reason and records when nothing rests any more', async () => {
    let left = 2;
    const h = harness({
      sweepResult: () => ({
        cancelled: [],
        failures:
          left > 0 ? [{ orderId: 'o9', reason: 'failed', detail: 'RATE_LIMITED after 5 attempts' }] : [],
        gone: 0,
        left: left--,
      }),
    });
    h.setAlive(false);
    h.wd.start();
    await h.run(100_000);
    expect(await value(h.metrics.cancelFailures)).toBe(2);
    expect(await value(h.metrics.restingOrders)).toBe(0);
    expect(await value(h.metrics.clearSeconds)).toBeGreaterThan(20);
    await h.wd.close();
  });
});

describe('DaemonHeartbeat (what the daemon /healthz answers)', () => {
  const at = (phase: string) => ({ type: 'daemon-phase', phase, at: 0 });
  it('alive while starting (up to startupGraceMs), while the quote cycle runs, and while closing', () => {
    const fake = FakeTimers.createClock(0, 1_000_000);
    const hb = new DaemonHeartbeat({ clock: fakeClock(fake), staleMs: 15_000, startupGraceMs: 60_000 });
    hb.observe(at('preflight'));
    fake.tick(59_000);
    expect(hb.verdict().alive).toBe(true);
    fake.tick(2_000);
    expect(hb.verdict()).toMatchObject({ alive: false, phase: 'preflight' });
    hb.observe(at('running'));
    expect(hb.verdict().alive).toBe(true);
    for (let i = 0; i < 20; i++) {
      fake.tick(1_500);
      hb.observe({ type: 'cycle' });
      expect(hb.verdict().alive).toBe(true);
    }
    // A dead loop: the process answers HTTP, but no quote cycle completes.
    fake.tick(15_001);
    expect(hb.verdict().alive).toBe(false);
    expect(hb.verdict().reasons[0]).toMatch(/quote cycle has not run for 15\.0 s/);
    hb.observe({ type: 'cycle' });
    expect(hb.verdict().alive).toBe(true);
    hb.observe(at('closing'));
    fake.tick(100_000);
    expect(hb.verdict().alive).toBe(true);
    hb.observe(at('closed'));
    expect(hb.verdict().alive).toBe(false);
  });
});

describe('heartbeat probes', () => {
  let server: http.Server | undefined;
  let dir = '';
  afterEach(async () => {
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
    if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
    dir = '';
  });

  async function serve(handler: http.RequestListener): Promise<string> {
    server = http.createServer(handler);
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
  }

  it('http: a slow 200 is a heartbeat; a 503 with reasons, no answer in time, or no server is not', async () => {
    let mode: 'slow' | '503' | 'hang' | 'headers-only' = 'slow';
    const url = await serve((_req, res) => {
      if (mode === 'hang') return;
      if (mode === 'headers-only') {
        // Stopped mid-answer: the status line and part of the body, then nothing.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"status":');
        return;
      }
      const answer = (): void => {
        res.statusCode = mode === '503' ? 503 : 200;
        res.end(JSON.stringify({ status: 'x', reasons: ['the quote cycle has not run for 20.0 s'] }));
      };
      if (mode === 'slow') setTimeout(answer, 300);
      else answer();
    });
    const probe = httpProbe(url, 1_000);
    const signal = new AbortController().signal;
    expect(await probe(signal)).toEqual({ alive: true, detail: '200' });
    mode = '503';
    expect(await probe(signal)).toEqual({
      alive: false,
      detail: '503: the quote cycle has not run for 20.0 s',
    });
    mode = 'hang';
    const hung = httpProbe(url, 200);
    expect(await hung(signal)).toEqual({ alive: false, detail: 'no answer within 200 ms' });
    mode = 'headers-only';
    expect(await hung(signal)).toEqual({ alive: false, detail: 'no answer within 200 ms' });
    // The caller's abort ends a read at once.
    mode = 'hang';
    const caller = new AbortController();
    const pending = hung(caller.signal);
    caller.abort();
    expect((await pending).alive).toBe(false);
    server!.closeAllConnections();
    const refused = httpProbe('http://127.0.0.1:1/healthz', 500);
    expect((await refused(signal)).alive).toBe(false);
  });

  it('file: a new beat marked alive is a heartbeat; the first read, an unchanged or dead beat is not', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-beat-'));
    const file = path.join(dir, 'heartbeat.json');
    const fake = FakeTimers.createClock(0, 1_000_000);
    let alive = true;
    const writer = new HeartbeatFileWriter({
      clock: fakeClock(fake),
      file,
      verdict: () => ({ alive, phase: 'running', cycles: 1, lastCycleAgeMs: 0, reasons: [] }),
    });
    const probe = fileProbe(file);
    const signal = new AbortController().signal;
    expect((await probe(signal)).detail).toBe('ENOENT');
    writer.start();
    await fake.tickAsync(0);
    expect((await probe(signal)).alive).toBe(false); // first read: a leftover beat proves nothing
    await fake.tickAsync(1_000);
    expect((await probe(signal)).alive).toBe(true);
    expect((await probe(signal)).alive).toBe(false); // unchanged
    alive = false;
    await fake.tickAsync(1_000);
    expect((await probe(signal)).detail).toMatch(/not alive/);
    await writer.close();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ alive: false });
  });
});

describe("the daemon's /healthz with a heartbeat", () => {
  it('answers 503 with the reason while the heartbeat says the quote cycle stalled, 200 otherwise', async () => {
    let alive = true;
    const server = new ObservabilityServer({
      host: '127.0.0.1',
      port: 0,
      metrics: { contentType: 'text/plain', scrape: async () => '' },
      readiness: () => ({ ready: true, reasons: [] }),
      status: () => ({}),
      heartbeat: () => ({ alive, reasons: alive ? [] : ['the quote cycle has not run for 20.0 s'] }),
    });
    const { port } = await server.start();
    try {
      const url = `http://127.0.0.1:${port}/healthz`;
      expect((await fetch(url)).status).toBe(200);
      alive = false;
      const res = await fetch(url);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ reasons: ['the quote cycle has not run for 20.0 s'] });
    } finally {
      await server.close();
    }
  });
});
