/**
 * How many simulation runs go at once (`--jobs` of `simulate` and `tune`). Each run is one busy
 * event loop in a worker thread with a bounded heap, so a core and up to {@link RUN_MEMORY_MB}
 * each: two by default, which fill a 2-core machine and bound the memory of a many-seed
 * comparison wherever it runs; more on a larger machine, if asked. Runs are independent and
 * deterministic: how many run at once changes the wall time, never a figure. Without the
 * simulation modules, so a command line can state it.
 */

/** Runs at once unless told. */
export const DEFAULT_JOBS = 2;

/** The most runs at once `--jobs` accepts. */
export const MAX_JOBS = 64;

/**
 * Memory one day's run may take: its worker's heap bound (`workerLimits`, 151 MB for a two-pair day of
 * one party) and what lives outside the heap (code, buffers, the journal's SQLite). Longer runs
 * and more pairs and parties get a larger heap bound.
 */
export const RUN_MEMORY_MB = 512;

/** The `--jobs` lines of a command's help. */
export const JOBS_HELP = [
  `      --jobs N           Runs at once, 1 to ${MAX_JOBS} (default ${DEFAULT_JOBS}); each takes a core and up to`,
  `                         ${RUN_MEMORY_MB} MB. Changes the wall time, never a figure.`,
].join('\n');

/** `--jobs`: null when not given, the count, or undefined when it is not an integer in [1, {@link MAX_JOBS}]. */
export function parseJobs(text: string | undefined): number | null | undefined {
  if (text === undefined) return null;
  if (!/^\d{1,3}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 && n <= MAX_JOBS ? n : undefined;
}
