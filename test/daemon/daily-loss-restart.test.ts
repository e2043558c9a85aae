import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MmConfig } from '../../src/config/schema.js';
import type { Daemon } from '../../src/daemon/daemon.js';
import type { DaemonEvent } from '../../src/daemon/daemon-types.js';
import { RISK_MEMORY_KEY } from '../../src/risk/risk-memory.js';
import type { EngineMeta } from '../../src/execution/order-engine.js';
import { createLogger } from '../../src/logging/logger.js';
import { openJournal } from '../../src/orders/journal/index.js';
import { decodeDailyLoss, sameDailyLoss } from '../../src/risk/daily-loss-codec.js';
import { utcDay, type DailyLossState } from '../../src/risk/daily-loss-guard.js';
import { baseConfig, daemonEnv, disposeDaemonEnvs, twoSided, type DaemonEnv } from './support/daemon-env.js';

/**
 * The daily loss limit survives a restart: its state (the day's baselines and latched halts) is
 * kept in the order journal's meta. A pair is driven past a tiny `perPair` limit by real fills on
 * the simulated venue, the daemon is stopped, and a new daemon on the same store, the same UTC
 * day, must keep that pair halted until the day ends — while a daemon without the stored state
 * (an unreadable one, or a fresh store) quotes it at once.
 */

/** A quarter of an hour before a UTC day boundary. */
const START = Date.parse('2025-03-03T23:45:00.000Z');
const MIDNIGHT = Date.parse('2025-03-04T00:00:00.000Z');
const PAIRS = ['BTC/USDC', 'ETH/USDC'];

function tinyLimit(storePath: string): Record<string, unknown> {
  const base = baseConfig(storePath);
  return { ...base, risk: { ...(base.risk as object), dailyLoss: { perPair: '1', total: '1000' } } };
}

function roomyLimit(storePath: string): Record<string, unknown> {
  const base = baseConfig(storePath);
  return { ...base, risk: { ...(base.risk as object), dailyLoss: { perPair: '100000', total: '100000' } } };
}

afterEach(disposeDaemonEnvs);

/** Another daemon "process" on the same venue, account and clock; logs into `e.logs`. */
function newDaemon(e: DaemonEnv, config: MmConfig, events: DaemonEvent[]): Daemon {
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => e.logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const daemon = e.anotherDaemon({ config, logger });
  daemon.subscribe((ev) => {
    if (ev.type === 'alarm' || ev.type === 'daemon-phase') events.push(ev);
  });
  return daemon;
}

const halted = (d: Daemon): string[] =>
  Object.keys(d.lastCycle?.verdict.state.dailyLoss?.halted ?? {}).sort();

/** Runs the first daemon until a pair halts on its daily loss; stops it; returns the halted pairs. */
async function lossThenStop(e: DaemonEnv): Promise<{ lost: string[]; stored: DailyLossState }> {
  void e.daemon.start();
  await e.until(() => PAIRS.every((p) => twoSided(e, p)), 120_000);
  await e.until(() => halted(e.daemon).length > 0, 20 * 60_000);
  const lost = halted(e.daemon);
  // The gate cancels the halted pairs' quotes.
  await e.until(() => lost.every((p) => e.resting(p).length === 0), 60_000);
  expect(e.fake.now).toBeLessThan(MIDNIGHT - 10 * 60_000); // room left in the day
  const text = e.daemon.engine!.meta.get(RISK_MEMORY_KEY);
  const stored = decodeDailyLoss(text!, utcDay(e.fake.now))!;
  expect(stored).not.toBeNull();
  expect(sameDailyLoss(stored, e.daemon.lastCycle!.verdict.state.dailyLoss)).toBe(true);
  await e.closeDaemon(e.daemon);
  return { lost, stored };
}

/** Orders of the party for `pair` that the venue took after `t`. */
function placementsAfter(e: DaemonEnv, pair: string, t: number): number {
  return e.ours().filter((o) => o.pair === pair && o.createdAt > t).length;
}

describe('the daily loss limit across a restart', () => {
  it('a pair halted on its daily loss stays halted after a restart the same UTC day, and resumes at the day boundary', async () => {
    const e = daemonEnv({ latency: 'fast', takerRate: 0.3, startAt: START, config: tinyLimit });
    const { lost, stored } = await lossThenStop(e);
    const quoting = PAIRS.filter((p) => !lost.includes(p));

    const restartAt = e.fake.now;
    const events: DaemonEvent[] = [];
    const d = newDaemon(e, e.config, events);
    void d.start();
    await e.until(() => d.phase === 'running' && d.cycles > 0, 60_000);
    // Restored: the same baselines and halts, reported in the log.
    const restored = d.lastCycle!.verdict.state.dailyLoss!;
    // Exactly the pairs halted before: the first passes, before any book is read, have no price
    // to mark a position at, and take no loss from that.
    expect(halted(d)).toEqual(lost);
    for (const pair of lost) expect(restored.halted[pair]).toBe(stored.halted[pair]);
    for (const [pair, value] of Object.entries(stored.baseline)) {
      expect(restored.baseline[pair]!.eq(value)).toBe(true);
    }
    const line = e.logs.find((l) => String(l['msg']).startsWith('daily loss state restored'));
    expect(line?.['msg']).toContain(lost.join(', '));

    // The limit raised far beyond any loss here (SIGHUP): a latched halt is not lifted by it.
    e.writeConfig(roomyLimit(e.config.store.path));
    expect(d.reload()?.ok).toBe(true);
    expect(d.params.risk.dailyLoss.perPair.toFixed()).toBe('100000');

    // The other pairs quote again; the halted ones place nothing for the rest of the day.
    await e.until(
      () => quoting.every((p) => twoSided(e, p) && placementsAfter(e, p, restartAt) > 0),
      120_000,
    );
    await e.run(MIDNIGHT - 1_000 - e.fake.now, 1_000);
    for (const pair of lost) {
      expect(placementsAfter(e, pair, restartAt)).toBe(0);
      expect(e.resting(pair)).toEqual([]);
      expect(d.lastCycle!.verdict.pairStates[pair]).toBe('halted');
      const reason = d.lastCycle!.verdict.reasons.find((r) => r.pair === pair && r.rule === 'daily-loss');
      expect(reason?.until).toBe(MIDNIGHT);
    }

    // A new UTC day: new baselines, every pair quotes again, and the new day is what is stored.
    await e.until(() => PAIRS.every((p) => twoSided(e, p)), 120_000);
    expect(e.fake.now).toBeGreaterThanOrEqual(MIDNIGHT);
    for (const pair of lost) expect(d.lastCycle!.verdict.pairStates[pair]).toBe('active');
    const next = decodeDailyLoss(d.engine!.meta.get(RISK_MEMORY_KEY)!, utcDay(MIDNIGHT))!;
    expect(next).not.toBeNull();
    expect(Object.keys(next.baseline).sort()).toEqual(PAIRS);
    expect(next.halted).toEqual({});
    expect(events.filter((ev) => ev.type === 'alarm')).toEqual([]);
  }, 120_000);

  it.each<{ name: string; store: 'unreadable' | 'fresh' }>([
    { name: 'an unreadable stored state: a warning, and the day starts afresh', store: 'unreadable' },
    { name: 'a fresh store', store: 'fresh' },
  ])(
    'counter-test, without the stored state the halted pair quotes at once: $name',
    async ({ store }) => {
      const e = daemonEnv({ latency: 'fast', takerRate: 0.3, startAt: START, config: tinyLimit });
      const { lost } = await lossThenStop(e);
      // A roomy limit after the restart: a latched halt would hold against it (the test above),
      // and the new daemon's own fills on the moving market cannot halt the pair again.
      let config = {
        ...e.config,
        risk: { ...e.config.risk, dailyLoss: { perPair: '100000', total: '100000' } },
      };
      if (store === 'unreadable') {
        const journal = openJournal({ path: e.config.store.path, clock: e.clock });
        journal.setMeta(RISK_MEMORY_KEY, '{"v":1,"day":"today"}');
        journal.close();
      } else {
        config = { ...config, store: { ...config.store, path: path.join(e.dir, 'fresh.sqlite') } };
      }

      const restartAt = e.fake.now;
      const d = newDaemon(e, config, []);
      void d.start();
      await e.until(() => lost.every((p) => twoSided(e, p)), 120_000);
      expect(e.fake.now).toBeLessThan(MIDNIGHT);
      for (const pair of lost) expect(placementsAfter(e, pair, restartAt)).toBeGreaterThan(0);
      const warning = e.logs.find((l) => String(l['msg']).startsWith('daily loss state not restored'));
      if (store === 'unreadable') {
        expect(warning?.['level']).toBe(40);
        expect(JSON.stringify(warning?.['err'])).toContain('not a daily loss state');
      } else {
        expect(warning).toBeUndefined();
      }
    },
    120_000,
  );

  it('saves only when the state changes; a failing save raises one internal-error alarm, quoting goes on, and a later pass saves it', async () => {
    const e = daemonEnv({ latency: 'fast', takerRate: 0.3, startAt: START, config: tinyLimit });
    const saves: string[] = [];
    let phase: 'ok' | 'failing' | 'ok again' = 'ok';
    const changes = { ok: 0, failing: 0, 'ok again': 0 };
    let previous: DailyLossState | null = null;
    e.daemon.subscribe((ev) => {
      if (ev.type === 'recovered') {
        // Watch the engine's meta writes (the journal stays the engine's).
        const engine = e.daemon.engine!;
        const real = engine.meta;
        const meta: EngineMeta = {
          get: (key) => real.get(key),
          set: (key, value) => {
            if (phase === 'failing') throw new Error('disk I/O error');
            saves.push(value);
            real.set(key, value);
          },
        };
        Object.defineProperty(engine, 'meta', { get: () => meta });
      }
      if (ev.type === 'cycle') {
        const now = ev.report.verdict.state.dailyLoss;
        if (!sameDailyLoss(previous, now)) changes[phase] += 1;
        previous = now;
      }
    });
    void e.daemon.start();
    await e.until(() => PAIRS.every((p) => twoSided(e, p)), 120_000);
    const cycles = e.daemon.cycles;
    // First pass: both baselines of the day; nothing since (no halt yet).
    expect(cycles).toBeGreaterThan(5);
    expect(changes.ok).toBe(1);
    expect(saves).toHaveLength(1);

    phase = 'failing';
    await e.until(() => halted(e.daemon).length > 0, 20 * 60_000);
    const lost = halted(e.daemon);
    await e.run(30_000); // many passes, every one retrying the save
    const alarms = e.events.filter((ev) => ev.type === 'alarm');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ reason: 'internal-error', key: null });
    expect(alarms[0]!.type === 'alarm' && alarms[0]!.detail).toMatch(/risk\.daily_loss.*disk I\/O error/);
    expect(
      e.logs.some((l) => l['level'] === 50 && String(l['msg']).startsWith('alarm: internal-error')),
    ).toBe(true);
    // The halt holds in memory and the other pairs keep quoting.
    for (const pair of lost) expect(e.resting(pair)).toEqual([]);
    const quoting = PAIRS.filter((p) => !lost.includes(p));
    const failedAt = e.fake.now;
    await e.until(() => quoting.every((p) => twoSided(e, p) && placementsAfter(e, p, failedAt) > 0), 120_000);

    phase = 'ok again';
    await e.run(5_000);
    expect(e.logs.some((l) => l['msg'] === 'daily loss state saved again')).toBe(true);
    const stored = decodeDailyLoss(saves.at(-1)!, utcDay(e.fake.now))!;
    expect(Object.keys(stored.halted).sort()).toEqual(lost);
    expect(sameDailyLoss(stored, e.daemon.lastCycle!.verdict.state.dailyLoss)).toBe(true);
    // The state kept in memory was saved once, plus any change since.
    expect(changes.failing).toBeGreaterThan(0);
    expect(saves).toHaveLength(1 + 1 + changes['ok again']);
    expect(e.events.filter((ev) => ev.type === 'alarm')).toHaveLength(1);
  }, 120_000);
});
