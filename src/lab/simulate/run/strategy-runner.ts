/**
 * One strategy of a simulation, from the command line's inputs to its figures: resolve the
 * scenario, run the daemon (as the strategy sets it up) against the simulated venue, and compute
 * the figures from the venue's ground truth. Plain data in and out, so it runs the same in the
 * main thread and in a worker.
 *
 * Strategies run in worker threads when they can, so the runs of `--compare` use every core (each
 * run is one busy event loop). The worker is this module itself, compiled: under a TypeScript
 * test runner (the module is a `.ts` file) there is no worker, and {@link canUseWorkers} says so.
 */
import { getHeapStatistics } from 'node:v8';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { simulatorDaemonTuning } from '../../rig/paper-tuning.js';
import { chartSeries, type ChartSeries } from '../render/chart-series.js';
import { runFigures, type RunFigures } from '../figures/figures.js';
import { loadScenario, type ScenarioInput } from './scenario.js';
import { runSimulation } from './sim-run.js';
import { strategySetup, type StrategyName } from './strategies.js';
import { venueLimit, type VenueLimit } from '../figures/venue-limit.js';

import { loadReplays } from '../../replay/load-replays.js';
/** What a strategy run returns. */
export interface StrategyResult {
  readonly figures: RunFigures;
  readonly limit: VenueLimit;
  /** The charts, when asked for (the daemon's run). */
  readonly series: ChartSeries | null;
  /** What the run cost the machine (never in report.json, which depends on nothing of it). */
  readonly cost: RunCost;
}

/** Wall time and memory of one run. */
export interface RunCost {
  readonly wallMs: number;
  /** Largest heap the run's thread held (V8's committed heap, sampled each simulated minute), MB. */
  readonly peakHeapMb: number;
}

/**
 * The heap a worker may grow to. A day's run keeps about 100 MB alive; without a limit V8 lets
 * garbage pile up to gigabytes before collecting. A run that needs more fails with
 * ERR_WORKER_OUT_OF_MEMORY rather than take the machine.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 288, maxYoungGenerationSizeMb: 32 } as const;

const heapMb = (): number => getHeapStatistics().total_heap_size / 1_048_576;

/** Options of {@link runStrategy}. */
export interface RunStrategyOptions {
  readonly input: ScenarioInput;
  readonly strategy: StrategyName;
  readonly withSeries: boolean;
  readonly onProgress?: (elapsedMs: number) => void;
}

/** Runs one strategy; see the module doc. */
export async function runStrategy(o: RunStrategyOptions): Promise<StrategyResult> {
  const started = performance.now();
  let peakHeapMb = heapMb();
  const replays =
    o.input.prices === undefined
      ? undefined
      : await loadReplays({
          prices: o.input.prices,
          cwd: o.input.cwd,
          durationMs: Math.round(o.input.hours * 3_600_000),
          ...(o.input.maxGapMs === undefined ? {} : { maxGapMs: o.input.maxGapMs }),
        });
  const scenario = loadScenario(o.input, replays);
  const setup = strategySetup(o.strategy, scenario.config);
  const capture = await runSimulation({
    config: setup.config,
    sim: scenario.sim,
    latency: scenario.latency,
    seed: scenario.seed,
    durationMs: scenario.durationMs,
    tuning: simulatorDaemonTuning(scenario.latency),
    ...(o.input.parties === undefined ? {} : { parties: o.input.parties }),
    ...(setup.reconciler === undefined ? {} : { reconciler: setup.reconciler }),
    onProgress: (elapsed: number) => {
      peakHeapMb = Math.max(peakHeapMb, heapMb());
      o.onProgress?.(elapsed);
    },
  });
  // Requotes are measured against the configured tolerance in every run, so runs compare.
  const tolerance = scenario.config.strategy.reconcile.priceToleranceBps;
  const { figures, detail } = runFigures(o.strategy, capture, tolerance);
  return {
    figures,
    limit: venueLimit(capture.latencyRanges, capture.partyIds.length),
    series: o.withSeries ? chartSeries(detail, capture.start, capture.end) : null,
    cost: { wallMs: performance.now() - started, peakHeapMb: Math.max(peakHeapMb, heapMb()) },
  };
}

/** Marks the worker data of a strategy worker (nothing else starts this module as a worker). */
const WORKER_MARKER = 'ledger-mm simulate strategy';

/** The messages a worker posts. */
type FromWorker =
  | { readonly type: 'progress'; readonly elapsedMs: number }
  | { readonly type: 'done'; readonly result: StrategyResult }
  | { readonly type: 'failed'; readonly message: string };

/** True when this module can be started as a worker (it is compiled JavaScript). */
export function canUseWorkers(): boolean {
  return import.meta.url.endsWith('.js');
}

/** Runs one strategy in a worker thread; progress arrives through `onProgress`; `signal` stops it. */
export function runStrategyInWorker(o: RunStrategyOptions, signal?: AbortSignal): Promise<StrategyResult> {
  return new Promise((resolve, reject) => {
    const { onProgress, ...data } = o;
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { ...data, marker: WORKER_MARKER },
      resourceLimits: WORKER_LIMITS,
    });
    // Another run failed: this one is not wanted any more.
    const stop = (): void => void worker.terminate();
    signal?.addEventListener('abort', stop, { once: true });
    let settled = false;
    worker.on('message', (m: FromWorker) => {
      if (m.type === 'progress') onProgress?.(m.elapsedMs);
      else if (m.type === 'done') {
        settled = true;
        resolve(m.result);
      } else {
        settled = true;
        reject(new Error(m.message));
      }
    });
    worker.on('error', (err) => {
      settled = true;
      reject(err);
    });
    worker.on('exit', (code) => {
      // The signal is shared by every run of a simulation: leave no listener behind.
      signal?.removeEventListener('abort', stop);
      if (!settled) reject(new Error(`the ${o.strategy} simulation worker exited with code ${code}`));
    });
  });
}

async function workerMain(): Promise<void> {
  const port = parentPort!;
  const { marker: _marker, ...data } = workerData as Omit<RunStrategyOptions, 'onProgress'> & {
    marker: string;
  };
  try {
    const result = await runStrategy({
      ...data,
      onProgress: (elapsedMs) => port.postMessage({ type: 'progress', elapsedMs } satisfies FromWorker),
    });
    port.postMessage({ type: 'done', result } satisfies FromWorker);
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    port.postMessage({ type: 'failed', message } satisfies FromWorker);
  }
}

if (
  !isMainThread &&
  parentPort !== null &&
  (workerData as { marker?: unknown } | null)?.marker === WORKER_MARKER
) {
  void workerMain();
}
