import { describe, expect, it } from 'vitest';
import { MAX_SEEDS, parseSeedList } from '../../../src/lab/simulate/run/seed-list.js';
import { runPool } from '../../../src/lab/simulate/run/worker-pool.js';

describe('--seeds lists', () => {
  it.each([
    ['1-8', [1, 2, 3, 4, 5, 6, 7, 8]],
    ['1,3,5', [1, 3, 5]],
    ['1-3,9', [1, 2, 3, 9]],
    ['5,1-2,2', [5, 1, 2]],
    [' 7 ', [7]],
  ])('%s → %o', (spec, seeds) => {
    expect(parseSeedList(spec)).toEqual(seeds);
  });

  it.each([['3-1'], ['a'], ['1,,2'], ['1-'], ['-1'], [`1-${MAX_SEEDS + 1}`], ['1.5']])(
    '%s is refused',
    (spec) => {
      expect(parseSeedList(spec)).toHaveProperty('error');
    },
  );
});

describe('runPool', () => {
  it('runs at most `concurrency` jobs at once and keeps the order of the results', async () => {
    let running = 0;
    let most = 0;
    const results = await runPool([30, 10, 20, 5, 1], 2, async (ms) => {
      running += 1;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, ms));
      running -= 1;
      return ms * 2;
    });
    expect(results).toEqual([60, 20, 40, 10, 2]);
    expect(most).toBe(2);
  });

  it('aborts the running jobs, starts no more, and throws the first failure', async () => {
    const started: number[] = [];
    const aborted: number[] = [];
    const run = runPool([1, 2, 3, 4], 2, (n, signal) => {
      started.push(n);
      if (n === 2) return Promise.reject(new Error('two failed'));
      return new Promise<number>((resolve) => {
        signal.addEventListener('abort', () => {
          aborted.push(n);
          resolve(n);
        });
      });
    });
    await expect(run).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2]);
    expect(aborted).toEqual([1]);
  });
});
