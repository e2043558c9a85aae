/**
 * One simulated run: the simulated venue and the UNCHANGED daemon in one process on a
 * @sinonjs/fake-timers clock (the approach of the daemon's end-to-end tests), the market model
 * running, for `durationMs` of simulated time. The rig (`lab/rig/sim-rig.ts`) assembles it: the
 * daemon talks to the venue through the in-process transport; its journal lives in a throwaway
 * directory (in memory-backed /dev/shm when there is one). Everything random is seeded: the
 * venue from the seed, the signing keys and the daemon's jitter from streams derived from it, so
 * the same inputs give the same run.
 */
import type { MmConfig } from '../../../config/schema.js';
import { Daemon } from '../../../daemon/daemon.js';
import type { DaemonTuning, ReconcileFn } from '../../../daemon/daemon-types.js';
import { createLogger } from '../../../logging/logger.js';
import type { LatencyProfile } from '../../../sim/latency.js';
import { Rng } from '../../../sim/rng.js';
import type { SimConfig } from '../../../sim/sim-config.js';
import { captureTruth, PARTY_CALLS, type LogTally, type SimCapture } from './capture.js';
import { GuardEpisodes } from '../figures/guard-episodes.js';
import { SIM_T0 } from './scenario.js';
import { seededKeys } from '../../rig/rig-keys.js';
import { FakeTime } from '../../rig/rig-time.js';
import { SimRig } from '../../rig/sim-rig.js';
import { HEDGE_SIM_DEFAULTS, SimHedgeVenues, type HedgeSimSettings } from '../../hedge/sim-hedge-venues.js';

/** Options of {@link runSimulation}. */
export interface SimRunOptions {
  /** The daemon's configuration as loaded; store, venue URLs and API key are set here. */
  readonly config: MmConfig;
  /** The simulated venue's configuration (its first account is the daemon's). */
  readonly sim: SimConfig;
  readonly latency: LatencyProfile;
  readonly seed: number | string;
  readonly durationMs: number;
  /** The reconciler variant (baselines); default the daemon's own. */
  readonly reconciler?: ReconcileFn;
  /** The daemon's timings (the CLI passes the paper command's confirmation pacing). */
  readonly tuning?: Partial<DaemonTuning>;
  /** Called after every step with the simulated ms elapsed. */
  readonly onProgress?: (elapsedMs: number, totalMs: number) => void;
  /** Simulated ms advanced between progress calls. Default 60 s. */
  readonly stepMs?: number;
  /** Called with the daemon once built (diagnostics: subscribe to its events). */
  readonly onDaemon?: (daemon: Daemon) => void;
  /**
   * The daemon's journal file, kept after the run (tests read its fills); default a file in a
   * throwaway directory removed at the end. With several parties the others' journals are kept
   * beside it, named as the daemon names them (`party-store.ts`).
   */
  readonly storePath?: string;
  /**
   * Parties the daemon runs (default 1): the daemon's account is split into this many, the same
   * total funds divided evenly, each with its own key and pipeline (`firm.parties`).
   */
  readonly parties?: number;
  /**
   * The simulated hedge venue of the pairs the config hedges (`hedge.exchange: "sim"`); default
   * {@link HEDGE_SIM_DEFAULTS}. Unused when no pair is hedged.
   */
  readonly hedgeSim?: HedgeSimSettings;
}

const MAX_MESSAGES = 5;

function tallyDestination(tally: LogTally): { write(line: string): void } {
  return {
    write: (line: string) => {
      const { level, msg } = JSON.parse(line) as { level: number; msg?: string };
      if (level >= 50) tally.error += 1;
      else tally.warn += 1;
      const text = `${level >= 50 ? 'error' : 'warn'}: ${msg ?? ''}`;
      if (tally.messages.length < MAX_MESSAGES && !tally.messages.includes(text)) tally.messages.push(text);
    },
  };
}

/** Runs one simulation and returns what the venue's ground truth recorded; see the module doc. */
export async function runSimulation(o: SimRunOptions): Promise<SimCapture> {
  const n = o.parties ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new RangeError('parties must be an integer from 1 to 16');
  const time = new FakeTime(SIM_T0);
  const rig = await SimRig.start({
    sim: o.sim,
    latency: o.latency,
    seed: o.seed,
    time,
    keys: seededKeys(o.seed, n),
    // The venue's own reads are taken as it wrote them (no second validation of book, trades
    // and orders); the tests run the client's full decoding on the same answers.
    link: { kind: 'in-process', answers: 'typed' },
    ...(o.storePath === undefined ? {} : { storePath: o.storePath }),
  });
  const { venue } = rig;
  const tally: LogTally = { warn: 0, error: 0, messages: [] };
  let daemon: Daemon | null = null;
  try {
    const jitter = new Rng(o.seed).fork('daemon/jitter');
    // The ids' entropy is seeded too: they appear in the report's warnings.
    const idNoise = new Rng(o.seed).fork('daemon/client-order-id');
    const entropy = (): string => idNoise.int(0, 0xffffffff).toString(16).padStart(8, '0');
    const hedgeVenues = new SimHedgeVenues({
      clock: rig.clock,
      seed: o.seed,
      truePrice: (pair) => venue.engine.core.truth.lastReference(pair),
      settings: o.hedgeSim ?? HEDGE_SIM_DEFAULTS,
    });
    const built = new Daemon(
      rig.daemonOptions({
        config: o.config,
        logger: createLogger({ level: 'warn', destination: tallyDestination(tally), name: 'ledger-mm' }),
        random: () => jitter.next(),
        tuning: { ...o.tuning, engine: { ...o.tuning?.engine, clientOrderIdEntropy: entropy } },
        ...(o.reconciler === undefined ? {} : { reconciler: o.reconciler }),
        hedgeVenue: hedgeVenues.factory,
      }),
    );
    daemon = built;
    o.onDaemon?.(built);
    rig.startMarket();
    const start = time.now;
    const end = start + o.durationMs;
    let cycles = 0;
    const slots = new Map<string, string>();
    const guards = new GuardEpisodes();
    const abandonedBy: Record<string, number> = {};
    const placementOutcomes: Record<string, number> = {};
    built.subscribe((e) => {
      if (e.type === 'cycle') {
        cycles += 1;
        guards.observe(e.report.at, e.report.verdict);
      }
      if (e.type === 'prepare-abandoned') {
        const why = e.cause ?? e.reason;
        abandonedBy[why] = (abandonedBy[why] ?? 0) + 1;
      }
      if (e.type === 'placement') {
        const o = e.outcome;
        const what = o.kind === 'no-party' ? `no-party:${o.reason}` : o.kind;
        placementOutcomes[what] = (placementOutcomes[what] ?? 0) + 1;
      }
      // The registry may forget terminal orders: note each order's slot as it is created.
      if (e.type !== 'order-transition' || e.from !== null) return;
      const order = built.engine?.orders.get(e.key);
      if (order?.clientOrderId != null && order.slot !== null) slots.set(order.clientOrderId, order.slot);
    });
    const started = built.start().catch((err: unknown) => {
      tally.error += 1;
      tally.messages.push(`error: the daemon did not start: ${String(err)}`);
      return false;
    });
    // The figures read the party's placement calls and no events: the rest is dropped as the run
    // goes (the polls of a day are most of a run's memory otherwise).
    const partyIds = rig.parties.map((p) => p.partyId);
    const mine = new Set(partyIds);
    const keepCall = (c: { partyId: string | null; endpoint: string }): boolean =>
      c.partyId !== null && mine.has(c.partyId) && PARTY_CALLS.has(c.endpoint as never);
    await time.advanceTo(end, o.stepMs ?? 60_000, () => {
      venue.engine.core.truth.compact({ events: false, keepCall });
      o.onProgress?.(time.now - start, o.durationMs);
    });
    const truth = captureTruth({
      venue,
      partyIds,
      pairs: o.config.pairs,
      start,
      end,
      slots,
      cycles,
      guards: guards.episodes(end),
      abandonedBy,
      placementOutcomes,
      // A copy taken now: the teardown below (a stop without cancels) logs about orders it leaves
      // to the next start, which is not part of the run.
      log: { ...tally, messages: [...tally.messages] },
      latencyRanges: venue.latency.ranges,
    });
    const capture: SimCapture = { ...truth, hedgeTrades: hedgeVenues.trades() };
    await closeDaemon(rig, built);
    await started;
    return capture;
  } finally {
    if (daemon !== null && daemon.phase !== 'closed') await closeDaemon(rig, daemon);
    await rig.close();
  }
}

/**
 * Stops the daemon without cancelling (the figures are taken already). A stop already under way
 * keeps its own bound (up to shutdown.graceMs).
 */
async function closeDaemon(rig: SimRig, daemon: Daemon): Promise<void> {
  await rig.stopDaemon(daemon, { cancelOrders: false, graceMs: 5_000 });
}
