/**
 * Pipeline: the placement pipeline (one at a time) and the cancel pool (N at once), fed by the
 * execution event hub (`bind-events.ts`).
 *
 * The two queues are different mechanisms (a serial pipeline and a concurrent pool), so they
 * have their own metric names rather than a `queue` label.
 */
import type { Counter, Gauge, Histogram } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';

/** See the module doc. */
export interface PipelineMetrics {
  /** Venue stages (prepare, submit, confirm and their cancel twins). */
  readonly stageDuration: Histogram<'stage' | 'outcome'>;
  /** Local signing (sign, cancel_sign): CPU only, milliseconds. */
  readonly signDuration: Histogram<'stage' | 'outcome'>;
  readonly placementQueueDepth: Gauge;
  readonly placementQueueOldestAge: Gauge;
  readonly placementsInFlight: Gauge;
  readonly cancelQueueDepth: Gauge;
  readonly cancelQueueOldestAge: Gauge;
  readonly cancelsInFlight: Gauge;
  readonly placements: Counter<'pair' | 'side' | 'outcome'>;
  readonly cancels: Counter<'outcome'>;
  readonly preparesAbandoned: Counter<'reason' | 'cause'>;
  readonly echoRefused: Counter<'stage'>;
  readonly executionAlarms: Counter<'reason'>;
  readonly unknownOrders: Counter<'code'>;
  readonly unknownResolved: Counter<'outcome'>;
  readonly retries: Counter<'stage' | 'code'>;
}

/**
 * Buckets of the venue stages, seconds: the contract's typical figures (prepare 9–14 s, cancel
 * prepare 11–23 s, submit 18–20 s, ~32 s to confirmed OPEN), its ceilings (30 s prepare, ≥ 120 s
 * submit timeout), and a few sub-second buckets for fast refusals and the simulator.
 */
export const VENUE_STAGE_BUCKETS = [
  0.1, 0.25, 0.5, 1, 2, 5, 9, 12, 14, 18, 20, 25, 30, 45, 60, 90, 120, 180,
] as const;

/** Buckets of local signing, seconds (Ed25519 is well under a millisecond). */
export const SIGN_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1] as const;

/** Registers the pipeline metrics. */
export function createPipelineMetrics(f: MetricFactory): PipelineMetrics {
  return {
    stageDuration: f.histogram(
      'ledger_mm_stage_duration_seconds',
      'Duration of each venue stage of placements and cancels; outcome is ok or error.',
      ['stage', 'outcome'],
      VENUE_STAGE_BUCKETS,
    ),
    signDuration: f.histogram(
      'ledger_mm_sign_duration_seconds',
      'Duration of local Ed25519 signing of a prepared placement or cancel; outcome is ok or error.',
      ['stage', 'outcome'],
      SIGN_BUCKETS,
    ),
    placementQueueDepth: f.gauge(
      'ledger_mm_placement_queue_depth',
      'Placement intents waiting for the (serial) placement pipeline.',
      [],
      true,
    ),
    placementQueueOldestAge: f.gauge(
      'ledger_mm_placement_queue_oldest_age_seconds',
      'Age of the oldest placement intent still waiting; 0 when none waits.',
      [],
      true,
    ),
    placementsInFlight: f.gauge(
      'ledger_mm_placements_in_flight',
      'Placements the pipeline is working on (0 or 1).',
      [],
      true,
    ),
    cancelQueueDepth: f.gauge(
      'ledger_mm_cancel_queue_depth',
      'Cancels waiting for a slot in the concurrent cancel pool.',
      [],
      true,
    ),
    cancelQueueOldestAge: f.gauge(
      'ledger_mm_cancel_queue_oldest_age_seconds',
      'Age of the oldest cancel still waiting; 0 when none waits.',
      [],
      true,
    ),
    cancelsInFlight: f.gauge('ledger_mm_cancels_in_flight', 'Cancels the pool is running.', [], true),
    placements: f.counter(
      'ledger_mm_placements_total',
      'Placements finished, by outcome (placed, ended, never_committed, unresolved, refused, failed, ...).',
      ['pair', 'side', 'outcome'],
    ),
    cancels: f.counter(
      'ledger_mm_cancels_total',
      'Cancel requests finished, by outcome (cancelled, filled, ended, deferred, stranded, failed, ...).',
      ['outcome'],
    ),
    preparesAbandoned: f.counter(
      'ledger_mm_prepares_abandoned_total',
      "Prepared orders never submitted (they expire with no funds committed), by reason, and for not_wanted by the freshness check's cause (toxic, band, prepare_drift, size, age, no_quote, risk, cannot_place; none when not given).",
      ['reason', 'cause'],
    ),
    echoRefused: f.counter(
      'ledger_mm_echo_refused_total',
      'Prepared transactions refused unsigned because they differed from what was asked (tampering alarm).',
      ['stage'],
    ),
    executionAlarms: f.counter(
      'ledger_mm_execution_alarms_total',
      'Execution alarms that need a human or the risk gate, by reason.',
      ['reason'],
    ),
    unknownOrders: f.counter(
      'ledger_mm_unknown_orders_total',
      'Submissions whose outcome became unknown (timeout, 5xx), by error code.',
      ['code'],
    ),
    unknownResolved: f.counter(
      'ledger_mm_unknown_resolved_total',
      'Unknown orders resolved by reading them, by outcome (resting, terminal, never_committed).',
      ['outcome'],
    ),
    retries: f.counter(
      'ledger_mm_execution_retries_total',
      'Execution retries: stage prepare (incl. re-prepares), submit (resubmits) or cancel_prepare (cancel attempts), by code.',
      ['stage', 'code'],
    ),
  };
}
