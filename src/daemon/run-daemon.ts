/**
 * What `ledger-mm run` and `ledger-mm paper` share: load the signing key, build the logger and
 * the daemon, attach the observers (metrics), install the signal handlers, start, and wait for
 * the stop. The process ends through `proc.exit` with the stop's code, so nothing left on the
 * event loop can hold it past the shutdown bound.
 */
import type { Clock } from '../core/clock.js';
import { systemClock } from '../core/clock.js';
import { ConfigError, formatConfigError } from '../config/errors.js';
import type { LoadConfigOptions } from '../config/load.js';
import type { MmConfig } from '../config/schema.js';
import { createLogger, type LogDestination, type Logger } from '../logging/logger.js';
import { KeyFileError } from '../signing/key-file-error.js';
import { loadSigner } from '../signing/load-signer.js';
import type { Transport } from '../venue/transport.js';
import { Daemon } from './daemon.js';
import type { PartyIdentity } from './startup/party-identity.js';
import { loadParties, PartyKeyError } from './startup/party-keys.js';
import { terseInfo } from './reporting/daemon-log.js';
import type { DaemonOptions, DaemonTuning } from './daemon-types.js';
import { installSignalHandlers, type ProcessSeam } from './signals.js';

/**
 * Something that observes the daemon for its whole life: the metrics and health server. It may
 * hand hooks to the venue client (built with the daemon), and is attached before the daemon
 * starts and closed after it stops.
 */
export interface DaemonAttachment<T extends { close(): Promise<void> } = { close(): Promise<void> }> {
  readonly venueHooks?: DaemonOptions['venueHooks'];
  attach(daemon: Daemon, logger: Logger): Promise<T>;
}

/** Where the daemon writes its human output and reads its environment (a command's io is one). */
export interface DaemonIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** The working directory config paths are resolved against. */
  readonly cwd: string;
}

/** Options of {@link runDaemon}. */
export interface RunDaemonOptions {
  /** The command, for messages (`run`, `paper`). */
  readonly command: string;
  readonly config: MmConfig;
  /** How `config` was loaded: hot reloads read the same files and environment. */
  readonly load: LoadConfigOptions;
  readonly io: DaemonIo;
  readonly proc: ProcessSeam;
  readonly clock?: Clock;
  /** Default: undici to the configured URLs. */
  readonly transport?: Transport;
  readonly attachments?: readonly DaemonAttachment[];
  readonly tuning?: Partial<DaemonTuning>;
  /** Where log lines go (default stdout). */
  readonly logDestination?: LogDestination;
  /** Called with the daemon once built (tests, the paper banner). */
  readonly onDaemon?: (daemon: Daemon) => void;
}

const USAGE_EXIT = 2;

/** Runs the daemon until a signal stops it; resolves with the exit code passed to `proc.exit`. */
export async function runDaemon(o: RunDaemonOptions): Promise<number> {
  const { config, io } = o;
  const fail = (message: string): number => {
    io.stderr(`ledger-mm ${o.command}: ${message}\n`);
    return USAGE_EXIT;
  };
  if (config.pairs.length === 0) return fail('no pairs configured: set pairs or LEDGER_MM_PAIRS.');
  let parties: PartyIdentity[];
  try {
    parties = loadParties(config, o.load.cwd);
  } catch (err) {
    if (err instanceof PartyKeyError) return fail(`${err.message}. Nothing was sent.`);
    throw err;
  }
  let signer;
  if (parties.length > 0) {
    signer = parties[0]!.signer;
  } else {
    if (config.venue.apiKey === '') {
      return fail(
        'no API key configured: set LEDGER_MM_API_KEY or LEDGER_MM_API_KEY_FILE. Nothing was sent.',
      );
    }
    if (config.signing.keyFile === '') {
      return fail(
        'no signing key configured: set LEDGER_MM_SIGNING_KEY_FILE (`ledger-mm keygen` creates one).',
      );
    }
    try {
      signer = loadSigner({
        keyFile: config.signing.keyFile,
        publicKeyFormat: config.signing.publicKeyFormat,
        allowInsecureKeyFile: config.signing.allowInsecureKeyFile,
        hashLength: config.signing.hashLength,
      });
    } catch (err) {
      if (err instanceof KeyFileError) return fail(err.message);
      throw err;
    }
  }
  const base = createLogger({
    level: config.log.level,
    pretty: config.log.pretty,
    secrets: [config.venue.apiKey, ...parties.map((p) => p.apiKey)].filter((k) => k !== ''),
    name: 'ledger-mm',
    ...(o.logDestination === undefined ? {} : { destination: o.logDestination }),
  });
  const logger = config.log.pretty ? terseInfo(base) : base;
  const hooks = o.attachments?.find((a) => a.venueHooks !== undefined)?.venueHooks;
  let daemon: Daemon;
  try {
    daemon = new Daemon({
      config,
      clock: o.clock ?? systemClock,
      signer,
      logger,
      reload: { load: o.load },
      ...(parties.length === 0 ? {} : { parties }),
      ...(o.transport === undefined ? {} : { transport: o.transport }),
      ...(hooks === undefined ? {} : { venueHooks: hooks }),
      ...(o.tuning === undefined ? {} : { tuning: o.tuning }),
    });
  } catch (err) {
    if (err instanceof ConfigError) return fail(`invalid configuration:\n${formatConfigError(err)}`);
    throw err;
  }
  o.onDaemon?.(daemon);
  const attached: { close(): Promise<void> }[] = [];
  try {
    for (const a of o.attachments ?? []) attached.push(await a.attach(daemon, logger));
  } catch (err) {
    // An observer that cannot start (a taken metrics port) is the operator's to fix, not a bug:
    // one line naming it and what to do, no stack trace.
    const code = ((err as Error).cause as NodeJS.ErrnoException | undefined)?.code;
    const hint =
      code === 'EADDRINUSE'
        ? '; another process listens there: stop it, or set metrics.port (LEDGER_MM_METRICS_PORT)'
        : '';
    logger.fatal(
      { code },
      `ledger-mm ${o.command} cannot run: ${err instanceof Error ? err.message : String(err)}${hint}`,
    );
    for (const a of attached) await a.close().catch(() => undefined);
    await daemon.close({ cancelOrders: false });
    o.proc.exit(1);
    return 1;
  }

  const code = await new Promise<number>((resolve) => {
    const uninstall = installSignalHandlers(o.proc, daemon, logger, (c) => {
      uninstall();
      resolve(c);
    });
    daemon.start().then(
      (running) => {
        if (!running) logger.debug('stopped before quoting');
      },
      (err: unknown) => {
        logger.fatal({ err }, `ledger-mm ${o.command} cannot run`);
        void daemon.close().then(() => {
          uninstall();
          resolve(1);
        });
      },
    );
  });
  for (const a of attached)
    await a.close().catch((err: unknown) => logger.error({ err }, 'closing an observer failed'));
  o.proc.exit(code);
  return code;
}
