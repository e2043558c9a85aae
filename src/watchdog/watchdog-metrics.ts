/**
 * The watchdog's Prometheus metrics (prefix `ledger_mm_watchdog_`, plus Node's default
 * `process_*` and `nodejs_*`), on a registry of its own. Metrics observe; the watchdog decides
 * from its own state, never from these.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** See the module doc. */
export interface WatchdogMetrics {
  readonly registry: Registry;
  readonly contentType: string;
  /** Unix seconds of the last heartbeat seen (0 before the first). */
  readonly lastHeartbeat: Gauge;
  /** Seconds since the last heartbeat (or since the watchdog started, before the first). */
  readonly heartbeatAge: Gauge;
  /** 1 while the daemon counts as alive (not triggered), 0 once declared dead. */
  readonly daemonAlive: Gauge;
  readonly triggers: Counter;
  readonly sweeps: Counter;
  readonly ordersCancelled: Counter;
  readonly cancelFailures: Counter<'reason'>;
  readonly probeFailures: Counter;
  /** Resting orders of the party at the last sweep's re-list. */
  readonly restingOrders: Gauge;
  /** From the last trigger to nothing resting, seconds (absent until it happened once). */
  readonly clearSeconds: Gauge;
  scrape(): Promise<string>;
  close(): void;
}

/** Reasons a cancel of the watchdog did not take effect (`cancel_failures_total{reason}`). */
export const CANCEL_FAILURE_REASONS = [
  'failed',
  'stranded',
  'echo_mismatch',
  'aborted',
  'not_resting',
  'untracked',
  'sweep_failed',
] as const;
export type CancelFailureReason = (typeof CANCEL_FAILURE_REASONS)[number];

/** Builds the registry. `heartbeatAgeSeconds` is read on each scrape. */
export function createWatchdogMetrics(o: { heartbeatAgeSeconds: () => number }): WatchdogMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const p = 'ledger_mm_watchdog_';
  const registers = [registry];
  const lastHeartbeat = new Gauge({
    name: `${p}last_heartbeat_timestamp_seconds`,
    help: 'Unix time of the last heartbeat of the daemon seen by the watchdog (0: none yet)',
    registers,
  });
  const heartbeatAge = new Gauge({
    name: `${p}heartbeat_age_seconds`,
    help: 'Seconds since the last heartbeat seen (since the watchdog started, before the first)',
    registers,
    collect() {
      this.set(o.heartbeatAgeSeconds());
    },
  });
  const daemonAlive = new Gauge({
    name: `${p}daemon_alive`,
    help: '1 while the daemon counts as alive; 0 once its heartbeat was silent for watchdog.deadAfterMs',
    registers,
  });
  const triggers = new Counter({
    name: `${p}triggers_total`,
    help: 'Times the heartbeat went silent for watchdog.deadAfterMs and the watchdog began cancelling',
    registers,
  });
  const sweeps = new Counter({
    name: `${p}sweeps_total`,
    help: 'Cancel sweeps (list the OPEN orders, cancel each) run while the daemon was dead',
    registers,
  });
  const ordersCancelled = new Counter({
    name: `${p}orders_cancelled_total`,
    help: 'Orders the watchdog cancelled (its cancel submission took effect)',
    registers,
  });
  const cancelFailures = new Counter<'reason'>({
    name: `${p}cancel_failures_total`,
    help: 'Cancels of the watchdog that did not take effect, by reason',
    labelNames: ['reason'],
    registers,
  });
  const probeFailures = new Counter({
    name: `${p}heartbeat_misses_total`,
    help: 'Heartbeat reads that did not show an alive daemon (no answer, 503, a stale file)',
    registers,
  });
  const restingOrders = new Gauge({
    name: `${p}resting_orders`,
    help: 'Resting orders of the party at the last re-list of a sweep',
    registers,
  });
  const clearSeconds = new Gauge({
    name: `${p}last_clear_seconds`,
    help: 'Seconds from the last trigger to nothing of the party resting',
    registers,
  });
  for (const reason of CANCEL_FAILURE_REASONS) cancelFailures.inc({ reason }, 0);
  daemonAlive.set(1);
  return {
    registry,
    contentType: registry.contentType,
    lastHeartbeat,
    heartbeatAge,
    daemonAlive,
    triggers,
    sweeps,
    ordersCancelled,
    cancelFailures,
    probeFailures,
    restingOrders,
    clearSeconds,
    scrape: () => registry.metrics(),
    close: () => registry.clear(),
  };
}
