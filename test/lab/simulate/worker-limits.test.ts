import { describe, expect, it } from 'vitest';
import {
  MIN_OLD_GENERATION_MB,
  workerError,
  workerLimits,
} from '../../../src/lab/simulate/run/strategy-worker.js';

describe('workerLimits: 1.25 times the peak live heap a run is expected to need, at least the floor', () => {
  it.each([
    // hours, parties, old generation MB, two pairs: 1.25 × (48 + hours × 2 × (1 + 0.25 × parties)), floor 128.
    [3, 1, MIN_OLD_GENERATION_MB], // 1.25 × 55.5
    [24, 1, 135], // 1.25 × 108
    [24, 4, 180], // 1.25 × (48 + 96)
    [48, 1, 210], // 1.25 × (48 + 120)
    [168, 1, 585], // a week: 1.25 × (48 + 420)
    [168, 4, 900], // 1.25 × (48 + 672)
    [24, 0, 135], // fewer than one party counts as one
    [-5, 1, MIN_OLD_GENERATION_MB],
  ])('%d h, %d parties → %d MB', (hours, parties, old) => {
    expect(workerLimits(hours, parties)).toEqual({
      maxOldGenerationSizeMb: old,
      maxYoungGenerationSizeMb: 16,
    });
  });

  it.each([
    // hours, parties, pairs, old generation MB: 1.25 × (48 + hours × pairs × (1 + 0.25 × parties)).
    [24, 1, 4, 210], // 1.25 × (48 + 120)
    [24, 4, 4, 300], // 1.25 × (48 + 192)
    [24, 1, 1, MIN_OLD_GENERATION_MB], // 1.25 × 78
    [24, 1, 0, MIN_OLD_GENERATION_MB], // fewer than one pair counts as one
    [168, 1, 4, 1110], // 1.25 × (48 + 840)
  ])('%d h, %d parties, %d pairs → %d MB', (hours, parties, pairs, old) => {
    expect(workerLimits(hours, parties, pairs).maxOldGenerationSizeMb).toBe(old);
  });

  it('one party and two pairs are the defaults', () => {
    expect(workerLimits(24, 1)).toEqual(workerLimits(24, 1, 2));
    expect(workerLimits(72)).toEqual(workerLimits(72, 1));
    expect(workerLimits(72).maxOldGenerationSizeMb).toBe(285); // 1.25 × (48 + 180)
  });
});

describe('workerError', () => {
  const limits = workerLimits(24);

  it('says that a run outgrew its heap bound, with the bound and where it is set', () => {
    const oom = Object.assign(new Error('Worker terminated due to reaching memory limit'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    const err = workerError(oom, 'daemon', limits);
    expect(err.message).toBe(
      'the daemon simulation outgrew its heap bound (old generation 135 MB, young 16 MB; workerLimits in ' +
        'src/lab/simulate/run/strategy-worker.ts): run fewer hours, pairs or parties at a time',
    );
    expect(err.cause).toBe(oom);
  });

  it('passes any other error on as it came', () => {
    const other = Object.assign(new Error('boom'), { code: 'ERR_SOMETHING_ELSE' });
    expect(workerError(other, 'daemon', limits)).toBe(other);
    const plain = new Error('plain');
    expect(workerError(plain, 'daemon', limits)).toBe(plain);
  });
});
