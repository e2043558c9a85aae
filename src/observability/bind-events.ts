/**
 * Execution events → metrics: stage latencies, queue figures, placement and cancel outcomes,
 * abandoned prepares, refused echoes, alarms, unknown orders and retries.
 *
 * The source can be the `ExecutionEventHub` or the `OrderEngine`: both have
 * `subscribe(listener)`. The engine's stream also carries the registry's order observations
 * (fills, rotations, …), which are counted too; events of any other type are ignored. Bind ONE
 * stream that carries each event once: binding the hub and an engine that forwards it, or the
 * engine and `bindRegistry` on its registry, would count twice.
 */
import {
  isExecutionEvent,
  type CancelOutcome,
  type ExecutionEvent,
  type PlacementOutcome,
} from '../execution/execution-events.js';
import {
  ORDER_OBSERVATION_TYPES,
  observeOrderObservation,
  type OrderObservationLike,
} from './bind-registry.js';
import type { Metrics } from './metrics/create-metrics.js';
import {
  OTHER,
  SIGN_STAGES,
  parseSlot,
  sideLabel,
  snake,
  stageLabel,
  type StageLabel,
} from './metrics/labels.js';
import { msToSeconds } from './metrics/metric-number.js';

/** Anything that delivers events by `type`: the `ExecutionEventHub`, the `OrderEngine`. */
export interface EventSource {
  subscribe(listener: (event: { readonly type: string }) => void): () => void;
}

/** Subscribes the metrics to `source`; returns the unsubscribe. */
export function bindExecutionEvents(metrics: Metrics, source: EventSource): () => void {
  return source.subscribe((event) => observeEvent(metrics, event));
}

/** Counts one event of any stream; unknown types are ignored. Never throws. */
export function observeEvent(metrics: Metrics, event: { readonly type: string }): void {
  try {
    if (isExecutionEvent(event)) observeExecutionEvent(metrics, event);
    else if (ORDER_OBSERVATION_TYPES.has(event.type)) {
      observeOrderObservation(metrics, event as OrderObservationLike);
    }
  } catch {
    // Metrics observe; a malformed event must not reach the emitter. Counted for visibility.
    metrics.control.collectErrors.inc();
  }
}

/** Which stage a retried operation belongs to (the `stage` label of retries). */
const RETRY_STAGE: Readonly<Record<Extract<ExecutionEvent, { type: 'retry' }>['operation'], StageLabel>> = {
  prepare: 'prepare',
  're-prepare': 'prepare',
  resubmit: 'submit',
  cancel: 'cancel_prepare',
};

/** Counts one execution event. */
export function observeExecutionEvent(metrics: Metrics, e: ExecutionEvent): void {
  const { pipeline: p, labels } = metrics;
  switch (e.type) {
    case 'stage': {
      const stage = stageLabel(e.stage);
      const histogram = SIGN_STAGES.includes(stage) ? p.signDuration : p.stageDuration;
      histogram.observe({ stage, outcome: e.ok ? 'ok' : 'error' }, msToSeconds(Math.max(0, e.ms)));
      return;
    }
    case 'queue':
      metrics.queues.record(e.queue, {
        depth: e.depth,
        inFlight: e.inFlight,
        oldestWaitMs: e.oldestWaitMs,
        at: e.at,
      });
      return;
    case 'placement':
      p.placements.inc(placementLabels(metrics, e.outcome));
      return;
    case 'cancel':
      p.cancels.inc({ outcome: cancelOutcomeLabel(e.outcome) });
      return;
    case 'prepare-abandoned':
      p.preparesAbandoned.inc({
        reason: labels.reason.value(snake(e.reason)),
        cause: labels.reason.value(snake(e.cause ?? 'none')),
      });
      return;
    case 'echo-refused':
      p.echoRefused.inc({ stage: e.operation === 'cancel' ? 'cancel_prepare' : 'prepare' });
      return;
    case 'alarm':
      p.executionAlarms.inc({ reason: labels.reason.value(snake(e.reason)) });
      return;
    case 'unknown':
      p.unknownOrders.inc({ code: codeLabel(metrics, e.code) });
      return;
    case 'unknown-resolved':
      p.unknownResolved.inc({ outcome: snake(e.resolution) });
      return;
    case 'retry':
      p.retries.inc({ stage: RETRY_STAGE[e.operation], code: codeLabel(metrics, e.code) });
      return;
    case 'backoff':
      return;
  }
}

/** An error code as a label: upper snake case, guarded. */
export function codeLabel(metrics: Metrics, code: string): string {
  return metrics.labels.code.value(code.toUpperCase().replace(/[^A-Z0-9]+/g, '_'));
}

function placementLabels(
  metrics: Metrics,
  o: PlacementOutcome,
): { pair: string; side: string; outcome: string } {
  const slot = parseSlot(o.slot);
  return {
    pair: slot === null ? OTHER : metrics.labels.pair.value(slot.pair),
    side: slot === null ? OTHER : sideLabel(slot.side),
    outcome: snake(o.kind),
  };
}

function cancelOutcomeLabel(o: CancelOutcome): string {
  return snake(o.kind);
}
