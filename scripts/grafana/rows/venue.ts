import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Venue health';
export const PANELS = [
  {
    kind: 'timeseries',
    title: 'Venue errors per minute by code',
    description:
      'Failed venue requests by error.code (CLIENT_* for client-side failures: timeouts, network, protocol).',
    unit: 'opm',
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
    ],
    stack: true,
    targets: [
      [
        '{{code}}',
        'sum by (code) (rate(ledger_mm_venue_errors_total{instance=~"$instance"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Venue error ratio',
    description:
      'Failed / sent venue requests. The LedgerMmVenueErrorRate alert fires above 5% for 10 minutes.',
    unit: 'percentunit',
    showThresholds: true,
    w: 12,
    min: 0,
    thresholds: [
      ['transparent', null],
      ['red', 0.05],
    ],
    targets: [
      [
        'errors / requests',
        '(sum(rate(ledger_mm_venue_errors_total{instance=~"$instance"}[$__rate_interval])) or vector(0)) / sum(rate(ledger_mm_venue_requests_total{instance=~"$instance"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Requests per second by endpoint',
    description: 'Venue HTTP requests sent, by endpoint.',
    unit: 'reqps',
    w: 8,
    min: 0,
    levelOnly: 'a request rate; errors and 429s have their own panels',
    thresholds: [['green', null]],
    targets: [
      [
        '{{endpoint}}',
        'sum by (endpoint) (rate(ledger_mm_venue_requests_total{instance=~"$instance"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Request latency p95 by endpoint',
    description: '95th percentile of venue HTTP request durations, over 5-minute windows.',
    unit: 's',
    showThresholds: true,
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 5],
      ['red', 30],
    ],
    targets: [
      [
        '{{endpoint}}',
        'histogram_quantile(0.95, sum by (le, endpoint) (rate(ledger_mm_venue_request_duration_seconds_bucket{instance=~"$instance"}[5m])))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Client retries per minute',
    description: 'Requests the venue client retried after a backoff, by endpoint and the code retried.',
    unit: 'opm',
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
    ],
    targets: [
      [
        '{{endpoint}} {{code}}',
        'sum by (endpoint, code) (rate(ledger_mm_venue_retries_total{instance=~"$instance"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Rate-limit headroom',
    description:
      'Client-side placement budget left (token bucket tokens / capacity). 0: placements wait for the budget.',
    unit: 'percentunit',
    showThresholds: true,
    w: 8,
    min: 0,
    max: 1,
    thresholds: [
      ['red', null],
      ['orange', 0.1],
      ['green', 0.25],
    ],
    targets: [['headroom', 'min by (instance) (ledger_mm_rate_limit_headroom_ratio{instance=~"$instance"})']],
  },
  {
    kind: 'timeseries',
    title: '429 RATE_LIMITED per minute',
    description: 'Requests the venue answered 429 RATE_LIMITED, by endpoint.',
    unit: 'opm',
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    targets: [
      [
        '{{endpoint}}',
        'sum by (endpoint) (rate(ledger_mm_venue_rate_limited_total{instance=~"$instance"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Venue limit (last 429)',
    description:
      'Requests per window the venue allows, as its last 429 RATE_LIMITED said (0 until one arrives).',
    unit: 'short',
    w: 8,
    decimals: 0,
    levelOnly: "the venue's own figure",
    thresholds: [['green', null]],
    colorMode: 'none',
    targets: [
      ['{{instance}}', 'max by (instance) (ledger_mm_venue_rate_limit_requests{instance=~"$instance"})'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Poll freshness',
    description:
      'Seconds since the last successful run of each poller (book and trades per pair; orders, balances, account, pairs). The risk gate treats a book older than risk.staleBookMs (5 s) as stale; LedgerMmBookStale fires over 30 s.',
    unit: 's',
    showThresholds: true,
    w: 12,
    min: 0,
    thresholds: [
      ['transparent', null],
      ['red', 30],
    ],
    targets: [
      [
        '{{poller}} {{pair}}',
        'time() - (ledger_mm_poller_last_success_timestamp_seconds{instance=~"$instance", pair=~"$pair|"} > 0)',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Poller consecutive failures',
    description: 'Failed runs of each poller since its last success.',
    unit: 'short',
    w: 12,
    decimals: 0,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
      ['red', 5],
    ],
    targets: [
      [
        '{{poller}} {{pair}}',
        'max by (poller, pair) (ledger_mm_poller_consecutive_failures{instance=~"$instance", pair=~"$pair|"})',
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
