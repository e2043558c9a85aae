/** Every metric of the module: name → [type, label names]. docs/reference/metrics.md is generated from the same registry. */

import { register as globalRegister } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { benchView, populate } from '../../../src/lab/bench/metrics-bench.js';
import { createMetrics, type Metrics } from '../../../src/observability/metrics/create-metrics.js';
import { registerStateCollector } from '../../../src/observability/state-collector.js';
import { parseExposition, type Family } from '../support/exposition.js';
const CATALOGUE: Record<string, [string, string[]]> = {
  // quoting
  ledger_mm_live_quotes: ['gauge', ['pair', 'side', 'level']],
  ledger_mm_quote_reference_age_seconds: ['gauge', ['pair', 'side', 'level']],
  ledger_mm_quoted_best_bid_price: ['gauge', ['pair']],
  ledger_mm_quoted_best_ask_price: ['gauge', ['pair']],
  ledger_mm_quoted_spread_bps: ['gauge', ['pair']],
  ledger_mm_reference_price: ['gauge', ['pair']],
  ledger_mm_reference_age_seconds: ['gauge', ['pair']],
  ledger_mm_two_sided: ['gauge', ['pair']],
  ledger_mm_two_sided_seconds_total: ['counter', ['pair']],
  ledger_mm_side_missing_seconds: ['gauge', ['pair', 'side', 'reason']],
  // pipeline
  ledger_mm_stage_duration_seconds: ['histogram', ['stage', 'outcome']],
  ledger_mm_sign_duration_seconds: ['histogram', ['stage', 'outcome']],
  ledger_mm_placement_queue_depth: ['gauge', []],
  ledger_mm_placement_queue_oldest_age_seconds: ['gauge', []],
  ledger_mm_placements_in_flight: ['gauge', []],
  ledger_mm_cancel_queue_depth: ['gauge', []],
  ledger_mm_cancel_queue_oldest_age_seconds: ['gauge', []],
  ledger_mm_cancels_in_flight: ['gauge', []],
  ledger_mm_placements_total: ['counter', ['pair', 'side', 'outcome']],
  ledger_mm_cancels_total: ['counter', ['outcome']],
  ledger_mm_prepares_abandoned_total: ['counter', ['reason', 'cause']],
  ledger_mm_echo_refused_total: ['counter', ['stage']],
  ledger_mm_execution_alarms_total: ['counter', ['reason']],
  ledger_mm_unknown_orders_total: ['counter', ['code']],
  ledger_mm_unknown_resolved_total: ['counter', ['outcome']],
  ledger_mm_execution_retries_total: ['counter', ['stage', 'code']],
  // orders
  ledger_mm_orders: ['gauge', ['state']],
  ledger_mm_party_active: ['gauge', ['party']],
  ledger_mm_party_pipeline_busy_seconds_total: ['counter', ['party']],
  ledger_mm_party_pipeline_queued: ['gauge', ['party']],
  ledger_mm_party_open_orders: ['gauge', ['party']],
  ledger_mm_party_placements_total: ['counter', ['party']],
  ledger_mm_party_refusals_total: ['counter', ['party']],
  ledger_mm_party_balance: ['gauge', ['party', 'instrument']],
  ledger_mm_party_funding_headroom: ['gauge', ['party', 'instrument']],
  ledger_mm_party_can_fund: ['gauge', ['party', 'pair', 'side']],
  ledger_mm_foreign_orders: ['gauge', ['pair']],
  ledger_mm_contract_rotations_total: ['counter', ['pair']],
  ledger_mm_residual_expiries_total: ['counter', ['pair']],
  ledger_mm_foreign_orders_adopted_total: ['counter', []],
  ledger_mm_order_alarms_total: ['counter', ['reason']],
  // venue
  ledger_mm_venue_requests_total: ['counter', ['endpoint', 'status']],
  ledger_mm_venue_request_duration_seconds: ['histogram', ['endpoint']],
  ledger_mm_venue_errors_total: ['counter', ['endpoint', 'code']],
  ledger_mm_venue_retries_total: ['counter', ['endpoint', 'code']],
  ledger_mm_venue_rate_limited_total: ['counter', ['endpoint']],
  ledger_mm_venue_rate_limit_requests: ['gauge', []],
  ledger_mm_rate_limit_headroom_ratio: ['gauge', []],
  ledger_mm_rate_limit_tokens: ['gauge', []],
  ledger_mm_poller_last_success_timestamp_seconds: ['gauge', ['poller', 'pair']],
  ledger_mm_poller_consecutive_failures: ['gauge', ['poller', 'pair']],
  // money
  ledger_mm_balance_available: ['gauge', ['token']],
  ledger_mm_balance_locked: ['gauge', ['token']],
  ledger_mm_inventory_base: ['gauge', ['pair']],
  ledger_mm_inventory_quote: ['gauge', ['pair']],
  ledger_mm_fill_markout_bps: ['histogram', ['pair', 'side', 'horizon']],
  ledger_mm_fills_total: ['counter', ['pair', 'side']],
  ledger_mm_filled_base_total: ['counter', ['pair', 'side']],
  ledger_mm_filled_quote_total: ['counter', ['pair', 'side']],
  ledger_mm_pnl_realised_quote: ['gauge', ['pair']],
  ledger_mm_pnl_marked_quote: ['gauge', ['pair']],
  ledger_mm_position_cost_basis: ['gauge', ['pair']],
  ledger_mm_pnl_cost_realised_quote: ['gauge', ['pair']],
  ledger_mm_pnl_unrealised_quote: ['gauge', ['pair']],
  // reference from exchanges
  ledger_mm_reference_source_age_seconds: ['gauge', ['pair', 'source']],
  ledger_mm_reference_source_deviation_bps: ['gauge', ['pair', 'source']],
  ledger_mm_reference_source_state: ['gauge', ['pair', 'source', 'state']],
  ledger_mm_reference_source_websocket: ['gauge', ['pair', 'source']],
  ledger_mm_reference_source_errors_total: ['counter', ['pair', 'source']],
  ledger_mm_reference_source_outliers_total: ['counter', ['pair', 'source']],
  ledger_mm_reference_sources_usable: ['gauge', ['pair']],
  ledger_mm_reference_sources_min: ['gauge', ['pair']],
  ledger_mm_reference_venue_mid_deviation_bps: ['gauge', ['pair']],
  // hedging
  ledger_mm_hedge_position_base: ['gauge', ['pair', 'exchange']],
  ledger_mm_hedge_unhedged_base: ['gauge', ['pair']],
  ledger_mm_hedge_venue_failing: ['gauge', ['pair', 'exchange']],
  ledger_mm_hedge_at_cap: ['gauge', ['pair']],
  ledger_mm_hedge_cost_quote: ['gauge', ['pair', 'part']],
  ledger_mm_hedge_orders_total: ['counter', ['pair']],
  ledger_mm_hedge_fills_total: ['counter', ['pair']],
  // control
  ledger_mm_ready: ['gauge', []],
  ledger_mm_account_status: ['gauge', ['status']],
  ledger_mm_risk_state: ['gauge', ['pair', 'state']],
  ledger_mm_paused: ['gauge', ['pair', 'side', 'reason']],
  ledger_mm_risk_denials_total: ['counter', ['pair', 'reason']],
  ledger_mm_config_reloads_total: ['counter', ['outcome']],
  ledger_mm_build_info: ['gauge', ['version', 'commit']],
  ledger_mm_event_loop_lag_seconds: ['gauge', []],
  ledger_mm_event_loop_lag_max_seconds: ['gauge', []],
  ledger_mm_metrics_collect_errors_total: ['counter', []],
  ledger_mm_metrics_label_overflow_total: ['counter', []],
};

/** Extra labels beyond pair, side, level, stage, code, outcome: each justified in the module docs. */
const EXTRA_LABELS = new Set([
  'party',
  'instrument',
  'token',
  'state',
  'endpoint',
  'status',
  'poller',
  'reason',
  'cause',
  'version',
  'commit',
  'horizon',
  'source',
  'exchange',
  'part',
]);
const CORE_LABELS = new Set(['pair', 'side', 'level', 'stage', 'code', 'outcome']);

const isDefault = (name: string): boolean => name.startsWith('process_') || name.startsWith('nodejs_');

let metrics: Metrics | null = null;
afterEach(() => {
  metrics?.close();
  metrics = null;
});

async function populated(): Promise<Map<string, Family>> {
  const now = 1_800_000_000_000;
  metrics = createMetrics({ pairs: ['BTC/USDC', 'ETH/USDC'], now: () => now });
  populate(metrics, now);
  registerStateCollector(metrics, () => benchView(now));
  return parseExposition(await metrics.scrape());
}

function labelNames(f: Family): string[] {
  const names = new Set<string>();
  for (const s of f.samples) for (const k of Object.keys(s.labels)) if (k !== 'le') names.add(k);
  return [...names].sort();
}

describe('the metric catalogue', () => {
  it('registers every metric with a HELP text, the right type and the right labels', async () => {
    const families = await populated();
    const ours = [...families.values()].filter((f) => !isDefault(f.name));
    expect(ours.map((f) => f.name).sort()).toEqual(Object.keys(CATALOGUE).sort());
    for (const f of ours) {
      const [type, labels] = CATALOGUE[f.name]!;
      expect(f.help.length, f.name).toBeGreaterThan(15);
      expect(f.type, f.name).toBe(type);
      // The bench's population feeds every metric, so every family shows its labels.
      expect(f.samples.length, f.name).toBeGreaterThan(0);
      expect(labelNames(f), f.name).toEqual([...labels].sort());
    }
  });

  it('follows the naming conventions', async () => {
    const families = await populated();
    for (const f of families.values()) {
      if (isDefault(f.name)) continue;
      expect(f.name, f.name).toMatch(/^ledger_mm_[a-z0-9_]+$/);
      for (const s of f.samples) expect(Number.isFinite(s.value), `${s.name} ${s.value}`).toBe(true);
      expect(f.name).not.toMatch(/_(ms|millis|milliseconds|minutes|percent)(_|$)/);
      if (f.type === 'counter') expect(f.name, f.name).toMatch(/_total$/);
      else expect(f.name, f.name).not.toMatch(/_total$/);
      if (f.type === 'histogram') expect(f.name, f.name).toMatch(/_(seconds|bps)$/);
      if (/(age|lag|duration|timestamp)/.test(f.name)) expect(f.name, f.name).toMatch(/_seconds(_total)?$/);
      if (/(inventory|pnl|filled)/.test(f.name)) expect(f.name, f.name).toMatch(/_(base|quote)(_total)?$/);
      if (/price/.test(f.name)) expect(f.name, f.name).toMatch(/_price$/);
      for (const l of CATALOGUE[f.name]![1]) expect(CORE_LABELS.has(l) || EXTRA_LABELS.has(l), l).toBe(true);
    }
  });

  it('keeps the default process metrics under their conventional names', async () => {
    const families = await populated();
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(families.get('nodejs_gc_duration_seconds')?.type).toBe('histogram');
    // prom-client's gauges named like counters are left out (promtool check metrics flags them);
    // their per-type twins stay.
    for (const name of ['handles', 'requests', 'resources']) {
      expect(families.has(`nodejs_active_${name}_total`), name).toBe(false);
    }
    expect(families.has('nodejs_active_handles')).toBe(true);
  });

  it('leaves the misnamed gauges out under a prefix too', async () => {
    metrics = createMetrics({ defaultMetricsPrefix: 'mm_' });
    const families = parseExposition(await metrics.scrape());
    expect(families.has('mm_nodejs_active_handles_total')).toBe(false);
    expect(families.has('mm_nodejs_active_handles')).toBe(true);
    expect(families.has('mm_process_cpu_seconds_total')).toBe(true);
  });

  it('uses a dedicated registry: nothing lands in the global one, and two instances coexist', async () => {
    await populated();
    const second = createMetrics();
    try {
      await expect(second.scrape()).resolves.toContain('ledger_mm_build_info');
    } finally {
      second.close();
    }
    expect(globalRegister.getMetricsAsArray().some((m) => m.name.startsWith('ledger_mm_'))).toBe(false);
  });

  it('exposes the zero-filled series from the first scrape, and the build info', async () => {
    metrics = createMetrics({ build: { version: '9.9.9', commit: 'abc1234' } });
    const families = parseExposition(await metrics.scrape());
    const orders = families.get('ledger_mm_orders')!.samples;
    expect(orders.map((s) => s.labels.state)).toContain('UNKNOWN');
    expect(orders.map((s) => s.labels.state)).toContain('STRANDED');
    expect(orders).toHaveLength(17);
    expect(orders.every((s) => s.value === 0)).toBe(true);
    expect(families.get('ledger_mm_config_reloads_total')!.samples).toHaveLength(2);
    // The counters alerts read with increase(): at 0 from the start, so the first event counts.
    const zero = (name: string, label: string): [string | undefined, number][] =>
      families.get(name)!.samples.map((s) => [s.labels[label], s.value]);
    expect(zero('ledger_mm_echo_refused_total', 'stage')).toEqual([
      ['prepare', 0],
      ['cancel_prepare', 0],
    ]);
    expect(zero('ledger_mm_execution_alarms_total', 'reason')).toEqual([
      ['echo_mismatch', 0],
      ['stranded', 0],
      ['unknown_unresolved', 0],
      ['internal_error', 0],
      ['api_key_refused', 0],
    ]);
    // Not ready, and the account not read, until the daemon's state says otherwise.
    expect(families.get('ledger_mm_ready')!.samples).toEqual([
      { name: 'ledger_mm_ready', labels: {}, value: 0 },
    ]);
    expect(zero('ledger_mm_account_status', 'status')).toEqual([
      ['ACTIVE', 0],
      ['SUSPENDED', 0],
      ['DISABLED', 0],
      ['unknown', 1],
    ]);
    expect(families.get('ledger_mm_build_info')!.samples).toEqual([
      { name: 'ledger_mm_build_info', labels: { version: '9.9.9', commit: 'abc1234' }, value: 1 },
    ]);
  });

  it('reads the version from package.json by default', async () => {
    metrics = createMetrics({ defaultMetrics: false });
    const { version } = metrics.build;
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
