import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Orders and fills';
export const PANELS = [
  {
    kind: 'timeseries',
    title: 'Orders by state',
    description:
      'Tracked orders by local state, terminal states excluded. UNKNOWN: submission outcome not known yet; STRANDED: a cancel that cannot complete (funds withdrawn).',
    unit: 'short',
    w: 12,
    decimals: 0,
    min: 0,
    levelOnly: 'a count by state; UNKNOWN and STRANDED have their own panel',
    thresholds: [['green', null]],
    stack: true,
    targets: [
      [
        '{{state}}',
        'sum by (state) (ledger_mm_orders{instance=~"$instance", state!~"FILLED|CANCELLED|EXPIRED|REJECTED|ABANDONED"}) > 0',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'UNKNOWN and STRANDED orders',
    description:
      'Orders whose submission outcome is unknown, and orders whose cancel cannot complete. Both should be 0; see the LedgerMmUnknownOrders and LedgerMmStrandedOrders runbooks.',
    unit: 'short',
    w: 6,
    decimals: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    colorMode: 'background',
    targets: [
      ['UNKNOWN', 'sum(ledger_mm_orders{instance=~"$instance", state="UNKNOWN"})'],
      ['STRANDED', 'sum(ledger_mm_orders{instance=~"$instance", state="STRANDED"})'],
    ],
  },
  {
    kind: 'stat',
    title: 'Foreign orders',
    description:
      'Active orders of the party this daemon did not place (per pair), and how many were adopted since the daemon started. Should be 0: see the LedgerMmForeignOrders runbook.',
    unit: 'short',
    w: 6,
    decimals: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    colorMode: 'background',
    targets: [
      ['{{pair}}', 'sum by (pair) (ledger_mm_foreign_orders{instance=~"$instance", pair=~"$pair"})'],
      ['adopted since start', 'sum(ledger_mm_foreign_orders_adopted_total{instance=~"$instance"})'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Fills per minute',
    description: 'Fills of our orders, by pair and side.',
    unit: 'opm',
    w: 8,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 10],
    ],
    stack: true,
    targets: [
      [
        '{{pair}} {{side}}',
        'sum by (pair, side) (rate(ledger_mm_fills_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Filled volume (base)',
    description: 'Filled quantity per interval, in the base instrument of each pair.',
    unit: 'short',
    w: 8,
    min: 0,
    levelOnly: 'a volume',
    thresholds: [['green', null]],
    targets: [
      [
        '{{pair}} {{side}}',
        'sum by (pair, side) (increase(ledger_mm_filled_base_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Filled notional (quote)',
    description:
      'Filled notional (limit price x quantity) per interval, in the quote instrument of each pair.',
    unit: 'short',
    w: 8,
    min: 0,
    levelOnly: 'a volume',
    thresholds: [['green', null]],
    targets: [
      [
        '{{pair}} {{side}}',
        'sum by (pair, side) (increase(ledger_mm_filled_quote_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Volume over the time range (quote)',
    description: 'Filled notional over the selected time range, per pair, in its quote instrument.',
    unit: 'short',
    w: 8,
    decimals: 2,
    levelOnly: 'a volume',
    thresholds: [['green', null]],
    colorMode: 'none',
    targets: [
      [
        '{{pair}}',
        'sum by (pair) (increase(ledger_mm_filled_quote_total{instance=~"$instance", pair=~"$pair"}[$__range]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Contract rotations and residual expiries',
    description:
      'contractId rotations (a partial fill re-creates the residual under a new contract) and residuals the venue expired (below the pair minimum notional after a fill).',
    unit: 'short',
    w: 16,
    min: 0,
    levelOnly: 'events of normal trading',
    thresholds: [['green', null]],
    targets: [
      [
        '{{pair}} rotations',
        'sum by (pair) (increase(ledger_mm_contract_rotations_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval]))',
      ],
      [
        '{{pair}} residual expiries',
        'sum by (pair) (increase(ledger_mm_residual_expiries_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval]))',
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
