import { availableParallelism, totalmem } from 'node:os';

/**
 * How many simulation runs go at once (`--jobs` of `simulate` and `tune`). Each run is one busy
 * event loop in a worker thread with a bounded heap, so a core and {@link RUN_MEMORY_BYTES}
 * each. Runs are independent and deterministic: how many run at once changes the wall time,
 * never a figure. Without the simulation modules, so a command line can say its default.
 */

/**
 * Memory set aside for one run: its worker's heap bound (`WORKER_LIMITS`, 320 MB) and what lives
 * outside the heap (code, buffers, the journal's SQLite), with room for the main thread.
 */
export const RUN_MEMORY_BYTES = 512 * 1_048_576;

/** The most runs at once `--jobs` accepts. */
export const MAX_JOBS = 64;

/** Runs at once by default: one a core, as many as memory holds at {@link RUN_MEMORY_BYTES}, at least one. */
export function defaultConcurrency(cores = availableParallelism(), memoryBytes = totalmem()): number {
  return Math.max(1, Math.min(cores, Math.floor(memoryBytes / RUN_MEMORY_BYTES)));
}

/** `--jobs`: null when not given, the count, or undefined when it is not an integer in [1, {@link MAX_JOBS}]. */
export function parseJobs(text: string | undefined): number | null | undefined {
  if (text === undefined) return null;
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= MAX_JOBS ? n : undefined;
}
