/**
 * Runs jobs at most `concurrency` at a time, in order of the list, and returns their results in
 * the same order. The first failure aborts the signal every running job was given (their results
 * are of no use without it), waits for them to settle, and is thrown.
 */
export async function runPool<J, R>(
  jobs: readonly J[],
  concurrency: number,
  run: (job: J, signal: AbortSignal) => Promise<R>,
): Promise<R[]> {
  if (!(Number.isInteger(concurrency) && concurrency > 0)) throw new RangeError('concurrency must be ≥ 1');
  const stop = new AbortController();
  const results: R[] = new Array<R>(jobs.length);
  let next = 0;
  let failure: { err: unknown } | null = null;
  const lane = async (): Promise<void> => {
    while (failure === null && next < jobs.length) {
      const i = next++;
      try {
        results[i] = await run(jobs[i]!, stop.signal);
      } catch (err) {
        failure ??= { err };
        stop.abort();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, jobs.length) }, lane));
  if (failure !== null) throw (failure as { err: unknown }).err;
  return results;
}
