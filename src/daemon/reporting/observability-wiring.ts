/**
 * The daemon's observability: Prometheus metrics and the `/metrics`, `/healthz`, `/readyz`,
 * `/status` server on `metrics.host`:`metrics.port`, as a {@link DaemonAttachment} for
 * `runDaemon`:
 *
 * ```ts
 * attachments: seams.attachments ?? [observabilityAttachment({ config: loaded.config })],
 * ```
 *
 * It builds the metrics before the daemon (the venue client's hooks go in with it), and on
 * `attach`: subscribes to ONE stream, `daemon.subscribe` (execution events, the registry's order
 * observations, config reloads, and each cycle's risk denials; binding `daemon.execution` as
 * well would count twice), reads `daemon.stateView()` on each scrape, and serves
 * `daemon.readiness()` (on `/readyz`, and as `ledger_mm_ready` on each scrape: one verdict) and a
 * status document. Metrics observe; nothing here feeds back.
 */
import { systemClock, type Clock } from '../../core/clock.js';
import type { MmConfig, WatchdogConfig } from '../../config/schema.js';
import type { Logger } from '../../logging/logger.js';
import { observeEvent } from '../../observability/bind-events.js';
import { observeConfigReload, observeRiskDenials } from '../../observability/control-events.js';
import { observeMarkoutEvent } from '../../observability/metrics/markout-metrics.js';
import { createMetrics, type Metrics } from '../../observability/metrics/create-metrics.js';
import { DaemonHeartbeat, HeartbeatFileWriter } from '../../observability/http/heartbeat.js';
import { ObservabilityServer } from '../../observability/http/http-server.js';
import type { Readiness } from '../../observability/http/readiness.js';
import { registerReadinessGauge } from '../../observability/metrics/readiness-gauge.js';
import { registerStateCollector } from '../../observability/state-collector.js';
import type { DaemonStateView } from '../../observability/http/state-view.js';
import { buildStatusReport } from '../../observability/http/status-report.js';
import { bindVenueClientHooks } from '../../observability/venue-hooks.js';
import type { DaemonEvent } from '../daemon-types.js';
import type { DaemonAttachment } from '../run-daemon.js';
import type { PairReferenceReport } from '../../market/reference/exchanges-reference.js';
import { ReferenceMetricsWriter } from '../../observability/reference-metrics.js';
import type { ControlEndpoint } from '../../observability/http/control-route.js';
import { controlCredential } from '../control/control-token.js';
import { PartyMetricsWriter, type PartyView } from '../../observability/party-metrics.js';
import { HedgeMetricsWriter } from '../../observability/hedge-metrics.js';
import { hedgeStatus } from '../../observability/http/hedge-status.js';
import type { PairHedgeReport } from '../../hedge/hedging.js';

/** What the wiring needs of the daemon (the `Daemon` fits). */
export interface ObservableDaemon {
  readonly phase: string;
  subscribe(listener: (event: DaemonEvent) => void): () => void;
  readiness(): Readiness;
  stateView(): DaemonStateView;
  /** The "exchanges" reference's sources (absent or empty: no reference metrics). */
  referenceReport?(): readonly PairReferenceReport[];
  /** The control endpoint's handler (pause, resume); served when the config's `control` is on. */
  readonly control?: ControlEndpoint & { credential: ControlEndpoint['credential'] };
  /** The firm's parties (absent or empty: one party, no party metrics). */
  partyReport?(): readonly PartyView[];
  /** The hedged pairs (absent or empty: no hedge metrics). */
  hedgeReport?(): readonly PairHedgeReport[];
}

/** Options of {@link observabilityAttachment}. */
export interface ObservabilityWiringOptions {
  /**
   * `pairs` bound the pair label; `metrics.host`/`metrics.port` are where the server listens;
   * `watchdog` (when given) sets the heartbeat `/healthz` answers and the heartbeat file.
   */
  readonly config: Pick<MmConfig, 'pairs' | 'metrics'> & Partial<Pick<MmConfig, 'watchdog' | 'control'>>;
  /** The daemon's clock (ages are measured on it). Default the system clock. */
  readonly clock?: Clock;
  /** `/healthz` fails above this event-loop lag, seconds. Default 1. */
  readonly maxEventLoopLagSeconds?: number;
}

/** The running observability of one daemon. */
export interface AttachedObservability {
  /** Where the server listens (the real port when `metrics.port` is 0). */
  readonly address: { host: string; port: number };
  /** Stops the server and the subscriptions. Idempotent. */
  close(): Promise<void>;
}

/** A {@link DaemonAttachment} that also exposes its metrics and the server's address. */
export interface ObservabilityAttachment extends DaemonAttachment {
  readonly metrics: Metrics;
  attach(daemon: ObservableDaemon, logger: Logger): Promise<AttachedObservability>;
}

/** The attachment for `runDaemon` (`run` and `paper`). */
export function observabilityAttachment(opts: ObservabilityWiringOptions): ObservabilityAttachment {
  const clock = opts.clock ?? systemClock;
  const metrics = createMetrics({ pairs: opts.config.pairs, now: () => clock.now() });
  return {
    metrics,
    venueHooks: bindVenueClientHooks(metrics),
    attach: (daemon, logger) =>
      attachObservability(metrics, daemon, {
        host: opts.config.metrics.host,
        port: opts.config.metrics.port,
        logger,
        clock,
        control: controlEndpoint(daemon, opts.config),
        ...(opts.config.watchdog === undefined ? {} : { heartbeat: opts.config.watchdog }),
        ...(opts.maxEventLoopLagSeconds === undefined
          ? {}
          : { maxEventLoopLagSeconds: opts.maxEventLoopLagSeconds }),
      }),
  };
}

/**
 * The daemon's control endpoint with its credential set, when the config turns it on
 * (`control.enabled`); else undefined (no control routes). Throws ControlTokenError (the
 * attachment's start fails: the daemon does not run) when the token file cannot be used, or the
 * server would listen on a non-loopback address without a token.
 */
function controlEndpoint(
  daemon: ObservableDaemon,
  config: ObservabilityWiringOptions['config'],
): ControlEndpoint | undefined {
  const control = daemon.control;
  if (control === undefined || config.control?.enabled !== true) return undefined;
  control.credential = controlCredential(config.control, config.metrics.host);
  return control;
}

/**
 * Binds `metrics` to `daemon` and starts the server. Rejects when the server cannot listen (the
 * port is taken, the host is not local): running a market maker without its metrics and health
 * endpoints is refused rather than done blind.
 */
export async function attachObservability(
  metrics: Metrics,
  daemon: ObservableDaemon,
  opts: {
    host: string;
    port: number;
    logger?: Logger;
    maxEventLoopLagSeconds?: number;
    clock?: Clock;
    /** The control endpoint (pause, resume); absent: no control routes. */
    control?: ControlEndpoint | undefined;
    /** The heartbeat's settings (config `watchdog`); absent: `/healthz` checks the event loop only. */
    heartbeat?: Pick<WatchdogConfig, 'heartbeatStaleMs' | 'startupGraceMs' | 'heartbeatFile'>;
  },
): Promise<AttachedObservability> {
  const clock = opts.clock ?? systemClock;
  const hb = opts.heartbeat;
  const heartbeat =
    hb === undefined
      ? null
      : new DaemonHeartbeat({ clock, staleMs: hb.heartbeatStaleMs, startupGraceMs: hb.startupGraceMs });
  if (heartbeat !== null) heartbeat.observe({ type: 'daemon-phase', phase: daemon.phase, at: clock.now() });
  const unsubscribe = daemon.subscribe((e) => {
    heartbeat?.observe(e);
    observeDaemonEvent(metrics, e);
  });
  const beatFile =
    heartbeat === null || hb === undefined || hb.heartbeatFile === ''
      ? null
      : new HeartbeatFileWriter({
          clock,
          file: hb.heartbeatFile,
          verdict: () => heartbeat.verdict(),
          onError: (err) =>
            opts.logger?.warn({ err }, `heartbeat file ${hb.heartbeatFile} cannot be written`),
        });
  const collector = registerStateCollector(metrics, () => daemon.stateView());
  const referenceWriter = new ReferenceMetricsWriter(metrics.reference);
  const unhookReference = metrics.hooks.add(() => referenceWriter.refresh(daemon.referenceReport?.() ?? []));
  const partyWriter = new PartyMetricsWriter(metrics.parties);
  const unhookParties = metrics.hooks.add(() => partyWriter.refresh(daemon.partyReport?.() ?? []));
  const hedgeWriter = new HedgeMetricsWriter(metrics.hedge);
  const unhookHedge = metrics.hooks.add(() => hedgeWriter.refresh(daemon.hedgeReport?.() ?? []));
  const readiness = (): Readiness => daemon.readiness();
  const unregisterReady = registerReadinessGauge(metrics, readiness);
  const server = new ObservabilityServer({
    host: opts.host,
    port: opts.port,
    metrics,
    readiness,
    status: () => ({
      phase: daemon.phase,
      ...buildStatusReport(daemon.stateView(), { readiness: readiness(), queues: metrics.queues.view() }),
      ...partiesOf(daemon),
      ...hedgeStatus(daemon.hedgeReport?.() ?? []),
    }),
    eventLoop: metrics.eventLoop,
    ...(opts.control === undefined ? {} : { control: opts.control }),
    ...(heartbeat === null ? {} : { heartbeat: () => heartbeat.verdict() }),
    ...(opts.maxEventLoopLagSeconds === undefined
      ? {}
      : { maxEventLoopLagSeconds: opts.maxEventLoopLagSeconds }),
    onError: (route, err) => opts.logger?.warn({ err, route }, `observability endpoint ${route} failed`),
  });
  const release = (): void => {
    unsubscribe();
    unhookReference();
    unhookParties();
    unhookHedge();
    collector.unregister();
    unregisterReady();
    metrics.close();
  };
  let address: { host: string; port: number };
  try {
    address = await server.start();
  } catch (err) {
    release();
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`the metrics server cannot listen on ${opts.host}:${opts.port}: ${reason}`, {
      cause: err,
    });
  }
  opts.logger?.info(address, `metrics and health on http://${address.host}:${address.port}/metrics`);
  beatFile?.start();
  let closing: Promise<void> | null = null;
  return {
    address,
    close: () => {
      closing ??= Promise.all([server.close(), beatFile?.close()])
        .then(() => undefined)
        .finally(release);
      return closing;
    },
  };
}

/**
 * One daemon event: execution events and order observations (`observeEvent`), config reload
 * outcomes, and the risk denials of each quote cycle (counted per evaluation).
 */
export function observeDaemonEvent(metrics: Metrics, e: DaemonEvent): void {
  observeEvent(metrics, e);
  try {
    if (e.type === 'config-reload') observeConfigReload(metrics, e);
    else if (e.type === 'cycle') observeRiskDenials(metrics, e.report.verdict);
    observeMarkoutEvent(metrics.markouts, metrics.labels, e);
  } catch {
    metrics.control.collectErrors.inc();
  }
}

/** The firm's parties for `/status`, when it runs several. */
function partiesOf(daemon: ObservableDaemon): { parties?: readonly PartyView[] } {
  const parties = daemon.partyReport?.() ?? [];
  return parties.length === 0 ? {} : { parties };
}
