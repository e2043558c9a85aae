/**
 * What the daemon measures of its own execution, as the quoting models read it (plain numbers).
 * The execution layer's `PipelineTimer` (`src/execution/placement/pipeline-timer.ts`) produces it and the
 * strategy's models consume it; it sits here, below both, because the strategy may not import the
 * execution layer (`.dependency-cruiser.cjs`): a pure type shared by two layers lives in the
 * lowest one both may read.
 */

/**
 * What the daemon measures of its own execution, handed to the strategy as plain numbers: how long
 * a placement takes from the decision to a resting order, a cancel from the request to its end,
 * and when each side of each pair last filled. Null fields are not measured yet; a model then uses
 * its configured prior.
 */
export interface PipelineTiming {
  /** Recent time from queueing a placement to the order resting, ms (queue wait included). */
  readonly placementMs: number | null;
  /** Recent time from requesting a cancel to its end, ms. */
  readonly cancelMs: number | null;
  /** Placements waiting or running in the pipeline now. */
  readonly queued: number;
  /** When each side last filled, ms, keyed `<pair>:<side>`; absent: no fill seen. */
  readonly lastFillAt?: Readonly<Record<string, number>>;
}

/** No measurement yet: the models use their priors. */
export const UNMEASURED: PipelineTiming = { placementMs: null, cancelMs: null, queued: 0 };
