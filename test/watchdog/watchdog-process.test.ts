/**
 * The watchdog for real: the simulated venue over HTTP in this process (the fast latency
 * profile, its market on), the daemon (`ledger-mm run`) and the watchdog (`ledger-mm watchdog`)
 * as child processes of the real CLI, on the real clock. The venue's ground truth says what
 * rests. One scenario, in order: a daemon slowed by venue faults is left alone; a hung daemon
 * (SIGSTOP: its process answers nothing, as with a blocked event loop) has its quotes pulled, and
 * re-quotes when it resumes; a SIGKILLed daemon has its quotes pulled, and a new daemon on the
 * same store recovers and quotes again, with no duplicate and no foreign order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { startPaperVenue, type PaperVenue } from '../../src/lab/rig/paper-venue.js';
import { openJournal } from '../../src/orders/journal/index.js';
import { bundleCli, freePort, metricValue, spawnCli, waitUntil, type CliChild } from './support/cli-child.js';

const DEAD_AFTER_MS = 3_000;
const PAIRS = ['BTC/USDC', 'ETH/USDC'];

let dir = '';
let cli: { main: string; dispose: () => void } | undefined;
let venue: PaperVenue | undefined;
let daemon: CliChild | undefined;
let watchdog: CliChild | undefined;
let env: Record<string, string> = {};
let wdMetrics = '';
let daemonMetrics = '';
const figures: string[] = [];

function resting(pair?: string): { pair: string; side: string; orderId: string }[] {
  return venue!.venue.truth
    .restingOrders(venue!.partyId)
    .filter((o) => pair === undefined || o.pair === pair);
}

function twoSidedEverywhere(): boolean {
  return PAIRS.every((p) => {
    const r = resting(p);
    return r.some((o) => o.side === 'BUY') && r.some((o) => o.side === 'SELL');
  });
}

/** The most resting orders of one (pair, side): one quote slot, two during a make-before-break. */
function worstSlot(): number {
  const counts = new Map<string, number>();
  for (const o of resting()) counts.set(`${o.pair} ${o.side}`, (counts.get(`${o.pair} ${o.side}`) ?? 0) + 1);
  return Math.max(0, ...counts.values());
}

/** Waits (`what`) until both pairs are two-sided; returns the {@link worstSlot} seen meanwhile. */
async function twoSidedAgain(what: string): Promise<number> {
  let worst = 0;
  await waitUntil(
    what,
    () => {
      worst = Math.max(worst, worstSlot());
      return twoSidedEverywhere();
    },
    30_000,
  );
  return worst;
}

function startDaemon(): CliChild {
  return spawnCli(cli!.main, ['run', '--config', path.join(dir, 'mm.json')], env, dir);
}

/** Kills `child` with `signal` and measures, on the venue's ground truth, until nothing rests. */
async function timeToClear(child: CliChild, signal: NodeJS.Signals): Promise<number> {
  expect(resting().length).toBeGreaterThan(0);
  const t0 = Date.now();
  child.proc.kill(signal);
  await waitUntil('nothing of the party resting', () => resting().length === 0, DEAD_AFTER_MS + 20_000, 20);
  return Date.now() - t0;
}

function attributed(child: CliChild): Record<string, unknown>[] {
  return logged(child, /was cancelled by the watchdog/);
}

function logged(child: CliChild, pattern: RegExp): Record<string, unknown>[] {
  return child.lines.filter((l) => {
    const text = l['msg'] ?? l['text'];
    return typeof text === 'string' && pattern.test(text);
  });
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-watchdog-'));
  cli = await bundleCli();
  const store = path.join(dir, 'mm.sqlite');
  venue = await startPaperVenue({ storePath: store, latency: 'fast', seed: 3, truthLimit: null });
  const daemonPort = await freePort();
  const wdPort = await freePort();
  daemonMetrics = `http://127.0.0.1:${daemonPort}/metrics`;
  wdMetrics = `http://127.0.0.1:${wdPort}/metrics`;
  const common = {
    store: { path: store },
    pairs: PAIRS,
    log: { level: 'info' },
    shutdown: { graceMs: 20_000 },
    strategy: {
      defaults: {
        spread: { bidBps: 10, askBps: 10, minBps: 2, maxBps: 200 },
        levels: { count: 1, sizeUnit: 'quote', size: '1500' },
      },
    },
    risk: {
      maxOrderNotional: '5000',
      maxInventoryNotional: '100000',
      ordersPerMinute: 60,
      staleBookMs: 20_000,
    },
    watchdog: {
      healthUrl: `http://127.0.0.1:${daemonPort}/healthz`,
      deadAfterMs: DEAD_AFTER_MS,
      pollMs: 200,
      probeTimeoutMs: 1_000,
      sweepMs: 1_000,
      heartbeatStaleMs: 2_000,
      storePath: path.join(dir, 'watchdog.sqlite'),
      metrics: { port: wdPort },
    },
  };
  // The daemon asks the watchdog's /status which of its cancelled orders were the watchdog's.
  const daemonOnly = {
    metrics: { port: daemonPort },
    watchdog: { ...common.watchdog, statusUrl: `http://127.0.0.1:${wdPort}/status` },
  };
  fs.writeFileSync(path.join(dir, 'mm.json'), JSON.stringify({ ...common, ...daemonOnly }));
  fs.writeFileSync(path.join(dir, 'wd.json'), JSON.stringify(common));
  env = {
    LEDGER_MM_BASE_URL: venue.baseUrl,
    LEDGER_MM_SUBMIT_URL: venue.submitUrl,
    LEDGER_MM_API_KEY: venue.apiKey,
    LEDGER_MM_SIGNING_KEY_FILE: venue.keyFile,
  };
  watchdog = spawnCli(cli.main, ['watchdog', '--config', path.join(dir, 'wd.json')], env, dir);
  daemon = startDaemon();
  await waitUntil('both pairs two-sided', twoSidedEverywhere, 30_000);
  await waitUntil(
    'the watchdog seeing heartbeats',
    async () => {
      try {
        return (await metricValue(wdMetrics, 'ledger_mm_watchdog_last_heartbeat_timestamp_seconds')) > 0;
      } catch {
        return false;
      }
    },
    10_000,
  );
}, 60_000);

afterAll(async () => {
  for (const c of [daemon, watchdog]) {
    if (c !== undefined && c.proc.exitCode === null && c.proc.signalCode === null) {
      c.proc.kill('SIGCONT');
      c.proc.kill('SIGKILL');
      await c.exited;
    }
  }
  await venue?.close();
  cli?.dispose();
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  console.log(`watchdog over HTTP (fast profile, deadAfterMs ${DEAD_AFTER_MS}): ${figures.join('; ')}`);
});

describe('ledger-mm watchdog against a daemon in another process', () => {
  it('a daemon alive but slowed by venue faults is never cancelled', async () => {
    const v = venue!.venue;
    const ids = ['orderbook', 'orders', 'order', 'account', 'trades'].map((endpoint) =>
      v.addFault({ kind: 'latency-spike', endpoint, extraMs: 2_500, probability: 1 } as never),
    );
    const until = Date.now() + 3 * DEAD_AFTER_MS;
    while (Date.now() < until) {
      // The heartbeat stays: /healthz answers 200 while the quote cycle runs on stale data.
      expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_daemon_alive')).toBe(1);
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const id of ids) v.faults.remove(id);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_triggers_total')).toBe(0);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_sweeps_total')).toBe(0);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_orders_cancelled_total')).toBe(0);
    expect(logged(watchdog!, /cancelling every resting order/)).toEqual([]);
    const delayed = v.truth.calls().filter((c) => c.faults.length > 0).length;
    expect(delayed).toBeGreaterThan(5);
    figures.push(
      `slow daemon: ${delayed} venue calls delayed 2.5 s over ${(3 * DEAD_AFTER_MS) / 1000} s, no trigger`,
    );
  }, 30_000);

  it('a hung daemon (SIGSTOP) reads as dead: its quotes are pulled; resumed, it re-quotes without duplicates', async () => {
    await waitUntil('both pairs two-sided', twoSidedEverywhere, 30_000);
    const before = resting().map((o) => o.orderId);
    const ms = await timeToClear(daemon!, 'SIGSTOP');
    figures.push(`hang → nothing resting in ${ms} ms`);
    expect(ms).toBeLessThan(DEAD_AFTER_MS + 10_000);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_triggers_total')).toBe(1);
    // The sweep reports once its re-list is back; the ground truth was clear before.
    await waitUntil(
      'the sweep reporting its cancels',
      async () => (await metricValue(wdMetrics, 'ledger_mm_watchdog_orders_cancelled_total')) >= 4,
      10_000,
    );
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_daemon_alive')).toBe(0);

    daemon!.proc.kill('SIGCONT');
    const worst = await twoSidedAgain('both pairs two-sided again');
    await waitUntil(
      'the watchdog standing down',
      async () => (await metricValue(wdMetrics, 'ledger_mm_watchdog_daemon_alive')) === 1,
      5_000,
    );
    expect(worst).toBeLessThanOrEqual(2);
    expect(await metricValue(daemonMetrics, 'ledger_mm_foreign_orders')).toBe(0);
    expect(logged(daemon!, /an order this journal did not place/)).toEqual([]);
    // Every order resting at the hang was cancelled by the watchdog (its /status lists them), or filled.
    const status = (await (await fetch(wdMetrics.replace('/metrics', '/status'))).json()) as {
      triggers: { cancelled: string[] }[];
    };
    const cancelled = new Set(status.triggers.flatMap((t) => t.cancelled));
    for (const id of before) {
      const o = venue!.venue.truth.order(id);
      expect(o?.status === 'FILLED' || cancelled.has(id), `${id}: ${o?.status}`).toBe(true);
    }
    // The resumed daemon tells them apart: cancelled by the watchdog, in its log and metrics.
    await waitUntil(
      'the daemon attributing the cancels to the watchdog',
      () => attributed(daemon!).length >= 1,
      10_000,
    );
    for (const l of attributed(daemon!)) expect(cancelled.has(String(l['orderId']))).toBe(true);
    expect(await metricValue(daemonMetrics, 'ledger_mm_cancelled_by_watchdog_total')).toBe(
      attributed(daemon!).length,
    );
  }, 60_000);

  it('a SIGKILLed daemon has its quotes pulled; a new daemon on the same store recovers and quotes again', async () => {
    await waitUntil('both pairs two-sided', twoSidedEverywhere, 30_000);
    const ms = await timeToClear(daemon!, 'SIGKILL');
    figures.push(`SIGKILL → nothing resting in ${ms} ms`);
    expect(ms).toBeLessThan(DEAD_AFTER_MS + 10_000);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_triggers_total')).toBe(2);
    await daemon!.exited;

    const started = Date.now();
    daemon = startDaemon();
    const worst = await twoSidedAgain('the new daemon two-sided on both pairs');
    figures.push(`new daemon two-sided again after ${Date.now() - started} ms`);
    await waitUntil(
      'the watchdog standing down',
      async () => (await metricValue(wdMetrics, 'ledger_mm_watchdog_daemon_alive')) === 1,
      5_000,
    );
    expect(worst).toBeLessThanOrEqual(2);
    expect(logged(daemon, /an order this journal did not place/)).toEqual([]);
    expect(await metricValue(daemonMetrics, 'ledger_mm_foreign_orders')).toBe(0);
    expect(await metricValue(wdMetrics, 'ledger_mm_watchdog_triggers_total')).toBe(2);
    // Every order the new daemon's journal held was read and recorded as ended, none adopted.
    const recovered = logged(daemon, /recover/i);
    expect(recovered.length).toBeGreaterThan(0);

    // The new daemon read its journal's orders back as cancelled, and attributes them.
    await waitUntil(
      'the new daemon attributing the cancels to the watchdog',
      () => attributed(daemon!).length >= 1,
      10_000,
    ).catch((err: unknown) => {
      console.log(
        daemon!.lines
          .filter((l) => /cancel|recover|alarm|watchdog/i.test(JSON.stringify(l)))
          .map((l) => JSON.stringify(l).slice(0, 400))
          .join('\n'),
      );
      throw err;
    });
    const ids = attributed(daemon).map((l) => String(l['orderId']));
    daemon.proc.kill('SIGTERM');
    expect((await daemon.exited).code).toBe(0);
    // ... and journaled each attribution in its store.
    const journal = openJournal({ path: path.join(dir, 'mm.sqlite'), clock: systemClock, readOnly: true });
    try {
      for (const id of ids) expect(journal.getMeta(`watchdog.cancelled.${id}`), id).toMatch(/triggerAt/);
    } finally {
      journal.close();
    }
    watchdog!.proc.kill('SIGTERM');
    expect((await watchdog!.exited).code).toBe(0);
  }, 60_000);
});
