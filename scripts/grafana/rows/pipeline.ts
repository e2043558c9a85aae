import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Pipeline';
export const PANELS = [
  {
    kind: 'timeseries',
    title: 'Stage latency p50',
    description:
      'Median duration of each venue stage (prepare, submit, confirm and the cancel twins), over 5-minute windows: placements are seconds to minutes apart. Contract figures: prepare 9-14 s, submit 18-20 s, about 32 s from submit to OPEN.',
    unit: 's',
    showThresholds: true,
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 30],
      ['red', 120],
    ],
    targets: [
      [
        '{{stage}}',
        'histogram_quantile(0.5, sum by (le, stage) (rate(ledger_mm_stage_duration_seconds_bucket{instance=~"$instance"}[5m])))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Stage latency p95',
    description: '95th percentile duration of each venue stage, over 5-minute windows.',
    unit: 's',
    showThresholds: true,
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 30],
      ['red', 120],
    ],
    targets: [
      [
        '{{stage}}',
        'histogram_quantile(0.95, sum by (le, stage) (rate(ledger_mm_stage_duration_seconds_bucket{instance=~"$instance"}[5m])))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Queue depth',
    description:
      'Placement intents waiting for the serial placement pipeline, cancels waiting for the concurrent cancel pool, and what each is working on.',
    unit: 'short',
    w: 8,
    decimals: 0,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 10],
    ],
    targets: [
      ['placements waiting', 'sum by (instance) (ledger_mm_placement_queue_depth{instance=~"$instance"})'],
      ['placements in flight', 'sum by (instance) (ledger_mm_placements_in_flight{instance=~"$instance"})'],
      ['cancels waiting', 'sum by (instance) (ledger_mm_cancel_queue_depth{instance=~"$instance"})'],
      ['cancels in flight', 'sum by (instance) (ledger_mm_cancels_in_flight{instance=~"$instance"})'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Oldest queued item age',
    description:
      'Age of the oldest placement and cancel still waiting (0 when none waits). A placement waits while the one in flight takes its 45 s or so.',
    unit: 's',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 90],
      ['red', 300],
    ],
    targets: [
      [
        'placement',
        'max by (instance) (ledger_mm_placement_queue_oldest_age_seconds{instance=~"$instance"})',
      ],
      ['cancel', 'max by (instance) (ledger_mm_cancel_queue_oldest_age_seconds{instance=~"$instance"})'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Signing latency p95',
    description: 'Local Ed25519 signing of prepared placements and cancels (CPU only).',
    unit: 's',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 0.1],
    ],
    targets: [
      [
        '{{stage}}',
        'histogram_quantile(0.95, sum by (le, stage) (rate(ledger_mm_sign_duration_seconds_bucket{instance=~"$instance"}[5m])))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Placement outcomes per minute',
    description:
      'Placements finished, by outcome: placed, ended, never_committed, unresolved, refused, failed, ...',
    unit: 'opm',
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 30],
    ],
    stack: true,
    targets: [
      [
        '{{outcome}}',
        'sum by (outcome) (rate(ledger_mm_placements_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Cancel outcomes per minute',
    description:
      'Cancel requests finished, by outcome: cancelled, filled, ended, deferred, stranded, failed, ...',
    unit: 'opm',
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 60],
    ],
    stack: true,
    targets: [
      [
        '{{outcome}}',
        'sum by (outcome) (rate(ledger_mm_cancels_total{instance=~"$instance"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Stage errors per minute',
    description: 'Venue stages that ended in an error, by stage.',
    unit: 'opm',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
    ],
    stack: true,
    targets: [
      [
        '{{stage}}',
        'sum by (stage) (rate(ledger_mm_stage_duration_seconds_count{instance=~"$instance", outcome="error"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Unknown submissions and resolutions',
    description:
      'Submissions whose outcome became unknown (timeout, 5xx), by code, and how the resolver settled them by reading the order (resting, terminal, never_committed).',
    unit: 'short',
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    targets: [
      [
        'unknown {{code}}',
        'sum by (code) (increase(ledger_mm_unknown_orders_total{instance=~"$instance"}[$__rate_interval]))',
      ],
      [
        'resolved {{outcome}}',
        'sum by (outcome) (increase(ledger_mm_unknown_resolved_total{instance=~"$instance"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Retries and abandoned prepares',
    description:
      'Execution retries (re-prepares, resubmits after reading, cancel attempts) by stage and code, and prepared orders never submitted (they expire with nothing committed).',
    unit: 'short',
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
    ],
    targets: [
      [
        'retry {{stage}} {{code}}',
        'sum by (stage, code) (increase(ledger_mm_execution_retries_total{instance=~"$instance"}[$__rate_interval]))',
      ],
      [
        'abandoned {{reason}} {{cause}}',
        'sum by (reason, cause) (increase(ledger_mm_prepares_abandoned_total{instance=~"$instance"}[$__rate_interval]))',
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
