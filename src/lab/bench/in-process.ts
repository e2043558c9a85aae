/**
 * The benchmarks' in-process ground: the rig (`lab/rig/sim-rig.ts`) on fake time with the
 * in-process transport, as `ledger-mm simulate` runs it, its journals on the real disk, and the
 * venue instrumented so that its own CPU can be told apart from the daemon's: the venue's request
 * handler and every timer it sets (its commits, expiries and market model) run inside a
 * {@link VenueMeter}.
 */
import { loadConfig } from '../../config/load.js';
import type { Clock } from '../../core/clock.js';
import { Daemon } from '../../daemon/daemon.js';
import type { DaemonOptions } from '../../daemon/daemon-types.js';
import { createLogger } from '../../logging/logger.js';
import type { LatencyProfile } from '../../sim/latency.js';
import { loadSimConfig, type SimConfig } from '../../sim/sim-config.js';
import { PAPER_CONFIG_FILE } from '../rig/paper-tuning.js';
import { fixedKey, type RigKey } from '../rig/rig-keys.js';
import { FakeTime } from '../rig/rig-time.js';
import { SimRig, type HistoryBounds } from '../rig/sim-rig.js';
import { VenueMeter } from './measure.js';

/** The fixed start of fake time (a UTC day boundary is hours away). */
export const BENCH_T0 = Date.parse('2025-03-03T06:00:00.000Z');

/** What {@link benchRig} builds. */
export interface BenchRig {
  readonly rig: SimRig;
  readonly time: FakeTime;
  /** The venue's share of the time. */
  readonly meter: VenueMeter;
}

/** The rig on fake time from {@link BENCH_T0}, its venue metered; see the module doc. */
export async function benchRig(o: {
  readonly sim: SimConfig;
  readonly latency: LatencyProfile;
  readonly seed?: number;
  readonly keys: readonly RigKey[];
  readonly bounds?: HistoryBounds;
}): Promise<BenchRig> {
  const time = new FakeTime(BENCH_T0);
  const meter = new VenueMeter();
  const rig = await SimRig.start({
    sim: o.sim,
    latency: o.latency,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
    time,
    venueClock: (clock): Clock => ({
      now: () => clock.now(),
      setTimeout: (fn, ms) => clock.setTimeout(() => meter.run(fn), ms),
      clearTimeout: (handle) => clock.clearTimeout(handle),
    }),
    keys: o.keys,
    link: { kind: 'in-process' },
    scratch: 'disk',
    ...(o.bounds === undefined ? {} : { bounds: o.bounds }),
  });
  const router = rig.venue.router;
  const handle = router.handle.bind(router);
  router.handle = (req) => meter.run(() => handle(req));
  return { rig, time, meter };
}

/** What {@link benchPaperDaemon} builds. */
export interface BenchPaperDaemon extends BenchRig {
  /** Built, not started. */
  readonly daemon: Daemon;
}

/**
 * The paper daemon (config/paper.json) against the paper venue (config/sim.json, its first
 * account holding a fixed throwaway key) on a bench rig: the setup the poll bench and the long
 * run share. Logs at info into nothing; its journal goes in the rig's throwaway directory.
 */
export async function benchPaperDaemon(o: {
  readonly latency: LatencyProfile;
  readonly seed: number;
  /** The byte the throwaway signing seed is filled with. */
  readonly keyByte: number;
  /** The daemon's tuning (confirmation pacing, eviction, summaries). */
  readonly tuning: NonNullable<DaemonOptions['tuning']>;
  readonly bounds?: HistoryBounds;
}): Promise<BenchPaperDaemon> {
  const bench = await benchRig({
    sim: loadSimConfig(),
    latency: o.latency,
    seed: o.seed,
    keys: [fixedKey(o.keyByte)],
    ...(o.bounds === undefined ? {} : { bounds: o.bounds }),
  });
  const daemon = new Daemon(
    bench.rig.daemonOptions({
      config: loadConfig({ configFiles: [PAPER_CONFIG_FILE], env: {}, cwd: bench.rig.dir }),
      logger: createLogger({ level: 'info', destination: { write: () => undefined }, name: 'ledger-mm' }),
      random: () => 0.5,
      tuning: o.tuning,
    }),
  );
  return { ...bench, daemon };
}
