/**
 * Control: readiness, the account's status, the risk gate's standing per pair, config reloads,
 * build info, the event loop, and the metrics module's own health.
 *
 * `ledger_mm_ready` is the `/readyz` verdict as a number (1 ready, 0 not), read from the same
 * provider on each scrape (`registerReadinessGauge`), so an alert on it and a probe on `/readyz`
 * never disagree. It is 0 until a provider is registered.
 *
 * `ledger_mm_account_status` is one-hot like the risk state: one series per status (`ACTIVE`,
 * `SUSPENDED`, `DISABLED`, and `unknown` before the account was read or for a status the venue
 * contract does not name), exactly one of them 1. Set on scrape from the daemon's last account
 * read; a failing API key does not change it (the last read stands), `ledger_mm_ready` does.
 *
 * `ledger_mm_risk_state` is one-hot: for each pair, one series per state (`active`, `reducing`,
 * `halted`), exactly one of them 1. One-hot (the Prometheus "enum"/StateSet pattern) rather than
 * a numeric code, so `ledger_mm_risk_state{state="halted"} == 1` needs no legend and `sum by
 * (state)` counts pairs per state.
 *
 * `ledger_mm_paused` has one series per pair and side held on purpose (`reason`: `operator`,
 * `kill_switch`, `daily_loss`), set on scrape; a side quoting has none.
 *
 * Extra labels: `state` (3 values) on the risk gauge; `status` (4 values) on the account gauge;
 * `reason` on denials (the gate's closed `RiskRule` list); `version`/`commit` on the one
 * `ledger_mm_build_info` series.
 */
import type { Counter, Gauge } from 'prom-client';

import type { MetricFactory } from './metric-factory.js';

/** See the module doc. */
export interface ControlMetrics {
  readonly ready: Gauge;
  readonly accountStatus: Gauge<'status'>;
  readonly riskState: Gauge<'pair' | 'state'>;
  readonly riskDenials: Counter<'pair' | 'reason'>;
  readonly paused: Gauge<'pair' | 'side' | 'reason'>;
  readonly configReloads: Counter<'outcome'>;
  readonly buildInfo: Gauge<'version' | 'commit'>;
  readonly eventLoopLag: Gauge;
  readonly eventLoopLagMax: Gauge;
  readonly collectErrors: Counter;
  readonly labelOverflow: Counter;
}

/** The risk states, in the order of severity. */
export const RISK_STATES = ['active', 'reducing', 'halted'] as const;

/** The `status` values of `ledger_mm_account_status`: the contract's statuses, and `unknown`. */
export const ACCOUNT_STATUSES = ['ACTIVE', 'SUSPENDED', 'DISABLED', 'unknown'] as const;
/** A value of the `status` label of `ledger_mm_account_status`. */
export type AccountStatusLabel = (typeof ACCOUNT_STATUSES)[number];

/** The account status as a label value: `unknown` when not read yet (null) or not a contract status. */
export function accountStatusLabel(status: string | null): AccountStatusLabel {
  return status === 'ACTIVE' || status === 'SUSPENDED' || status === 'DISABLED' ? status : 'unknown';
}

/** Registers the control metrics. */
export function createControlMetrics(f: MetricFactory): ControlMetrics {
  return {
    ready: f.gauge(
      'ledger_mm_ready',
      '1 when the daemon is ready to quote (the /readyz verdict, same provider), else 0; /readyz lists the reasons.',
      [],
      true,
    ),
    accountStatus: f.gauge(
      'ledger_mm_account_status',
      'Account status as last read, one-hot: 1 on the current status (ACTIVE, SUSPENDED, DISABLED, unknown), 0 on the others.',
      ['status'],
      true,
    ),
    riskState: f.gauge(
      'ledger_mm_risk_state',
      'Risk gate standing per pair, one-hot: 1 on the current state (active, reducing, halted), 0 on the others.',
      ['pair', 'state'],
      true,
    ),
    paused: f.gauge(
      'ledger_mm_paused',
      '1 for each pair and side held on purpose, by why: operator (ledger-mm pause), kill_switch (risk.killSwitch; until ledger-mm resume), daily_loss (risk.dailyLoss; until the UTC day ends). No series: quoting there.',
      ['pair', 'side', 'reason'],
      true,
    ),
    riskDenials: f.counter(
      'ledger_mm_risk_denials_total',
      'Placements the risk gate denied, by pair and rule.',
      ['pair', 'reason'],
    ),
    configReloads: f.counter(
      'ledger_mm_config_reloads_total',
      'Config reloads (SIGHUP or file change), by outcome: applied or rejected (old config kept).',
      ['outcome'],
    ),
    buildInfo: f.gauge(
      'ledger_mm_build_info',
      'Always 1; the labels name the running version and source commit.',
      ['version', 'commit'],
    ),
    eventLoopLag: f.gauge(
      'ledger_mm_event_loop_lag_seconds',
      'Event-loop delay p99 over the last monitoring window (10 s by default); the figure /healthz checks.',
      [],
      true,
    ),
    eventLoopLagMax: f.gauge(
      'ledger_mm_event_loop_lag_max_seconds',
      'Largest event-loop delay in the last monitoring window (10 s by default).',
      [],
      true,
    ),
    collectErrors: f.counter(
      'ledger_mm_metrics_collect_errors_total',
      'Scrapes during which reading the daemon state failed (the series kept their previous values).',
    ),
    labelOverflow: f.counter(
      'ledger_mm_metrics_label_overflow_total',
      'Label values refused (malformed, unknown, or over the cardinality cap) and reported as "other".',
    ),
  };
}
