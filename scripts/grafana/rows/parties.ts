/**
 * A firm of parties (`firm.parties`, docs/operations/parties.md): one line per party of each
 * pipeline's busy share and queue, its placements and refusals, its open orders, whether it takes
 * placements, what it can still lock, and which pair and side it cannot fund. The series exist
 * only with several parties; with one party the panels are empty.
 */
import type { PanelSpec } from '../panel-spec.js';

const SEL = 'instance=~"$instance"';

export const ROW = 'Parties';
export const PANELS = [
  {
    kind: 'timeline',
    title: 'Party takes placements',
    description:
      'Per party: 1 while it takes placements, 0 while it is dropped out (its key, account or funds refused; LedgerMmPartyDroppedOut after 2 minutes). The other parties carry on.',
    unit: 'short',
    w: 12,
    h: 6,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    mappings: { 0: ['out', 'red'], 1: ['active', 'green'] },
    targets: [['{{party}}', `max by (party) (ledger_mm_party_active{${SEL}})`]],
  },
  {
    kind: 'timeline',
    title: 'Party can fund a side',
    description:
      'Per party, pair and side: 1 when it can lock one more quote of the size the strategy asks for (a BUY locks quote, a SELL base), 0 when fills moved its funds away (LedgerMmPartyCannotFund after 10 minutes; rebalance on the ledger).',
    unit: 'short',
    w: 12,
    h: 6,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    mappings: { 0: ['cannot fund', 'red'], 1: ['funded', 'green'] },
    targets: [
      [
        '{{party}} {{pair}} {{side}}',
        `min by (party, pair, side) (ledger_mm_party_can_fund{${SEL}, pair=~"$pair"})`,
      ],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Party pipeline busy share',
    description:
      "Share of time each party's placement pipeline had a placement queued or running (rate of ledger_mm_party_pipeline_busy_seconds_total). The allocator keeps them all busy; one near 0 while others are near 1 is a party left out (dropped, unfunded or fixed to an idle pair).",
    unit: 'percentunit',
    w: 12,
    min: 0,
    max: 1,
    showThresholds: true,
    thresholds: [
      ['green', null],
      ['orange', 0.95],
    ],
    targets: [
      ['{{party}}', `sum by (party) (rate(ledger_mm_party_pipeline_busy_seconds_total{${SEL}}[5m]))`],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Party placements and refusals per hour',
    description:
      'Placements of each party that rested or ended on the book, and placements refused for its key, account or funds, per hour. One party is limited to about 85 placements an hour by the 42.5 s pipeline cycle.',
    unit: 'short',
    w: 12,
    min: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    targets: [
      ['{{party}} placed', `sum by (party) (rate(ledger_mm_party_placements_total{${SEL}}[15m])) * 3600`],
      ['{{party}} refused', `sum by (party) (rate(ledger_mm_party_refusals_total{${SEL}}[15m])) * 3600`],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Party open orders and queue',
    description:
      "Active orders each party holds (resting, in flight, cancelling) and the placements queued or running in its pipeline. Each party's open orders count against its own account's maxOpenOrders.",
    unit: 'short',
    w: 12,
    decimals: 0,
    min: 0,
    thresholds: [
      ['green', null],
      ['orange', 40],
    ],
    targets: [
      ['{{party}} open', `sum by (party) (ledger_mm_party_open_orders{${SEL}})`],
      ['{{party}} queued', `sum by (party) (ledger_mm_party_pipeline_queued{${SEL}})`],
    ],
  },
  {
    kind: 'timeseries',
    title: 'Party funding headroom',
    description:
      'What each party can still lock per instrument: its last available balance less what it placed since (errs low). Fills move base into some parties and quote into others; the venue has no transfers, so an operator moves funds between the parties on the ledger.',
    unit: 'short',
    w: 12,
    min: 0,
    levelOnly: 'a balance level; LedgerMmPartyCannotFund says when it is too low for a quote',
    thresholds: [['green', null]],
    targets: [
      ['{{party}} {{instrument}}', `sum by (party, instrument) (ledger_mm_party_funding_headroom{${SEL}})`],
    ],
  },
] as const satisfies readonly PanelSpec[];
