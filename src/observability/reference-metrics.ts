/**
 * The "exchanges" reference (`src/market/reference/`): per source of a pair its age, its
 * deviation, its errors, its state and how it takes prices; per pair the usable sources against
 * `minSources` (the `LedgerMmReferenceSourcesLow` alert) and the venue's own mid beside the
 * reference. Set on scrape from the reference's report; no series without an "exchanges" pair.
 *
 * The `source` label is `exchange:symbol` (`binance:BTC/USDT`), bounded by the configured sources
 * (at most 20 per pair).
 */
import type { Counter, Gauge } from 'prom-client';

import type { PairReferenceReport, SourceReport } from '../market/reference/exchanges-reference.js';
import type { MetricFactory } from './metric-factory.js';

/** The values of the `state` label of `ledger_mm_reference_source_state`. */
export const REFERENCE_SOURCE_STATES = ['used', 'outlier', 'stale', 'no_price'] as const;

export interface ReferenceMetrics {
  readonly sourceAge: Gauge<'pair' | 'source'>;
  readonly sourceDeviation: Gauge<'pair' | 'source'>;
  readonly sourceState: Gauge<'pair' | 'source' | 'state'>;
  readonly sourceWebsocket: Gauge<'pair' | 'source'>;
  readonly sourceErrors: Counter<'pair' | 'source'>;
  readonly sourceOutliers: Counter<'pair' | 'source'>;
  readonly usable: Gauge<'pair'>;
  readonly minSources: Gauge<'pair'>;
  readonly venueMidDeviation: Gauge<'pair'>;
}

/** Registers the reference metrics. */
export function createReferenceMetrics(f: MetricFactory): ReferenceMetrics {
  const src = ['pair', 'source'] as const;
  return {
    sourceAge: f.gauge(
      'ledger_mm_reference_source_age_seconds',
      'Age of the last price of each "exchanges" reference source (its conversion leg included). Absent before its first price.',
      src,
      true,
    ),
    sourceDeviation: f.gauge(
      'ledger_mm_reference_source_deviation_bps',
      "Each reference source's distance from the reference, bps (an outlier's: from the others' median).",
      src,
      true,
    ),
    sourceState: f.gauge(
      'ledger_mm_reference_source_state',
      '1 for the state each reference source is in: used, outlier, stale or no_price.',
      ['pair', 'source', 'state'],
      true,
    ),
    sourceWebsocket: f.gauge(
      'ledger_mm_reference_source_websocket',
      '1 while a reference source takes prices by WebSocket, 0 while it polls REST.',
      src,
      true,
    ),
    sourceErrors: f.counter(
      'ledger_mm_reference_source_errors_total',
      'Failed calls of a reference source (and its conversion leg): REST, WebSocket, market loads.',
      src,
      true,
    ),
    sourceOutliers: f.counter(
      'ledger_mm_reference_source_outliers_total',
      'Times a reference source was left out as an outlier (further than maxDeviationBps from the others).',
      src,
      true,
    ),
    usable: f.gauge(
      'ledger_mm_reference_sources_usable',
      'Fresh, non-outlier sources of the "exchanges" reference; below ledger_mm_reference_sources_min the pair is not quoted.',
      ['pair'],
      true,
    ),
    minSources: f.gauge(
      'ledger_mm_reference_sources_min',
      'exchanges.minSources of the pair: the fewest usable sources it is quoted on.',
      ['pair'],
      true,
    ),
    venueMidDeviation: f.gauge(
      'ledger_mm_reference_venue_mid_deviation_bps',
      "The venue's own mid against the exchanges reference, bps (a sanity check). Absent without both.",
      ['pair'],
      true,
    ),
  };
}

/** Sets the reference metrics from `reports` (counters move by what changed since the last call). */
export class ReferenceMetricsWriter {
  private readonly seen = new Map<string, { errors: number; outliers: number }>();

  constructor(private readonly m: ReferenceMetrics) {}

  refresh(reports: readonly PairReferenceReport[]): void {
    const m = this.m;
    for (const g of [m.sourceAge, m.sourceDeviation, m.sourceState, m.sourceWebsocket]) g.reset();
    for (const g of [m.usable, m.minSources, m.venueMidDeviation]) g.reset();
    for (const r of reports) {
      const pair = r.pair;
      m.usable.set({ pair }, r.usable);
      m.minSources.set({ pair }, r.minSources);
      if (r.venueMidDeviationBps !== null) m.venueMidDeviation.set({ pair }, r.venueMidDeviationBps);
      for (const s of r.sources) this.source(pair, s);
    }
  }

  private source(pair: string, s: SourceReport): void {
    const m = this.m;
    const l = { pair, source: s.id };
    if (s.ageMs !== null) m.sourceAge.set(l, s.ageMs / 1000);
    if (s.deviationBps !== null) m.sourceDeviation.set(l, s.deviationBps);
    const state = s.state === 'no-price' ? 'no_price' : s.state;
    for (const st of REFERENCE_SOURCE_STATES) m.sourceState.set({ ...l, state: st }, st === state ? 1 : 0);
    m.sourceWebsocket.set(l, s.mode === 'websocket' ? 1 : 0);
    const key = `${pair}\u0000${s.id}`;
    const last = this.seen.get(key) ?? { errors: 0, outliers: 0 };
    m.sourceErrors.inc(l, Math.max(0, s.errors - last.errors));
    m.sourceOutliers.inc(l, Math.max(0, s.outliers - last.outliers));
    this.seen.set(key, { errors: s.errors, outliers: s.outliers });
  }
}
