/**
 * Hedging (`src/hedge/hedging.ts`): per hedged pair the hedge venue's position, what is left
 * unhedged, whether the venue fails or the position is at its cap (the `LedgerMmHedgeVenueFailing`
 * and `LedgerMmHedgePositionAtCap` alerts), the hedge orders and fills, and the hedge cost split
 * into fees and slippage: the third part of the PnL split beside the spread captured and the
 * inventory revaluation. Set on scrape from the hedging's report; no series without a hedged pair.
 *
 * Labels beyond `pair`: `exchange` (the hedge exchange's ccxt id, one per hedged pair) and `part`
 * (`fees` or `slippage`).
 */
import type { Counter, Gauge } from 'prom-client';

import type { PairHedgeReport } from '../hedge/hedging.js';
import type { MetricFactory } from './metrics/metric-factory.js';

export interface HedgeMetrics {
  readonly position: Gauge<'pair' | 'exchange'>;
  readonly unhedged: Gauge<'pair'>;
  readonly failing: Gauge<'pair' | 'exchange'>;
  readonly atCap: Gauge<'pair'>;
  readonly cost: Gauge<'pair' | 'part'>;
  readonly orders: Counter<'pair'>;
  readonly fills: Counter<'pair'>;
}

/** Registers the hedge metrics. */
export function createHedgeMetrics(f: MetricFactory): HedgeMetrics {
  return {
    position: f.gauge(
      'ledger_mm_hedge_position_base',
      "The hedge venue's position of each hedged pair, base units (positive: long), as last read.",
      ['pair', 'exchange'],
      true,
    ),
    unhedged: f.gauge(
      'ledger_mm_hedge_unhedged_base',
      "What is left unhedged: this venue's net base from its fills plus the hedge venue's position.",
      ['pair'],
      true,
    ),
    failing: f.gauge(
      'ledger_mm_hedge_venue_failing',
      '1 while the hedge venue of the pair fails (unreachable, refusing, out of funds, not set up): the side that adds to the unhedged position is stopped or widened.',
      ['pair', 'exchange'],
      true,
    ),
    atCap: f.gauge(
      'ledger_mm_hedge_at_cap',
      '1 while the hedge position is at hedge.maxPositionBase: the rest stays unhedged and the adding side is gated.',
      ['pair'],
      true,
    ),
    cost: f.gauge(
      'ledger_mm_hedge_cost_quote',
      'The hedge cost since start, quote units, by part: fees (taker fees) and slippage (fill prices against the reference; negative when better).',
      ['pair', 'part'],
      true,
    ),
    orders: f.counter('ledger_mm_hedge_orders_total', 'Hedge orders sent (journaled first).', ['pair'], true),
    fills: f.counter('ledger_mm_hedge_fills_total', 'Hedge orders that filled something.', ['pair'], true),
  };
}

/** Sets the hedge metrics from the hedging's report (counters move by what changed). */
export class HedgeMetricsWriter {
  private readonly seen = new Map<string, { orders: number; fills: number }>();

  constructor(private readonly m: HedgeMetrics) {}

  refresh(reports: readonly PairHedgeReport[]): void {
    const m = this.m;
    for (const g of [m.position, m.unhedged, m.failing, m.atCap, m.cost]) g.reset();
    for (const r of reports) {
      const { pair, exchange } = r;
      const s = r.state;
      m.failing.set({ pair, exchange }, s === null || s.failing ? 1 : 0);
      m.atCap.set({ pair }, r.atCap ? 1 : 0);
      if (s !== null) {
        m.position.set({ pair, exchange }, s.positionBase.toNumber());
        m.cost.set({ pair, part: 'fees' }, s.feesQuote.toNumber());
        m.cost.set({ pair, part: 'slippage' }, s.slippageQuote.toNumber());
      }
      if (r.unhedgedBase !== null) m.unhedged.set({ pair }, r.unhedgedBase.toNumber());
      const last = this.seen.get(pair) ?? { orders: 0, fills: 0 };
      const orders = s?.ordersSent ?? 0;
      m.orders.inc({ pair }, Math.max(0, orders - last.orders));
      m.fills.inc({ pair }, Math.max(0, r.fills - last.fills));
      this.seen.set(pair, { orders, fills: r.fills });
    }
  }
}
