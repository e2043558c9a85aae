/**
 * What the pipeline measures of itself for the quoting models: an exponentially weighted mean of
 * the time from queueing a placement to its order resting (queue wait included: that is how
 * stale a quote is when it starts to rest), and of the time from requesting a cancel to the order
 * leaving the book. Statistics, so plain numbers. Outliers are capped at `maxSampleMs` so one
 * placement stuck behind an unknown order does not widen every quote for an hour.
 */
import type { PipelineTiming } from '../../core/pipeline-timing.js';

/** See the module doc. */
export class PipelineTimer {
  private placement: number | null = null;
  private cancel: number | null = null;

  /**
   * @param weight  the weight of a new sample in the mean (0 < weight ≤ 1)
   * @param maxSampleMs  samples are capped at this
   */
  constructor(
    private readonly weight = 0.2,
    private readonly maxSampleMs = 300_000,
  ) {
    if (!(weight > 0 && weight <= 1)) throw new RangeError(`weight must be in (0, 1], got ${weight}`);
  }

  /** A placement rested `ms` after it was queued. */
  placed(ms: number): void {
    this.placement = this.mix(this.placement, ms);
  }

  /** A cancel ended the order `ms` after it was requested. */
  cancelled(ms: number): void {
    this.cancel = this.mix(this.cancel, ms);
  }

  /** The current means (null until the first sample), with `queued` placements waiting now. */
  timing(queued: number): PipelineTiming {
    return { placementMs: this.placement, cancelMs: this.cancel, queued };
  }

  private mix(mean: number | null, sample: number): number | null {
    if (!Number.isFinite(sample) || sample < 0) return mean;
    const x = Math.min(sample, this.maxSampleMs);
    return mean === null ? x : mean + this.weight * (x - mean);
  }
}
