/**
 * The `watchdog` config section, shared by the two processes so they read the same file: the
 * dead-man switch's side (`ledger-mm watchdog`: where it reads the heartbeat, when the daemon
 * counts as dead, its sweep of cancels, its own journal and metrics server) and the daemon's
 * side (its heartbeat file, when /healthz turns dead, the watchdog's /status for cancels it did
 * not make).
 */
import type { SchemaOf } from '../define.js';
import {
  HOST,
  OPTIONAL_PATH,
  OPTIONAL_PROBE_URL,
  PATH,
  PORT,
  PROBE_URL,
  SHORT_TEXT,
  intFormat,
} from '../formats.js';

/** Where the watchdog reads the daemon's heartbeat. */
export const HEARTBEAT_SOURCES = ['http', 'file'] as const;
export type HeartbeatSource = (typeof HEARTBEAT_SOURCES)[number];

/**
 * The dead-man switch (`ledger-mm watchdog`, `src/watchdog/`), and the daemon's side of it (its
 * heartbeat). One section for both, so the two processes read the same file.
 */
export interface WatchdogConfig {
  readonly source: HeartbeatSource;
  readonly healthUrl: string;
  /** Absolute after loading, or `''`. */
  readonly heartbeatFile: string;
  readonly deadAfterMs: number;
  readonly pollMs: number;
  readonly probeTimeoutMs: number;
  readonly sweepMs: number;
  /** Absolute after loading. */
  readonly storePath: string;
  readonly cancelReason: string;
  readonly heartbeatStaleMs: number;
  readonly startupGraceMs: number;
  readonly statusUrl: string;
  readonly metrics: { readonly host: string; readonly port: number };
}

export const watchdogSchema: SchemaOf<WatchdogConfig> = {
  source: {
    doc: 'Watchdog: where it reads the daemon\'s heartbeat: "http" polls watchdog.healthUrl (a 200 is a heartbeat), "file" watches watchdog.heartbeatFile on a shared volume (a new beat marked alive is a heartbeat).',
    format: HEARTBEAT_SOURCES,
    default: 'http',
    env: 'LEDGER_MM_WATCHDOG_SOURCE',
  },
  healthUrl: {
    doc: "Watchdog: the daemon's /healthz (plain http to any host is allowed: it carries no secret).",
    format: PROBE_URL,
    default: 'http://127.0.0.1:9464/healthz',
    env: 'LEDGER_MM_WATCHDOG_HEALTH_URL',
  },
  heartbeatFile: {
    doc: 'Both sides: a heartbeat file. The daemon rewrites it every second while its quote cycle runs (when set); the watchdog reads it with source "file". Empty: no file.',
    format: OPTIONAL_PATH,
    default: '',
    env: 'LEDGER_MM_WATCHDOG_HEARTBEAT_FILE',
  },
  deadAfterMs: {
    doc: 'Watchdog: the daemon is dead once its heartbeat has been silent this long, in ms; then every resting order of the party is cancelled.',
    format: intFormat(1_000, 3_600_000),
    default: 60_000,
    env: 'LEDGER_MM_WATCHDOG_DEAD_AFTER_MS',
  },
  pollMs: {
    doc: 'Watchdog: how often the heartbeat is read, in ms.',
    format: intFormat(100, 60_000),
    default: 5_000,
  },
  probeTimeoutMs: {
    doc: 'Watchdog: bound on one /healthz request, in ms. A slow 200 (a busy daemon) still counts as a heartbeat.',
    format: intFormat(100, 120_000),
    default: 10_000,
  },
  sweepMs: {
    doc: 'Watchdog: while the daemon is dead, how often the OPEN list is read again (and whatever rests cancelled), in ms.',
    format: intFormat(100, 600_000),
    default: 10_000,
  },
  storePath: {
    doc: "Watchdog: its own SQLite journal of the cancels it makes (never the daemon's store, which may be on a dead host).",
    format: PATH,
    default: './var/watchdog.sqlite',
    env: 'LEDGER_MM_WATCHDOG_STORE_PATH',
  },
  cancelReason: {
    doc: "Watchdog: the `reason` of its cancel requests (the venue records it for audit). The contract's Order shape does not return it, so the daemon cannot read it back.",
    format: SHORT_TEXT,
    default: 'ledger-mm-watchdog: daemon heartbeat lost',
  },
  heartbeatStaleMs: {
    doc: 'Daemon: /healthz answers 503 (dead, to the watchdog) once the quote cycle has not completed for this long, in ms, while the daemon is running.',
    format: intFormat(1_000, 3_600_000),
    default: 15_000,
  },
  startupGraceMs: {
    doc: 'Daemon: before its quote cycle first runs (preflight, recovery), /healthz answers 200 for at most this long after the start, in ms; past it a daemon that never gets to quoting reads as dead.',
    format: intFormat(0, 3_600_000),
    default: 180_000,
  },
  statusUrl: {
    doc: "Daemon: the watchdog's /status (e.g. http://ledger-mm-watchdog:9466/status). When set, an order of ours found cancelled on the venue without a cancel of our own is looked up there, and one the watchdog cancelled is logged, counted and journaled as such. Empty (the default): such cancels are reported as cancelled on the venue, cause not shown (the venue's order shape does not return the cancel reason).",
    format: OPTIONAL_PROBE_URL,
    default: '',
    env: 'LEDGER_MM_WATCHDOG_STATUS_URL',
  },
  metrics: {
    host: {
      doc: 'Watchdog: address of its own /metrics and /healthz server.',
      format: HOST,
      default: '127.0.0.1',
      env: 'LEDGER_MM_WATCHDOG_METRICS_HOST',
    },
    port: {
      doc: 'Watchdog: port of its own /metrics and /healthz server (0: any free port).',
      format: PORT,
      default: 9466,
      env: 'LEDGER_MM_WATCHDOG_METRICS_PORT',
    },
  },
};
