import { describe, expect, it } from 'vitest';

import { PipelineTimer } from '../../../src/execution/placement/pipeline-timer.js';

describe('PipelineTimer', () => {
  it('is unmeasured until the first sample, then an exponentially weighted mean', () => {
    const t = new PipelineTimer(0.5);
    expect(t.timing(3)).toEqual({ placementMs: null, cancelMs: null, queued: 3 });
    t.placed(40_000);
    t.placed(60_000);
    t.cancelled(30_000);
    expect(t.timing(0)).toEqual({ placementMs: 50_000, cancelMs: 30_000, queued: 0 });
  });

  it('caps outliers and ignores nonsense', () => {
    const t = new PipelineTimer(1, 100_000);
    t.placed(900_000);
    expect(t.timing(0).placementMs).toBe(100_000);
    t.placed(Number.NaN);
    t.placed(-5);
    expect(t.timing(0).placementMs).toBe(100_000);
  });

  it('refuses a weight outside (0, 1]', () => {
    expect(() => new PipelineTimer(0)).toThrow(RangeError);
    expect(() => new PipelineTimer(1.5)).toThrow(RangeError);
  });
});
