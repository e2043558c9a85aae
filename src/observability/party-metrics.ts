/**
 * The firm's parties, when the daemon runs several (`firm.parties`): per party whether it takes
 * placements, its pipeline's busy time and queue, its placements and refusals, its open orders,
 * its balances as last read and what it can still lock, and per pair and side whether it can
 * fund one more quote of the size the strategy last asked for (the `LedgerMmPartyCannotFund`
 * alert). Set on scrape from the daemon's party report; no series with one party.
 *
 * The `party` label is bounded by the configured parties (at most 16); `instrument` by the
 * pairs' instruments.
 */
import type { Counter, Gauge } from 'prom-client';

import type { MetricFactory } from './metrics/metric-factory.js';

/** One party, as the daemon reports it for metrics and `/status`. */
export interface PartyView {
  readonly name: string;
  readonly active: boolean;
  /** Why it dropped out, while it is out. */
  readonly reason: string | null;
  readonly queued: number;
  /** Busy ms of its pipeline since start (placements queued or running). */
  readonly busyMs: number;
  readonly openOrders: number;
  readonly placed: number;
  readonly refused: number;
  /** Its balances as last read (available), by instrument; empty before the first read. */
  readonly balances: Readonly<Record<string, string>>;
  /** What it can still lock now, by instrument (errs low; see `party-wallets.ts`). */
  readonly funds: Readonly<Record<string, string>>;
  /** Per pair and side: can it fund one more quote of the size last asked for. */
  readonly canFund: readonly { readonly pair: string; readonly side: 'BUY' | 'SELL'; readonly ok: boolean }[];
}

export interface PartyMetrics {
  readonly active: Gauge<'party'>;
  readonly busySeconds: Counter<'party'>;
  readonly queued: Gauge<'party'>;
  readonly openOrders: Gauge<'party'>;
  readonly placements: Counter<'party'>;
  readonly refusals: Counter<'party'>;
  readonly balance: Gauge<'party' | 'instrument'>;
  readonly funds: Gauge<'party' | 'instrument'>;
  readonly canFund: Gauge<'party' | 'pair' | 'side'>;
}

/** Registers the party metrics. */
export function createPartyMetrics(f: MetricFactory): PartyMetrics {
  return {
    active: f.gauge(
      'ledger_mm_party_active',
      '1 while a party of the firm takes placements, 0 while it is dropped out (key or account refused, out of funds).',
      ['party'],
      true,
    ),
    busySeconds: f.counter(
      'ledger_mm_party_pipeline_busy_seconds_total',
      "Time a party's placement pipeline had a placement queued or running; rate() is its busy share.",
      ['party'],
      true,
    ),
    queued: f.gauge(
      'ledger_mm_party_pipeline_queued',
      "Placements queued or running in a party's pipeline.",
      ['party'],
      true,
    ),
    openOrders: f.gauge(
      'ledger_mm_party_open_orders',
      'Active orders a party holds (resting, in flight, cancelling).',
      ['party'],
      true,
    ),
    placements: f.counter(
      'ledger_mm_party_placements_total',
      'Placements of a party that rested or ended on the book.',
      ['party'],
      true,
    ),
    refusals: f.counter(
      'ledger_mm_party_refusals_total',
      "A party's placements refused for its key, its account or its funds (each drops it out for a while).",
      ['party'],
      true,
    ),
    balance: f.gauge(
      'ledger_mm_party_balance',
      "A party's available balance per instrument as its GET /balances last returned.",
      ['party', 'instrument'],
      true,
    ),
    funds: f.gauge(
      'ledger_mm_party_funding_headroom',
      'What a party can still lock per instrument: its last available balance less what its orders in flight across that read and since lock (errs low).',
      ['party', 'instrument'],
      true,
    ),
    canFund: f.gauge(
      'ledger_mm_party_can_fund',
      '1 when a party holds enough to fund one quote of the size last asked for on the pair and side (a BUY locks quote, a SELL base; funds its own quotes lock count), else 0.',
      ['party', 'pair', 'side'],
      true,
    ),
  };
}

/** Sets the party metrics from the report (counters move by what changed since the last call). */
export class PartyMetricsWriter {
  private readonly seen = new Map<string, { busyMs: number; placed: number; refused: number }>();

  constructor(private readonly m: PartyMetrics) {}

  refresh(parties: readonly PartyView[]): void {
    const m = this.m;
    for (const g of [m.active, m.queued, m.openOrders, m.balance, m.funds, m.canFund]) g.reset();
    for (const p of parties) {
      const party = p.name;
      m.active.set({ party }, p.active ? 1 : 0);
      m.queued.set({ party }, p.queued);
      m.openOrders.set({ party }, p.openOrders);
      for (const [instrument, v] of Object.entries(p.balances))
        m.balance.set({ party, instrument }, Number(v));
      for (const [instrument, v] of Object.entries(p.funds)) m.funds.set({ party, instrument }, Number(v));
      for (const c of p.canFund) m.canFund.set({ party, pair: c.pair, side: c.side }, c.ok ? 1 : 0);
      const last = this.seen.get(party) ?? { busyMs: 0, placed: 0, refused: 0 };
      m.busySeconds.inc({ party }, Math.max(0, p.busyMs - last.busyMs) / 1000);
      m.placements.inc({ party }, Math.max(0, p.placed - last.placed));
      m.refusals.inc({ party }, Math.max(0, p.refused - last.refused));
      this.seen.set(party, { busyMs: p.busyMs, placed: p.placed, refused: p.refused });
    }
  }
}
