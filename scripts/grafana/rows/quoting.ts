import type { PanelSpec } from '../panel-spec.js';

export const ROW = 'Quoting';
export const PANELS = [
  {
    kind: 'stat',
    title: 'Ready',
    description:
      'Whether the daemon is ready to quote: the /readyz verdict (ledger_mm_ready). When NOT READY, GET /readyz or `ledger-mm status` lists the reasons; LedgerMmNotReady fires after 5 minutes.',
    unit: 'none',
    w: 4,
    h: 5,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    mappings: { 0: ['NOT READY', 'red'], 1: ['ready', 'green'] },
    colorMode: 'background',
    targets: [['{{instance}}', 'min by (instance) (ledger_mm_ready{instance=~"$instance"})']],
  },
  {
    kind: 'stat',
    title: 'Account status',
    description:
      'The account status as the daemon last read it (ledger_mm_account_status): ACTIVE, SUSPENDED or DISABLED (the venue refuses new placements), or unknown (not read since the start). A refused API key does not change it; see Ready.',
    unit: 'none',
    w: 4,
    h: 5,
    thresholds: [
      ['green', null],
      ['red', 1],
      ['orange', 3],
    ],
    mappings: {
      0: ['ACTIVE', 'green'],
      1: ['SUSPENDED', 'red'],
      2: ['DISABLED', 'red'],
      3: ['unknown', 'orange'],
    },
    colorMode: 'background',
    targets: [
      [
        '{{instance}}',
        'max by (instance) (ledger_mm_account_status{instance=~"$instance", status="SUSPENDED"}) + 2 * max by (instance) (ledger_mm_account_status{instance=~"$instance", status="DISABLED"}) + 3 * max by (instance) (ledger_mm_account_status{instance=~"$instance", status="unknown"})',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Two-sided now',
    description:
      'Whether each pair has at least one live bid and one live ask right now (ledger_mm_two_sided).',
    unit: 'none',
    w: 4,
    h: 5,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    mappings: { 0: ['NOT two-sided', 'red'], 1: ['two-sided', 'green'] },
    colorMode: 'background',
    targets: [['{{pair}}', 'max by (pair) (ledger_mm_two_sided{instance=~"$instance", pair=~"$pair"})']],
  },
  {
    kind: 'stat',
    title: 'Two-sided uptime (time range)',
    description:
      'Share of the selected time range each pair was two-sided: rate() of ledger_mm_two_sided_seconds_total over the range.',
    unit: 'percentunit',
    w: 4,
    h: 5,
    decimals: 1,
    thresholds: [
      ['red', null],
      ['yellow', 0.9],
      ['green', 0.98],
    ],
    colorMode: 'background',
    targets: [
      [
        '{{pair}}',
        'sum by (pair) (rate(ledger_mm_two_sided_seconds_total{instance=~"$instance", pair=~"$pair"}[$__range]))',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Risk state now',
    description:
      'The risk gate standing of each pair: active, reducing (only orders that shrink the position) or halted (nothing placed). The Risk row has the history and the denials.',
    unit: 'none',
    w: 4,
    h: 5,
    thresholds: [
      ['green', null],
      ['yellow', 1],
      ['red', 2],
    ],
    mappings: { 0: ['active', 'green'], 1: ['reducing', 'yellow'], 2: ['halted', 'red'] },
    colorMode: 'background',
    targets: [
      [
        '{{pair}}',
        'max by (pair) (max by (instance, pair) (ledger_mm_risk_state{instance=~"$instance", pair=~"$pair", state="reducing"}) + 2 * max by (instance, pair) (ledger_mm_risk_state{instance=~"$instance", pair=~"$pair", state="halted"}))',
      ],
    ],
  },
  {
    kind: 'stat',
    title: 'Live quotes',
    description:
      'Our resting orders per pair (ledger_mm_live_quotes summed over sides and levels; briefly one more per slot during a make-before-break replacement).',
    unit: 'short',
    w: 4,
    h: 5,
    thresholds: [
      ['red', null],
      ['green', 2],
    ],
    colorMode: 'value',
    targets: [['{{pair}}', 'sum by (pair) (ledger_mm_live_quotes{instance=~"$instance", pair=~"$pair"})']],
  },
  {
    kind: 'timeseries',
    title: 'Two-sided uptime',
    description:
      'Fraction of each interval the pair had a live bid and a live ask: rate(ledger_mm_two_sided_seconds_total). 100% = two-sided the whole time.',
    unit: 'percentunit',
    showThresholds: true,
    w: 12,
    min: 0,
    max: 1,
    thresholds: [
      ['red', null],
      ['yellow', 0.9],
      ['green', 0.98],
    ],
    targets: [
      [
        '{{pair}}',
        'sum by (pair) (rate(ledger_mm_two_sided_seconds_total{instance=~"$instance", pair=~"$pair"}[$__rate_interval]))',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Quoted spread',
    description:
      'Our quoted spread, (best ask - best bid) / mid, in basis points. Absent while the pair is not two-sided.',
    unit: 'suffix: bps',
    showThresholds: true,
    w: 12,
    thresholds: [
      ['green', null],
      ['orange', 200],
    ],
    targets: [['{{pair}}', 'ledger_mm_quoted_spread_bps{instance=~"$instance", pair=~"$pair"}']],
  },
  {
    kind: 'timeseries',
    title: 'Our best bid and ask vs the reference price: $pair',
    description:
      'Our best live bid and ask against the strategy reference price, in quote per unit of base. One panel per selected pair.',
    unit: 'short',
    w: 24,
    levelOnly: 'a price: no bound applies',
    thresholds: [['green', null]],
    overrides: [
      {
        matcher: { id: 'byName', options: 'best ask' },
        properties: [{ id: 'color', value: { mode: 'fixed', fixedColor: 'red' } }],
      },
      {
        matcher: { id: 'byName', options: 'reference' },
        properties: [
          { id: 'color', value: { mode: 'fixed', fixedColor: 'blue' } },
          { id: 'custom.lineStyle', value: { fill: 'dash', dash: [10, 10] } },
        ],
      },
      {
        matcher: { id: 'byName', options: 'best bid' },
        properties: [{ id: 'color', value: { mode: 'fixed', fixedColor: 'green' } }],
      },
    ],
    targets: [
      ['best ask', 'ledger_mm_quoted_best_ask_price{instance=~"$instance", pair=~"$pair"}'],
      ['reference', 'ledger_mm_reference_price{instance=~"$instance", pair=~"$pair"}'],
      ['best bid', 'ledger_mm_quoted_best_bid_price{instance=~"$instance", pair=~"$pair"}'],
      ['cost basis', 'ledger_mm_position_cost_basis{instance=~"$instance", pair=~"$pair"}'],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Quote distance from the reference',
    description:
      'How far our best bid (negative) and best ask (positive) sit from the reference price, in basis points. Comparable across pairs.',
    unit: 'suffix: bps',
    w: 12,
    thresholds: [
      ['green', null],
      ['orange', 200],
    ],
    targets: [
      [
        '{{pair}} ask',
        '10000 * (ledger_mm_quoted_best_ask_price{instance=~"$instance", pair=~"$pair"} / on (instance, job, pair) ledger_mm_reference_price{instance=~"$instance", pair=~"$pair"} - 1)',
      ],
      [
        '{{pair}} bid',
        '10000 * (ledger_mm_quoted_best_bid_price{instance=~"$instance", pair=~"$pair"} / on (instance, job, pair) ledger_mm_reference_price{instance=~"$instance", pair=~"$pair"} - 1)',
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Reference age',
    description:
      'Age of the strategy reference price, and of the oldest reference a live quote was made from. The LedgerMmReferenceStale alert fires over 5 minutes.',
    unit: 's',
    showThresholds: true,
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 60],
      ['red', 300],
    ],
    targets: [
      ['{{pair}} reference', 'ledger_mm_reference_age_seconds{instance=~"$instance", pair=~"$pair"}'],
      [
        '{{pair}} oldest live quote',
        'max by (pair) (ledger_mm_quote_reference_age_seconds{instance=~"$instance", pair=~"$pair"})',
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
