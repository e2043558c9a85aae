/**
 * Quoting: what we show the market. All of these are derived from the daemon's state on scrape
 * (see `state-collector.ts`). Prices are in the pair's quote instrument per unit of base; the
 * `pair` label fixes the unit.
 */
import type { Counter, Gauge } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';

/** See the module doc. */
export interface QuotingMetrics {
  /** Live (resting) orders of ours per quote slot (2 briefly during a replacement; 0 once empty). */
  readonly liveQuotes: Gauge<'pair' | 'side' | 'level'>;
  /** Age of the reference price each live quote was made from. */
  readonly quoteReferenceAge: Gauge<'pair' | 'side' | 'level'>;
  readonly bestBid: Gauge<'pair'>;
  readonly bestAsk: Gauge<'pair'>;
  readonly spreadBps: Gauge<'pair'>;
  readonly referencePrice: Gauge<'pair'>;
  readonly referenceAge: Gauge<'pair'>;
  /** 1 while the pair has a live quote on both sides. */
  readonly twoSided: Gauge<'pair'>;
  /** Seconds spent two-sided: `rate()` of it is the two-sided uptime ratio. */
  readonly twoSidedSeconds: Counter<'pair'>;
  /** Seconds a side has had no resting quote, with the reason (one series per missing side). */
  readonly sideMissingSeconds: Gauge<'pair' | 'side' | 'reason'>;
}

/** Registers the quoting metrics. */
export function createQuotingMetrics(f: MetricFactory): QuotingMetrics {
  const slot = ['pair', 'side', 'level'] as const;
  return {
    liveQuotes: f.gauge(
      'ledger_mm_live_quotes',
      'Live (resting) orders of ours per quote slot: 1, briefly 2 during a make-before-break replacement, 0 once empty.',
      slot,
      true,
    ),
    quoteReferenceAge: f.gauge(
      'ledger_mm_quote_reference_age_seconds',
      'Age of the reference price each live quote was made from.',
      slot,
      true,
    ),
    bestBid: f.gauge(
      'ledger_mm_quoted_best_bid_price',
      'Our best live bid, in quote per unit of base. Absent while we have no bid.',
      ['pair'],
      true,
    ),
    bestAsk: f.gauge(
      'ledger_mm_quoted_best_ask_price',
      'Our best live ask, in quote per unit of base. Absent while we have no ask.',
      ['pair'],
      true,
    ),
    spreadBps: f.gauge(
      'ledger_mm_quoted_spread_bps',
      'Our quoted spread (best ask - best bid) / mid, in basis points. Absent unless two-sided.',
      ['pair'],
      true,
    ),
    referencePrice: f.gauge(
      'ledger_mm_reference_price',
      'The strategy reference price, in quote per unit of base.',
      ['pair'],
      true,
    ),
    referenceAge: f.gauge(
      'ledger_mm_reference_age_seconds',
      'Age of the strategy reference price.',
      ['pair'],
      true,
    ),
    twoSided: f.gauge(
      'ledger_mm_two_sided',
      '1 while the pair has at least one live quote on each side, else 0.',
      ['pair'],
      true,
    ),
    twoSidedSeconds: f.counter(
      'ledger_mm_two_sided_seconds_total',
      'Seconds the pair spent two-sided; rate() of it is the two-sided uptime ratio.',
      ['pair'],
      true,
    ),
    sideMissingSeconds: f.gauge(
      'ledger_mm_side_missing_seconds',
      'Seconds a side of the pair has had no resting quote of ours, with the reason (api_key, account_not_active, unknown_order, risk_halt, risk_guard, strategy, funds, cancelling, queued, other). Absent while the side is quoted.',
      ['pair', 'side', 'reason'],
      true,
    ),
  };
}
