/**
 * The benchmarks' in-process ground: the simulated venue on a @sinonjs/fake-timers clock (as the
 * daemon's end-to-end tests and `ledger-mm simulate` run it), instrumented so the venue's own CPU
 * can be told apart from the daemon's. The venue's request handler and every timer it sets (its
 * commits, expiries and market model) run inside a {@link VenueMeter}.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import { daemonApiKey, withDaemonKey } from '../rig/daemon-account.js';
import { PAPER_CONFIG_FILE } from '../rig/paper-tuning.js';
import { loadConfig } from '../../config/load.js';
import { fakeClock, type Clock } from '../../core/clock.js';
import { Daemon } from '../../daemon/daemon.js';
import type { DaemonOptions } from '../../daemon/daemon-types.js';
import { createLogger } from '../../logging/logger.js';
import { signerFromSeed } from '../../signing/ed25519-signer.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../sim/in-process-transport.js';
import type { LatencyProfile } from '../../sim/latency.js';
import { loadSimConfig, type SimConfigInput } from '../../sim/sim-config.js';
import { SimVenue } from '../../sim/sim-venue.js';
import { VenueMeter } from './measure.js';

/** What {@link benchVenue} builds. */
export interface BenchVenue {
  readonly fake: FakeTimers.Clock;
  /** The clock for the daemon's side. */
  readonly clock: Clock;
  readonly venue: SimVenue;
  /** The venue's share of the time. */
  readonly meter: VenueMeter;
  /** A throwaway directory (journals) on the real disk, removed by `dispose`. */
  readonly dir: string;
  /** Drives fake time, timer by timer, until `promise` settles; throws past `maxMs` of fake time. */
  settle<T>(promise: Promise<T>, maxMs?: number): Promise<T>;
  dispose(): Promise<void>;
}

/** The fixed start of fake time (a UTC day boundary is hours away). */
export const BENCH_T0 = Date.parse('2025-03-03T06:00:00.000Z');

/** Builds the venue on a fake clock; the caller registers accounts. */
export function benchVenue(o: {
  readonly config: SimConfigInput;
  readonly latency: LatencyProfile;
  readonly seed?: number;
}): BenchVenue {
  const fake = FakeTimers.createClock(BENCH_T0, 10_000_000);
  const clock = fakeClock(fake);
  const meter = new VenueMeter();
  const venueClock: Clock = {
    now: () => fake.now,
    setTimeout: (fn, ms) => clock.setTimeout(() => meter.run(fn), ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
  const venue = new SimVenue({
    config: o.config,
    clock: venueClock,
    latency: o.latency,
    ...(o.seed === undefined ? {} : { seed: o.seed }),
  });
  const handle = venue.router.handle.bind(venue.router);
  venue.router.handle = (req) => meter.run(() => handle(req));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-mm-bench-'));
  const settle = async <T>(promise: Promise<T>, maxMs = 3_600_000): Promise<T> => {
    let done = false;
    const tracked = promise.finally(() => {
      done = true;
    });
    const until = fake.now + maxMs;
    for (;;) {
      // What settles on promises alone settles here, before any timer fires early.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (done) break;
      if (fake.now > until) throw new Error(`did not settle within ${maxMs} ms of fake time`);
      if (fake.countTimers() > 0) await fake.nextAsync();
    }
    return tracked;
  };
  return {
    fake,
    clock,
    venue,
    meter,
    dir,
    settle,
    dispose: async () => {
      await venue.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What {@link benchPaperDaemon} builds. */
export interface BenchPaperDaemon {
  readonly bv: BenchVenue;
  /** Built, not started. */
  readonly daemon: Daemon;
}

/**
 * The paper daemon (config/paper.json) against the paper venue (config/sim.json, its first
 * account holding a fixed throwaway key) on a bench venue: the setup the poll bench and the long
 * run share. Logs at info into nothing; its journal goes in the venue's throwaway directory.
 */
export function benchPaperDaemon(o: {
  readonly latency: LatencyProfile;
  readonly seed: number;
  /** The byte the throwaway signing seed is filled with. */
  readonly keyByte: number;
  /** The daemon's tuning (confirmation pacing, eviction, summaries). */
  readonly tuning: NonNullable<DaemonOptions['tuning']>;
}): BenchPaperDaemon {
  const key = signerFromSeed(new Uint8Array(32).fill(o.keyByte), 'raw');
  const { config, account } = withDaemonKey(loadSimConfig(), key.publicKey);
  const bv = benchVenue({ config, latency: o.latency, seed: o.seed });
  const apiKey = daemonApiKey(bv.venue, account.slug);
  const load = {
    configFiles: [PAPER_CONFIG_FILE],
    env: {
      LEDGER_MM_API_KEY: apiKey,
      LEDGER_MM_BASE_URL: IN_PROCESS_BASE_URL,
      LEDGER_MM_SUBMIT_URL: IN_PROCESS_SUBMIT_URL,
      LEDGER_MM_STORE_PATH: path.join(bv.dir, 'journal.sqlite'),
    },
    cwd: bv.dir,
  };
  const daemon = new Daemon({
    config: loadConfig(load),
    clock: bv.clock,
    signer: key,
    logger: createLogger({ level: 'info', destination: { write: () => undefined }, name: 'ledger-mm' }),
    transport: bv.venue.createTransport(),
    random: () => 0.5,
    reload: { load, watch: false },
    tuning: o.tuning,
  });
  return { bv, daemon };
}
