/**
 * The parent's side of a strategy worker: starts `strategy-runner.ts` (compiled) in a worker
 * thread with a heap bound set from the run's size, relays its progress and returns its result.
 * It imports nothing of the simulation, so the thread that starts the runs (the `simulate` and
 * `tune` commands) does not load the daemon and the simulated venue itself.
 */
import { Worker } from 'node:worker_threads';
import {
  WORKER_MARKER,
  type FromWorker,
  type RunStrategyOptions,
  type StrategyResult,
} from './strategy-protocol.js';

/** A worker's heap bounds, MB (V8's `resourceLimits`). */
export interface WorkerLimits {
  readonly maxOldGenerationSizeMb: number;
  readonly maxYoungGenerationSizeMb: number;
}

/** The smallest old generation a worker gets, MB. */
export const MIN_OLD_GENERATION_MB = 128;

/**
 * The heap a run's worker may grow to. Without a bound V8 lets garbage pile up to gigabytes
 * before collecting; with one, a run that needs more than it fails with ERR_WORKER_OUT_OF_MEMORY
 * rather than take the machine. A busy simulation never leaves V8 idle, so V8 never shrinks a
 * heap it has grown: the bound is about what the run's heap becomes. It is set from the run's size
 * (`docs/results/2026-11-29-simulation-memory.md`):
 *
 * - **Old generation:** 1.25 times the largest live heap the run is expected to need, and at least
 *   {@link MIN_OLD_GENERATION_MB}. Measured on two pairs (seed 1): about 37 MiB after the first
 *   simulated hour, then 1.0 MiB more an hour with one party and 1.6 MiB with four (the ground
 *   truth and the captured events grow with the run); the figures at the end hold the capture and
 *   their own working set besides, up to about 125 MiB in all for a day of one party. The
 *   estimate allows 48 MB, and 1 + 0.25 per party MB a simulated hour for each pair.
 * - **Young generation:** 16 MB: with the 32 MB of before, the process's peak RSS over a
 *   day was about 20 MB higher.
 *
 * Against 288 and 32 MB before, a day's peak RSS fell by about 45 MB and its CPU time rose by
 * 4-9 % (more frequent collections).
 */
export function workerLimits(hours: number, parties = 1, pairs = 2): WorkerLimits {
  const peakMb = 48 + Math.max(0, hours) * Math.max(1, pairs) * (1 + 0.25 * Math.max(1, parties));
  return {
    maxOldGenerationSizeMb: Math.max(MIN_OLD_GENERATION_MB, Math.ceil(1.25 * peakMb)),
    maxYoungGenerationSizeMb: 16,
  };
}

/** True when the strategy runner can be started as a worker (the modules are compiled JavaScript). */
export function canUseWorkers(): boolean {
  return import.meta.url.endsWith('.js');
}

/**
 * Runs one strategy in a worker thread, its heap bound set for `pairs` pairs (the scenario's);
 * progress arrives through `onProgress`; `signal` stops it.
 */
export function runStrategyInWorker(
  o: RunStrategyOptions,
  pairs: number,
  signal?: AbortSignal,
): Promise<StrategyResult> {
  return new Promise((resolve, reject) => {
    const { onProgress, ...data } = o;
    const limits = workerLimits(o.input.hours, o.input.parties, pairs);
    const worker = new Worker(new URL('./strategy-runner.js', import.meta.url), {
      workerData: { ...data, marker: WORKER_MARKER },
      resourceLimits: limits,
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
      reject(workerError(err, o.strategy, limits));
    });
    worker.on('exit', (code) => {
      // The signal is shared by every run of a simulation: leave no listener behind.
      signal?.removeEventListener('abort', stop);
      if (!settled) reject(new Error(`the ${o.strategy} simulation worker exited with code ${code}`));
    });
  });
}

/**
 * What a worker's `error` event is reported as: a run that outgrew its heap bound says so, with
 * the bound and where it is set; any other error as it came.
 */
export function workerError(err: Error, strategy: string, limits: WorkerLimits): Error {
  if ((err as NodeJS.ErrnoException).code !== 'ERR_WORKER_OUT_OF_MEMORY') return err;
  return new Error(
    `the ${strategy} simulation outgrew its heap bound (old generation ${limits.maxOldGenerationSizeMb} MB, ` +
      `young ${limits.maxYoungGenerationSizeMb} MB; workerLimits in src/lab/simulate/run/strategy-worker.ts): ` +
      'run fewer hours, pairs or parties at a time',
    { cause: err },
  );
}
