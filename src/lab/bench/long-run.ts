/**
 * Memory growth over simulated hours, in-process: paper trading's daemon and venue
 * (config/paper.json, config/sim.json, market on, FAST latency) on a fake clock for `hours`, the
 * live heap measured after a full GC every simulated `sampleMs`. Real-time paper mode cannot show
 * a leak of a few MB an hour within ten minutes; this shows it per simulated hour (per day, by
 * extrapolation), for the product as shipped (registry eviction on, the venue's ground truth and
 * history bounded as `ledger-mm paper` bounds them) and, for comparison, with all off (as before).
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';
import { PAPER_BOUNDS, PAPER_WARMUP_MS } from '../rig/paper-venue.js';
import { simulatorDaemonTuning } from '../rig/paper-tuning.js';
import { benchPaperDaemon } from './in-process.js';
import { linearFit } from './measure.js';

/** Options of {@link runLongRun}. */
export interface LongRunOptions {
  /** Simulated hours per configuration. Default 6. */
  readonly hours?: number;
  /** Between heap samples, simulated ms. Default 30 min. */
  readonly sampleMs?: number;
  /**
   * The growth is fitted from this many simulated hours on. Default the warm-up,
   * {@link PAPER_WARMUP_MS} (81 minutes: until then the venue's retained history fills).
   */
  readonly fitFromHours?: number;
  readonly seed?: number;
  /** Called after each sample (progress). */
  readonly onSample?: (config: LongRunFigures['config'], hours: number, heapMiB: number) => void;
}

/** One configuration's figures. */
export interface LongRunFigures {
  readonly config: 'as shipped' | 'unbounded (before)';
  /** Live heap after a full GC at each sample: simulated hours and MiB. */
  readonly samples: readonly {
    readonly hours: number;
    readonly heapMiB: number;
    readonly registry: number;
  }[];
  /** Least-squares growth of the live heap after the warm-up, MiB per simulated hour. */
  readonly growthMiBPerHour: number;
  /**
   * Orders and prepared commands the venue holds at the end: every one when unbounded, the
   * last hour's ended ones and every live one as shipped.
   */
  readonly orders: number;
  readonly commands: number;
  readonly registryAtEnd: number;
  readonly evicted: number;
  readonly wallSeconds: number;
}

/** What {@link runLongRun} reports. */
export interface LongRunResult {
  readonly hours: number;
  readonly runs: readonly LongRunFigures[];
}

const MiB = 1024 * 1024;

/** A full GC (V8's `gc`, exposed at run time). */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** Runs both configurations; see the module doc. */
export async function runLongRun(o: LongRunOptions = {}): Promise<LongRunResult> {
  const hours = o.hours ?? 6;
  const runs: LongRunFigures[] = [];
  for (const bounded of [true, false]) runs.push(await oneRun(bounded, hours, o));
  return { hours, runs };
}

async function oneRun(bounded: boolean, hours: number, o: LongRunOptions): Promise<LongRunFigures> {
  const gc = collector();
  const sampleMs = o.sampleMs ?? 1_800_000;
  // `ledger-mm paper --latency fast`'s timings, with the registry's eviction off for "before".
  const paper = simulatorDaemonTuning('fast');
  const { rig, time, daemon } = await benchPaperDaemon({
    latency: 'fast',
    seed: o.seed ?? 1,
    keyByte: 9,
    tuning: { ...paper, engine: { ...paper.engine, ...(bounded ? {} : { eviction: false as const }) } },
    ...(bounded ? { bounds: PAPER_BOUNDS } : {}),
  });
  const { venue } = rig;
  const fake = time.fake;
  const t0 = performance.now();
  const samples: { hours: number; heapMiB: number; registry: number }[] = [];
  try {
    rig.startMarket();
    void daemon.start();
    const start = fake.now;
    for (let at = sampleMs; at <= hours * 3_600_000; at += sampleMs) {
      while (fake.now - start < at) await fake.tickAsync(Math.min(10_000, start + at - fake.now));
      gc();
      const sample = {
        hours: (fake.now - start) / 3_600_000,
        heapMiB: process.memoryUsage().heapUsed / MiB,
        registry: daemon.engine?.orders.size ?? 0,
      };
      samples.push(sample);
      o.onSample?.(bounded ? 'as shipped' : 'unbounded (before)', sample.hours, sample.heapMiB);
    }
    const later = samples.filter((s) => s.hours >= (o.fitFromHours ?? PAPER_WARMUP_MS / 3_600_000));
    const fit = linearFit(
      later.map((s) => s.hours),
      later.map((s) => s.heapMiB),
    );
    return {
      config: bounded ? 'as shipped' : 'unbounded (before)',
      samples,
      growthMiBPerHour: fit.slope,
      orders: venue.engine.core.orders.all().length,
      commands: venue.engine.core.commands.all().length,
      registryAtEnd: daemon.engine?.orders.size ?? 0,
      evicted: daemon.engine?.evicted ?? 0,
      wallSeconds: (performance.now() - t0) / 1000,
    };
  } finally {
    await rig.stopDaemon(daemon, { cancelOrders: false, graceMs: 5_000 });
    await rig.close();
  }
}
