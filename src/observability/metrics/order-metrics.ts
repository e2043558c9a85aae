/**
 * Orders: the registry's view of our orders. `ledger_mm_orders` is set on scrape from the
 * daemon's counts (every local state, zero included, so every series always exists); the
 * counters are fed by registry transitions (`bind-registry.ts`).
 *
 * The `state` label on `ledger_mm_orders` is the local order state: a closed list of 17
 * (`ORDER_STATES`), the only way to see UNKNOWN and STRANDED orders at all.
 */
import type { Counter, Gauge } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';

/** See the module doc. */
export interface OrderMetrics {
  readonly ordersByState: Gauge<'state'>;
  readonly foreignOrders: Gauge<'pair'>;
  readonly rotations: Counter<'pair'>;
  readonly residualExpiries: Counter<'pair'>;
  readonly foreignAdopted: Counter;
  readonly orderAlarms: Counter<'reason'>;
}

/** Registers the order metrics. */
export function createOrderMetrics(f: MetricFactory): OrderMetrics {
  return {
    ordersByState: f.gauge(
      'ledger_mm_orders',
      'Tracked orders by local state (INTENT ... OPEN, UNKNOWN, STRANDED, terminal states not yet evicted).',
      ['state'],
      true,
    ),
    foreignOrders: f.gauge(
      'ledger_mm_foreign_orders',
      'Active orders of the party that this daemon did not place (adopted at recovery).',
      ['pair'],
      true,
    ),
    rotations: f.counter(
      'ledger_mm_contract_rotations_total',
      'contractId rotations (a partial fill re-created the residual under a new contract).',
      ['pair'],
    ),
    residualExpiries: f.counter(
      'ledger_mm_residual_expiries_total',
      'Orders the venue expired (a residual below minQuoteAmount after a fill).',
      ['pair'],
    ),
    foreignAdopted: f.counter(
      'ledger_mm_foreign_orders_adopted_total',
      'Resting orders found on the venue that the journal did not know, adopted as foreign.',
    ),
    orderAlarms: f.counter(
      'ledger_mm_order_alarms_total',
      'Alarms the order state machine raised (overfill, stale reads, cancelled by venue, ...), by reason.',
      ['reason'],
    ),
  };
}
