/**
 * Observability: Prometheus metrics (one dedicated registry) and the health/status HTTP server.
 * Metrics observe; they never decide. The daemon exposes its state read-only
 * ({@link DaemonStateView}) and forwards its events; this module maps both to prom-client.
 */
export { createMetrics, type CreateMetricsOptions, type Metrics } from './create-metrics.js';
export { bindExecutionEvents, observeEvent, observeExecutionEvent, type EventSource } from './bind-events.js';
export {
  bindRegistry,
  observeOrderObservation,
  observeTransition,
  type OrderObservationLike,
  type TransitionSource,
} from './bind-registry.js';
export { bindVenueClientHooks, type VenueClientHooks } from './venue-hooks.js';
export { registerStateCollector, type StateCollector } from './state-collector.js';
export { observeConfigReload, observeRiskDenials } from './control-events.js';
export {
  pollerViewsFromSources,
  type BalanceAmounts,
  type DaemonStateView,
  type FillView,
  type LiveQuoteView,
  type PairStateView,
  type PipelineStepView,
  type PollerView,
  type QueueView,
} from './state-view.js';
export { assessReadiness, type Readiness, type ReadinessOptions } from './readiness.js';
export { registerReadinessGauge } from './readiness-gauge.js';
export { ACCOUNT_STATUSES, accountStatusLabel, type AccountStatusLabel } from './control-metrics.js';
export { buildStatusReport, type StatusReport, type StatusReportOptions } from './status-report.js';
export {
  ObservabilityServer,
  type MetricsEndpoint,
  type ObservabilityServerOptions,
  type Provider,
} from './http-server.js';
export { EventLoopMonitor, type EventLoopMonitorOptions } from './event-loop-monitor.js';
export { buildInfo, type BuildInfo } from './build-info.js';
export { toMetricNumber } from './metric-number.js';
