/**
 * The rig that puts the daemon on the simulator (`src/lab/rig/sim-rig.ts`): the daemon's config
 * is pointed at it one way (the in-memory pointing and the `LEDGER_MM_*` variables agree), its
 * parties get their accounts, and a daemon on fake time is stopped by ticking.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { Daemon } from '../../../src/daemon/daemon.js';
import { createLogger } from '../../../src/logging/logger.js';
import { PAPER_CONFIG_FILE } from '../../../src/lab/rig/paper-tuning.js';
import { fixedKey, seededKeys } from '../../../src/lab/rig/rig-keys.js';
import { FakeTime } from '../../../src/lab/rig/rig-time.js';
import { SimRig } from '../../../src/lab/rig/sim-rig.js';
import { IN_PROCESS_BASE_URL } from '../../../src/sim/in-process-transport.js';
import { loadSimConfig } from '../../../src/sim/sim-config.js';

const T0 = Date.parse('2025-01-06T00:00:00.000Z');
const rigs: SimRig[] = [];

async function rig(keys = [fixedKey(3)]): Promise<SimRig> {
  const r = await SimRig.start({
    sim: loadSimConfig(),
    latency: 'instant',
    seed: 1,
    time: new FakeTime(T0),
    keys,
    link: { kind: 'in-process' },
  });
  rigs.push(r);
  return r;
}

afterEach(async () => {
  for (const r of rigs.splice(0)) await r.close();
});

describe('SimRig', () => {
  it('points a config held in memory and one loaded from files at the same venue, key and journal', async () => {
    const r = await rig();
    const files = { configFiles: [PAPER_CONFIG_FILE], cwd: r.dir };
    const inMemory = r.pointConfig(loadConfig({ ...files, env: {} }));
    const fromEnv = loadConfig({ ...files, env: { ...r.pointEnv() } });
    expect(fromEnv.venue).toEqual(inMemory.venue);
    expect(fromEnv.store).toEqual(inMemory.store);
    expect(inMemory.venue.baseUrl).toBe(IN_PROCESS_BASE_URL);
    expect(inMemory.venue.apiKey).toBe(r.primary.apiKey);
    expect(inMemory.store.path).toBe(`${r.dir}/journal.sqlite`);
  });

  it('gives each party its own account, API key and journal; one party is no firm', async () => {
    const one = await rig();
    const config = loadConfig({ configFiles: [PAPER_CONFIG_FILE], env: {}, cwd: one.dir });
    expect(one.partyIdentities(config)).toBeUndefined();
    const three = await rig(seededKeys(1, 3));
    expect(three.parties.map((p) => p.slug)).toEqual(['examplemm', 'examplemm-p2', 'examplemm-p3']);
    expect(new Set(three.parties.map((p) => p.apiKey)).size).toBe(3);
    expect(three.partyIdentities(config)?.map((p) => p.storePath)).toEqual([
      `${three.dir}/journal.sqlite`,
      `${three.dir}/journal.p2.sqlite`,
      `${three.dir}/journal.p3.sqlite`,
    ]);
  });

  it('stops a running daemon on fake time by ticking it', async () => {
    const r = await rig();
    const daemon = new Daemon(
      r.daemonOptions({
        config: loadConfig({ configFiles: [PAPER_CONFIG_FILE], env: {}, cwd: r.dir }),
        logger: createLogger({ level: 'silent', destination: { write: () => undefined }, name: 'test' }),
        random: () => 0.5,
      }),
    );
    r.startMarket();
    const started = daemon.start();
    await r.time.drive(started, { stepMs: 1_000, maxSteps: 120 });
    expect(daemon.phase).toBe('running');
    const report = await r.stopDaemon(daemon, { cancelOrders: true, graceMs: 30_000 });
    expect(daemon.phase).toBe('closed');
    expect(report.activeOrders).toBe(0);
  });
});
