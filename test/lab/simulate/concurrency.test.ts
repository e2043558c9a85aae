import { describe, expect, it } from 'vitest';
import { MAX_JOBS, parseJobs } from '../../../src/lab/simulate/run/concurrency.js';

describe('--jobs', () => {
  it.each([
    [undefined, null],
    ['1', 1],
    ['3', 3],
    [String(MAX_JOBS), MAX_JOBS],
    ['0', undefined],
    [String(MAX_JOBS + 1), undefined],
    ['2.5', undefined],
    ['-1', undefined],
    ['', undefined],
    ['two', undefined],
  ])('%o → %o', (text, jobs) => {
    expect(parseJobs(text)).toBe(jobs);
  });
});
