/**
 * The runs of a simulation (one seed's strategies, or every seed's), each in a worker thread of
 * its own with a bounded heap when the modules are compiled, at most {@link DEFAULT_JOBS} at
 * once unless told (see `concurrency.ts`). Under a TypeScript test runner (no worker) they run one
 * after another in this thread: only then does this thread load the runner and the simulation.
 */
import { DEFAULT_JOBS } from './concurrency.js';
import { Progress } from './progress.js';
import type { ScenarioInput } from './scenario.js';
import type { StrategyName } from './strategies.js';
import type { StrategyResult } from './strategy-protocol.js';
import { canUseWorkers, runStrategyInWorker } from './strategy-worker.js';
import { runPool } from './worker-pool.js';

/** One run: a strategy on a scenario (the seed is in the input). */
export interface RunJob {
  /** What the progress line calls it. */
  readonly label: string;
  readonly input: ScenarioInput;
  readonly strategy: StrategyName;
  /** Compute the charts (the daemon's run of each seed). */
  readonly withSeries: boolean;
}

/** Options of {@link runJobs}. */
export interface RunJobsOptions {
  /** Where progress goes (stderr), and whether it is a terminal. */
  readonly progress?: { readonly write: (text: string) => void; readonly tty: boolean };
  /** Run in worker threads when possible (default true). */
  readonly workers?: boolean;
  /** Runs at once (default {@link DEFAULT_JOBS}). */
  readonly concurrency?: number;
  /** Wall clock for the progress line (default `performance.now`). */
  readonly wallNow?: () => number;
  /** The scenario's number of pairs, which a run's heap bound grows with (default 2). */
  readonly pairs?: number;
  /** Called with each result as it arrives (the caller may write it out and drop its charts). */
  readonly onResult?: (job: RunJob, result: StrategyResult) => void;
}

/** Runs `jobs` (all of the same length); results in the order of the jobs. */
export async function runJobs(jobs: readonly RunJob[], o: RunJobsOptions): Promise<StrategyResult[]> {
  const first = jobs[0];
  if (first === undefined) return [];
  const wallNow = o.wallNow ?? (() => performance.now());
  const progress =
    o.progress === undefined
      ? null
      : new Progress({ ...o.progress, totalMs: first.input.hours * 3_600_000, wallNow });
  for (const j of jobs) progress?.add(j.label);
  const inWorkers = o.workers !== false && canUseWorkers();
  const concurrency = inWorkers ? (o.concurrency ?? DEFAULT_JOBS) : 1;
  try {
    return await runPool(jobs, concurrency, async (job, signal) => {
      const options = {
        input: job.input,
        strategy: job.strategy,
        withSeries: job.withSeries,
        onProgress: (elapsedMs: number) => progress?.update(job.label, elapsedMs),
      };
      const result = inWorkers
        ? await runStrategyInWorker(options, o.pairs ?? 2, signal)
        : await (await import('./strategy-runner.js')).runStrategy(options);
      o.onResult?.(job, result);
      return result;
    });
  } finally {
    progress?.done();
  }
}
