/**
 * `ledger-mm run`: the quoting daemon against the configured venue, until SIGTERM or SIGINT.
 */
import { loadConfigOrExit } from '../config/load.js';
import type { MmConfig } from '../config/schema.js';
import { observabilityAttachment } from '../daemon/reporting/observability-wiring.js';
import { runDaemon, type DaemonAttachment } from '../daemon/run-daemon.js';
import { watchdogAttributionAttachment } from '../daemon/reporting/watchdog-attribution.js';
import type { ProcessSeam } from '../daemon/signals.js';
import { type Command, type CommandIo } from './command.js';
import { parseOperatorArgs } from './support/operator-setup.js';

const USAGE = `Usage: ledger-mm run [--config FILE]...

Runs the quoting daemon against the configured venue: the onboarding preflight (retried every
30 s until it passes; nothing is placed before), recovery of the orders in the journal, the
market pollers, then the quote cycle (strategy, reconciler, risk gate) on every book update.

Signals:
  SIGTERM, SIGINT  Stop placing, let an in-flight submission finish, cancel every order
                   (shutdown.cancelOrders), exit 0 within shutdown.graceMs (default 150 s).
                   A second signal exits at once; the journal stays consistent.
  SIGHUP           Reload the strategy and risk sections of the config files (also done when
                   a config file changes). An invalid file is refused and the old params stay.

Options:
  -c, --config FILE  A config file layered over config/default.json. Repeatable; later files
                     win, then the files in LEDGER_MM_CONFIG, then LEDGER_MM_* variables.
  -h, --help         Show this help.

Exit codes: 0 stopped cleanly; 1 the stop hit its bound, or the daemon could not run; 2 bad
usage or configuration (nothing was sent to the venue); 130/143 a second SIGINT/SIGTERM.
`;

/** Seams of {@link runCommand} (tests); the real command uses the process and the metrics server. */
export interface RunSeams {
  readonly proc?: ProcessSeam;
  readonly attachments?: readonly DaemonAttachment[];
}

/** The command's body. */
export async function runCommand(argv: string[], io: CommandIo, seams: RunSeams = {}): Promise<number> {
  const args = parseOperatorArgs('run', argv, io, USAGE);
  if (!args.ok) return args.exitCode;
  const load = { configFiles: args.value.config ?? [], env: io.env, cwd: io.cwd };
  const loaded = loadConfigOrExit(load, io);
  if (!loaded.ok) return loaded.exitCode;
  return runDaemon({
    command: 'run',
    config: loaded.config,
    load,
    io,
    proc: seams.proc ?? process,
    attachments: seams.attachments ?? defaultAttachments(loaded.config),
  });
}

/** The metrics server, and the watchdog attribution when `watchdog.statusUrl` is set. */
function defaultAttachments(config: MmConfig): DaemonAttachment[] {
  const observability = observabilityAttachment({ config });
  const attribution = watchdogAttributionAttachment({
    url: config.watchdog.statusUrl,
    registry: observability.metrics.registry,
  });
  return attribution === null ? [observability] : [observability, attribution];
}

/** The `run` command. */
export const runDaemonCommand: Command = {
  name: 'run',
  usage: USAGE,
  run: (argv, io) => runCommand(argv, io),
};
