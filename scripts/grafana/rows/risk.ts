import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Risk gate';
export const PANELS = [
  {
    kind: 'timeline',
    title: 'Risk state',
    description: 'The risk gate standing of each pair over time: active, reducing, halted.',
    unit: 'none',
    w: 12,
    thresholds: [
      ['green', null],
      ['yellow', 1],
      ['red', 2],
    ],
    mappings: { 0: ['active', 'green'], 1: ['reducing', 'yellow'], 2: ['halted', 'red'] },
    targets: [
      [
        '{{pair}}',
        'max by (instance, pair) (ledger_mm_risk_state{instance=~"$instance", pair=~"$pair", state="reducing"}) + 2 * max by (instance, pair) (ledger_mm_risk_state{instance=~"$instance", pair=~"$pair", state="halted"})',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Risk denials per minute',
    description:
      'Placements the risk gate denied, by pair and rule (not_ready, stale_book, price_jump, daily_loss, error_breaker, max_inventory, rate_limit, ...).',
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
        '{{pair}} {{reason}}',
        'sum by (pair, reason) (rate(ledger_mm_risk_denials_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval])) * 60',
      ],
    ],
  },
  {
    kind: 'timeline',
    title: 'Held on purpose: pauses, kill switch, daily loss',
    description:
      'Each pair and side held on purpose: paused by an operator (ledger-mm pause), by the kill switch (risk.killSwitch; until ledger-mm resume), or halted by the daily loss limit (until the UTC day ends). Empty: quoting.',
    unit: 'none',
    w: 24,
    thresholds: [
      ['green', null],
      ['yellow', 1],
      ['red', 2],
    ],
    mappings: { 1: ['paused (operator)', 'yellow'], 2: ['kill switch', 'red'], 3: ['daily loss', 'red'] },
    targets: [
      [
        '{{pair}} {{side}}',
        'max by (instance, pair, side) (ledger_mm_paused{instance=~"$instance", pair=~"$pair", reason="operator"}) or max by (instance, pair, side) (2 * ledger_mm_paused{instance=~"$instance", pair=~"$pair", reason="kill_switch"}) or max by (instance, pair, side) (3 * ledger_mm_paused{instance=~"$instance", pair=~"$pair", reason="daily_loss"})',
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
