/**
 * The execution layer's settings, resolved once: the placement pipeline's, the cancel pool's and
 * the unknown-order resolver's. {@link executionSettings} builds them from the config's
 * `execution` section and an optional tuning (the lab's quicker confirmation reads against a
 * fast simulator, a test's short window) over {@link DEFAULT_EXECUTION_SETTINGS}: every default
 * is here, and the config keys' defaults are the config table's own. The engine receives one
 * {@link ExecutionSettings} and hands each component its part; no component re-declares a
 * default.
 */
import { executionParamSpecs, type ExecutionConfig } from '../config/sections/execution.js';
import { backoff, type Backoff } from './backoff.js';

/**
 * What the pipeline does after a submission ends UNKNOWN, or after a 200 whose order has not
 * rested within `confirmWindowMs`:
 * - `proceed` (default): after one order read and a short pause (`unknownPauseMs`) the pipeline
 *   moves on to the other slots; the resolver keeps checking in the background, and the unknown
 *   order keeps its slot blocked and counts as exposure until it is resolved. A later prepare
 *   the venue refuses with LEDGER_COMMAND_REJECTED (its previous placement still awaits the
 *   ledger) is retried with exponential backoff for as long as an order of ours awaits it.
 * - `wait` (the old behaviour): the next prepare waits until the unknown order is resolved,
 *   bounded by its commit deadline (prepare + 5 min + margin), and a 200 is confirmed until then.
 */
export type AfterUnknownPolicy = 'wait' | 'proceed';

/** The placement pipeline's settings. All times are ms on the injected clock. */
export interface PlacementSettings {
  /** See {@link AfterUnknownPolicy}. Config `execution.afterUnknown`. */
  readonly afterUnknown: AfterUnknownPolicy;
  /** With `proceed`: how long a 200 is confirmed in the pipeline before the resolver takes it. */
  readonly confirmWindowMs: number;
  /** With `proceed`: the pause of the pipeline after it handed an order to the resolver. */
  readonly unknownPauseMs: number;
  /** Confirmation reads after a 200 (config `execution.confirmPollMs`: a fixed period). */
  readonly confirmBackoff: Backoff;
  /** Added to the 5-minute lifetime before "never committed" is concluded. */
  readonly deadlineMarginMs: number;
  /** A prepare older than this (from its send) is not submitted but re-prepared. */
  readonly submitAgeLimitMs: number;
  /** Re-prepares of one intent (410 or the local age limit). */
  readonly maxReprepares: number;
  /**
   * Re-tries of a prepare refused with LEDGER_COMMAND_REJECTED while no order of ours awaits the
   * ledger (a missing preapproval, say). While one does, the refusal is the venue's one-at-a-time
   * rule and the prepare is retried until it passes, the intent goes stale or the task times out.
   */
  readonly ledgerRejectRetries: number;
  /** Backoff between those. */
  readonly ledgerRejectBackoff: Backoff;
  /** Backoff before re-sending a submission answered 429. */
  readonly throttleBackoff: Backoff;
  /** Re-sends of one submission after 429. */
  readonly maxResubmits: number;
  /** Pause of the whole pipeline after RATE_LIMITED (the venue's window is a minute). */
  readonly rateLimitCooldownMs: number;
  /** Pause after MAX_OPEN_ORDERS. */
  readonly maxOpenOrdersCooldownMs: number;
  /** Longest wait in the queue. */
  readonly queueTimeoutMs: number;
  /** Bound on one placement from its start (never cuts an in-flight submission). */
  readonly taskTimeoutMs: number;
  /** Default drain deadline of `PlacementPipeline.close`. */
  readonly drainMs: number;
}

/** The cancel pool's settings. All times are ms on the injected clock. */
export interface CancelSettings {
  /** Cancels in flight at once (config `execution.cancelConcurrency`). */
  readonly concurrency: number;
  /** Attempts (prepare + submit + confirm) per cancel request. */
  readonly maxAttempts: number;
  /** Accepted cancels that never took effect before the order is STRANDED. */
  readonly strandAfter: number;
  /** Contract rotations followed within one request. */
  readonly maxRotations: number;
  /** Reads after a cancel submit. */
  readonly confirmBackoff: Backoff;
  /** How long a submitted cancel may take to read CANCELLED (config `execution.cancelConfirmWindowMs`). */
  readonly confirmWindowMs: number;
  /** Between failed attempts. */
  readonly retryBackoff: Backoff;
  /** Bound on one cancel request from its start. */
  readonly taskTimeoutMs: number;
  /** Default drain deadline of `CancelPool.close`: submitted cancels confirm within it. */
  readonly drainMs: number;
  /**
   * Cancel automatically when an order with a deferred cancel comes to rest (enters
   * CANCEL_REQUESTED from a pre-resting state).
   */
  readonly followDeferred: boolean;
}

/** The unknown-order resolver's settings. */
export interface ResolverSettings {
  /** Read cadence (it keeps checking, also past the deadline). */
  readonly backoff: Backoff;
  /** Added to the 5-minute lifetime before "never committed". */
  readonly marginMs: number;
}

/** Every setting of one engine's execution layer. */
export interface ExecutionSettings {
  readonly placement: PlacementSettings;
  readonly cancel: CancelSettings;
  readonly resolver: ResolverSettings;
}

/** Fields of `T` made optional, and its backoffs partial. */
export type Tuning<T> = { readonly [K in keyof T]?: T[K] extends Backoff ? Partial<Backoff> : T[K] };

/** A tuning over the config's settings, section by section (see the module doc). */
export interface ExecutionTuning {
  readonly placement?: Tuning<PlacementSettings>;
  readonly cancel?: Tuning<CancelSettings>;
  readonly resolver?: Tuning<ResolverSettings>;
}

/** Confirmation reads without `execution.confirmPollMs`: 2 s, ×1.5, capped at 8 s. */
export const DEFAULT_CONFIRM_BACKOFF: Backoff = { initialMs: 2_000, factor: 1.5, maxMs: 8_000 };
/** The safety margin added to the 5-minute lifetime before concluding "never committed". */
export const DEFAULT_DEADLINE_MARGIN_MS = 30_000;

/** The config keys' defaults: the config table's. */
const config = {
  afterUnknown: executionParamSpecs.afterUnknown.default,
  cancelConcurrency: executionParamSpecs.cancelConcurrency.default,
  placementConfirmWindowMs: executionParamSpecs.placementConfirmWindowMs.default,
  cancelConfirmWindowMs: executionParamSpecs.cancelConfirmWindowMs.default,
};

/**
 * The settings of an engine built without config and without tuning. Confirmation reads back off
 * (an engine built from config reads every `execution.confirmPollMs`).
 */
export const DEFAULT_EXECUTION_SETTINGS: ExecutionSettings = {
  placement: {
    afterUnknown: config.afterUnknown,
    confirmWindowMs: config.placementConfirmWindowMs,
    unknownPauseMs: 2_000,
    confirmBackoff: DEFAULT_CONFIRM_BACKOFF,
    deadlineMarginMs: DEFAULT_DEADLINE_MARGIN_MS,
    submitAgeLimitMs: 240_000,
    maxReprepares: 3,
    ledgerRejectRetries: 5,
    ledgerRejectBackoff: { initialMs: 2_000, factor: 2, maxMs: 16_000 },
    throttleBackoff: { initialMs: 2_000, factor: 2, maxMs: 20_000 },
    maxResubmits: 3,
    rateLimitCooldownMs: 60_000,
    maxOpenOrdersCooldownMs: 5_000,
    queueTimeoutMs: 120_000,
    taskTimeoutMs: 600_000,
    drainMs: 150_000,
  },
  cancel: {
    concurrency: config.cancelConcurrency,
    maxAttempts: 5,
    strandAfter: 3,
    maxRotations: 10,
    confirmBackoff: DEFAULT_CONFIRM_BACKOFF,
    confirmWindowMs: config.cancelConfirmWindowMs,
    retryBackoff: { initialMs: 2_000, factor: 2, maxMs: 30_000 },
    taskTimeoutMs: 1_200_000,
    drainMs: 150_000,
    followDeferred: true,
  },
  resolver: {
    backoff: { initialMs: 2_000, factor: 1.5, maxMs: 15_000 },
    marginMs: DEFAULT_DEADLINE_MARGIN_MS,
  },
};

/** `base` with `tuning` over it (a backoff field by field). */
function tuned<T extends object>(base: T, tuning: Tuning<T> | undefined): T {
  if (tuning === undefined) return base;
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [k, v] of Object.entries(tuning as Record<string, unknown>)) {
    if (v === undefined) continue;
    const was = out[k];
    out[k] = isBackoff(was) ? backoff(was, v as Partial<Backoff>) : v;
  }
  return out as T;
}

function isBackoff(v: unknown): v is Backoff {
  return typeof v === 'object' && v !== null && 'initialMs' in v && 'factor' in v && 'maxMs' in v;
}

/**
 * The settings in force: the config's `execution` keys (absent ones keep the defaults) over
 * {@link DEFAULT_EXECUTION_SETTINGS}, then `tuning` over them.
 */
export function executionSettings(
  execution: Partial<ExecutionConfig> = {},
  tuning: ExecutionTuning = {},
): ExecutionSettings {
  const d = DEFAULT_EXECUTION_SETTINGS;
  const poll = execution.confirmPollMs;
  const placement: PlacementSettings = {
    ...d.placement,
    ...(execution.afterUnknown === undefined ? {} : { afterUnknown: execution.afterUnknown }),
    ...(execution.placementConfirmWindowMs === undefined
      ? {}
      : { confirmWindowMs: execution.placementConfirmWindowMs }),
    ...(poll === undefined ? {} : { confirmBackoff: { initialMs: poll, factor: 1, maxMs: poll } }),
  };
  const cancel: CancelSettings = {
    ...d.cancel,
    ...(execution.cancelConcurrency === undefined ? {} : { concurrency: execution.cancelConcurrency }),
    ...(execution.cancelConfirmWindowMs === undefined
      ? {}
      : { confirmWindowMs: execution.cancelConfirmWindowMs }),
  };
  return {
    placement: tuned(placement, tuning.placement),
    cancel: tuned(cancel, tuning.cancel),
    resolver: tuned(d.resolver, tuning.resolver),
  };
}
