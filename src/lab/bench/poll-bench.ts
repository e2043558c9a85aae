/**
 * CPU per poll cycle: the paper daemon (config/paper.json: two pairs, one level a side) against
 * the simulated venue of `ledger-mm paper` (config/sim.json, market running) at INSTANT latency,
 * in-process on a fake clock. Once it quotes both pairs, the market is stopped (the book, and so
 * the cycle's work, hold still) and each loop is run `runs` times through its own poller
 * (`runNow`): a book poll, a trades poll, the orders poll (every resting order of ours listed and
 * reconciled), the balances poll (and the local wallet's baseline), and a quote cycle (snapshot →
 * strategy → reconciler → risk gate → dispatch). With the venue instant a run needs no timer, so
 * nothing else runs in between. Per run: CPU of the process, the simulated venue's share, and
 * the local rest.
 */
import { Poller } from '../../core/poller.js';
import { simulatorTuning } from '../rig/paper-tuning.js';
import { benchPaperDaemon } from './in-process.js';
import { summarise, type Summary } from './measure.js';

/** Options of {@link runPollBench}. */
export interface PollBenchOptions {
  /** Measured runs per loop. Default 500. */
  readonly runs?: number;
  /** Unmeasured runs first. Default 50. */
  readonly warmup?: number;
}

/** Figures of one loop, µs per run. */
export interface LoopFigures {
  readonly loop: string;
  readonly runs: number;
  /** Process CPU per run (daemon and in-process venue), µs. */
  readonly cpuUs: number;
  /** The simulated venue's share per run, µs. */
  readonly venueUs: number;
  /** `cpuUs − venueUs`, µs. */
  readonly localUs: number;
  /** Local µs of single runs (wall-clock, venue excluded): p50, p95, max. */
  readonly perRun: Summary;
  /** Runs that failed (should be 0). */
  readonly failures: number;
}

/** What {@link runPollBench} reports. */
export interface PollBenchResult {
  readonly loops: readonly LoopFigures[];
  /** Our resting orders when measured (what the orders poll lists and reconciles). */
  readonly restingOrders: number;
  /** Placements and cancels the measured quote cycles asked for (0: a steady book). */
  readonly cycleActions: number;
}

/** The loops measured, by poller name. */
const LOOPS: readonly { name: string; label: string }[] = [
  { name: 'book:BTC/USDC', label: 'book poll (1 pair)' },
  { name: 'trades:BTC/USDC', label: 'trades poll (1 pair)' },
  { name: 'orders', label: 'orders poll' },
  { name: 'balances', label: 'balances poll' },
  { name: 'quote', label: 'quote cycle (2 pairs)' },
];

/** Runs the benchmark; see the module doc. */
export async function runPollBench(o: PollBenchOptions = {}): Promise<PollBenchResult> {
  const runs = o.runs ?? 500;
  const warmup = o.warmup ?? 50;
  const { rig, time, meter, daemon } = await benchPaperDaemon({
    latency: 'instant',
    seed: 1,
    keyByte: 7,
    // `ledger-mm paper --latency instant`'s confirmation pacing (the summary left at its minute).
    tuning: { engine: simulatorTuning('instant') },
  });
  const { venue } = rig;
  const fake = time.fake;
  let cycleActions = 0;
  let counting = false;
  daemon.subscribe((e) => {
    if (counting && e.type === 'cycle') cycleActions += e.report.placed + e.report.cancelled;
  });
  try {
    venue.startMarket();
    void daemon.start();
    for (let t = 0; t < 180_000; t += 1_000) await fake.tickAsync(1_000);
    venue.stopMarket();
    for (let t = 0; t < 30_000; t += 1_000) await fake.tickAsync(1_000);
    if (daemon.phase !== 'running') throw new Error(`the daemon is ${daemon.phase}, not running`);
    const restingOrders = daemon.engine?.orders.active().length ?? 0;
    counting = true;
    const loops: LoopFigures[] = [];
    for (const l of LOOPS) {
      const poller = daemon.pollerStats().find((p) => p.name === l.name);
      if (!(poller instanceof Poller)) throw new Error(`no poller ${l.name}`);
      for (let i = 0; i < warmup; i++) await poller.runNow();
      const failures0 = poller.failures;
      const single: number[] = [];
      const venue0 = meter.totalUs;
      const c0 = process.cpuUsage();
      for (let i = 0; i < runs; i++) {
        const v = meter.totalUs;
        const t0 = performance.now();
        await poller.runNow();
        single.push((performance.now() - t0) * 1000 - (meter.totalUs - v));
      }
      const c = process.cpuUsage(c0);
      const cpuUs = (c.user + c.system) / runs;
      const venueUs = (meter.totalUs - venue0) / runs;
      loops.push({
        loop: l.label,
        runs,
        cpuUs,
        venueUs,
        localUs: cpuUs - venueUs,
        perRun: summarise(single),
        failures: poller.failures - failures0,
      });
    }
    counting = false;
    return { loops, restingOrders, cycleActions };
  } finally {
    await rig.stopDaemon(daemon, { cancelOrders: false, graceMs: 5_000 });
    await rig.close();
  }
}
