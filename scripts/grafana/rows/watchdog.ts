/**
 * The dead-man switch (`ledger-mm watchdog`, scrape job ledger-mm-watchdog). Every query ends in
 * `or vector(0)`: without a watchdog (paper mode) the panels read 0, which is what they count.
 */
import type { PanelSpec } from '../panel-spec.js';

const JOB = 'job="ledger-mm-watchdog"';

export const ROW = 'Watchdog';
export const PANELS = [
  {
    kind: 'stat',
    title: 'Watchdogs up',
    description:
      'Watchdog processes Prometheus scrapes successfully (job ledger-mm-watchdog). 0 with a live daemon: nothing pulls its quotes if it dies; LedgerMmWatchdogDown fires after 5 minutes of a failed scrape.',
    unit: 'short',
    w: 6,
    h: 5,
    decimals: 0,
    thresholds: [
      ['red', null],
      ['green', 1],
    ],
    colorMode: 'background',
    targets: [['up', `count(up{${JOB}} == 1) or vector(0)`]],
  },
  {
    kind: 'stat',
    title: 'Watchdogs that count the daemon dead',
    description:
      'Watchdogs whose ledger_mm_watchdog_daemon_alive is 0: no heartbeat for watchdog.deadAfterMs, so they are cancelling every resting order of the party (LedgerMmWatchdogTriggered).',
    unit: 'short',
    w: 6,
    h: 5,
    decimals: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    colorMode: 'background',
    targets: [['dead', `count(ledger_mm_watchdog_daemon_alive{${JOB}} == 0) or vector(0)`]],
  },
  {
    kind: 'stat',
    title: 'Watchdog triggers (time range)',
    description:
      'Times a watchdog found the heartbeat silent for watchdog.deadAfterMs and began cancelling, over the selected time range (ledger_mm_watchdog_triggers_total).',
    unit: 'short',
    w: 6,
    h: 5,
    decimals: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    colorMode: 'value',
    targets: [
      ['triggers', `sum(increase(ledger_mm_watchdog_triggers_total{${JOB}}[$__range])) or vector(0)`],
    ],
  },
  {
    kind: 'stat',
    title: 'Resting orders at the last sweep',
    description:
      'Resting orders of the party at the last re-list of a watchdog sweep (ledger_mm_watchdog_resting_orders); a sweep ends when this reaches 0.',
    unit: 'short',
    w: 6,
    h: 5,
    decimals: 0,
    thresholds: [
      ['green', null],
      ['orange', 1],
    ],
    colorMode: 'value',
    targets: [['resting', `sum(ledger_mm_watchdog_resting_orders{${JOB}}) or vector(0)`]],
  },
  {
    kind: 'timeseries',
    title: 'Watchdog cancels and heartbeat misses per minute',
    description:
      'Orders the watchdog cancelled, cancels that did not take effect, and heartbeat reads that did not show an alive daemon (no answer, 503, a stale file), per minute.',
    unit: 'short',
    w: 24,
    min: 0,
    thresholds: [
      ['green', null],
      ['red', 1],
    ],
    targets: [
      [
        'cancelled',
        `sum(rate(ledger_mm_watchdog_orders_cancelled_total{${JOB}}[$__rate_interval])) * 60 or vector(0)`,
      ],
      [
        'cancel failures',
        `sum(rate(ledger_mm_watchdog_cancel_failures_total{${JOB}}[$__rate_interval])) * 60 or vector(0)`,
      ],
      [
        'heartbeat misses',
        `sum(rate(ledger_mm_watchdog_heartbeat_misses_total{${JOB}}[$__rate_interval])) * 60 or vector(0)`,
      ],
    ],
  },
] as const satisfies readonly PanelSpec[];
