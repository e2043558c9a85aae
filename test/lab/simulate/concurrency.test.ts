import { describe, expect, it } from 'vitest';
import {
  defaultConcurrency,
  MAX_JOBS,
  parseJobs,
  RUN_MEMORY_BYTES,
} from '../../../src/lab/simulate/concurrency.js';

const GiB = 1_073_741_824;

describe('runs at once by default: a core each, as many as memory holds', () => {
  it.each([
    [2, 24 * GiB, 2],
    [16, 24 * GiB, 16],
    [16, 4 * GiB, 8],
    [8, RUN_MEMORY_BYTES * 3 + 1, 3],
    [4, RUN_MEMORY_BYTES - 1, 1],
    [1, 64 * GiB, 1],
  ])('%i cores, %i bytes → %i', (cores, memory, jobs) => {
    expect(defaultConcurrency(cores, memory)).toBe(jobs);
  });
});

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
