/**
 * `ledger-mm watchdog`: the dead-man switch. A small long-running process for a sidecar
 * container or, better, another host: it watches the daemon's heartbeat and, when it has been
 * silent for `watchdog.deadAfterMs`, cancels every resting order of the party through the
 * daemon's own cancel code, journaling in its own store. It never places an order.
 */
import { systemClock, type Clock } from '../core/clock.js';
import type { MmConfig } from '../config/schema.js';
import { verificationOf } from '../config/sections/signing.js';
import type { ProcessSeam } from '../daemon/signals.js';
import { createLogger, type LogDestination } from '../logging/logger.js';
import { ObservabilityServer } from '../observability/http/http-server.js';
import { CancelSweeper } from '../watchdog/cancel-sweep.js';
import { FirmSweeper, type PartySweeper } from '../watchdog/firm-sweep.js';
import { partyStorePath } from '../daemon/startup/party-store.js';
import type { VenueClient } from '../venue/client.js';
import { fileProbe, httpProbe, type HeartbeatProbe } from '../watchdog/heartbeat-probe.js';
import { Watchdog } from '../watchdog/watchdog.js';
import { createWatchdogMetrics } from '../watchdog/watchdog-metrics.js';
import { EXIT, type Command, type CommandIo } from './command.js';
import { operatorSigning, operatorStartup } from './support/operator-setup.js';
import { commandParties, type CommandParty } from './support/party-scope.js';

const NAME = 'watchdog';

const USAGE = `Usage: ledger-mm watchdog [--config FILE]...

The dead-man switch. Watches the daemon's heartbeat (watchdog.source: "http" polls
watchdog.healthUrl, the daemon's /healthz, which answers 200 only while its quote cycle runs;
"file" watches watchdog.heartbeatFile on a shared volume). When no heartbeat has been seen for
watchdog.deadAfterMs (default 60 s), it cancels every resting order of the party
(GET /orders?status=OPEN, every page), several at once, each through the daemon's own cancel
code (current contractId, prepare, echo check, sign, submit, confirm), and lists again every
watchdog.sweepMs until nothing rests, for as long as the heartbeat stays silent. When the
heartbeat comes back it stands down. It never places an order.

It needs the API key and the signing key (the same variables as the daemon) and keeps its own
journal (watchdog.storePath), never the daemon's store. With firm.parties it watches the one
daemon and sweeps every party at once, each with its own API key and signing key and a journal
of its own (watchdog.storePath for the first party, the same path with ".<name>" before the
extension for the others). Its /metrics, /healthz, /readyz and
/status are on watchdog.metrics.host:watchdog.metrics.port (default 127.0.0.1:9466).

Options:
  -c, --config FILE  A config file layered over config/default.json. Repeatable.
  -h, --help         Show this help.

Signals: SIGTERM or SIGINT stops it (cancels already submitted are let confirm).
Exit codes: 0 stopped; 1 could not run (the metrics port is taken, say); 2 bad usage,
invalid configuration, no API key or no usable signing key (nothing was sent to the venue).
`;

/** Seams of {@link runWatchdog} (tests). */
export interface WatchdogSeams {
  readonly proc?: ProcessSeam;
  readonly clock?: Clock;
  readonly logDestination?: LogDestination;
  /** Told the watchdog and its server's address once running. */
  readonly onStarted?: (w: Watchdog, address: { host: string; port: number }) => void;
}

/** The command's body. */
export async function runWatchdog(argv: string[], io: CommandIo, seams: WatchdogSeams = {}): Promise<number> {
  const start = operatorStartup(NAME, argv, io, USAGE);
  if (!start.ok) return start.exitCode;
  const { config } = start.value;
  const refusal = configRefusal(config);
  if (refusal !== null) {
    io.stderr(`ledger-mm watchdog: ${refusal}. Nothing was sent to the venue.\n`);
    return EXIT.USAGE;
  }
  const parties = commandParties(NAME, config, io, USAGE, undefined, 'keys');
  if (!parties.ok) return parties.exitCode;
  const storeRefusal = partyStoreRefusal(config, parties.value);
  if (storeRefusal !== null) {
    io.stderr(`ledger-mm watchdog: ${storeRefusal}. Nothing was sent to the venue.\n`);
    return EXIT.USAGE;
  }
  const proc = seams.proc ?? process;
  const clock = seams.clock ?? systemClock;
  const wd = config.watchdog;
  const clients: VenueClient[] = [];
  const sweepers: PartySweeper[] = [];
  for (const [i, party] of parties.value.entries()) {
    const signing = operatorSigning(NAME, party.config, io);
    if (!signing.ok) {
      await Promise.all(clients.map((c) => c.close()));
      return signing.exitCode;
    }
    clients.push(signing.value.client);
    const sweeper = new CancelSweeper({
      venue: signing.value.client,
      signer: signing.value.signer,
      clock,
      storePath: watchdogStorePath(config, party, i),
      reason: wd.cancelReason,
      execution: config.execution,
      verification: verificationOf(config.signing),
      drainMs: config.venue.timeouts.submitMs + 10_000,
    });
    sweepers.push({ name: party.name ?? 'the party', sweeper });
  }
  const closeClients = (): Promise<unknown> => Promise.all(clients.map((c) => c.close()));
  const logger = createLogger({
    level: config.log.level,
    pretty: config.log.pretty,
    secrets: parties.value.map((p) => p.config.venue.apiKey),
    name: 'ledger-mm-watchdog',
    ...(seams.logDestination === undefined ? {} : { destination: seams.logDestination }),
  });
  // One party: its sweeper as always; a firm: every party's at once.
  const sweeper =
    parties.value.length === 1 && parties.value[0]!.name === null
      ? sweepers[0]!.sweeper
      : new FirmSweeper(sweepers);
  let watchdog: Watchdog | null = null;
  const metrics = createWatchdogMetrics({ heartbeatAgeSeconds: () => watchdog?.heartbeatAgeSeconds() ?? 0 });
  watchdog = new Watchdog({
    clock,
    probe: probeOf(config, clock),
    sweep: (signal, onCancelled) => sweeper.sweep(signal, onCancelled),
    deadAfterMs: wd.deadAfterMs,
    pollMs: wd.pollMs,
    sweepMs: wd.sweepMs,
    logger,
    metrics,
  });
  const w = watchdog;
  const server = new ObservabilityServer({
    host: wd.metrics.host,
    port: wd.metrics.port,
    metrics,
    readiness: () => ({ ready: true, reasons: [] }),
    status: () => w.status(),
    onError: (route, err) => logger.warn({ err, route }, `watchdog endpoint ${route} failed`),
  });
  let address: { host: string; port: number };
  try {
    address = await server.start();
  } catch (err) {
    logger.fatal({ err }, `ledger-mm watchdog cannot listen on ${wd.metrics.host}:${wd.metrics.port}`);
    await closeClients();
    metrics.close();
    proc.exit(EXIT.FAILED);
    return EXIT.FAILED;
  }
  logger.info(
    {
      source: wd.source,
      heartbeat: wd.source === 'http' ? wd.healthUrl : wd.heartbeatFile,
      deadAfterMs: wd.deadAfterMs,
      store: parties.value.map((p, i) => watchdogStorePath(config, p, i)),
      metrics: `http://${address.host}:${address.port}/metrics`,
    },
    `watchdog watching ${wd.source === 'http' ? wd.healthUrl : wd.heartbeatFile} (dead after ${wd.deadAfterMs} ms of silence)`,
  );
  w.start();
  seams.onStarted?.(w, address);
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      proc.off('SIGTERM', stop);
      proc.off('SIGINT', stop);
      resolve();
    };
    proc.on('SIGTERM', stop);
    proc.on('SIGINT', stop);
  });
  logger.info('watchdog stopping');
  await w.close();
  await server.close();
  await closeClients();
  metrics.close();
  logger.info('watchdog stopped');
  proc.exit(EXIT.OK);
  return EXIT.OK;
}

/** Configuration the watchdog refuses before any venue call, or null. */
export function configRefusal(config: MmConfig): string | null {
  const wd = config.watchdog;
  if (wd.storePath === config.store.path) {
    return `watchdog.storePath (${wd.storePath}) is the daemon's store.path: the watchdog keeps a journal of its own`;
  }
  if (wd.source === 'file' && wd.heartbeatFile === '') {
    return 'watchdog.source is "file" but watchdog.heartbeatFile is not set';
  }
  if (wd.probeTimeoutMs >= wd.deadAfterMs) {
    return `watchdog.probeTimeoutMs (${wd.probeTimeoutMs}) must be below watchdog.deadAfterMs (${wd.deadAfterMs})`;
  }
  return null;
}

/** The watchdog's journal for `party` (at `index` of the list): see the usage. */
function watchdogStorePath(config: MmConfig, party: CommandParty, index: number): string {
  const wd = config.watchdog.storePath;
  return party.name === null ? wd : partyStorePath(wd, { name: party.name }, index);
}

/** A watchdog journal of a party that is a daemon's journal of a party, or null. */
function partyStoreRefusal(config: MmConfig, parties: readonly CommandParty[]): string | null {
  const daemonStores = new Set(parties.map((p) => p.config.store.path));
  for (const [i, p] of parties.entries()) {
    const own = watchdogStorePath(config, p, i);
    if (daemonStores.has(own))
      return `the watchdog's journal ${own} of party ${p.name ?? '-'} is a daemon journal (store.path of a party): the watchdog keeps journals of its own`;
  }
  return null;
}

function probeOf(config: MmConfig, clock: Clock): HeartbeatProbe {
  const wd = config.watchdog;
  return wd.source === 'file'
    ? fileProbe(wd.heartbeatFile)
    : httpProbe(wd.healthUrl, wd.probeTimeoutMs, clock);
}

/** The `watchdog` subcommand. */
export const watchdogCommand: Command = {
  name: NAME,
  usage: USAGE,
  run: (argv, io) => runWatchdog(argv, io),
};
