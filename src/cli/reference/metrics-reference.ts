/**
 * `docs/reference/metrics.md`: every metric of the daemon and of the watchdog, read from their
 * registries as `createMetrics` and `createWatchdogMetrics` build them (Node's default process
 * metrics left out). Building a registry starts no server and reads no clock but the one passed.
 */
import type { Registry } from 'prom-client';

import { createMetrics } from '../../observability/metrics/create-metrics.js';
import { createWatchdogMetrics } from '../../watchdog/watchdog-metrics.js';
import { banner, cell, code, table } from './markdown.js';

/** One metric as the reference lists it. */
export interface MetricEntry {
  readonly name: string;
  readonly type: string;
  readonly labels: readonly string[];
  readonly help: string;
}

/** The metrics of `registry` whose names start with `prefix`, sorted by name. */
export function metricEntries(registry: Registry, prefix: string): MetricEntry[] {
  return registry
    .getMetricsAsArray()
    .filter((m) => m.name.startsWith(prefix))
    .map((m) => {
      const raw = m as unknown as { type?: unknown; labelNames?: readonly string[] };
      return {
        name: m.name,
        type: typeof raw.type === 'string' ? raw.type : String(m.type),
        labels: [...(raw.labelNames ?? [])],
        help: m.help,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function metricTable(entries: readonly MetricEntry[]): string {
  return table(
    ['metric', 'type', 'labels', 'help'],
    entries.map((e) => [code(e.name), e.type, e.labels.join(', '), cell(e.help)]),
  );
}

/** The daemon's metrics (prefix `ledger_mm_`), the watchdog's left to their own section. */
export function daemonMetricEntries(): MetricEntry[] {
  const metrics = createMetrics({
    defaultMetrics: false,
    now: () => 0,
    build: { version: '-', commit: '-' },
  });
  try {
    return metricEntries(metrics.registry, 'ledger_mm_').filter(
      (e) => !e.name.startsWith('ledger_mm_watchdog_'),
    );
  } finally {
    metrics.close();
  }
}

/** The watchdog's metrics (prefix `ledger_mm_watchdog_`). */
export function watchdogMetricEntries(): MetricEntry[] {
  const metrics = createWatchdogMetrics({ heartbeatAgeSeconds: () => 0 });
  try {
    return metricEntries(metrics.registry, 'ledger_mm_watchdog_');
  } finally {
    metrics.close();
  }
}

/** The whole page. */
export function metricsReference(): string {
  const daemon = daemonMetricEntries();
  const watchdog = watchdogMetricEntries();
  return [
    banner('Metrics reference', 'the metric registries (`src/observability/`, `src/watchdog/`)'),
    "Both processes also export Node's default `process_*` and `nodejs_*` metrics. Metrics observe;",
    'they never decide. Where a new metric goes: [../development.md](../development.md#where-things-go).',
    '',
    `## daemon`,
    '',
    `Served on \`/metrics\` of \`metrics.host:metrics.port\` (${daemon.length} metrics).`,
    '',
    metricTable(daemon),
    '',
    `## watchdog`,
    '',
    `Served on \`/metrics\` of \`watchdog.metrics.host:watchdog.metrics.port\` (${watchdog.length} metrics).`,
    '',
    metricTable(watchdog),
    '',
  ].join('\n');
}
