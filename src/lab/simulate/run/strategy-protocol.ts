/**
 * What one strategy run of a simulation takes and gives, and the messages its worker thread
 * posts: plain data, shared by the runner (`strategy-runner.ts`, which runs in the worker) and
 * the parent's side (`strategy-worker.ts`), which loads nothing of the simulation.
 */
import type { ChartSeries } from '../render/chart-series.js';
import type { RunFigures } from '../figures/figures.js';
import type { VenueLimit } from '../figures/venue-limit.js';
import type { ScenarioInput } from './scenario.js';
import type { StrategyName } from './strategies.js';

/** What a strategy run takes (`runStrategy`). */
export interface RunStrategyOptions {
  readonly input: ScenarioInput;
  readonly strategy: StrategyName;
  readonly withSeries: boolean;
  readonly onProgress?: (elapsedMs: number) => void;
}

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
  /** Largest heap the run's thread held (V8's committed heap, sampled each simulated minute), MiB. */
  readonly peakHeapMb: number;
}

/** Marks the worker data of a strategy worker (nothing else starts the runner as a worker). */
export const WORKER_MARKER = 'ledger-mm simulate strategy';

/** The messages a worker posts. */
export type FromWorker =
  | { readonly type: 'progress'; readonly elapsedMs: number }
  | { readonly type: 'done'; readonly result: StrategyResult }
  | { readonly type: 'failed'; readonly message: string };
