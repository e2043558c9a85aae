/**
 * One simulated run: the simulated venue and the UNCHANGED daemon in one process on a
 * @sinonjs/fake-timers clock (the approach of the daemon's end-to-end tests), the market model
 * running, for `durationMs` of simulated time. The daemon talks to the venue through the
 * in-process transport; its journal lives in a throwaway directory (in memory-backed /dev/shm
 * when there is one). Everything random is seeded: the venue from the seed, the signing key
 * and the daemon's jitter from streams derived from it, so the same inputs give the same run.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import FakeTimers from '@sinonjs/fake-timers';
import { fakeClock } from '../../../core/clock.js';
import type { MmConfig } from '../../../config/schema.js';
import { Daemon } from '../../../daemon/daemon.js';
import type { DaemonTuning, ReconcileFn } from '../../../daemon/daemon-types.js';
import { createLogger } from '../../../logging/logger.js';
import { signerFromSeed } from '../../../signing/ed25519-signer.js';
import { IN_PROCESS_BASE_URL, IN_PROCESS_SUBMIT_URL } from '../../../sim/in-process-transport.js';
import type { LatencyProfile } from '../../../sim/latency.js';
import { Rng } from '../../../sim/rng.js';
import type { SimConfig } from '../../../sim/sim-config.js';
import { SimVenue } from '../../../sim/sim-venue.js';
import { captureTruth, PARTY_CALLS, type LogTally, type SimCapture } from './capture.js';
import { GuardEpisodes } from '../figures/guard-episodes.js';
import { SIM_T0 } from './scenario.js';
import { daemonApiKey, withDaemonParties } from '../../rig/daemon-account.js';
import { partyStorePath } from '../../../daemon/startup/party-store.js';
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

function scratchDir(): string {
  const shm = '/dev/shm';
  const base = fs.existsSync(shm) && fs.statSync(shm).isDirectory() ? shm : os.tmpdir();
  return fs.mkdtempSync(path.join(base, 'ledger-mm-simulate-'));
}

/** A 32-byte seed derived from the run's seed and a label. */
function derivedSeed(seed: number | string, label: string): Uint8Array {
  return createHash('sha256')
    .update(`ledger-mm simulate\0${String(seed)}\0${label}`)
    .digest();
}

/** Runs one simulation and returns what the venue's ground truth recorded; see the module doc. */
export async function runSimulation(o: SimRunOptions): Promise<SimCapture> {
  const fake = FakeTimers.createClock(SIM_T0, 10_000_000);
  const clock = fakeClock(fake);
  const n = o.parties ?? 1;
  if (!Number.isInteger(n) || n < 1 || n > 16)
    throw new RangeError('parties must be an integer from 1 to 16');
  // Party 1's key is the one-party run's, so one party is the run it always was.
  const signers = Array.from({ length: n }, (_, i) =>
    signerFromSeed(derivedSeed(o.seed, i === 0 ? 'signing-key' : `signing-key/${i + 1}`), 'raw'),
  );
  const signer = signers[0]!;
  const { config: sim, accounts } = withDaemonParties(
    o.sim,
    signers.map((s) => s.publicKey),
  );
  const account = accounts[0]!;
  const venue = new SimVenue({
    config: sim,
    clock,
    latency: o.latency,
    seed: o.seed,
  });
  const dir = scratchDir();
  const tally: LogTally = { warn: 0, error: 0, messages: [] };
  let daemon: Daemon | null = null;
  try {
    const apiKey = daemonApiKey(venue, account.slug);
    const partyIds = accounts.map((a) => venue.engine.account(a.slug).partyId);
    // The parties' journals: beside the kept one (named as the daemon names them), else scratch.
    const storeOf = (i: number): string =>
      partyStorePath(o.storePath ?? path.join(dir, 'journal.sqlite'), { name: `p${i + 1}` }, i);
    const parties =
      n === 1
        ? undefined
        : accounts.map((a, i) => {
            // A config's firm.parties lends the i-th simulated party its pairs and sides (the
            // fixed assignments of firm.allocation "fixed"); keys and journals are the run's own.
            const listed = o.config.firm.parties[i];
            return {
              name: `p${i + 1}`,
              signer: signers[i]!,
              apiKey: daemonApiKey(venue, a.slug),
              storePath: storeOf(i),
              ...(listed?.pairs === undefined ? {} : { pairs: listed.pairs }),
              ...(listed?.sides === undefined ? {} : { sides: listed.sides }),
            };
          });
    const config: MmConfig = {
      ...o.config,
      venue: { ...o.config.venue, apiKey, baseUrl: IN_PROCESS_BASE_URL, submitUrl: IN_PROCESS_SUBMIT_URL },
      store: { ...o.config.store, path: storeOf(0) },
    };
    const jitter = new Rng(o.seed).fork('daemon/jitter');
    // The ids' entropy is seeded too: they appear in the report's warnings.
    const idNoise = new Rng(o.seed).fork('daemon/client-order-id');
    const entropy = (): string => idNoise.int(0, 0xffffffff).toString(16).padStart(8, '0');
    const hedgeVenues = new SimHedgeVenues({
      clock,
      seed: o.seed,
      truePrice: (pair) => venue.engine.core.truth.lastReference(pair),
      settings: o.hedgeSim ?? HEDGE_SIM_DEFAULTS,
    });
    const built = new Daemon({
      config,
      clock,
      signer,
      logger: createLogger({ level: 'warn', destination: tallyDestination(tally), name: 'ledger-mm' }),
      // The venue's own reads are taken as it wrote them (no second validation of book, trades
      // and orders); the tests run the client's full decoding on the same answers.
      transport: venue.createTransport({ answers: 'typed' }),
      random: () => jitter.next(),
      reload: { load: { configFiles: [], env: {}, cwd: dir }, watch: false },
      tuning: { ...o.tuning, engine: { ...o.tuning?.engine, clientOrderIdEntropy: entropy } },
      ...(o.reconciler === undefined ? {} : { reconciler: o.reconciler }),
      ...(parties === undefined ? {} : { parties }),
      hedgeVenue: hedgeVenues.factory,
    });
    daemon = built;
    o.onDaemon?.(built);
    venue.startMarket();
    const start = fake.now;
    const end = start + o.durationMs;
    let cycles = 0;
    const slots = new Map<string, string>();
    const guards = new GuardEpisodes();
    const abandonedBy: Record<string, number> = {};
    built.subscribe((e) => {
      if (e.type === 'cycle') {
        cycles += 1;
        guards.observe(e.report.at, e.report.verdict);
      }
      if (e.type === 'prepare-abandoned') {
        const why = e.cause ?? e.reason;
        abandonedBy[why] = (abandonedBy[why] ?? 0) + 1;
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
    const step = o.stepMs ?? 60_000;
    // The figures read the party's placement calls and no events: the rest is dropped as the run
    // goes (the polls of a day are most of a run's memory otherwise).
    const mine = new Set(partyIds);
    const keepCall = (c: { partyId: string | null; endpoint: string }): boolean =>
      c.partyId !== null && mine.has(c.partyId) && PARTY_CALLS.has(c.endpoint as never);
    while (fake.now < end) {
      await fake.tickAsync(Math.min(step, end - fake.now));
      venue.engine.core.truth.compact({ events: false, keepCall });
      o.onProgress?.(fake.now - start, o.durationMs);
    }
    const truth = captureTruth({
      venue,
      partyIds,
      pairs: config.pairs,
      start,
      end,
      slots,
      cycles,
      guards: guards.episodes(end),
      abandonedBy,
      // A copy taken now: the teardown below (a stop without cancels) logs about orders it leaves
      // to the next start, which is not part of the run.
      log: { ...tally, messages: [...tally.messages] },
      latencyRanges: venue.latency.ranges,
    });
    const capture: SimCapture = { ...truth, hedgeTrades: hedgeVenues.trades() };
    await closeDaemon(fake, built);
    await started;
    return capture;
  } finally {
    if (daemon !== null && daemon.phase !== 'closed') await closeDaemon(fake, daemon);
    await venue.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Stops the daemon without cancelling (the figures are taken already), ticking fake time. */
async function closeDaemon(fake: FakeTimers.Clock, daemon: Daemon): Promise<void> {
  let closed = false;
  const closing = daemon.close({ cancelOrders: false, graceMs: 5_000 }).finally(() => (closed = true));
  // A stop already under way keeps its own bound (up to shutdown.graceMs).
  for (let i = 0; i < 2_000 && !closed; i++) await fake.tickAsync(500);
  await closing;
}
