import { describe, expect, it } from 'vitest';
import {
  MIN_OLD_GENERATION_MB,
  workerError,
  workerLimits,
} from '../../../src/lab/simulate/run/strategy-worker.js';

describe('workerLimits: 1.25 times the peak live heap a run is expected to need, at least the floor', () => {
  it.each([
    // hours, parties, old generation MB: 1.25 × (48 + hours × (2 + 0.5 × parties)), floor 128.
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

  it('one party is the default', () => {
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
        'src/lab/simulate/run/strategy-worker.ts): run fewer hours or parties at a time',
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
