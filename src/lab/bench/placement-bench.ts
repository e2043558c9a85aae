/**
 * Local CPU per placement and per cancel: the whole execution layer (the OrderEngine with its
 * SQLite journal, registry, pipeline, cancel pool and resolver) against the simulated venue at
 * INSTANT latency, in-process on a fake clock, so nothing waits and every µs is work.
 *
 * Placements go in batches of `batch` intents on distinct slots (the pipeline runs them one at a
 * time: prepare → echo check → freshness → sign → submit → confirm), then the batch is cancelled
 * through the pool (prepare → echo check → sign → submit → confirm, `cancelConcurrency` at once).
 * CPU (`process.cpuUsage`, user + system, every thread of the process) and wall time are summed
 * per phase. The simulated venue's own share (its handler and its commit timers, timed with the
 * high-resolution clock) is taken out for the local figure. The first `warmupBatches` are not
 * counted (JIT).
 *
 * Two passes over fresh venues and journals: the headline figures come from a pass with nothing
 * but the venue's meter; a second pass meters every journal write and signature (two
 * `process.cpuUsage` calls each, which would otherwise add tens of µs to the local figure) to
 * say where the local time goes.
 */
import { executionSettings } from '../../execution/execution-settings.js';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { dec } from '../../core/decimal.js';
import type { CancelOutcome, PlacementOutcome } from '../../execution/execution-events.js';
import { OrderEngine } from '../../execution/order-engine.js';
import type { PlacementIntent } from '../../execution/placement/placement-intent.js';
import { openJournal } from '../../orders/journal/index.js';
import type { TrackedOrder } from '../../orders/fsm/index.js';
import { signerFromSeed } from '../../signing/ed25519-signer.js';
import type { Signer } from '../../signing/signer.js';
import { simulatorTuning } from '../rig/paper-tuning.js';
import { VenueClient } from '../../venue/client.js';
import { benchRig, type BenchRig } from './in-process.js';
import { signerKeys } from '../rig/rig-keys.js';
import { SimConfigSchema } from '../../sim/sim-config.js';
import { SectionMeter } from './measure.js';
import { capturingTransport, measureVerify, type VerifyFigures } from './verify-bench.js';

/** Options of {@link runPlacementBench}. */
export interface PlacementBenchOptions {
  /** Placements (and as many cancels) counted. Default 2000. */
  readonly placements?: number;
  /** Intents queued at once before their cancels. Default 10. */
  readonly batch?: number;
  /** Batches run before counting (the JIT settles over the first few hundred orders). Default 30. */
  readonly warmupBatches?: number;
  /** Where the journal goes (default a temp directory on the real disk, as in production). */
  readonly journalDir?: string;
  /** Run only the headline pass (no breakdown): for tests. Default false. */
  readonly headlineOnly?: boolean;
}

/** Figures of one kind of operation, per operation. */
export interface OpFigures {
  readonly count: number;
  /** CPU of the whole process (daemon and in-process venue), µs. */
  readonly cpuUs: number;
  /** The kernel's part of `cpuUs` (the journal's writes and fsyncs, mostly), µs. */
  readonly sysUs: number;
  /** The simulated venue's share, µs. */
  readonly venueUs: number;
  /** `cpuUs − venueUs`: what the daemon itself spends, µs. */
  readonly localUs: number;
  /** Wall time (includes the journal's fsync waits), µs. */
  readonly wallUs: number;
  /** Operations per second of wall time. */
  readonly perSecond: number;
  /** Journal writes (from the breakdown pass), their CPU and their wall time, µs. */
  readonly journalWrites: number;
  /** Journal commits (one fsync each; relaxed writes wait for the next one). */
  readonly journalCommits: number;
  readonly journalCpuUs: number;
  readonly journalWallUs: number;
  /** Signing (Ed25519), µs (from the breakdown pass). */
  readonly signUs: number;
  /** Local µs over the first and the last quarter of the run (does it grow with the run?). */
  readonly firstQuarterLocalUs: number;
  readonly lastQuarterLocalUs: number;
  /** Operations that did not end as expected (placed / cancelled). */
  readonly failures: number;
}

/** What {@link runPlacementBench} reports. */
export interface PlacementBenchResult {
  readonly placements: OpFigures;
  readonly cancels: OpFigures;
  /** Venue calls per placement + cancel (prepares, submits, confirmation reads). */
  readonly venueCallsPerRoundTrip: number;
  /** Orders the registry held at the end (terminal ones stay for the eviction retention). */
  readonly registrySize: number;
  /** Fake time the run took, s. */
  readonly simulatedSeconds: number;
  /** Where the journal was written (the temp directory's parent by default). */
  readonly journalDir: string;
  /**
   * Clear signing's share of the local CPU: the prepared transaction's decode, V2 hash and checks,
   * re-run one at a time on prepare responses captured in the headline pass.
   */
  readonly verify: VerifyFigures;
}

/** One phase of one batch. */
interface Phase {
  ops: number;
  cpuUs: number;
  sysUs: number;
  wallUs: number;
  venueUs: number;
  journalCpuUs: number;
  journalWallUs: number;
  journalWrites: number;
  journalCommits: number;
  signUs: number;
}

interface Meters {
  readonly bench: BenchRig;
  readonly journal: SectionMeter;
  readonly sign: SectionMeter;
  readonly commits: () => number;
}

/** What one pass measured. */
interface Pass {
  readonly places: Phase[];
  readonly cancels: Phase[];
  readonly placeFailures: number;
  readonly cancelFailures: number;
  readonly venueCallsPerRoundTrip: number;
  readonly registrySize: number;
  readonly simulatedSeconds: number;
  readonly verify: VerifyFigures | null;
}

/** Prepare responses kept per kind for the clear-signing figures. */
const VERIFY_SAMPLES = 200;

/** Runs the benchmark; see the module doc. */
export async function runPlacementBench(o: PlacementBenchOptions = {}): Promise<PlacementBenchResult> {
  const headline = await runPass(o, false);
  const breakdown = o.headlineOnly === true ? null : await runPass(o, true);
  return {
    placements: figures(headline.places, breakdown?.places ?? null, headline.placeFailures),
    cancels: figures(headline.cancels, breakdown?.cancels ?? null, headline.cancelFailures),
    venueCallsPerRoundTrip: headline.venueCallsPerRoundTrip,
    registrySize: headline.registrySize,
    simulatedSeconds: headline.simulatedSeconds,
    journalDir: o.journalDir ?? path.dirname(headline.journalTempDir),
    verify: headline.verify!,
  };
}

/** One pass on a fresh venue and journal; `instrument` meters the journal and the signer. */
async function runPass(
  o: PlacementBenchOptions,
  instrument: boolean,
): Promise<Pass & { journalTempDir: string }> {
  const total = o.placements ?? 2000;
  const batch = o.batch ?? 10;
  const warmup = o.warmupBatches ?? 30;
  const key = signerFromSeed(randomBytes(32), 'raw');
  const bench = await benchRig({
    sim: SimConfigSchema.parse({
      seed: 11,
      latency: { profile: 'instant' },
      pairs: [{ pair: 'BTC/USDC', base: 'BTC', quote: 'USDC', minQuoteAmount: '10', feeSymbol: 'USDC' }],
      accounts: [
        {
          name: 'Bench Market Maker',
          slug: 'benchmm',
          balances: { USDC: '1000000000', BTC: '100000' },
          maxOpenOrders: 100_000,
          ordersPerMinute: null,
        },
      ],
      bookProjectionLagMs: 0,
      market: { enabled: false },
    }),
    latency: 'instant',
    keys: signerKeys([key]),
  });
  const { rig, time } = bench;
  const { venue, clock } = rig;
  const { apiKey, partyId } = rig.primary;
  const settle = <T>(x: Promise<T>): Promise<T> => time.settle(x);
  const journalMeter = new SectionMeter();
  const signMeter = new SectionMeter();
  const signer: Signer = instrument
    ? {
        publicKey: key.publicKey,
        publicKeyRaw: key.publicKeyRaw,
        fingerprint: key.fingerprint,
        sign: (hash) => signMeter.run(() => key.sign(hash)),
      }
    : key;
  const journalDir = o.journalDir ?? rig.dir;
  const journalPath = path.join(journalDir, `bench-journal-${process.pid}-${Date.now()}.sqlite`);
  const journal = openJournal<TrackedOrder>({ path: journalPath, clock });
  if (instrument) {
    const recordIntent = journal.recordIntent.bind(journal);
    const recordTransition = journal.recordTransition.bind(journal);
    journal.recordIntent = (order) => journalMeter.run(() => recordIntent(order));
    journal.recordTransition = (...args) => journalMeter.run(() => recordTransition(...args));
  }
  const meters: Meters = {
    bench,
    journal: journalMeter,
    sign: signMeter,
    commits: () => journal.stats().commits,
  };
  const capture = instrument ? null : capturingTransport(venue.createTransport(), VERIFY_SAMPLES);
  const engine = new OrderEngine({
    venue: new VenueClient({
      baseUrl: rig.urls.baseUrl,
      submitUrl: rig.urls.submitUrl,
      apiKey,
      transport: capture?.transport ?? venue.createTransport(),
      clock,
      random: () => 0.5,
    }),
    signer,
    partyId,
    clientOrderIdPrefix: 'benchmm-',
    clock,
    journal,
    // The orders poll is measured on its own (poll-bench); here it stays out of the way.
    ordersPoll: { intervalMs: 3_600_000 },
    // `ledger-mm paper --latency instant`'s confirmation pacing: the first read after 100 ms.
    settings: executionSettings({}, simulatorTuning('instant').execution),
  });
  const startedAt = time.now;
  try {
    await settle(engine.start());
    const places: Phase[] = [];
    const cancels: Phase[] = [];
    let placeFailures = 0;
    let cancelFailures = 0;
    let callsBefore = 0;
    const batches = warmup + Math.ceil(total / batch);
    let seq = 0;
    for (let b = 0; b < batches; b++) {
      if (b === warmup) callsBefore = venue.truth.calls().length;
      const intents: PlacementIntent[] = [];
      for (let i = 0; i < batch; i++) {
        seq += 1;
        const buy = seq % 2 === 0;
        intents.push({
          slot: `bench:${i}`,
          pair: 'BTC/USDC',
          side: buy ? 'BUY' : 'SELL',
          // An empty book, bids far below asks: every order rests.
          price: dec(String(buy ? 50_000 - (seq % 100) : 70_000 + (seq % 100))),
          quantity: dec('0.001'),
        });
      }
      const placed = await phase(meters, intents.length, () =>
        settle(Promise.all(intents.map((x) => engine.place(x)))),
      );
      const keys = placed.value.map((p: PlacementOutcome) => (p.kind === 'placed' ? p.key : null));
      const cancelled = await phase(meters, keys.length, () =>
        settle(
          Promise.all(
            keys.map((k) =>
              k === null
                ? Promise.resolve<CancelOutcome | null>(null)
                : engine.cancel(k, { reason: 'bench' }),
            ),
          ),
        ),
      );
      if (b < warmup) continue;
      places.push(placed.phase);
      cancels.push(cancelled.phase);
      placeFailures += placed.value.filter((p) => p.kind !== 'placed').length;
      cancelFailures += cancelled.value.filter((c) => c?.kind !== 'cancelled').length;
    }
    const counted = places.reduce((n, p) => n + p.ops, 0);
    return {
      places,
      cancels,
      placeFailures,
      cancelFailures,
      venueCallsPerRoundTrip: (venue.truth.calls().length - callsBefore) / Math.max(1, counted),
      registrySize: engine.orders.size,
      simulatedSeconds: (time.now - startedAt) / 1000,
      journalTempDir: rig.dir,
      verify: capture === null ? null : await measureVerify(capture.captured, partyId),
    };
  } finally {
    await settle(engine.close({ drainMs: 1_000 })).catch(() => undefined);
    for (const suffix of ['', '-wal', '-shm', '-journal', '.lock'])
      fs.rmSync(`${journalPath}${suffix}`, { force: true });
    await rig.close();
  }
}

/** Runs one phase of a batch under every meter. */
async function phase<T>(m: Meters, ops: number, fn: () => Promise<T>): Promise<{ value: T; phase: Phase }> {
  const venue0 = m.bench.meter.totalUs;
  const journal0 = m.journal.snapshot();
  const sign0 = m.sign.snapshot();
  const commits0 = m.commits();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wallUs = (performance.now() - t0) * 1000;
  const c = process.cpuUsage(c0);
  const journal = m.journal.snapshot();
  return {
    value,
    phase: {
      ops,
      cpuUs: c.user + c.system,
      sysUs: c.system,
      wallUs,
      venueUs: m.bench.meter.totalUs - venue0,
      journalCpuUs: journal.cpuUs - journal0.cpuUs,
      journalWallUs: journal.wallUs - journal0.wallUs,
      journalWrites: journal.calls - journal0.calls,
      journalCommits: m.commits() - commits0,
      signUs: m.sign.snapshot().cpuUs - sign0.cpuUs,
    },
  };
}

function sum(phases: readonly Phase[]): Phase {
  const out: Phase = {
    ops: 0,
    cpuUs: 0,
    sysUs: 0,
    wallUs: 0,
    venueUs: 0,
    journalCpuUs: 0,
    journalWallUs: 0,
    journalWrites: 0,
    journalCommits: 0,
    signUs: 0,
  };
  for (const p of phases) for (const k of Object.keys(out) as (keyof Phase)[]) out[k] += p[k];
  return out;
}

/** Headline figures from the uninstrumented pass, the breakdown from the instrumented one. */
function figures(phases: readonly Phase[], breakdown: readonly Phase[] | null, failures: number): OpFigures {
  const all = sum(phases);
  const n = Math.max(1, all.ops);
  const parts = breakdown === null ? null : sum(breakdown);
  const per = (x: number): number => (parts === null ? 0 : x / Math.max(1, parts.ops));
  const q = Math.max(1, Math.floor(phases.length / 4));
  const local = (ps: readonly Phase[]): number => {
    const s = sum(ps);
    return (s.cpuUs - s.venueUs) / Math.max(1, s.ops);
  };
  return {
    count: all.ops,
    cpuUs: all.cpuUs / n,
    sysUs: all.sysUs / n,
    venueUs: all.venueUs / n,
    localUs: (all.cpuUs - all.venueUs) / n,
    wallUs: all.wallUs / n,
    perSecond: all.ops / (all.wallUs / 1e6),
    journalWrites: per(parts?.journalWrites ?? 0),
    journalCommits: all.journalCommits / n,
    journalCpuUs: per(parts?.journalCpuUs ?? 0),
    journalWallUs: per(parts?.journalWallUs ?? 0),
    signUs: per(parts?.signUs ?? 0),
    firstQuarterLocalUs: local(phases.slice(0, q)),
    lastQuarterLocalUs: local(phases.slice(-q)),
    failures,
  };
}
