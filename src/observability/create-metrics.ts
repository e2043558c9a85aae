import { Registry, collectDefaultMetrics } from 'prom-client';

import { ORDER_STATES } from '../orders/order-state-machine.js';
import { buildInfo, type BuildInfo } from './build-info.js';
import { createControlMetrics, type ControlMetrics } from './control-metrics.js';
import { EventLoopMonitor } from './event-loop-monitor.js';
import { createLabelGuards, type LabelBounds, type MetricLabels } from './labels.js';
import { MetricFactory } from './metric-factory.js';
import { createMoneyMetrics, type MoneyMetrics } from './money-metrics.js';
import { createOrderMetrics, type OrderMetrics } from './order-metrics.js';
import { createPipelineMetrics, type PipelineMetrics } from './pipeline-metrics.js';
import { QueueState } from './queue-state.js';
import { createQuotingMetrics, type QuotingMetrics } from './quoting-metrics.js';
import { ScrapeHooks } from './scrape-hooks.js';
import { createVenueMetrics, type VenueMetrics } from './venue-metrics.js';

/** Options of {@link createMetrics}. */
export interface CreateMetricsOptions extends LabelBounds {
  /** The time ages are measured against, ms since the epoch. Default `Date.now`. */
  readonly now?: () => number;
  /**
   * Node's default process metrics (CPU, memory, GC, handles, event loop). Default true. They keep
   * their conventional names (`process_cpu_seconds_total`, `nodejs_heap_size_used_bytes`, …) so
   * standard dashboards and alerts work; `defaultMetricsPrefix` renames them if wanted.
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
  readonly control: ControlMetrics;
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

/** Creates the registry and every metric. See the README's metric list. */
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
  control = createControlMetrics(f);
  const ctl = control;
  const labels = createLabelGuards(opts, () => ctl.labelOverflow.inc());

  if (opts.defaultMetrics ?? true) {
    collectDefaultMetrics({ register: registry, prefix: opts.defaultMetricsPrefix ?? '' });
  }

  const build = buildInfo(opts.build);
  control.buildInfo.set({ version: build.version, commit: build.commit }, 1);

  // Series that must exist from the first scrape.
  for (const state of ORDER_STATES) orders.ordersByState.set({ state }, 0);
  for (const outcome of ['applied', 'rejected']) control.configReloads.inc({ outcome }, 0);

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
    control,
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
