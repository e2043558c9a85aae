import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Money';
export const PANELS = [
  {
    kind: 'stat',
    title: 'Available balance',
    description: 'Wallet balance free to commit to new orders, per token.',
    unit: 'short',
    w: 8,
    thresholds: [
      ['red', null],
      ['green', 1e-9],
    ],
    colorMode: 'none',
    targets: [['{{token}}', 'sum by (token) (ledger_mm_balance_available{instance=~"$instance"})']],
  },
  {
    kind: 'stat',
    title: 'Locked balance',
    description: 'Wallet balance locked by resting orders, per token.',
    unit: 'short',
    w: 8,
    levelOnly: 'a balance level',
    thresholds: [['green', null]],
    colorMode: 'none',
    targets: [['{{token}}', 'sum by (token) (ledger_mm_balance_locked{instance=~"$instance"})']],
  },
  {
    kind: 'timeseries',
    title: 'Locked share of each token',
    description:
      'locked / (available + locked) per token. Near 100% on one token means that side will soon run out of funds to quote.',
    unit: 'percentunit',
    showThresholds: true,
    w: 8,
    min: 0,
    max: 1,
    thresholds: [
      ['green', null],
      ['orange', 0.8],
      ['red', 0.95],
    ],
    targets: [
      [
        '{{token}}',
        'sum by (token) (ledger_mm_balance_locked{instance=~"$instance"}) / (sum by (token) (ledger_mm_balance_available{instance=~"$instance"}) + sum by (token) (ledger_mm_balance_locked{instance=~"$instance"}))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Inventory (base)',
    description: 'Net position from fills, in the base instrument of each pair (negative: net sold).',
    unit: 'short',
    w: 8,
    levelOnly: 'a position; risk limits are on notional',
    thresholds: [['green', null]],
    targets: [['{{pair}}', 'ledger_mm_inventory_base{instance=~"$instance", pair=~"$pair"}']],
  },
  {
    kind: 'timeseries',
    title: 'Inventory (quote)',
    description: 'Net quote received from fills, in the quote instrument of each pair (negative: net paid).',
    unit: 'short',
    w: 8,
    levelOnly: 'a position; risk limits are on notional',
    thresholds: [['green', null]],
    targets: [['{{pair}}', 'ledger_mm_inventory_quote{instance=~"$instance", pair=~"$pair"}']],
  },
  {
    kind: 'timeseries',
    title: 'PnL (quote)',
    description:
      'The PnL split, per pair, in its quote instrument: realised (on closed round trips), and the open position valued at the mid (marked - realised); marked is their sum. The average-cost split: realised against the average entry price, and the open position unrealised at the mark. Red below 0.',
    unit: 'short',
    w: 8,
    thresholds: [
      ['red', null],
      ['green', 0],
    ],
    targets: [
      ['{{pair}} realised', 'ledger_mm_pnl_realised_quote{instance=~"$instance", pair=~"$pair"}'],
      ['{{pair}} marked', 'ledger_mm_pnl_marked_quote{instance=~"$instance", pair=~"$pair"}'],
      [
        '{{pair}} position at the mid (marked - realised)',
        'ledger_mm_pnl_marked_quote{instance=~"$instance", pair=~"$pair"} - ledger_mm_pnl_realised_quote{instance=~"$instance", pair=~"$pair"}',
      ],
      [
        '{{pair}} realised (average cost)',
        'ledger_mm_pnl_cost_realised_quote{instance=~"$instance", pair=~"$pair"}',
      ],
      [
        '{{pair}} unrealised (average cost)',
        'ledger_mm_pnl_unrealised_quote{instance=~"$instance", pair=~"$pair"}',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Fill markouts, mean over the last hour (bps)',
    description:
      'For each of our fills, the move of the book mid without our own orders from the fill to 5, 30, 60 and 300 s later, signed from our side (up after a buy, down after a sell is positive), averaged over the fills of the last hour. Negative: the fills were adversely selected; compare with the quoted half-spread.',
    unit: 'suffix: bps',
    showThresholds: true,
    w: 12,
    thresholds: [
      ['red', null],
      ['green', 0],
    ],
    targets: [
      [
        '{{pair}} +{{horizon}} s',
        'sum by (pair, horizon) (increase(ledger_mm_fill_markout_bps_sum{instance=~"$instance", pair=~"$pair"}[1h])) / sum by (pair, horizon) (increase(ledger_mm_fill_markout_bps_count{instance=~"$instance", pair=~"$pair"}[1h]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Fill markout at 60 s by side: median and 10th percentile (bps)',
    description:
      'The distribution of the 60 s markout of the last hour of fills, by pair and side (from ledger_mm_fill_markout_bps buckets). A low 10th percentile with a fair median: a few toxic fills, e.g. a quote left resting after the price moved through it.',
    unit: 'suffix: bps',
    showThresholds: true,
    w: 12,
    thresholds: [
      ['red', null],
      ['green', 0],
    ],
    targets: [
      [
        '{{pair}} {{side}} median',
        'histogram_quantile(0.5, sum by (pair, side, le) (increase(ledger_mm_fill_markout_bps_bucket{instance=~"$instance", pair=~"$pair", horizon="60"}[1h])))',
      ],
      [
        '{{pair}} {{side}} p10',
        'histogram_quantile(0.1, sum by (pair, side, le) (increase(ledger_mm_fill_markout_bps_bucket{instance=~"$instance", pair=~"$pair", horizon="60"}[1h])))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Hedge: position and what is left unhedged (base)',
    description:
      "Hedged pairs only (hedge section): the hedge venue's position, and the unhedged rest (this venue's net base from fills plus the hedge position). The inventory and PnL panels above read the firm's net position, both venues together.",
    unit: 'short',
    w: 12,
    levelOnly: 'a position; the cap is hedge.maxPositionBase',
    thresholds: [['green', null]],
    targets: [
      [
        '{{pair}} hedge ({{exchange}})',
        'ledger_mm_hedge_position_base{instance=~"$instance", pair=~"$pair"}',
      ],
      ['{{pair}} unhedged', 'ledger_mm_hedge_unhedged_base{instance=~"$instance", pair=~"$pair"}'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Hedge cost since start (quote)',
    description:
      "The third part of the PnL split, beside the spread captured and the inventory revaluation: the hedge venue's taker fees, and the slippage of its fills against the reference (negative when better).",
    unit: 'short',
    w: 12,
    levelOnly: 'a cost, judged against the spread captured',
    thresholds: [['green', null]],
    targets: [['{{pair}} {{part}}', 'ledger_mm_hedge_cost_quote{instance=~"$instance", pair=~"$pair"}']],
  },
] as const satisfies readonly PanelSpec[];
