/**
 * Money: balances, inventory, fills and PnL. Amounts are plain numbers of the instrument the
 * name says (`_base`, `_quote` of the `pair`) or that the `token` label names. They are
 * converted from `Dec` only at the boundary (`metric-number.ts`).
 *
 * `token` is an extra label: balances are per instrument, and a balance has no pair. It is
 * bounded by the instruments of the wallet (guarded, capped at 32).
 */
import type { Counter, Gauge } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';

/** See the module doc. */
export interface MoneyMetrics {
  readonly balanceAvailable: Gauge<'token'>;
  readonly balanceLocked: Gauge<'token'>;
  readonly inventoryBase: Gauge<'pair'>;
  readonly inventoryQuote: Gauge<'pair'>;
  readonly fills: Counter<'pair' | 'side'>;
  readonly filledBase: Counter<'pair' | 'side'>;
  readonly filledQuote: Counter<'pair' | 'side'>;
  readonly pnlRealised: Gauge<'pair'>;
  readonly pnlMarked: Gauge<'pair'>;
  readonly positionCostBasis: Gauge<'pair'>;
  readonly pnlCostRealised: Gauge<'pair'>;
  readonly pnlUnrealised: Gauge<'pair'>;
}

/** Registers the money metrics. */
export function createMoneyMetrics(f: MetricFactory): MoneyMetrics {
  const ps = ['pair', 'side'] as const;
  return {
    balanceAvailable: f.gauge(
      'ledger_mm_balance_available',
      'Wallet balance free to commit to new orders, in units of the token.',
      ['token'],
      true,
    ),
    balanceLocked: f.gauge(
      'ledger_mm_balance_locked',
      'Wallet balance locked by resting orders, in units of the token.',
      ['token'],
      true,
    ),
    inventoryBase: f.gauge(
      'ledger_mm_inventory_base',
      "Net position from fills, in the base instrument (negative: net sold); for a hedged pair the firm's net position, the hedge venue's included.",
      ['pair'],
      true,
    ),
    inventoryQuote: f.gauge(
      'ledger_mm_inventory_quote',
      "Net quote received from fills, in the quote instrument (negative: net paid); for a hedged pair the hedge venue's quote flow (its fees deducted) included.",
      ['pair'],
      true,
    ),
    fills: f.counter('ledger_mm_fills_total', 'Fills of our orders, by pair and side.', ps),
    filledBase: f.counter(
      'ledger_mm_filled_base_total',
      'Filled volume, in the base instrument, by pair and side.',
      ps,
    ),
    filledQuote: f.counter(
      'ledger_mm_filled_quote_total',
      'Filled notional (limit price x quantity), in the quote instrument, by pair and side.',
      ps,
    ),
    pnlRealised: f.gauge(
      'ledger_mm_pnl_realised_quote',
      'Realised PnL, in the quote instrument.',
      ['pair'],
      true,
    ),
    pnlMarked: f.gauge(
      'ledger_mm_pnl_marked_quote',
      'PnL with the position marked to the mid, in the quote instrument; for a hedged pair both venues, the hedge cost deducted.',
      ['pair'],
      true,
    ),
    positionCostBasis: f.gauge(
      'ledger_mm_position_cost_basis',
      'Average entry price of the open position (average-cost method), quote per base; absent when flat.',
      ['pair'],
      true,
    ),
    pnlCostRealised: f.gauge(
      'ledger_mm_pnl_cost_realised_quote',
      'PnL realised against the average entry price (average-cost method), fees deducted, in the quote instrument.',
      ['pair'],
      true,
    ),
    pnlUnrealised: f.gauge(
      'ledger_mm_pnl_unrealised_quote',
      'PnL of the open position at the mark against its average entry price, in the quote instrument.',
      ['pair'],
      true,
    ),
  };
}
