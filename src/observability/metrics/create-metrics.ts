/** Options of {@link createMetrics}. */

import { Registry, collectDefaultMetrics } from 'prom-client';
import type { ExecutionAlarmReason } from '../../execution/execution-events.js';
import { ORDER_STATES } from '../../orders/fsm/index.js';
import { buildInfo, type BuildInfo } from '../http/build-info.js';
import { ACCOUNT_STATUSES, createControlMetrics, type ControlMetrics } from './control-metrics.js';
import { EventLoopMonitor } from '../http/event-loop-monitor.js';
import { createLabelGuards, snake, type LabelBounds, type MetricLabels } from './labels.js';
import { MetricFactory } from './metric-factory.js';
import { createMarkoutMetrics, type MarkoutMetrics } from './markout-metrics.js';
import { createMoneyMetrics, type MoneyMetrics } from './money-metrics.js';
import { createOrderMetrics, type OrderMetrics } from './order-metrics.js';
import { createPipelineMetrics, type PipelineMetrics } from './pipeline-metrics.js';
import { QueueState } from '../queue-state.js';
import { createQuotingMetrics, type QuotingMetrics } from './quoting-metrics.js';
import { ScrapeHooks } from '../scrape-hooks.js';
import { createPartyMetrics, type PartyMetrics } from '../party-metrics.js';
import { createReferenceMetrics, type ReferenceMetrics } from '../reference-metrics.js';
import { createHedgeMetrics, type HedgeMetrics } from '../hedge-metrics.js';
import { createVenueMetrics, type VenueMetrics } from './venue-metrics.js';
export interface CreateMetricsOptions extends LabelBounds {
  /** The time ages are measured against, ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Node's default process metrics (CPU, memory, GC, handles, event loop). Default true. They keep
   * their conventional names (`process_cpu_seconds_total`, `nodejs_heap_size_used_bytes`, …) so
   * standard dashboards and alerts work; `defaultMetricsPrefix` renames them if wanted. Three of
   * prom-client's are left out: `nodejs_active_{handles,requests,resources}_total`, gauges named
   * like counters (`promtool check metrics` flags them); their per-type twins without `_total`
   * (`nodejs_active_handles{type}`, …) carry the same figures, `sum()` of them is the total.
   */
  readonly defaultMetrics?: boolean;
  /** Prefix of the default process metrics. Default `''`. */
  readonly defaultMetricsPrefix?: string;
  /** Overrides of the build info (tests); default from package.json and `LEDGER_MM_COMMIT`. */
  readonly build?: Partial<BuildInfo>;
  /** A monitor to share; default a new one (window `eventLoopWindowMs`), closed by `close()`. */
  readonly eventLoop?: EventLoopMonitor;
  /** Window of the event-loop monitor created here, ms. Default 10 000. */
  readonly eventLoopWindowMs?: number;
}

/**
 * Every metric of the daemon on one dedicated registry, as typed handles. Binders
 * (`bindExecutionEvents`, `bindRegistry`, `bindVenueClientHooks`, `registerStateCollector`)
 * feed it; the HTTP server exposes {@link Metrics.scrape}.
 */
export interface Metrics {
  /** The dedicated registry (never prom-client's global one). */
  readonly registry: Registry;
  /** The exposition content type. */
  readonly contentType: string;
  readonly quoting: QuotingMetrics;
  readonly pipeline: PipelineMetrics;
  readonly orders: OrderMetrics;
  readonly venue: VenueMetrics;
  readonly money: MoneyMetrics;
  /** Fill markouts against the ownless book mid, and the tracker measuring them. */
  readonly markouts: MarkoutMetrics;
  readonly control: ControlMetrics;
  /** The "exchanges" reference's sources (`reference-metrics.ts`); no series unless a pair uses it. */
  readonly reference: ReferenceMetrics;
  /** The firm's parties (`party-metrics.ts`); no series with one party. */
  readonly parties: PartyMetrics;
  /** Hedging (`hedge-metrics.ts`); no series unless a pair is hedged. */
  readonly hedge: HedgeMetrics;
  /** The label-value guards (bounded cardinality). */
  readonly labels: MetricLabels;
  /** The last execution-queue figures. */
  readonly queues: QueueState;
  /** The scrape-time refreshers of state-derived series. */
  readonly hooks: ScrapeHooks;
  readonly eventLoop: EventLoopMonitor;
  readonly build: BuildInfo;
  readonly now: () => number;
  /** The text exposition (what `/metrics` serves). */
  scrape(): Promise<string>;
  /** Stops the event-loop monitor if it was created here. Idempotent. */
  close(): void;
}

/** prom-client's default gauges whose names end in `_total` (left out, see `defaultMetrics`). */
const MISNAMED_DEFAULT_GAUGES = [
  'nodejs_active_handles_total',
  'nodejs_active_requests_total',
  'nodejs_active_resources_total',
] as const;

/** The `stage` values of `ledger_mm_echo_refused_total` (a refused placement or cancel prepare). */
const ECHO_STAGES = ['prepare', 'cancel_prepare'] as const;

/** Every execution alarm reason (a record, so the compiler flags a reason added or removed). */
const EXECUTION_ALARM_REASONS = Object.keys({
  'echo-mismatch': true,
  stranded: true,
  'unknown-unresolved': true,
  'internal-error': true,
  'api-key-refused': true,
} satisfies Record<ExecutionAlarmReason, true>) as ExecutionAlarmReason[];

/** Creates the registry and every metric. Every metric is listed in docs/reference/metrics.md (generated: `npm run docs`). */
export function createMetrics(opts: CreateMetricsOptions = {}): Metrics {
  const registry = new Registry();
  const now = opts.now ?? Date.now;
  let control: ControlMetrics | null = null;
  const hooks = new ScrapeHooks(() => control?.collectErrors.inc());
  const f = new MetricFactory(registry, hooks);

  const quoting = createQuotingMetrics(f);
  const pipeline = createPipelineMetrics(f);
  const orders = createOrderMetrics(f);
  const venue = createVenueMetrics(f);
  const money = createMoneyMetrics(f);
  const markouts = createMarkoutMetrics(f, now);
  const reference = createReferenceMetrics(f);
  const parties = createPartyMetrics(f);
  const hedge = createHedgeMetrics(f);
  control = createControlMetrics(f);
  const ctl = control;
  const labels = createLabelGuards(opts, () => ctl.labelOverflow.inc());

  if (opts.defaultMetrics ?? true) {
    const prefix = opts.defaultMetricsPrefix ?? '';
    collectDefaultMetrics({ register: registry, prefix });
    for (const name of MISNAMED_DEFAULT_GAUGES) registry.removeSingleMetric(prefix + name);
  }

  const build = buildInfo(opts.build);
  control.buildInfo.set({ version: build.version, commit: build.commit }, 1);

  // Series that must exist from the first scrape. The counters alerts read with increase() are
  // among them: a series born at 1 has no earlier sample, so increase() would miss its first event.
  for (const state of ORDER_STATES) orders.ordersByState.set({ state }, 0);
  for (const outcome of ['applied', 'rejected']) control.configReloads.inc({ outcome }, 0);
  for (const stage of ECHO_STAGES) pipeline.echoRefused.inc({ stage }, 0);
  for (const reason of EXECUTION_ALARM_REASONS) {
    pipeline.executionAlarms.inc({ reason: labels.reason.value(snake(reason)) }, 0);
  }
  // Not ready, account not read, until the daemon's state says otherwise.
  control.ready.set(0);
  for (const status of ACCOUNT_STATUSES) control.accountStatus.set({ status }, status === 'unknown' ? 1 : 0);

  const ownMonitor = opts.eventLoop === undefined;
  const eventLoop =
    opts.eventLoop ??
    new EventLoopMonitor(opts.eventLoopWindowMs === undefined ? {} : { windowMs: opts.eventLoopWindowMs });
  hooks.add(() => {
    ctl.eventLoopLag.set(eventLoop.lagSeconds());
    ctl.eventLoopLagMax.set(eventLoop.window().max);
  });

  const queues = new QueueState(pipeline, now);
  hooks.add(() => queues.refresh());

  let closed = false;
  return {
    registry,
    contentType: registry.contentType,
    quoting,
    pipeline,
    orders,
    venue,
    money,
    markouts,
    control,
    reference,
    parties,
    hedge,
    labels,
    queues,
    hooks,
    eventLoop,
    build,
    now,
    scrape: () => registry.metrics(),
    close: () => {
      if (closed) return;
      closed = true;
      if (ownMonitor) eventLoop.close();
    },
  };
}
