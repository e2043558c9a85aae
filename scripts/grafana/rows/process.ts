import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Process';
export const PANELS = [
  {
    kind: 'stat',
    title: 'Up',
    description: 'Whether Prometheus can scrape the daemon (job ledger-mm).',
    unit: 'none',
    w: 6,
    h: 5,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    mappings: { 0: ['DOWN', 'red'], 1: ['UP', 'green'] },
    colorMode: 'background',
    targets: [['{{instance}}', 'up{job="ledger-mm", instance=~"$instance"}']],
  },
  {
    kind: 'stat',
    title: 'Uptime',
    description: 'Time since the daemon process started.',
    unit: 's',
    w: 6,
    h: 5,
    decimals: 0,
    thresholds: [
      ['orange', null],
      ['green', 300],
    ],
    colorMode: 'none',
    targets: [
      [
        '{{instance}}',
        'time() - process_start_time_seconds{instance=~"$instance"} and on (instance, job) ledger_mm_build_info',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Version',
    description: 'The running version and source commit (ledger_mm_build_info).',
    unit: 'none',
    w: 6,
    h: 5,
    levelOnly: 'a version and a commit',
    thresholds: [['green', null]],
    colorMode: 'none',
    textMode: 'name',
    targets: [['{{version}} ({{commit}})', 'ledger_mm_build_info{instance=~"$instance"}']],
  },
  {
    kind: 'stat',
    title: 'Metrics and config health',
    description:
      'Scrapes during which reading the daemon state failed, label values refused as "other", and config reloads by outcome, since the daemon started.',
    unit: 'short',
    w: 6,
    h: 5,
    decimals: 0,
    levelOnly: 'mixed counters (applied reloads are normal)',
    thresholds: [['green', null]],
    colorMode: 'none',
    targets: [
      ['collect errors', 'sum(ledger_mm_metrics_collect_errors_total{instance=~"$instance"})'],
      ['label overflow', 'sum(ledger_mm_metrics_label_overflow_total{instance=~"$instance"})'],
      ['reloads {{outcome}}', 'sum by (outcome) (ledger_mm_config_reloads_total{instance=~"$instance"})'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'CPU',
    description: 'CPU time used per second (1 = one core).',
    unit: 'percentunit',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 0.8],
    ],
    targets: [
      [
        '{{instance}}',
        'rate(process_cpu_seconds_total{instance=~"$instance"}[$__rate_interval]) and on (instance, job) ledger_mm_build_info',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Memory',
    description: 'Resident set size, V8 heap used and total, and memory held outside the heap.',
    unit: 'bytes',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 429496730],
      ['red', 536870912],
    ],
    targets: [
      [
        'RSS',
        'process_resident_memory_bytes{instance=~"$instance"} and on (instance, job) ledger_mm_build_info',
      ],
      [
        'heap used',
        'nodejs_heap_size_used_bytes{instance=~"$instance"} and on (instance, job) ledger_mm_build_info',
      ],
      [
        'heap total',
        'nodejs_heap_size_total_bytes{instance=~"$instance"} and on (instance, job) ledger_mm_build_info',
      ],
      [
        'external',
        'nodejs_external_memory_bytes{instance=~"$instance"} and on (instance, job) ledger_mm_build_info',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Event-loop lag',
    description:
      'Event-loop delay p99 over the monitoring window (what /healthz checks, failing above 1 s) and the largest delay in the window.',
    unit: 's',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 0.25],
      ['red', 1],
    ],
    targets: [
      ['p99', 'ledger_mm_event_loop_lag_seconds{instance=~"$instance"}'],
      ['max', 'ledger_mm_event_loop_lag_max_seconds{instance=~"$instance"}'],
    ],
  },
] as const satisfies readonly PanelSpec[];
