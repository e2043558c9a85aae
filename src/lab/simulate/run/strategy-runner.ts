/**
 * One strategy of a simulation, from the command line's inputs to its figures: resolve the
 * scenario, run the daemon (as the strategy sets it up) against the simulated venue, and compute
 * the figures from the venue's ground truth. Plain data in and out, so it runs the same in the
 * main thread and in a worker.
 *
 * Strategies run in worker threads when they can, so the runs of `--compare` use every core (each
 * run is one busy event loop). The worker is this module itself, compiled, started by
 * `strategy-worker.ts`: under a TypeScript test runner (the module is a `.ts` file) there is no
 * worker, and `canUseWorkers` says so.
 */
import { getHeapStatistics } from 'node:v8';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { simulatorDaemonTuning } from '../../rig/paper-tuning.js';
import { chartSeries } from '../render/chart-series.js';
import { runFigures } from '../figures/figures.js';
import { loadScenario } from './scenario.js';
import { runSimulation } from './sim-run.js';
import { strategySetup } from './strategies.js';
import { venueLimit } from '../figures/venue-limit.js';
import {
  WORKER_MARKER,
  type FromWorker,
  type RunStrategyOptions,
  type StrategyResult,
} from './strategy-protocol.js';
import { loadReplays } from '../../replay/load-replays.js';

const heapMb = (): number => getHeapStatistics().total_heap_size / 1_048_576;

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
